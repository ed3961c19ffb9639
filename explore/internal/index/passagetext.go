package index

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/passage"
	"github.com/neardup/neardup/transforms/sentence"
)

// Aligned is a row of a passage side by side: a sentence of document a
// and the sentence of b matched with it.
type Aligned struct {
	OrdA, OrdB   int // ordinals of the sentences in their documents
	TextA, TextB string
	// Jaccard is the pair's shingle Jaccard similarity, from the passage's
	// line; 0 when the texts come from the clusters.
	Jaccard float64
	// Cluster is the id of the cluster that holds both sentences, when the
	// texts come from the clusters.
	Cluster string
	// SkipA and SkipB are the sentences of each document between the
	// previous row's and this one's, which the passage skips.
	SkipA, SkipB int
}

// PassageText is a passage's matched sentences, aligned.
type PassageText struct {
	Rows []Aligned
	// FromClusters reports that the run's passages have no texts (no
	// --passage_text) and that the rows were found in the clusters: each
	// pairs a sentence of a with one of b in the same cluster, within
	// the passage's first and last ordinals.
	FromClusters bool
	// ClustersRead is how many clusters were read to find them, and
	// ClustersLeft how many more hold both documents but were not read
	// (beyond maxPassageClusters).
	ClustersRead, ClustersLeft int
}

// maxPassageClusters bounds the clusters read for a passage's texts.
const maxPassageClusters = 2000

// PassageText returns passage i's matched sentences: from its line if the
// run wrote their texts, else from the clusters that hold a sentence of
// each document.
func (r *Run) PassageText(ctx context.Context, i int) (PassageText, error) {
	p := r.ps.passages[i]
	if p.HasText {
		ms, err := r.ReadMatches(ctx, i)
		if err != nil {
			return PassageText{}, err
		}
		var t PassageText
		for _, m := range ms {
			t.Rows = append(t.Rows, Aligned{OrdA: m.A, OrdB: m.B, TextA: m.TextA, TextB: m.TextB, Jaccard: m.Jaccard})
		}
		setSkips(t.Rows)
		return t, nil
	}
	return r.passageFromClusters(ctx, p)
}

// passageFromClusters finds a passage's matched sentences in the clusters
// with members in both its documents.
func (r *Run) passageFromClusters(ctx context.Context, p Passage) (PassageText, error) {
	t := PassageText{FromClusters: true}
	ids := r.clustersOfBoth(p.A, p.B)
	if len(ids) > maxPassageClusters {
		t.ClustersLeft = len(ids) - maxPassageClusters
		ids = ids[:maxPassageClusters]
	}
	t.ClustersRead = len(ids)
	rows := make([][]Aligned, len(ids))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(16)
	for k, c := range ids {
		g.Go(func() error {
			cl, err := r.ReadCluster(gctx, c)
			if err != nil {
				return err
			}
			rows[k] = alignMembers(cl, p.A, p.B)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return PassageText{}, err
	}
	t.Rows = slices.Concat(rows...)
	slices.SortFunc(t.Rows, func(x, y Aligned) int { return cmp.Or(cmp.Compare(x.OrdA, y.OrdA), cmp.Compare(x.OrdB, y.OrdB)) })
	setSkips(t.Rows)
	return t, nil
}

// clustersOfBoth returns the clusters, in id order, with a member in the
// page of each document.
func (r *Run) clustersOfBoth(a, b passage.Document) []int {
	ia, okA := r.FindArticle(a.Wiki, a.PageID)
	ib, okB := r.FindArticle(b.Wiki, b.PageID)
	if !okA || !okB {
		return nil
	}
	var out []int
	for _, c := range r.byID {
		var hasA, hasB bool
		rc := &r.clusters[c]
		for _, x := range r.refs[rc.refs : rc.refs+rc.nrefs] {
			hasA, hasB = hasA || int(x) == ia, hasB || int(x) == ib
		}
		if hasA && hasB {
			out = append(out, int(c))
		}
	}
	return out
}

// alignMembers pairs the members of c in document a's passage with those
// in b's, in order of their ordinals.
func alignMembers(c categorize.Cluster, a, b passage.Document) []Aligned {
	var inA, inB []sentence.View
	for _, m := range c.Members {
		doc, _ := docOf(m.ID)
		switch {
		case doc == a.ID && m.Sentence >= a.First && m.Sentence <= a.Last:
			inA = append(inA, m)
		case doc == b.ID && m.Sentence >= b.First && m.Sentence <= b.Last:
			inB = append(inB, m)
		}
	}
	var out []Aligned
	for k := range min(len(inA), len(inB)) {
		out = append(out, Aligned{OrdA: inA[k].Sentence, OrdB: inB[k].Sentence, TextA: inA[k].Text, TextB: inB[k].Text, Cluster: c.ID})
	}
	return out
}

// docOf splits a sentence id, wiki:page_id:rev_id:sentence, into its
// document's id and its ordinal's text.
func docOf(id string) (doc, ord string) {
	i := strings.LastIndexByte(id, ':')
	if i < 0 {
		return "", ""
	}
	return id[:i], id[i+1:]
}

// setSkips sets each row's SkipA and SkipB.
func setSkips(rows []Aligned) {
	for k := 1; k < len(rows); k++ {
		rows[k].SkipA = max(0, rows[k].OrdA-rows[k-1].OrdA-1)
		rows[k].SkipB = max(0, rows[k].OrdB-rows[k-1].OrdB-1)
	}
}
