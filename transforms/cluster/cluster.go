// Package cluster assembles connected components of sentences into the
// clusters the pipeline reports.
//
// A cluster is identified by its smallest sentence id, so its id depends only
// on its members, never on the order in which a runner delivered them.
package cluster

import (
	"cmp"
	"slices"

	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/sentence"
)

// Cluster is a set of near-duplicate sentences.
type Cluster struct {
	ID      string          `json:"id"`    // page_id:sentence of its first member
	Size    int             `json:"size"`  // number of members
	Pages   int             `json:"pages"` // number of distinct pages
	Members []sentence.View `json:"members"`
}

// Build makes the cluster of the given sentences, sorting them in place by
// id. Duplicated sentences (the same id twice) count once.
func Build(sents []sentence.Sentence) Cluster {
	slices.SortFunc(sents, func(a, b sentence.Sentence) int { return cmp.Compare(a.ID, b.ID) })
	sents = slices.CompactFunc(sents, func(a, b sentence.Sentence) bool { return a.ID == b.ID })
	c := Cluster{Size: len(sents), Members: make([]sentence.View, len(sents))}
	if len(sents) > 0 {
		c.ID = sents[0].ID.String()
	}
	var lastPage int64 = -1
	for i := range sents {
		c.Members[i] = sents[i].View()
		if p := sents[i].ID.Page(); p != lastPage {
			c.Pages++
			lastPage = p
		}
	}
	return c
}

// MarshalLine encodes the cluster as one JSON line (without the newline).
func (c Cluster) MarshalLine() ([]byte, error) { return result.JSONLine(c) }
