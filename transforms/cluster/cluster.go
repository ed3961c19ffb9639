// Package cluster assembles connected components of sentences into the
// clusters the pipeline reports: members and the cohesion of their verified
// edges (package categorize then names their kind).
//
// A cluster is identified by its smallest sentence id, so its id depends only
// on its members, never on the order in which a runner delivered them.
package cluster

import (
	"cmp"
	"math"
	"slices"

	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/verify"
)

// Cluster is a set of near-duplicate sentences.
type Cluster struct {
	Root     uint64          // its component's label, the smallest member id: the output's sort key (set by Assemble)
	ID       string          // wiki:page_id:rev_id:sentence of its first member
	Size     int             // number of members
	Pages    int             // number of distinct pages
	Cohesion Cohesion        // of the verified edges inside the cluster
	Members  []sentence.View // all members, or a sample (see Build)
	// MembersOmitted is how many members are not in Members: a cluster of
	// more than the cap keeps a sample (see Build).
	MembersOmitted int
}

// DefaultMaxMembers is the members a cluster line holds at most by default:
// a template repeated on a million pages would otherwise make one line of
// hundreds of megabytes that no reader can open.
const DefaultMaxMembers = 1000

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

// sampleOf returns sents, or if there are more than max (max > 0), max of
// them evenly spaced from the first.
func sampleOf(sents []sentence.Sentence, max int) []sentence.Sentence {
	if max <= 0 || len(sents) <= max {
		return sents
	}
	out := make([]sentence.Sentence, max)
	for i := range out {
		out[i] = sents[i*len(sents)/max]
	}
	return out
}

// round keeps four decimals, so output does not depend on summation order
// beyond what a reader can see.
func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// Build makes the cluster of the given sentences and edge similarities,
// sorting them in place by wiki, page id, revision id and ordinal, and
// returns it with its pairs of pages (see PagePairs). Duplicated sentences
// (the same id twice: a page revision read twice) count once; of two
// copies under different titles (the page was moved between two dumps) the
// first title in order is kept.
//
// A cluster of more than maxMembers sentences (0: no cap) lists a sample
// of maxMembers of them, evenly spaced in that order from the first (and
// is categorised on the sample); its size, pages, cohesion and page pairs
// count every member, and MembersOmitted says how many are left out.
func Build(sents []sentence.Sentence, sims []verify.Similarity, maxMembers int) (Cluster, []PagePair) {
	slices.SortFunc(sents, func(a, b sentence.Sentence) int {
		return cmp.Or(cmp.Compare(a.Wiki, b.Wiki), cmp.Compare(a.PageID, b.PageID), cmp.Compare(a.RevID, b.RevID),
			cmp.Compare(a.ID, b.ID), cmp.Compare(a.Title, b.Title))
	})
	sents = slices.CompactFunc(sents, func(a, b sentence.Sentence) bool { return a.ID == b.ID })
	slices.SortFunc(sims, func(a, b verify.Similarity) int {
		return cmp.Or(cmp.Compare(a.Jaccard, b.Jaccard), cmp.Compare(a.Edit, b.Edit))
	})
	c := Cluster{Size: len(sents), Cohesion: NewCohesion(sims)}
	if len(sents) > 0 {
		c.ID = sents[0].Key()
	}
	var pages []sentence.View // one member of each distinct page, in order
	seen := map[pageKey]bool{}
	for i := range sents {
		if k := (pageKey{sents[i].Wiki, sents[i].PageID}); !seen[k] {
			seen[k] = true
			pages = append(pages, sents[i].View())
		}
	}
	c.Pages = len(pages)
	sample := sampleOf(sents, maxMembers)
	c.MembersOmitted = len(sents) - len(sample)
	c.Members = make([]sentence.View, len(sample))
	for i := range sample {
		c.Members[i] = sample[i].View()
	}
	return c, pagePairs(pages)
}

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

// pagePairs returns the distinct pairs of the given pages (one member
// each), or nothing if there are more than MaxPagesForPairs.
func pagePairs(pages []sentence.View) []PagePair {
	if len(pages) < 2 || len(pages) > MaxPagesForPairs {
		return nil
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
