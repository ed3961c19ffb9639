package index

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/passage"
	"github.com/neardup/neardup/transforms/summary"
)

func doc(id, title string, first, last int, share float64) passage.Document {
	return passage.Document{ID: id, Wiki: id[:strings.IndexByte(id, ':')], Title: title, First: first, Last: last, Share: share}
}

// TestGroupPairs checks that passages are grouped by document pair, in
// the order of the pairs' ids, with their sums.
func TestGroupPairs(t *testing.T) {
	ps := []Passage{
		{A: doc("enwiki:2:20", "Two", 30, 33, 0.4), B: doc("enwiki:3:30", "Three", 5, 8, 0.5), Matched: 4, MeanJaccard: 1},
		{A: doc("enwiki:1:10", "One", 0, 2, 0.3), B: doc("enwiki:2:20", "Two", 3, 5, 0.1), Matched: 3, MeanJaccard: 0.8},
		{A: doc("enwiki:2:20", "Two", 2, 5, 0.7), B: doc("enwiki:3:30", "Three", 0, 3, 0.6), Matched: 4, MeanJaccard: 0.5},
	}
	got := groupPairs(ps)
	type sum struct {
		a, b           string
		passages       []int
		matched        int
		shareA, shareB float64
		share, jaccard float64
	}
	want := []sum{
		{"enwiki:1:10", "enwiki:2:20", []int{1}, 3, 0.3, 0.1, 0.3, 0.8},
		{"enwiki:2:20", "enwiki:3:30", []int{2, 0}, 8, 1, 1, 1, 0.75},
	}
	if len(got) != len(want) {
		t.Fatalf("%d pairs, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		s := sum{g.A.ID, g.B.ID, g.Passages, g.Matched, g.ShareA, g.ShareB, g.Share, g.MeanJaccard}
		if s.a != w.a || s.b != w.b || !slices.Equal(s.passages, w.passages) || s.matched != w.matched || s.shareA != w.shareA ||
			s.shareB != w.shareB || s.share != w.share || s.jaccard != w.jaccard || g.Index != i {
			t.Errorf("pair %d: %+v, want %+v", i, s, w)
		}
	}
}

// TestPassagesDamaged checks that a passages file with a line that is no
// passage, and one the manifest lists but is missing, are warnings, and
// the other passages are listed.
func TestPassagesDamaged(t *testing.T) {
	dir := writeRun(t, 1, makeCluster(1, categorize.Identical, 1, 0, page{Wiki: "enwiki", ID: 1, Title: "One"}, page{Wiki: "enwiki", ID: 2, Title: "Two"}))
	good := `{"a":{"id":"enwiki:1:10","wiki":"enwiki","page_id":1,"rev_id":10,"title":"One","first":0,"last":2,"sentences":3,"share":0.5},` +
		`"b":{"id":"enwiki:2:20","wiki":"enwiki","page_id":2,"rev_id":20,"title":"Two","first":4,"last":6,"sentences":3,"share":0.25},"matched":3,"mean_jaccard":0.9}`
	body := good + "\n{\"a\":\n" + strings.Replace(good, `"first":0`, `"first":7`, 1) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "passages-00000-of-00002.jsonl"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	editManifest(t, dir, func(m *summary.Manifest) {
		m.Outputs = append(m.Outputs, "passages-00000-of-00002.jsonl", "passages-00001-of-00002.jsonl")
	})
	r := load(t, dir, Options{})
	if r.PassageCount() != 2 || r.PairCount() != 1 || !r.HasPassages() {
		t.Fatalf("%d passages in %d pairs", r.PassageCount(), r.PairCount())
	}
	want := []string{
		"passages-00000-of-00002.jsonl: 1 line cannot be read (the first, line 2: not a passage's JSON: unexpected end of JSON input): those passages are not listed",
		"passages-00001-of-00002.jsonl, which manifest.json lists, is missing: its passages are not listed",
	}
	if !slices.Equal(r.Warnings, want) {
		t.Errorf("warnings %q, want %q", r.Warnings, want)
	}
	p := r.Pair(0)
	if p.Matched != 6 || p.ShareA != 1 || p.ShareB != 0.5 || p.MeanJaccard != 0.9 {
		t.Errorf("pair %+v", p)
	}
	if _, ok := r.FindPair("enwiki:2:20", "enwiki:1:10"); !ok {
		t.Error("FindPair does not find the pair with its documents swapped")
	}
	if got := r.FilterPairs(PairQuery{Title: "TWO"}, 0, 10); got.Matches != 1 {
		t.Errorf("title TWO: %d pairs", got.Matches)
	}
	if got := r.FilterPairs(PairQuery{Title: "three"}, 0, 10); got.Matches != 0 {
		t.Errorf("title three: %d pairs", got.Matches)
	}
}
