package reuse

import (
	"testing"
)

// TestSummarize summarises a hand-made graph: page 1 reuses articles 1
// and 2, page 2 article 1 (one component of four), pages 4 and 5 article
// 4 (three), page 3 article 3 (two).
func TestSummarize(t *testing.T) {
	edges := []Edge{
		{Web: "cc:5:0", URL: "http://c.net/5", Host: "c.net", Article: "enwiki:4:4", Title: "Four", Kind: Structure, SharePage: 0.2, Passages: 1},
		{Web: "cc:1:0", URL: "https://a.com/1", Host: "a.com", Article: "enwiki:1:1", Title: "One", Kind: Content, SharePage: 0.5, Passages: 2},
		{Web: "cc:1:0", URL: "https://a.com/1", Host: "a.com", Article: "enwiki:2:2", Title: "Two", Kind: Structure, SharePage: 0.25, Passages: 1},
		{Web: "cc:2:0", URL: "https://a.com/2", Host: "a.com", Article: "enwiki:1:1", Title: "One", Kind: Content, SharePage: 0.3, Passages: 1},
		{Web: "cc:3:0", URL: "http://b.org/3", Host: "b.org", Article: "enwiki:3:3", Title: "Three", Kind: Structure, SharePage: 1, Passages: 1},
		{Web: "cc:4:0", URL: "http://c.net/4", Host: "c.net", Article: "enwiki:4:4", Title: "Four", Kind: Content, SharePage: 0.1, Passages: 1},
	}
	read := map[string]int64{"a.com": 4, "b.org": 1, "c.net": 10, "d.de": 5}
	s := Summarize(edges, read, 2, 3)
	want := `{"totals":{"cases":6,"content":3,"structure":3,"passages":7,"web_pages":5,"articles":4,"hosts_read":4,"pages_read":20,"hosts_with_reuse":3},` +
		`"hosts":[` +
		`{"host":"a.com","pages_read":4,"pages_with_reuse":2,"share_with_reuse":0.5,"cases":3,"content":2,"structure":1,"mean_share_of_page":0.35},` +
		`{"host":"c.net","pages_read":10,"pages_with_reuse":2,"share_with_reuse":0.2,"cases":2,"content":1,"structure":1,"mean_share_of_page":0.15}],` +
		`"hosts_cut":1,` +
		`"articles":[` +
		`{"id":"enwiki:1:1","title":"One","web_pages":2,"hosts":1,"content":2,"structure":0},` +
		`{"id":"enwiki:4:4","title":"Four","web_pages":2,"hosts":1,"content":1,"structure":1},` +
		`{"id":"enwiki:2:2","title":"Two","web_pages":1,"hosts":1,"content":0,"structure":1}],` +
		`"articles_cut":1,` +
		`"graph":{"web_pages":5,"articles":4,"edges":6,"web_degree":[[1,4],[2,1]],"article_degree":[[1,2],[2,2]],` +
		`"components":{"count":3,"largest":4,"sizes":[[2,1],[3,1],[4,1]],"top":[` +
		`{"size":4,"web_pages":2,"articles":2,"urls":["https://a.com/1","https://a.com/2"],"titles":["One","Two"]},` +
		`{"size":3,"web_pages":2,"articles":1,"urls":["http://c.net/4","http://c.net/5"],"titles":["Four"]},` +
		`{"size":2,"web_pages":1,"articles":1,"urls":["http://b.org/3"],"titles":["Three"]}]}}}`
	if got := mustJSON(t, s); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	c := s.Counts()
	if c.Cases != 6 || c.ContentReuse != 3 || c.StructureReuse != 3 || c.Passages != 7 || c.WebPages != 5 || c.Articles != 4 || c.CrossPairsCapped != 0 {
		t.Errorf("counts %+v", c)
	}
}

// TestSummarizeEmpty: no case gives empty lists, not nulls.
func TestSummarizeEmpty(t *testing.T) {
	want := `{"totals":{"cases":0,"content":0,"structure":0,"passages":0,"web_pages":0,"articles":0,"hosts_read":1,"pages_read":3,"hosts_with_reuse":0},` +
		`"hosts":[],"hosts_cut":0,"articles":[],"articles_cut":0,` +
		`"graph":{"web_pages":0,"articles":0,"edges":0,"web_degree":[],"article_degree":[],"components":{"count":0,"largest":0,"sizes":[],"top":[]}}}`
	if got := mustJSON(t, Summarize(nil, map[string]int64{"a.com": 3}, 0, 0)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestComponentsCapped: a star of many pages lists MaxMembers URLs, and
// only TopComponents components are listed.
func TestComponentsCapped(t *testing.T) {
	var edges []Edge
	for i := range 30 {
		edges = append(edges, Edge{Web: string(rune('A' + i)), URL: string(rune('A' + i)), Article: "star", Title: "Star", Kind: Content})
	}
	for i := range 10 {
		edges = append(edges, Edge{Web: "w" + string(rune('a'+i)), Article: "a" + string(rune('a'+i)), Kind: Structure})
	}
	g := Summarize(edges, nil, 0, 0).Graph
	c := g.Components
	if c.Count != 11 || c.Largest != 31 || len(c.Top) != TopComponents || len(c.Top[0].URLs) != MaxMembers || c.Top[0].URLs[0] != "A" ||
		c.Top[1].URLs[0] != "wa" || c.Top[1].Titles[0] != "aa" {
		t.Errorf("components %+v", c)
	}
	if len(g.ArticleDegree) != 2 || g.ArticleDegree[1] != (Bin{30, 1}) {
		t.Errorf("article degrees %v", g.ArticleDegree)
	}
}
