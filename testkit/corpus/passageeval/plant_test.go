package passageeval

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/tokenspan"
	"github.com/neardup/neardup/testkit/corpus"
)

func TestSpanMatches(t *testing.T) {
	tests := []struct {
		s, t Span
		n    int
		want bool
	}{
		{Span{3, 8}, Span{3, 8}, 6, true},
		{Span{3, 8}, Span{5, 8}, 4, true},  // 4 of 6
		{Span{3, 8}, Span{6, 8}, 3, true},  // 3 of 6: exactly half
		{Span{3, 8}, Span{7, 9}, 2, false}, // 2 of 6
		{Span{3, 9}, Span{6, 9}, 4, true},  // 4 of 7
		{Span{3, 9}, Span{7, 12}, 3, false},
		{Span{0, 3}, Span{0, 9}, 4, false}, // 4 of 10: a passage far longer than the plant
		{Span{0, 3}, Span{4, 7}, 0, false}, // adjacent
		{Span{5, 5}, Span{5, 5}, 1, true},
		{Span{5, 4}, Span{5, 4}, 0, false}, // empty
	}
	for _, tt := range tests {
		if n := tt.s.Intersect(tt.t); n != tt.n {
			t.Errorf("%v ∩ %v = %d, want %d", tt.s, tt.t, n, tt.n)
		}
		if got := tt.s.Matches(tt.t); got != tt.want {
			t.Errorf("%v.Matches(%v) = %v, want %v", tt.s, tt.t, got, tt.want)
		}
		if got := tt.t.Matches(tt.s); got != tt.want {
			t.Errorf("%v.Matches(%v) = %v, want %v (not symmetric)", tt.t, tt.s, got, tt.want)
		}
	}
}

