package report

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/cluster"
	"github.com/neardup/neardup/transforms/sentence"
)

// testCluster is a categorised cluster of n members of the given texts
// (cycled), on pages 1..n of enwiki.
func testCluster(id, category string, n int, jaccard, edit float64, texts ...string) categorize.Cluster {
	c := categorize.Cluster{ID: id, Size: n, Pages: n, Category: category,
		Evidence: categorize.Evidence{Rule: "test_rule", Reason: "because " + id},
		Cohesion: cluster.Cohesion{Edges: n - 1, MinJaccard: jaccard, MaxEdit: edit}}
	for i := range n {
		c.Members = append(c.Members, sentence.View{ID: fmt.Sprintf("%s/%d", id, i), Wiki: "enwiki", PageID: int64(i + 1),
			Title: fmt.Sprintf("Page %d", i+1), Context: "prose", Text: texts[i%len(texts)]})
	}
	return c
}

// record is c's record as categorize.Clusters emits it: the key, the JSON
// line, result.IndexSep and the digest row.
func record(t testing.TB, key uint64, c categorize.Cluster) []byte {
	t.Helper()
	line, err := c.MarshalLine()
	if err != nil {
		t.Fatal(err)
	}
	return result.Record(key, categorize.AppendDigest(append(line, result.IndexSep), c.Digest()))
}

func statsJSON(t testing.TB, s Stats) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestBin(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want int
	}{
		{0, 0}, {0.04, 0}, {0.05, 1}, {0.25, 5}, {0.5, 10}, {0.8, 16}, {0.949, 18}, {0.95, 19},
		{0.999, 19}, {1, 19}, {-0.1, 0}, {1.5, 19}, {math.NaN(), 0}, {math.Inf(1), 19},
	} {
		if got := Bin(tt.v); got != tt.want {
			t.Errorf("Bin(%v) = %d, want %d", tt.v, got, tt.want)
		}
	}
}

func TestSizeBinOf(t *testing.T) {
	for _, tt := range []struct{ size, lo, hi int64 }{
		{2, 2, 2}, {3, 3, 3}, {9, 9, 9}, {10, 10, 10}, {11, 11, 16}, {16, 11, 16}, {17, 17, 32}, {32, 17, 32},
		{33, 33, 64}, {1000, 513, 1024}, {1024, 513, 1024}, {1025, 1025, 2048}, {40000, 32769, 65536},
	} {
		if lo, hi := SizeBinOf(tt.size); lo != tt.lo || hi != tt.hi {
			t.Errorf("SizeBinOf(%d) = %d–%d, want %d–%d", tt.size, lo, hi, tt.lo, tt.hi)
		}
	}
}

func TestSizeBins(t *testing.T) {
	hist := []counters.Bin{{Size: 2, Clusters: 5}, {Size: 3, Clusters: 2}, {Size: 4, Clusters: 0}, {Size: 11, Clusters: 1},
		{Size: 12, Clusters: 1}, {Size: 16, Clusters: 2}, {Size: 17, Clusters: 1}, {Size: 100, Clusters: 1}}
	want := []SizeBin{
		{Lo: 2, Hi: 2, Clusters: 5, Sentences: 10},
		{Lo: 3, Hi: 3, Clusters: 2, Sentences: 6},
		{Lo: 11, Hi: 16, Clusters: 4, Sentences: 11 + 12 + 32},
		{Lo: 17, Hi: 32, Clusters: 1, Sentences: 17},
		{Lo: 65, Hi: 128, Clusters: 1, Sentences: 100},
	}
	got := SizeBins(hist)
	if !slices.Equal(got, want) {
		t.Errorf("SizeBins = %v, want %v", got, want)
	}
	small, large := sizeShares(hist, 10)
	if small != 7.0/13 || large != float64(11+12+32+17+100)/float64(10+6+11+12+32+17+100) {
		t.Errorf("sizeShares(10) = %v, %v", small, large)
	}
}

func TestReasonKind(t *testing.T) {
	const file = "/data/dumps/elwiki-20240101-pages-articles.xml.xz"
	for _, tt := range []struct{ reason, want string }{
		{"truncated: page cut: unexpected EOF", "truncated: page cut"},
		{"truncated: unexpected EOF", "truncated: unexpected EOF"},
		{"truncated: xz: data truncated: unexpected EOF", "truncated: xz"},
		{"page of 70000000 bytes, larger than 67108864 bytes", "page of N bytes, larger than N bytes"},
		{`bad page id "12a"`, `bad page id "…"`},
		{"malformed XML: XML syntax error on line 12: element <title> closed by </page>", "malformed XML: XML syntax error on line N"},
		{"no pages found: " + file + ` does not look like a MediaWiki XML dump (first bytes: "PK\x03\x04")`,
			"no pages found: <file> does not look like a MediaWiki XML dump"},
		{"", "(no reason given)"},
		{strings.Repeat("x", 200), strings.Repeat("x", maxReasonKind-1) + "…"},
	} {
		if got := ReasonKind(document.DeadLetter{File: file, Reason: tt.reason}); got != tt.want {
			t.Errorf("ReasonKind(%q) = %q, want %q", tt.reason, got, tt.want)
		}
	}
}

