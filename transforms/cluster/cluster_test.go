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
		{ID: sentence.Doc(7).Sentence(5), Wiki: "xwiki", PageID: 20, RevID: 7, Title: "B", Text: "second page"},
		{ID: sentence.Doc(3).Sentence(9), Wiki: "xwiki", PageID: 10, RevID: 3, Title: "A", Section: "History", Context: 2, Text: "first page, later"},
		{ID: sentence.Doc(3).Sentence(2), Wiki: "xwiki", PageID: 10, RevID: 3, Title: "A", Text: "first page"},
		{ID: sentence.Doc(7).Sentence(5), Wiki: "xwiki", PageID: 20, RevID: 7, Title: "B", Text: "second page"}, // duplicate delivery
	}
	c := Build(sents, []verify.Similarity{{Jaccard: 0.9, Edit: 0.1}, {Jaccard: 0.5, Edit: 0.3}})
	if c.ID != "xwiki:10:3:2" || c.Size != 3 || c.Pages != 2 {
		t.Fatalf("cluster %s size %d pages %d; want xwiki:10:3:2, 3, 2", c.ID, c.Size, c.Pages)
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
	const wantStart = `{"id":"xwiki:10:3:2","size":3,"pages":2,"category":`
	const wantMembers = `"cohesion":{"edges":2,"min_jaccard":0.5,"mean_jaccard":0.7,"max_edit":0.3,"mean_edit":0.2},"members":[` +
		`{"id":"xwiki:10:3:2","wiki":"xwiki","page_id":10,"rev_id":3,"title":"A","sentence":2,"section":"","context":"prose","text":"first page"},` +
		`{"id":"xwiki:10:3:9","wiki":"xwiki","page_id":10,"rev_id":3,"title":"A","sentence":9,"section":"History","context":"reference","text":"first page, later"},` +
		`{"id":"xwiki:20:7:5","wiki":"xwiki","page_id":20,"rev_id":7,"title":"B","sentence":5,"section":"","context":"prose","text":"second page"}]}`
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
		{ID: sentence.Doc(3).Sentence(1), PageID: 3, Title: "C"}, {ID: sentence.Doc(1).Sentence(4), PageID: 1, Title: "A"},
		{ID: sentence.Doc(1).Sentence(9), PageID: 1, Title: "A"}, {ID: sentence.Doc(2).Sentence(0), PageID: 2, Title: "B"},
		{ID: sentence.Doc(1 << 34).Sentence(0), Wiki: "other", PageID: 1, Title: "A elsewhere"},
	}, nil)
	got := c.PagePairs()
	want := []PagePair{{"", "", 1, 2, "A", "B"}, {"", "", 1, 3, "A", "C"}, {"", "other", 1, 1, "A", "A elsewhere"},
		{"", "", 2, 3, "B", "C"}, {"", "other", 2, 1, "B", "A elsewhere"}, {"", "other", 3, 1, "C", "A elsewhere"}}
	if !slices.Equal(got, want) {
		t.Errorf("PagePairs = %v, want %v", got, want)
	}
	var big []sentence.Sentence
	for p := range MaxPagesForPairs + 1 {
		big = append(big, sentence.Sentence{ID: sentence.Doc(p).Sentence(0), PageID: int64(p)})
	}
	if n := len(Build(big, nil).PagePairs()); n != 0 {
		t.Errorf("a cluster over %d pages gave %d pairs, want none", MaxPagesForPairs+1, n)
	}
}
