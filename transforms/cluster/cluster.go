// Package cluster assembles connected components of sentences into the
// clusters the pipeline reports: members, the cohesion of their verified
// edges, and their category with its evidence.
//
// A cluster is identified by its smallest sentence id, so its id depends only
// on its members, never on the order in which a runner delivered them.
package cluster

import (
	"cmp"
	"math"
	"slices"

	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/verify"
)

// Cluster is a set of near-duplicate sentences.
type Cluster struct {
	ID       string              `json:"id"`    // page_id:sentence of its first member
	Size     int                 `json:"size"`  // number of members
	Pages    int                 `json:"pages"` // number of distinct pages
	Category string              `json:"category"`
	Evidence categorize.Evidence `json:"evidence"`
	Cohesion Cohesion            `json:"cohesion"`
	Members  []sentence.View     `json:"members"`
}

// Cohesion summarises the verified edges that hold a cluster together.
type Cohesion struct {
	Edges       int     `json:"edges"`        // verified edges inside the cluster
	MinJaccard  float64 `json:"min_jaccard"`  // lowest shingle Jaccard similarity of an edge
	MeanJaccard float64 `json:"mean_jaccard"` // mean Jaccard similarity of the edges
	MaxEdit     float64 `json:"max_edit"`     // largest normalised edit distance of an edge
	MeanEdit    float64 `json:"mean_edit"`    // mean normalised edit distance of the edges
}

// NewCohesion summarises the similarities of a cluster's edges.
func NewCohesion(sims []verify.Similarity) Cohesion {
	if len(sims) == 0 {
		return Cohesion{}
	}
	c := Cohesion{Edges: len(sims), MinJaccard: math.Inf(1)}
	for _, s := range sims {
		c.MinJaccard = min(c.MinJaccard, s.Jaccard)
		c.MaxEdit = max(c.MaxEdit, s.Edit)
		c.MeanJaccard += s.Jaccard
		c.MeanEdit += s.Edit
	}
	c.MeanJaccard = round(c.MeanJaccard / float64(len(sims)))
	c.MeanEdit = round(c.MeanEdit / float64(len(sims)))
	c.MinJaccard, c.MaxEdit = round(c.MinJaccard), round(c.MaxEdit)
	return c
}

// round keeps four decimals, so output does not depend on summation order
// beyond what a reader can see.
func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// Build makes the cluster of the given sentences and edge similarities,
// sorting them in place by wiki, page id, revision id and ordinal.
// Duplicated sentences (the same id twice: a page revision read twice)
// count once; of two copies under different titles (the page was moved
// between two dumps) the first title in order is kept.
func Build(sents []sentence.Sentence, sims []verify.Similarity) Cluster {
	slices.SortFunc(sents, func(a, b sentence.Sentence) int {
		return cmp.Or(cmp.Compare(a.Wiki, b.Wiki), cmp.Compare(a.PageID, b.PageID), cmp.Compare(a.RevID, b.RevID),
			cmp.Compare(a.ID, b.ID), cmp.Compare(a.Title, b.Title))
	})
	sents = slices.CompactFunc(sents, func(a, b sentence.Sentence) bool { return a.ID == b.ID })
	slices.SortFunc(sims, func(a, b verify.Similarity) int {
		return cmp.Or(cmp.Compare(a.Jaccard, b.Jaccard), cmp.Compare(a.Edit, b.Edit))
	})
	c := Cluster{Size: len(sents), Members: make([]sentence.View, len(sents)), Cohesion: NewCohesion(sims)}
	if len(sents) > 0 {
		c.ID = sents[0].Key()
	}
	members := make([]categorize.Member, len(sents))
	pages := map[pageKey]bool{}
	for i := range sents {
		v := sents[i].View()
		c.Members[i] = v
		members[i] = categorize.Member{Title: v.Title, Section: v.Section, Context: v.Context, Text: v.Text}
		pages[pageKey{v.Wiki, v.PageID}] = true
	}
	c.Pages = len(pages)
	r := categorize.Classify(members)
	c.Category, c.Evidence = r.Category, r.Evidence
	return c
}

// MarshalLine encodes the cluster as one JSON line (without the newline).
func (c Cluster) MarshalLine() ([]byte, error) { return result.JSONLine(c) }

// MaxPagesForPairs bounds the clusters whose page pairs are counted: a
// template cluster over thousands of pages would add millions of pairs, each
// sharing one sentence, and say nothing about which articles copy each other.
const MaxPagesForPairs = 50

// pageKey identifies a page among the wikis of a run.
type pageKey struct {
	wiki string
	id   int64
}

// PagePair is two pages (ordered by wiki, then id) that share a
// near-duplicate sentence.
type PagePair struct {
	WikiA, WikiB   string
	A, B           int64
	TitleA, TitleB string
}

// PagePairs returns the distinct pairs of pages among the cluster's members,
// or nothing if the cluster spans more than MaxPagesForPairs pages.
func (c Cluster) PagePairs() []PagePair {
	if c.Pages < 2 || c.Pages > MaxPagesForPairs {
		return nil
	}
	seen := map[pageKey]bool{}
	var pages []sentence.View
	for _, m := range c.Members {
		if k := (pageKey{m.Wiki, m.PageID}); !seen[k] {
			seen[k] = true
			pages = append(pages, m)
		}
	}
	slices.SortFunc(pages, func(a, b sentence.View) int {
		return cmp.Or(cmp.Compare(a.Wiki, b.Wiki), cmp.Compare(a.PageID, b.PageID))
	})
	var out []PagePair
	for i, a := range pages {
		for _, b := range pages[i+1:] {
			out = append(out, PagePair{WikiA: a.Wiki, A: a.PageID, WikiB: b.Wiki, B: b.PageID, TitleA: a.Title, TitleB: b.Title})
		}
	}
	return out
}
