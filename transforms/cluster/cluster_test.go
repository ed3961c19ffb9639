package cluster

import (
	"encoding/json"
	"testing"

	"github.com/neardup/neardup/transforms/sentence"
)

func TestBuild(t *testing.T) {
	sents := []sentence.Sentence{
		{ID: sentence.NewID(20, 5), RevID: 7, Title: "B", Text: "second page"},
		{ID: sentence.NewID(10, 9), RevID: 3, Title: "A", Section: "History", Context: 2, Text: "first page, later"},
		{ID: sentence.NewID(10, 2), RevID: 3, Title: "A", Text: "first page"},
		{ID: sentence.NewID(20, 5), RevID: 7, Title: "B", Text: "second page"}, // duplicate delivery
	}
	c := Build(sents)
	if c.ID != "10:2" || c.Size != 3 || c.Pages != 2 {
		t.Fatalf("cluster %s size %d pages %d; want 10:2, 3, 2", c.ID, c.Size, c.Pages)
	}
	line, err := c.MarshalLine()
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"id":"10:2","size":3,"pages":2,"members":[` +
		`{"id":"10:2","page_id":10,"rev_id":3,"title":"A","sentence":2,"section":"","context":"prose","text":"first page"},` +
		`{"id":"10:9","page_id":10,"rev_id":3,"title":"A","sentence":9,"section":"History","context":"reference","text":"first page, later"},` +
		`{"id":"20:5","page_id":20,"rev_id":7,"title":"B","sentence":5,"section":"","context":"prose","text":"second page"}]}`
	if string(line) != want {
		t.Errorf("line =\n%s\nwant\n%s", line, want)
	}
	var back Cluster
	if err := json.Unmarshal(line, &back); err != nil || back.Size != 3 {
		t.Errorf("line does not decode: %v", err)
	}
}