func TestBoundariesAndInsert(t *testing.T) {
	tests := []struct {
		text string
		want []int
	}{
		{"", []int{0}},
		{"one line", []int{8}},
		{"a\nb", []int{3}},
		{"a\n\nb", []int{3, 4}},
		{"a\n\n\n\nb\n\nc\n", []int{5, 8, 10}},
		{"a\n\n", []int{3}}, // a blank line at the end is the end
	}
	for _, tt := range tests {
		if got := Boundaries(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Boundaries(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
	got := Insert("Intro.\n\n== H ==\nBody.", 8, []string{"One.", "Two."})
	if want := "Intro.\n\n\n\nOne. Two.\n\n== H ==\nBody."; got != want {
		t.Errorf("Insert = %q, want %q", got, want)
	}
}

// sentences makes prose sentences of one paragraph from texts.
func sentences(texts ...string) []corpus.Sentence {
	out := make([]corpus.Sentence, len(texts))
	for i, s := range texts {
		out[i] = corpus.Sentence{Text: s, Prose: true}
	}
	return out
}

func TestInserted(t *testing.T) {
	orig := sentences("a", "b", "c")
	tests := []struct {
		name    string
		got     []corpus.Sentence
		planted []string
		want    int
	}{
		{"middle", sentences("a", "X", "Y", "b", "c"), []string{"X", "Y"}, 1},
		{"start", sentences("X", "Y", "a", "b", "c"), []string{"X", "Y"}, 0},
		{"end", sentences("a", "b", "c", "X", "Y"), []string{"X", "Y"}, 3},
		{"copy of a neighbour", sentences("a", "b", "b", "c"), []string{"b"}, 1},
		{"split differently", sentences("a", "X", "Y", "Z", "b", "c"), []string{"X", "Y Z"}, -1},
		{"lost", sentences("a", "b", "c"), []string{"X"}, -1},
		{"page changed", sentences("a", "X", "Y", "c", "c"), []string{"X", "Y"}, -1},
		{"not prose", append(sentences("a"), corpus.Sentence{Text: "X"}, corpus.Sentence{Text: "Y"}, corpus.Sentence{Text: "b", Prose: true}, corpus.Sentence{Text: "c", Prose: true}), []string{"X", "Y"}, -1},
	}
	for _, tt := range tests {
		if got := Inserted(orig, tt.got, tt.planted); got != tt.want {
			t.Errorf("%s: Inserted = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestReorder(t *testing.T) {
	tests := []struct{ in, want string }{
		{"In 1990, the town grew.", "The town grew, in 1990."},
		{"NASA said, the launch failed!", "The launch failed, NASA said!"},
		{"No comma here.", "No comma here."},
		{"Trailing comma, .", "Trailing comma, ."},
		{"Σε αυτό, η πόλη μεγάλωσε\u037e", "Η πόλη μεγάλωσε, σε αυτό\u037e"}, // the Greek question mark,
	}
	for _, tt := range tests {
		if got := reorder(tt.in); got != tt.want {
			t.Errorf("reorder(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWordsAndNumbers(t *testing.T) {
	text := "In 1990, Ελλάδα's 2 towns grew."
	var ws, ns []string
	for _, w := range tokenspan.Words(text) {
		ws = append(ws, text[w.Start:w.End])
	}
	for _, n := range tokenspan.Numbers(text) {
		ns = append(ns, text[n.Start:n.End])
	}
	if want := []string{"In", "Ελλάδα", "s", "towns", "grew"}; !slices.Equal(ws, want) {
		t.Errorf("words = %q, want %q", ws, want)
	}
	if want := []string{"1990", "2"}; !slices.Equal(ns, want) {
		t.Errorf("numbers = %q, want %q", ns, want)
	}
}

// wordDiff is how many words of a are not at the same place in b, and how
// many words the two have.
func wordDiff(a, b string) int {
	x, y := strings.Fields(a), strings.Fields(b)
	n := 0
	for i := range max(len(x), len(y)) {
		if i >= len(x) || i >= len(y) || x[i] != y[i] {
			n++
		}
	}
	return n
}

func TestReword(t *testing.T) {
	e := editor{rng: rand.New(rand.NewPCG(1, 2)), vocab: []string{"harbour", "meadow", "tower"}, lang: "en"}
	sentence := "The large city was built in 1850 and became a major port of the region."
	seen := map[string]bool{}
	for range 200 {
		got, ok := e.reword(sentence)
		if !ok || got == sentence {
			t.Fatalf("reword(%q) = %q, %v", sentence, got, ok)
		}
		if !strings.HasPrefix(got, "The ") || !strings.HasSuffix(got, ".") {
			t.Errorf("reword changed the sentence's first word or end: %q", got)
		}
		// A dropped word shifts the words after it: compare word sets.
		if n := len(strings.Fields(sentence)) - len(strings.Fields(got)); n < 0 || n > 2 {
			t.Errorf("reword(%q) = %q: %d words fewer", sentence, got, n)
		}
		if n := len(strings.Fields(sentence)) - len(strings.Fields(got)); n == 0 && wordDiff(sentence, got) > 2 {
			t.Errorf("reword(%q) = %q: more than two words changed", sentence, got)
		}
		seen[got] = true
	}
	if len(seen) < 50 {
		t.Errorf("200 rewordings gave %d sentences; want variety", len(seen))
	}
	if got, ok := e.reword("Alone."); ok {
		t.Errorf("reword of a one-word sentence = %q, true", got)
	}
	// Another language: numbers and words of its corpus, no English
	// synonyms.
	el := editor{rng: rand.New(rand.NewPCG(1, 2)), vocab: []string{"θάλασσα"}, lang: "el"}
	for range 20 {
		got, _ := el.reword("Η large πόλη.")
		if strings.Contains(got, "big") {
			t.Errorf("an English synonym in a Greek sentence: %q", got)
		}
	}
}

func TestNumber(t *testing.T) {
	e := editor{rng: rand.New(rand.NewPCG(3, 4))}
	for _, d := range []string{"0", "7", "10", "1850", "99"} {
		for range 50 {
			got := e.number(d)
			if got == d || len(got) != len(d) || (len(got) > 1 && got[0] == '0') {
				t.Fatalf("number(%q) = %q", d, got)
			}
		}
	}
}

func TestParaphrase(t *testing.T) {
	e := editor{rng: rand.New(rand.NewPCG(5, 6)), vocab: []string{"harbour", "meadow", "tower"}, lang: "en"}
	in := "In 1850, the small town near the river became a busy harbour for ships from the north."
	got := e.paraphrase(in)
	if !strings.HasPrefix(got, "The ") || !strings.HasSuffix(got, "in 1850.") {
		t.Errorf("paraphrase(%q) = %q: clauses not reordered", in, got)
	}
	// Half of the long words (12 of them, the first not counted) replaced.
	if n := wordDiff(reorder(in), got); n < 5 {
		t.Errorf("paraphrase(%q) = %q: %d words changed, want half of the long ones", in, got, n)
	}
}

func TestEvaluate(t *testing.T) {
	plants := []Plant{
		{Kind: Exact, Source: "w:1:1", Target: "w:2:2", SourceSpan: Span{10, 14}, TargetSpan: Span{3, 7}},
		{Kind: Exact, Source: "w:3:3", Target: "w:4:4", SourceSpan: Span{0, 5}, TargetSpan: Span{20, 25}},
		{Kind: Dropped, Source: "w:5:5", Target: "w:6:6", SourceSpan: Span{0, 5}, TargetSpan: Span{0, 4}},
		{Kind: Heavy, Source: "w:7:7", Target: "w:8:8", SourceSpan: Span{0, 7}, TargetSpan: Span{0, 3}},
	}
	found := []Found{
		// Plant 0, found with its documents the other way round.
		{A: "w:2:2", B: "w:1:1", SpanA: Span{3, 7}, SpanB: Span{10, 14}, Matched: 5},
		// Plant 1: split in two; the first half hits, the second is extra.
		{A: "w:3:3", B: "w:4:4", SpanA: Span{0, 2}, SpanB: Span{20, 22}, Matched: 3},
		{A: "w:3:3", B: "w:4:4", SpanA: Span{3, 5}, SpanB: Span{23, 25}, Matched: 3},
		// Plant 2: right in the target, wrong in the source.
		{A: "w:5:5", B: "w:6:6", SpanA: Span{30, 34}, SpanB: Span{0, 4}, Matched: 5},
		// Natural and unplanted pairs.
		{A: "w:1:1", B: "w:9:9", SpanA: Span{0, 3}, SpanB: Span{0, 3}, Matched: 4},
		{A: "w:2:2", B: "w:3:3", SpanA: Span{0, 3}, SpanB: Span{0, 3}, Matched: 4},
	}
	natural := map[Pair]bool{PairOf("w:9:9", "w:1:1"): true}
	r, err := Evaluate(plants, found, natural)
	if err != nil {
		t.Fatal(err)
	}
	want := [len(Kinds)]Score{
		Exact:   {Planted: 2, Found: 3, Hits: 2},
		Dropped: {Planted: 1, Found: 1, Hits: 0},
		Heavy:   {Planted: 1},
	}
	if r.Kinds != want {
		t.Errorf("scores = %+v, want %+v", r.Kinds, want)
	}
	if r.Natural != 1 || len(r.Unplanted) != 1 || len(r.Extra) != 2 || len(r.Missed) != 2 {
		t.Errorf("natural %d, unplanted %d, extra %d, missed %d; want 1, 1, 2, 2", r.Natural, len(r.Unplanted), len(r.Extra), len(r.Missed))
	}
	if got, want := r.All(), (Score{Planted: 4, Found: 5, Hits: 2}); got != want {
		t.Errorf("All = %+v, want %+v", got, want)
	}
	if got, want := r.Light(), (Score{Planted: 3, Found: 4, Hits: 2}); got != want {
		t.Errorf("Light = %+v, want %+v", got, want)
	}
	if s := r.Kinds[Exact]; fmt.Sprintf("%.3f %.3f %.3f", s.Precision(), s.Recall(), s.F1()) != "0.667 1.000 0.800" {
		t.Errorf("exact: precision %.3f recall %.3f F1 %.3f", s.Precision(), s.Recall(), s.F1())
	}
	if s := r.Kinds[Heavy]; s.Precision() != 1 || s.Recall() != 0 || s.F1() != 0 {
		t.Errorf("heavy, none found: precision %v recall %v F1 %v; want 1, 0, 0", s.Precision(), s.Recall(), s.F1())
	}
	if !strings.Contains(r.Table(), "| exact | 2 | 3 | 2 | 0.667 | 1.000 | 0.800 |") {
		t.Errorf("table:\n%s", r.Table())
	}

	if _, err := Evaluate(append(plants, Plant{Source: "w:2:2", Target: "w:1:1"}), nil, nil); err == nil {
		t.Error("two plants on one pair: no error")
	}
	if _, err := Evaluate(plants, nil, map[Pair]bool{PairOf("w:1:1", "w:2:2"): true}); err == nil {
		t.Error("a plant on a natural pair: no error")
	}
}

// splitText is a SplitFunc for the test corpus: paragraphs are separated
// by blank lines, a paragraph starting with '*' is a list item, and a
// sentence ends with ". " before a capital letter.
func splitText(_, text string) ([]corpus.Sentence, error) {
	var out []corpus.Sentence
	for i, para := range strings.Split(text, "\n\n") {
		para = strings.TrimSpace(para)
		if para == "" {
			continue
		}
		prose := !strings.HasPrefix(para, "*")
		for len(para) > 0 {
			end := len(para)
			for j := 0; j+2 < len(para); j++ {
				if para[j] == '.' && para[j+1] == ' ' && 'A' <= para[j+2] && para[j+2] <= 'Z' {
					end = j + 1
					break
				}
			}
			out = append(out, corpus.Sentence{Text: para[:end], Para: i, Prose: prose})
			para = strings.TrimSpace(para[end:])
		}
	}
	return out, nil
}

// randomPages makes n pages of paragraphs of long sentences of random words,
// with a list item and a short sentence here and there, and their
// sentences as splitText splits them.
func randomPages(t *testing.T, n int) []Page {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 8))
	vocab := strings.Fields("river town harbour meadow tower castle bridge market church school railway station mountain valley forest island village county border treaty")
	var pages []Page
	for p := range n {
		var paras []string
		for range 3 + rng.IntN(3) {
			var ss []string
			for range 2 + rng.IntN(8) {
				var ws []string
				for range 16 + rng.IntN(10) {
					ws = append(ws, vocab[rng.IntN(len(vocab))])
				}
				if rng.IntN(10) == 0 {
					ws = ws[:3] // too short to sign
				}
				s := strings.Join(ws, " ") + " " + fmt.Sprint(1800+rng.IntN(200)) + "."
				ss = append(ss, strings.ToUpper(s[:1])+s[1:])
			}
			paras = append(paras, strings.Join(ss, " "))
			if rng.IntN(3) == 0 {
				paras = append(paras, "* A list item about the "+vocab[rng.IntN(len(vocab))]+".")
			}
		}
		text := strings.Join(paras, "\n\n")
		ss, _ := splitText("", text)
		pages = append(pages, Page{Doc: fmt.Sprintf("w:%d:%d", p+1, 100+p), Title: fmt.Sprint("Page ", p), Lang: "en", Text: text, Sentences: ss})
	}
	return pages
}

func TestPlan(t *testing.T) {
	pages := randomPages(t, 80)
	shared := map[string]map[int]bool{pages[0].Doc: {0: true, 1: true, 2: true, 3: true, 4: true, 5: true}}
	related := map[Pair]bool{PairOf(pages[1].Doc, pages[2].Doc): true}
	plan := func() Planting {
		p := Planner{Config: DefaultConfig(), Rand: rand.New(rand.NewPCG(1, 1)), Split: splitText, Shared: shared, Related: related}
		out, err := p.Plan(pages, 8)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := plan()
	if again := plan(); !reflect.DeepEqual(out, again) {
		t.Error("two plans with one seed differ")
	}
	if len(out.Short) != 0 || len(out.Plants) != 8*len(Kinds) {
		t.Fatalf("%d plants, short %v; want %d", len(out.Plants), out.Short, 8*len(Kinds))
	}
	byDoc := map[string]Page{}
	for _, pg := range pages {
		byDoc[pg.Doc] = pg
	}
	// sentencesAt returns the texts of a span of a page as planted.
	sentencesAt := func(doc string, s Span) []string {
		text, ok := out.Texts[doc]
		if !ok {
			text = byDoc[doc].Text
		}
		ss, _ := splitText(doc, text)
		var texts []string
		for _, x := range ss[s.First : s.Last+1] {
			texts = append(texts, x.Text)
		}
		return texts
	}
	targets, pairs, copied := map[string]bool{}, map[Pair]bool{}, map[string]bool{}
	for _, p := range out.Plants {
		if targets[p.Target] {
			t.Errorf("%s planted into twice", p.Target)
		}
		targets[p.Target] = true
		pair := PairOf(p.Source, p.Target)
		if pairs[pair] || related[pair] || p.Source == p.Target {
			t.Errorf("plant on pair %v: used before, related or one page", pair)
		}
		pairs[pair] = true
		if n := len(p.Copied); n < 4 || n > 8 || p.SourceSpan.Len() != n || p.TargetSpan.Len() != len(p.Planted) {
			t.Errorf("%s: %d sentences copied, spans %v and %v, %d planted", p.Kind, n, p.SourceSpan, p.TargetSpan, len(p.Planted))
			continue
		}
		if got := sentencesAt(p.Source, p.SourceSpan); !slices.Equal(got, p.Copied) {
			t.Errorf("%s: source %s %v holds %q, want the copied %q", p.Kind, p.Source, p.SourceSpan, got, p.Copied)
		}
		if got := sentencesAt(p.Target, p.TargetSpan); !slices.Equal(got, p.Planted) {
			t.Errorf("%s: target %s %v holds %q, want the planted %q", p.Kind, p.Target, p.TargetSpan, got, p.Planted)
		}
		for _, s := range p.Copied {
			if copied[s] {
				t.Errorf("sentence copied twice: %q", s)
			}
			copied[s] = true
		}
		checkKind(t, p)
	}
	for _, s := range pages[0].Sentences[:6] {
		if copied[s.Text] {
			t.Errorf("a shared sentence copied: %q", s.Text)
		}
	}
}

// checkKind checks that the planted sentences are the copied ones edited
// as p's kind says.
func checkKind(t *testing.T, p Plant) {
	t.Helper()
	n := len(p.Copied)
	switch p.Kind {
	case Exact:
		if !slices.Equal(p.Planted, p.Copied) {
			t.Errorf("exact copy differs: %q, %q", p.Planted, p.Copied)
		}
	case Reworded:
		for i, s := range p.Planted {
			if s == p.Copied[i] || wordDiff(s, p.Copied[i]) > 2+len(strings.Fields(p.Copied[i]))-len(strings.Fields(s)) && len(strings.Fields(s)) == len(strings.Fields(p.Copied[i])) {
				t.Errorf("reworded %q from %q", s, p.Copied[i])
			}
		}
	case Dropped:
		i := slices.IndexFunc(p.Copied, func(s string) bool { return !slices.Contains(p.Planted, s) })
		if len(p.Planted) != n-1 || i <= 0 || i == n-1 || !slices.Equal(slices.Delete(slices.Clone(p.Copied), i, i+1), p.Planted) {
			t.Errorf("dropped: %q from %q", p.Planted, p.Copied)
		}
	case Added:
		i := slices.IndexFunc(p.Planted, func(s string) bool { return !slices.Contains(p.Copied, s) })
		if len(p.Planted) != n+1 || i <= 0 || i == n || !slices.Equal(slices.Delete(slices.Clone(p.Planted), i, i+1), p.Copied) {
			t.Errorf("added: %q from %q", p.Planted, p.Copied)
		}
	case Heavy:
		if len(p.Planted) != (n+1)/2 {
			t.Errorf("heavy: %d sentences from %d", len(p.Planted), n)
		}
	}
}

func TestPlanShort(t *testing.T) {
	pages := randomPages(t, 6)
	p := Planner{Config: DefaultConfig(), Rand: rand.New(rand.NewPCG(1, 1)), Split: splitText}
	out, err := p.Plan(pages, 5)
	if err != nil {
		t.Fatal(err)
	}
	short := 0
	for _, n := range out.Short {
		short += n
	}
	if len(out.Plants)+short != 5*len(Kinds) || len(out.Plants) > len(pages) {
		t.Errorf("%d plants and %d short among %d pages; want one target each", len(out.Plants), short, len(pages))
	}
	if _, err := (&Planner{Config: Config{MinSentences: 2, MaxSentences: 4}}).Plan(pages, 1); err == nil {
		t.Error("paragraphs of 2 sentences: no error")
	}
}

func TestWordOfTheVocabulary(t *testing.T) {
	e := editor{rng: rand.New(rand.NewPCG(9, 9)), vocab: []string{"abhidharmakośabhāṣya", "harbour", "meadow", "river", "κλέος", "θάλασσα", "місто", "tower"}}
	for _, not := range []string{"castle", "πόλη", "село"} {
		for range 50 {
			got := e.word(not)
			n, m := utf8.RuneCountInString(not), utf8.RuneCountInString(got)
			r, _ := utf8.DecodeRuneInString(not)
			g, _ := utf8.DecodeRuneInString(got)
			if got == not || m < n-2 || m > n+2 || scriptOf(r) != scriptOf(g) {
				t.Fatalf("word(%q) = %q: want another word of about its length, in its script", not, got)
			}
		}
	}
}
