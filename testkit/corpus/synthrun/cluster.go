package synthrun

import (
	"fmt"

	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/cluster"
	"github.com/neardup/neardup/transforms/sentence"
)

// Page is a page of a cluster made by Cluster.
type Page struct {
	Wiki  string
	ID    int64
	Title string
}

// Cluster makes cluster number n of a test: of kind, with the given
// cohesion, a member in each of pages (a page may come more than once),
// its id its first member's. Members' ordinals are n*10 and on, so that
// clusters of different n share no sentence.
func Cluster(n int, kind string, minJ, maxE float64, pages ...Page) categorize.Cluster {
	c := categorize.Cluster{Category: kind, Cohesion: cluster.Cohesion{Edges: len(pages) - 1, MinJaccard: minJ, MaxEdit: maxE},
		Evidence: categorize.Evidence{Rule: "test", Reason: "made by a test"}}
	seen := map[Page]bool{}
	for i, p := range pages {
		c.Members = append(c.Members, sentence.View{ID: fmt.Sprintf("%s:%d:%d:%d", p.Wiki, p.ID, p.ID*10, n*10+i),
			Wiki: p.Wiki, PageID: p.ID, RevID: p.ID * 10, Title: p.Title, Sentence: n*10 + i, Context: "prose",
			Text: fmt.Sprintf("Sentence %d of cluster %d in %s.", i, n, p.Title)})
		seen[p] = true
	}
	c.ID, c.Size, c.Pages = c.Members[0].ID, len(c.Members), len(seen)
	return c
}