func TestAddRecord(t *testing.T) {
	s := NewStats(2, 7)
	a := testCluster("enwiki:1:10:0", categorize.Identical, 3, 1, 0, "Same text.")
	b := testCluster("enwiki:2:20:0", categorize.CopyEdit, 2, 0.72, 0.05, "It was named in 1850.", "It was named in 1850 .")
	for i, c := range []categorize.Cluster{a, b} {
		if err := s.AddRecord(record(t, uint64(i), c)); err != nil {
			t.Fatal(err)
		}
	}
	var wantIdentical, wantCopy KindStats
	wantIdentical.Clusters, wantIdentical.Sentences = 1, 3
	wantIdentical.MinJaccard[19], wantIdentical.MaxEdit[0] = 1, 1
	wantCopy.Clusters, wantCopy.Sentences = 1, 2
	wantCopy.MinJaccard[14], wantCopy.MaxEdit[1] = 1, 1
	for name, want := range map[string]KindStats{categorize.Identical: wantIdentical, categorize.CopyEdit: wantCopy} {
		got := s.Kinds[name]
		if got.Clusters != want.Clusters || got.Sentences != want.Sentences || got.MinJaccard != want.MinJaccard || got.MaxEdit != want.MaxEdit {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
		if len(got.Sample) != 1 {
			t.Fatalf("%s: sample of %d, want 1", name, len(got.Sample))
		}
	}
	line, _ := a.MarshalLine()
	if e := s.Kinds[categorize.Identical].Sample[0]; e.ID != a.ID || e.Hash != SampleHash(7, a.ID) || string(e.Line) != string(line) {
		t.Errorf("sampled %s %x %s, want %s %x and its line", e.ID, e.Hash, e.Line, a.ID, SampleHash(7, a.ID))
	}

	for _, bad := range [][]byte{nil, []byte("short"), result.Record(1, []byte(`{"id":"x"}`)), result.Record(1, []byte("{}\x1ex\ty"))} {
		if err := s.AddRecord(bad); err == nil {
			t.Errorf("AddRecord(%q) accepted", bad)
		}
	}
}

// TestSampleIsBottomK checks that each kind's sample holds the clusters of
// least hash, whatever the order in which they are added and the partial
// Stats merged: every way of cutting the clusters into partials, and of
// merging them, gives byte for byte the same Stats.
func TestSampleIsBottomK(t *testing.T) {
	const k = 3
	categories := []string{categorize.Identical, categorize.CopyEdit, categorize.Template}
	var records [][]byte
	ids := map[string][]string{}
	for i := range 300 {
		cat := categories[i%len(categories)]
		c := testCluster(fmt.Sprintf("enwiki:%d:%d:%d", i, 1000+i, i%7), cat, 2+i%5, float64(i%100)/100, float64(i%30)/100, "A text.", "B text.")
		records = append(records, record(t, uint64(i), c))
		ids[cat] = append(ids[cat], c.ID)
	}
	dead := []document.DeadLetter{
		{File: "b.xml", Offset: 5, Reason: "truncated: unexpected EOF"},
		{File: "a.xml", Offset: 900, Reason: "page of 9 bytes, larger than 8 bytes", Title: "Big"},
		{File: "a.xml", Offset: 100, Reason: "page of 7 bytes, larger than 6 bytes", Title: "Bigger"},
	}

	whole := NewStats(k, 42)
	for _, r := range records {
		if err := whole.AddRecord(r); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range dead {
		whole.AddDeadLetter(d)
	}
	for cat, catIDs := range ids {
		slices.SortFunc(catIDs, func(a, b string) int {
			return compareExamples(Example{Hash: SampleHash(42, a), ID: a}, Example{Hash: SampleHash(42, b), ID: b})
		})
		var got []string
		for _, e := range whole.Kinds[cat].Sample {
			got = append(got, e.ID)
		}
		if !slices.Equal(got, catIDs[:k]) {
			t.Errorf("%s: sample %v, want the %d least hashes %v", cat, got, k, catIDs[:k])
		}
	}
	if r := whole.Dead["page of N bytes, larger than N bytes"]; r.Count != 2 || r.First.Offset != 100 {
		t.Errorf("dead letters of too large pages: %+v, want 2, the first at a.xml:100", r)
	}
	want := statsJSON(t, whole)

	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		order := rng.Perm(len(records))
		parts := make([]Stats, 1+rng.IntN(8))
		for i := range parts {
			parts[i] = NewStats(k, 42)
		}
		for _, i := range order {
			if err := parts[rng.IntN(len(parts))].AddRecord(records[i]); err != nil {
				t.Fatal(err)
			}
		}
		for _, i := range rng.Perm(len(dead)) {
			parts[rng.IntN(len(parts))].AddDeadLetter(dead[i])
		}
		// Merge in a random tree: pick two, merge, put back.
		for len(parts) > 1 {
			i, j := rng.IntN(len(parts)), rng.IntN(len(parts)-1)
			if j >= i {
				j++
			}
			merged := mergeStats(parts[i], parts[j])
			parts[i] = merged
			parts = slices.Delete(parts, j, j+1)
		}
		if got := statsJSON(t, mergeStats(Stats{}, parts[0])); got != want {
			t.Fatalf("trial %d: merged Stats differ from one pass:\n%s\nwant\n%s", trial, got, want)
		}
	}
}

// TestMergeLeavesInputs checks that mergeStats copies: merging must not
// change the partials a runner may still hold.
func TestMergeLeavesInputs(t *testing.T) {
	a, b := NewStats(1, 3), NewStats(1, 3)
	for i := range 4 {
		c := testCluster(fmt.Sprintf("enwiki:%d:1:0", i), categorize.Identical, 2, 1, 0, "x")
		s := &a
		if i%2 == 1 {
			s = &b
		}
		if err := s.AddRecord(record(t, uint64(i), c)); err != nil {
			t.Fatal(err)
		}
	}
	ja, jb := statsJSON(t, a), statsJSON(t, b)
	mergeStats(a, b)
	mergeStats(b, a)
	if statsJSON(t, a) != ja || statsJSON(t, b) != jb {
		t.Error("mergeStats changed its inputs")
	}
}

func TestArticleURL(t *testing.T) {
	const en, el, ja = "https://en.wikipedia.org/wiki/Main_Page", "https://el.wikipedia.org/wiki/%CE%A0%CF%8D%CE%BB%CE%B7:%CE%9A%CF%8D%CF%81%CE%B9%CE%B1", "https://ja.wikipedia.org/wiki/メインページ"
	for _, tt := range []struct{ base, title, want string }{
		{en, "Marren (river)", "https://en.wikipedia.org/wiki/Marren_%28river%29"},
		{en, "Hurricane Katrina", "https://en.wikipedia.org/wiki/Hurricane_Katrina"},
		{en, "Who's Afraid?", "https://en.wikipedia.org/wiki/Who%27s_Afraid%3F"},
		{en, "C# (programming language)", "https://en.wikipedia.org/wiki/C%23_%28programming_language%29"},
		{en, "100% Pure", "https://en.wikipedia.org/wiki/100%25_Pure"},
		{en, "AC/DC", "https://en.wikipedia.org/wiki/AC/DC"},
		{en, "Category:Rivers", "https://en.wikipedia.org/wiki/Category:Rivers"},
		{en, "R&B", "https://en.wikipedia.org/wiki/R&B"},
		{el, "Αθήνα", "https://el.wikipedia.org/wiki/%CE%91%CE%B8%CE%AE%CE%BD%CE%B1"},
		{el, "Νέα Υόρκη", "https://el.wikipedia.org/wiki/%CE%9D%CE%AD%CE%B1_%CE%A5%CF%8C%CF%81%CE%BA%CE%B7"},
		{ja, "東京都", "https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC%E9%83%BD"},
		{"http://localhost:8080/w/index.php?title=Main_Page", "Foo bar?", "http://localhost:8080/w/index.php?title=Foo_bar%3F"},
		{"https://wiki.example.org", "Foo", "https://wiki.example.org/Foo"},
		{"https://user:pw@wiki.example.org/wiki/Main#top", "Foo", "https://wiki.example.org/wiki/Foo"},
		{"", "Foo", ""},
		{"javascript:alert(1)", "Foo", ""},
		{"file:///etc/wiki/Main_Page", "Foo", ""},
		{"//en.wikipedia.org/wiki/Main_Page", "Foo", ""},
		{en, "", ""},
	} {
		if got := ArticleURL(tt.base, tt.title); got != tt.want {
			t.Errorf("ArticleURL(%q, %q) = %q, want %q", tt.base, tt.title, got, tt.want)
		}
	}
}
