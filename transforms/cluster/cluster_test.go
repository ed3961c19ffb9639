package cluster

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/verify"
)

func TestBuild(t *testing.T) {
	sents := []sentence.Sentence{
		{ID: sentence.NewID(20, 5), RevID: 7, Title: "B", Text: "second page"},
		{ID: sentence.NewID(10, 9), RevID: 3, Title: "A", Section: "History", Context: 2, Text: "first page, later"},
		{ID: sentence.NewID(10, 2), RevID: 3, Title: "A", Text: "first page"},
		{ID: sentence.NewID(20, 5), RevID: 7, Title: "B", Text: "second page"}, // duplicate delivery
	}
	c := Build(sents, []verify.Similarity{{Jaccard: 0.9, Edit: 0.1}, {Jaccard: 0.5, Edit: 0.3}})
	if c.ID != "10:2" || c.Size != 3 || c.Pages != 2 {
		t.Fatalf("cluster %s size %d pages %d; want 10:2, 3, 2", c.ID, c.Size, c.Pages)
	}
	wantCohesion := Cohesion{Edges: 2, MinJaccard: 0.5, MeanJaccard: 0.7, MaxEdit: 0.3, MeanEdit: 0.2}
	if c.Cohesion != wantCohesion {
		t.Errorf("cohesion = %+v, want %+v", c.Cohesion, wantCohesion)
	}
	if c.Category == "" || c.Evidence.Rule == "" {
		t.Errorf("category %q, rule %q: want both set", c.Category, c.Evidence.Rule)
	}
	line, err := c.MarshalLine()
	if err != nil {
		t.Fatal(err)
	}
	const wantStart = `{"id":"10:2","size":3,"pages":2,"category":`
	const wantMembers = `"cohesion":{"edges":2,"min_jaccard":0.5,"mean_jaccard":0.7,"max_edit":0.3,"mean_edit":0.2},"members":[` +
		`{"id":"10:2","page_id":10,"rev_id":3,"title":"A","sentence":2,"section":"","context":"prose","text":"first page"},` +
		`{"id":"10:9","page_id":10,"rev_id":3,"title":"A","sentence":9,"section":"History","context":"reference","text":"first page, later"},` +
		`{"id":"20:5","page_id":20,"rev_id":7,"title":"B","sentence":5,"section":"","context":"prose","text":"second page"}]}`
	if !strings.HasPrefix(string(line), wantStart) || !strings.HasSuffix(string(line), wantMembers) {
		t.Errorf("line =\n%s\nwant it to start with\n%s\nand end with\n%s", line, wantStart, wantMembers)
	}
	var back Cluster
	if err := json.Unmarshal(line, &back); err != nil || back.Size != 3 {
		t.Errorf("line does not decode: %v", err)
	}
}

func TestPagePairs(t *testing.T) {
	c := Build([]sentence.Sentence{
		{ID: sentence.NewID(3, 1), Title: "C"}, {ID: sentence.NewID(1, 4), Title: "A"},
		{ID: sentence.NewID(1, 9), Title: "A"}, {ID: sentence.NewID(2, 0), Title: "B"},
	}, nil)
	got := c.PagePairs()
	want := []PagePair{{1, 2, "A", "B"}, {1, 3, "A", "C"}, {2, 3, "B", "C"}}
	if !slices.Equal(got, want) {
		t.Errorf("PagePairs = %v, want %v", got, want)
	}
	var big []sentence.Sentence
	for p := range MaxPagesForPairs + 1 {
		big = append(big, sentence.Sentence{ID: sentence.NewID(int64(p), 0)})
	}
	if n := len(Build(big, nil).PagePairs()); n != 0 {
		t.Errorf("a cluster over %d pages gave %d pairs, want none", MaxPagesForPairs+1, n)
	}
}
