package cluster

import (
	"encoding/json"
	"fmt"
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
	c := Build(sents, []verify.Similarity{{Jaccard: 0.9, Edit: 0.1}, {Jaccard: 0.5, Edit: 0.3}}, 0)
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
	}, nil, 0)
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
	if n := len(Build(big, nil, 0).PagePairs()); n != 0 {
		t.Errorf("a cluster over %d pages gave %d pairs, want none", MaxPagesForPairs+1, n)
	}
}

// TestBuildCapsMembers builds a cluster of 10,000 identical sentences over
// 10 pages with a cap of 100: the line lists 100 members spread over every
// page, from the first, and counts every member.
func TestBuildCapsMembers(t *testing.T) {
	var sents []sentence.Sentence
	for i := range 10000 {
		page := int64(i%10 + 1)
		sents = append(sents, sentence.Sentence{ID: sentence.Doc(page).Sentence(i / 10), Wiki: "w", PageID: page, RevID: page,
			Title: fmt.Sprint("P", page), Text: "The same template sentence is repeated on every page of the wiki."})
	}
	sims := make([]verify.Similarity, 9999)
	for i := range sims {
		sims[i] = verify.Similarity{Jaccard: 1}
	}
	c := Build(sents, sims, 100)
	if c.Size != 10000 || c.Pages != 10 || len(c.Members) != 100 || c.MembersOmitted != 9900 || c.Cohesion.Edges != 9999 {
		t.Fatalf("size %d pages %d members %d omitted %d edges %d; want 10000, 10, 100, 9900, 9999",
			c.Size, c.Pages, len(c.Members), c.MembersOmitted, c.Cohesion.Edges)
	}
	if c.ID != "w:1:1:0" || c.Members[0].ID != c.ID || c.Members[99].ID != "w:10:10:900" || c.Category != "identical" {
		t.Errorf("id %s, first %s, last %s, category %s", c.ID, c.Members[0].ID, c.Members[99].ID, c.Category)
	}
	if n := len(c.PagePairs()); n != 45 {
		t.Errorf("%d page pairs, want the 45 of 10 pages", n)
	}
	line, err := c.MarshalLine()
	if err != nil || !strings.Contains(string(line), `"members_omitted":9900`) || len(line) > 40000 {
		t.Errorf("line of %d bytes, %v", len(line), err)
	}
	all := Build(sents[:50], nil, 100)
	line, err = all.MarshalLine()
	if err != nil || all.MembersOmitted != 0 || len(all.Members) != 50 || strings.Contains(string(line), "members_omitted") {
		t.Errorf("a cluster under the cap: %d members, %d omitted, %v", len(all.Members), all.MembersOmitted, err)
	}
}
