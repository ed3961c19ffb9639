package reuse

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/passage"
)

var web = []string{"cc"}

// swap returns l with its documents swapped, as passage.Find writes a pair
// whose article has the smaller document id.
func swap(l passage.Line) passage.Line {
	l.A, l.B = l.B, l.A
	l.Matches = slices.Clone(l.Matches)
	for i, m := range l.Matches {
		l.Matches[i] = passage.Match{A: m.B, B: m.A, Jaccard: m.Jaccard, TextA: m.TextB, TextB: m.TextA}
	}
	return l
}

func swapPair(p passage.DocPair) passage.DocPair {
	p.A, p.B, p.TitleA, p.TitleB, p.ShareA, p.ShareB = p.B, p.A, p.TitleB, p.TitleA, p.ShareB, p.ShareA
	return p
}

// TestExamples classifies the hand-made examples, with the web page as
// either document of the line.
func TestExamples(t *testing.T) {
	for _, e := range examples {
		t.Run(e.name, func(t *testing.T) {
			c, err := NewCase([]passage.Line{e.line()}, e.pair(), web)
			if err != nil {
				t.Fatal(err)
			}
			if c.Kind != e.kind || c.Evidence.Rule != e.rule {
				t.Errorf("got %s by %s, want %s by %s; evidence %+v", c.Kind, c.Evidence.Rule, e.kind, e.rule, c.Evidence)
			}
			s, err := NewCase([]passage.Line{swap(e.line())}, swapPair(e.pair()), web)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := mustJSON(t, s), mustJSON(t, c); got != want {
				t.Errorf("swapped sides give\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEvidence checks every feature of two examples.
func TestEvidence(t *testing.T) {
	for _, tc := range []struct {
		example int
		want    string
	}{
		{0, `{"ngram2":0.3191,"ngram5":0.0962,"ngram10":0,"entities":0.4,` +
			`"only_web":["Woda","Pisz","Warmian-Masurian","Olsztyn"],"only_article":["Zgierz","Łódź"],` +
			`"subject":"Niedźwiedzie","subject_missing":true,"rule":"subject"}`},
		{7, `{"ngram2":0.5652,"ngram5":0.25,"ngram10":0.0526,"entities":0.4286,` +
			`"only_web":["312","Ожидівська"],"only_article":["245","Білокамінська"],` +
			`"subject":"Підлісся","subject_missing":true,"rule":"subject"}`},
	} {
		e := examples[tc.example]
		c, err := NewCase([]passage.Line{e.line()}, e.pair(), web)
		if err != nil {
			t.Fatal(err)
		}
		if got := mustJSON(t, c.Evidence); got != tc.want {
			t.Errorf("%s: evidence\n%s\nwant\n%s", e.name, got, tc.want)
		}
	}
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    Features
		kind Kind
		rule Rule
	}{
		{"subject named on the article's side only", Features{NGram2: 1, NGram5: 1, NGram10: 1, Entities: 1, SubjectMissing: true}, Structure, RuleSubject},
		{"H1: a copy", Features{NGram2: 0.9, NGram5: 0.8, NGram10: 0.7, Entities: 0.8, SharePage: 0.2, ShareArticle: 0.9}, Content, RuleH1},
		{"H1 needs ne_sim above 0.5", Features{NGram2: 0.9, NGram5: 0.8, NGram10: 0.7, Entities: 0.5, SharePage: 0.2}, Content, RuleWeb10},
		{"H1 needs 10-grams above 0.5", Features{NGram2: 0.9, NGram5: 0.8, NGram10: 0.5, Entities: 0.8, SharePage: 0.2}, Content, RuleWeb10},
		{"H1 not when most of both are reused", Features{NGram2: 1, NGram5: 1, NGram10: 1, Entities: 1, SharePage: 0.5, ShareArticle: 0.5}, Content, RuleWeb10},
		{"H2: a template", Features{NGram2: 0.6, NGram5: 0.3, NGram10: 0, Entities: 0.9}, Structure, RuleH2},
		{"H2 needs 2-grams above 0.5", Features{NGram2: 0.5, NGram5: 0.3, NGram10: 0.2, Entities: 0.9}, Content, RuleWeb10},
		{"H2 needs an entity to differ", Features{NGram2: 0.7, NGram5: 0.3, NGram10: 0.3, Entities: 1}, Content, RuleWeb10},
		{"H2 needs 5-grams below 0.5", Features{NGram2: 0.9, NGram5: 0.5, NGram10: 0.3, Entities: 0.9}, Content, RuleWeb10},
		{"entities differ", Features{NGram2: 0.4, NGram5: 0.3, NGram10: 0.3, Entities: 0.2}, Structure, RuleEntities},
		{"entities differ in a copy", Features{NGram2: 0.9, NGram5: 0.8, NGram10: 0.7, Entities: 0.2}, Content, RuleWeb10},
		{"web rule: 10-grams above 0.1", Features{NGram2: 0.4, NGram5: 0.3, NGram10: 0.11, Entities: 0.6}, Content, RuleWeb10},
		{"web rule: 10-grams at most 0.1", Features{NGram2: 0.4, NGram5: 0.3, NGram10: 0.1, Entities: 0.6}, Structure, RuleWeb10},
	} {
		if kind, rule := Classify(tc.f); kind != tc.kind || rule != tc.rule {
			t.Errorf("%s: got %s by %s, want %s by %s", tc.name, kind, rule, tc.kind, tc.rule)
		}
	}
}

func TestEntities(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"The village lies in Gmina Pisz, in northern Poland.", "Gmina Pisz Poland"},
		{"In 2000 it had 712 inhabitants. Most work in Bern.", "2000 712 Bern"},
		{"Золочів — місто у Львівській області України.", "Львівській України"},
		{"Το Ναύπλιο είναι πόλη της Πελοποννήσου.", "Ναύπλιο Πελοποννήσου"},
		{"Ναύπλιο: πόλη. Ήταν πρωτεύουσα από το 1823.", "1823"},
		{"北京是中国的首都，2008年举办了夏季奥运会。", "2008"},
	} {
		s := newSide()
		s.addPassage([]string{tc.text})
		if got := strings.Join(s.order, " "); got != tc.want {
			t.Errorf("entities of %q: got %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestNgrams(t *testing.T) {
	texts := func(texts ...string) *side {
		s := newSide()
		s.addPassage(texts)
		return s
	}
	for _, tc := range []struct {
		name     string
		a, b     *side
		n2, n10  float64
		entities float64
	}{
		{"short identical texts are one n-gram", texts("Short text here."), texts("short text, here"), 1, 1, 1},
		{"short different texts", texts("Short text here."), texts("Short text there."), 1.0 / 3, 0, 1},
		{"n-grams run across a passage's sentences", texts("One two three four five.", "Six seven eight nine ten."), texts("One two three four five six seven eight nine ten"), 1, 1, 1},
		{"no text", texts(), texts(), 1, 1, 1},
	} {
		n2, n10 := jaccard(tc.a.ngrams[0], tc.b.ngrams[0]), jaccard(tc.a.ngrams[2], tc.b.ngrams[2])
		if round(n2) != round(tc.n2) || n10 != tc.n10 || jaccard(tc.a.entities, tc.b.entities) != tc.entities {
			t.Errorf("%s: 2-grams %v, 10-grams %v; want %v, %v", tc.name, n2, n10, tc.n2, tc.n10)
		}
	}
}

func TestSubject(t *testing.T) {
	for title, want := range map[string]string{
		"Jaworzno, Opole Voivodeship":   "Jaworzno",
		"Підлісся (Золочівський район)": "Підлісся",
		"Mercury (planet)":              "Mercury",
		"2010 FIFA World Cup":           "2010 FIFA World Cup",
		"":                              "",
	} {
		if got := Subject(title); got != want {
			t.Errorf("Subject(%q) = %q, want %q", title, got, want)
		}
	}
}

func TestHost(t *testing.T) {
	for url, want := range map[string]string{
		"https://www.Example.org/a/b?c=d":      "example.org",
		"http://example.org:8080/x":            "example.org",
		"example.org/path":                     "example.org",
		"www.example.org":                      "example.org",
		"//cdn.example.org/x":                  "cdn.example.org",
		"http://WWW.xn--bcher-kva.example/":    "bücher.example",
		"http://Bücher.Example./":              "bücher.example",
		"https://www.пример.рф/страница":       "пример.рф",
		"http://192.168.0.1:80/":               "192.168.0.1",
		"http://[2001:db8::1]:8080/":           "2001:db8::1",
		"https://en.wikipedia.org/wiki/Zürich": "en.wikipedia.org",
		"http://www2.example.org/":             "www2.example.org",
		"http://%zz/":                          "",
	} {
		if got := Host(url); got != want {
			t.Errorf("Host(%q) = %q, want %q", url, got, want)
		}
	}
}

func TestNewCaseErrors(t *testing.T) {
	e := examples[0]
	bothWeb := e.line()
	bothWeb.B.Wiki = "cc"
	other := e.line()
	other.B.ID = "enwiki:8:80"
	noText := e.line()
	noText.Matches = nil
	for _, tc := range []struct {
		name  string
		lines []passage.Line
		pair  passage.DocPair
	}{
		{"no lines", nil, e.pair()},
		{"two web pages", []passage.Line{bothWeb}, e.pair()},
		{"another pair's document pair", []passage.Line{e.line()}, passage.DocPair{A: "cc:100:0", B: "enwiki:9:90"}},
		{"lines of two pairs", []passage.Line{e.line(), other}, e.pair()},
		{"a passage without texts", []passage.Line{noText}, e.pair()},
	} {
		if _, err := NewCase(tc.lines, tc.pair, web); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestCaseJSON checks a whole line of reuse-*.jsonl: two passages, given
// out of order, the second with the web page as B.
func TestCaseJSON(t *testing.T) {
	first := passage.Line{
		A:       passage.Document{ID: "cc:100:0", Wiki: "cc", PageID: 100, Doc: "<urn:uuid:1>", URL: "https://www.example.org/p", Title: "Page", First: 9, Last: 9, Sentences: 1},
		B:       passage.Document{ID: "enwiki:7:70", Wiki: "enwiki", PageID: 7, RevID: 70, Title: "Gondiswil", First: 4, Last: 4, Sentences: 1},
		Matched: 1, MeanJaccard: 1,
		Matches: []passage.Match{{A: 9, B: 4, Jaccard: 1, TextA: "It lies in Bern.", TextB: "It lies in Bern."}},
	}
	second := swap(passage.Line{
		A:       passage.Document{ID: "cc:100:0", Wiki: "cc", PageID: 100, Doc: "<urn:uuid:1>", URL: "https://www.example.org/p", Title: "Page", First: 2, Last: 2, Sentences: 1},
		B:       passage.Document{ID: "enwiki:7:70", Wiki: "enwiki", PageID: 7, RevID: 70, Title: "Gondiswil", First: 0, Last: 0, Sentences: 1},
		Matched: 1, MeanJaccard: 0.8,
		Matches: []passage.Match{{A: 2, B: 0, Jaccard: 0.8, TextA: "Gondiswil is a village.", TextB: "Gondiswil is a municipality."}},
	})
	pair := passage.DocPair{A: "enwiki:7:70", B: "cc:100:0", Passages: 2, Matched: 2, ShareA: 0.2, ShareB: 0.1}
	c, err := NewCase([]passage.Line{first, second}, pair, web)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"url":"https://www.example.org/p","host":"example.org",` +
		`"web":{"id":"cc:100:0","corpus":"cc","page_id":100,"doc":"\u003curn:uuid:1\u003e","title":"Page"},` +
		`"article":{"id":"enwiki:7:70","wiki":"enwiki","page_id":7,"rev_id":70,"title":"Gondiswil"},` +
		`"kind":"content","share_of_page":0.1,"share_of_article":0.2,` +
		`"evidence":{"ngram2":0.7143,"ngram5":0.3333,"ngram10":0.3333,"entities":1,"only_web":[],"only_article":[],"subject":"Gondiswil","subject_missing":false,"rule":"web10"},` +
		`"passages":[` +
		`{"web":{"first":2,"last":2,"sentences":1},"article":{"first":0,"last":0,"sentences":1},"matched":1,"mean_jaccard":0.8,` +
		`"matches":[{"web":2,"article":0,"jaccard":0.8,"web_text":"Gondiswil is a village.","article_text":"Gondiswil is a municipality."}]},` +
		`{"web":{"first":9,"last":9,"sentences":1},"article":{"first":4,"last":4,"sentences":1},"matched":1,"mean_jaccard":1,` +
		`"matches":[{"web":9,"article":4,"jaccard":1,"web_text":"It lies in Bern.","article_text":"It lies in Bern."}]}]}`
	if got := mustJSON(t, c); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// BenchmarkClassify computes the features of every example and classifies
// it: the stage's work per case, besides JSON.
func BenchmarkClassify(b *testing.B) {
	var ps [][]Passage
	for _, e := range examples {
		c, err := NewCase([]passage.Line{e.line()}, e.pair(), web)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, c.Passages)
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, p := range ps {
			ev := evidence(p, examples[i].title)
			Classify(ev.features(0.5, 0.5))
		}
	}
}
