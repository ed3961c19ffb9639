package cluster

import (
	"fmt"
	"slices"
	"testing"

	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/verify"
)

func TestBuild(t *testing.T) {
	c, _ := Build(testSentences(), []verify.Similarity{{Jaccard: 0.9, Edit: 0.1}, {Jaccard: 0.5, Edit: 0.3}}, 0)
	if c.ID != "xwiki:10:3:2" || c.Size != 3 || c.Pages != 2 || c.MembersOmitted != 0 {
		t.Fatalf("cluster %s size %d pages %d omitted %d; want xwiki:10:3:2, 3, 2, 0", c.ID, c.Size, c.Pages, c.MembersOmitted)
	}
	wantCohesion := Cohesion{Edges: 2, MinJaccard: 0.5, MeanJaccard: 0.7, MaxEdit: 0.3, MeanEdit: 0.2}
	if c.Cohesion != wantCohesion {
		t.Errorf("cohesion = %+v, want %+v", c.Cohesion, wantCohesion)
	}
	var ids []string
	for _, m := range c.Members {
		ids = append(ids, m.ID+" "+m.Context+" "+m.Text)
	}
	want := []string{"xwiki:10:3:2 prose first page", "xwiki:10:3:9 reference first page, later", "xwiki:20:7:5 prose second page"}
	if !slices.Equal(ids, want) {
		t.Errorf("members %q, want %q", ids, want)
	}
}

// testSentences are three sentences of two pages, one delivered twice.
func testSentences() []sentence.Sentence {
	return []sentence.Sentence{
		{ID: sentence.Doc(7).Sentence(5), Wiki: "xwiki", PageID: 20, RevID: 7, Title: "B", Text: "second page"},
		{ID: sentence.Doc(3).Sentence(9), Wiki: "xwiki", PageID: 10, RevID: 3, Title: "A", Section: "History", Context: 2, Text: "first page, later"},
		{ID: sentence.Doc(3).Sentence(2), Wiki: "xwiki", PageID: 10, RevID: 3, Title: "A", Text: "first page"},
		{ID: sentence.Doc(7).Sentence(5), Wiki: "xwiki", PageID: 20, RevID: 7, Title: "B", Text: "second page"}, // duplicate delivery
	}
}

func TestPagePairs(t *testing.T) {
	_, got := Build([]sentence.Sentence{
		{ID: sentence.Doc(3).Sentence(1), PageID: 3, Title: "C"}, {ID: sentence.Doc(1).Sentence(4), PageID: 1, Title: "A"},
		{ID: sentence.Doc(1).Sentence(9), PageID: 1, Title: "A"}, {ID: sentence.Doc(2).Sentence(0), PageID: 2, Title: "B"},
		{ID: sentence.Doc(1 << 34).Sentence(0), Wiki: "other", PageID: 1, Title: "A elsewhere"},
	}, nil, 0)
	want := []PagePair{{"", "", 1, 2, "A", "B"}, {"", "", 1, 3, "A", "C"}, {"", "other", 1, 1, "A", "A elsewhere"},
		{"", "", 2, 3, "B", "C"}, {"", "other", 2, 1, "B", "A elsewhere"}, {"", "other", 3, 1, "C", "A elsewhere"}}
	if !slices.Equal(got, want) {
		t.Errorf("PagePairs = %v, want %v", got, want)
	}
	var big []sentence.Sentence
	for p := range MaxPagesForPairs + 1 {
		big = append(big, sentence.Sentence{ID: sentence.Doc(p).Sentence(0), PageID: int64(p)})
	}
	if _, pairs := Build(big, nil, 0); len(pairs) != 0 {
		t.Errorf("a cluster over %d pages gave %d pairs, want none", MaxPagesForPairs+1, len(pairs))
	}
}

// templateSentences are n identical sentences over 10 pages.
func templateSentences(n int) ([]sentence.Sentence, []verify.Similarity) {
	var sents []sentence.Sentence
	for i := range n {
		page := int64(i%10 + 1)
		sents = append(sents, sentence.Sentence{ID: sentence.Doc(page).Sentence(i / 10), Wiki: "w", PageID: page, RevID: page,
			Title: fmt.Sprint("P", page), Text: "The same template sentence is repeated on every page of the wiki."})
	}
	sims := make([]verify.Similarity, n-1)
	for i := range sims {
		sims[i] = verify.Similarity{Jaccard: 1}
	}
	return sents, sims
}

// TestBuildCapsMembers builds a cluster of 10,000 identical sentences over
// 10 pages with a cap of 100: it lists 100 members spread over every page,
// from the first, and counts every member.
func TestBuildCapsMembers(t *testing.T) {
	sents, sims := templateSentences(10000)
	c, pairs := Build(sents, sims, 100)
	if c.Size != 10000 || c.Pages != 10 || len(c.Members) != 100 || c.MembersOmitted != 9900 || c.Cohesion.Edges != 9999 {
		t.Fatalf("size %d pages %d members %d omitted %d edges %d; want 10000, 10, 100, 9900, 9999",
			c.Size, c.Pages, len(c.Members), c.MembersOmitted, c.Cohesion.Edges)
	}
	if c.ID != "w:1:1:0" || c.Members[0].ID != c.ID || c.Members[99].ID != "w:10:10:900" {
		t.Errorf("id %s, first %s, last %s", c.ID, c.Members[0].ID, c.Members[99].ID)
	}
	if len(pairs) != 45 {
		t.Errorf("%d page pairs, want the 45 of 10 pages", len(pairs))
	}
	if all, _ := Build(sents[:50], nil, 100); all.MembersOmitted != 0 || len(all.Members) != 50 {
		t.Errorf("a cluster under the cap: %d members, %d omitted", len(all.Members), all.MembersOmitted)
	}
}
