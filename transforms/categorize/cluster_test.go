package categorize

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/cluster"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/verify"
)

// TestCategorizeLine categorises a built cluster and checks its line: the
// fields in the documented order, members sorted, the kind with evidence.
func TestCategorizeLine(t *testing.T) {
	sents := []sentence.Sentence{
		{ID: sentence.Doc(7).Sentence(5), Wiki: "xwiki", PageID: 20, RevID: 7, Title: "B", Text: "second page"},
		{ID: sentence.Doc(3).Sentence(9), Wiki: "xwiki", PageID: 10, RevID: 3, Title: "A", Section: "History", Context: 2, Text: "first page, later"},
		{ID: sentence.Doc(3).Sentence(2), Wiki: "xwiki", PageID: 10, RevID: 3, Title: "A", Text: "first page"},
	}
	built, _ := cluster.Build(sents, []verify.Similarity{{Jaccard: 0.9, Edit: 0.1}, {Jaccard: 0.5, Edit: 0.3}}, 0)
	c := Categorize(built)
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
	if err := json.Unmarshal(line, &back); err != nil || back.Size != 3 || back.Category != c.Category {
		t.Errorf("line does not decode: %v", err)
	}
}

// TestCategorizeCappedCluster categorises a template cluster of 10,000
// sentences capped at 100 members: identical, on the sample, and the line
// says how many members it omits (and says nothing under the cap).
func TestCategorizeCappedCluster(t *testing.T) {
	var sents []sentence.Sentence
	for i := range 10000 {
		page := int64(i%10 + 1)
		sents = append(sents, sentence.Sentence{ID: sentence.Doc(page).Sentence(i / 10), Wiki: "w", PageID: page, RevID: page,
			Title: fmt.Sprint("P", page), Text: "The same template sentence is repeated on every page of the wiki."})
	}
	built, _ := cluster.Build(sents, nil, 100)
	c := Categorize(built)
	line, err := c.MarshalLine()
	if err != nil || c.Category != Identical || !strings.Contains(string(line), `"members_omitted":9900`) || len(line) > 40000 {
		t.Errorf("category %s, line of %d bytes, %v", c.Category, len(line), err)
	}
	small, _ := cluster.Build(sents[:50], nil, 100)
	if line, err := Categorize(small).MarshalLine(); err != nil || strings.Contains(string(line), "members_omitted") {
		t.Errorf("a cluster under the cap: %s, %v", line, err)
	}
}
