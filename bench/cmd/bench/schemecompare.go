package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// sentenceSet is the in-window sentences of an input, in the order of the
// first emitting run's sentences-*.jsonl; every scheme's run has the same.
type sentenceSet struct {
	IDs, Texts []string
	Index      map[string]int32 // id -> index
}

// edge is a pair of sentences (indices into a sentenceSet, A < B): a
// verified edge of a run, or an exact pair (Edit 0).
type edge struct {
	A, B          int32
	Jaccard, Edit float64
}

// schemeData is what a scheme's run with --emit_edges and --emit_sentences
// found, over the input's sentenceSet.
type schemeData struct {
	Labels []int32  // per sentence: its cluster's label, or -1 in none
	Names  []string // per label: the cluster's id
	Edges  []edge   // the verified edges
}

// schemeResult is one scheme's two runs on an input.
type schemeResult struct {
	Scheme schemeVariant
	Run    runResult   // without --emit_edges and --emit_sentences: the cost
	Data   *schemeData // from the run with them; nil if it failed
	Err    error
}

// schemeComparisonResult is every scheme's runs on one input and the
// input's exact pairs.
type schemeComparisonResult struct {
	Input     string
	Threshold float64    // of the exact pairs: the runs' Jaccard threshold
	Params    parameters // of the run the threshold is from
	Sentences *sentenceSet
	Exact     []edge // every pair of Jaccard ≥ Threshold, by the peer
	Schemes   []schemeResult
}

// eps absorbs rounding in threshold comparisons, as the peer's does.
const eps = 1e-9

// pairKey is an unordered pair of sentences, A < B.
type pairKey struct{ A, B int32 }

// pairRecall is how many exact pairs a scheme put in one cluster
// (Together) and how many it linked by a verified edge (Direct).
type pairRecall struct{ Pairs, Together, Direct int }

// recallOf measures a scheme's clusters and edges against the exact pairs:
// all of them, and those of Jaccard < 1 only (near but not identical).
func recallOf(exact []edge, d schemeData) (all, near pairRecall) {
	direct := make(map[pairKey]bool, len(d.Edges))
	for _, e := range d.Edges {
		direct[pairKey{e.A, e.B}] = true
	}
	for _, p := range exact {
		together := d.Labels[p.A] >= 0 && d.Labels[p.A] == d.Labels[p.B]
		linked := direct[pairKey{p.A, p.B}]
		for _, r := range []*pairRecall{&all, &near} {
			if r == &near && p.Jaccard >= 1-eps {
				continue
			}
			r.Pairs++
			if together {
				r.Together++
			}
			if linked {
				r.Direct++
			}
		}
	}
	return all, near
}

// edgesAtLeast counts the edges of Jaccard similarity ≥ t.
func edgesAtLeast(edges []edge, t float64) int {
	n := 0
	for _, e := range edges {
		if e.Jaccard >= t-eps {
			n++
		}
	}
	return n
}

// clusterComparison is how much of scheme X's clustering scheme Y has.
type clusterComparison struct {
	Clusters int     // clusters of X
	Missed   []int32 // X's clusters none of whose member pairs are together in Y, by label
	Partial  []int32 // X's other clusters with a member pair apart in Y, by label
	Pairs    int64   // pairs of sentences together in X
	Split    int64   // of them, apart in Y
}

// compareClusterings compares the clusters of x with those of y, two
// labellings of the same sentences (-1: in no cluster). It counts pairs
// per cluster, never listing them, so a large cluster costs its size.
func compareClusterings(x, y []int32) clusterComparison {
	var c clusterComparison
	members := map[int32][]int32{}
	for i, l := range x {
		if l >= 0 {
			members[l] = append(members[l], int32(i))
		}
	}
	labels := slices.Sorted(func(yield func(int32) bool) {
		for l := range members {
			if !yield(l) {
				return
			}
		}
	})
	c.Clusters = len(labels)
	for _, l := range labels {
		m := members[l]
		n := int64(len(m))
		count := map[int32]int64{}
		for _, i := range m {
			if y[i] >= 0 {
				count[y[i]]++
			}
		}
		var together int64
		for _, k := range count {
			together += k * (k - 1) / 2
		}
		pairs := n * (n - 1) / 2
		c.Pairs += pairs
		c.Split += pairs - together
		switch {
		case together == 0:
			c.Missed = append(c.Missed, l)
		case together < pairs:
			c.Partial = append(c.Partial, l)
		}
	}
	return c
}

// clustersWithPairs are the clusters of a labelling that hold both
// sentences of some of the pairs.
func clustersWithPairs(labels []int32, pairs []edge) map[int32]bool {
	with := map[int32]bool{}
	for _, p := range pairs {
		if l := labels[p.A]; l >= 0 && l == labels[p.B] {
			with[l] = true
		}
	}
	return with
}

// partition splits labels into those in set and the others, in order.
func partition(labels []int32, set map[int32]bool) (in, out []int32) {
	for _, l := range labels {
		if set[l] {
			in = append(in, l)
		} else {
			out = append(out, l)
		}
	}
	return in, out
}

// comparisonPairs are the comparisons of the schemes (indices into
// schemes): each with the first (the reference, oph), both ways, and exact
// with each simhash, both ways.
func comparisonPairs(schemes []schemeVariant) [][2]int {
	var out [][2]int
	if len(schemes) == 0 {
		return nil
	}
	for j := 1; j < len(schemes); j++ {
		out = append(out, [2]int{j, 0}, [2]int{0, j})
	}
	exact := slices.IndexFunc(schemes, func(s schemeVariant) bool { return s.ID == "exact" })
	if exact <= 0 {
		return out
	}
	for j, s := range schemes {
		if j > 0 && strings.HasPrefix(s.ID, "simhash") {
			out = append(out, [2]int{exact, j}, [2]int{j, exact})
		}
	}
	return out
}

// candidatePairs is the candidate pairs of a run: the buckets' star edges
// of a MinHash scheme, or the candidates of a scheme that bands nothing.
func candidatePairs(c counts) int64 {
	if c.Scheme != nil {
		return c.Scheme.Candidates
	}
	return c.Edges
}

// schemeCostColumns head the table of the schemes' cost and candidates.
var schemeCostColumns = []string{
	"input", "scheme", "wall s", "CPU s", "peak RSS MB", "candidate pairs", "candidate edges", "verified edges", "clusters", "sentences in clusters",
}

const schemeCostNote = "`candidate pairs`: MinHash schemes (oph, bands, weissman) the star edges of their buckets (summary `edges`), " +
	"simhash and exact the pairs their candidate stage emits (`counts.scheme.candidates`); `candidate edges`: the distinct pairs " +
	"sent to verification (`candidate_edges`); `verified edges`: those verification kept (`edges_verified`)."

// failedRow is a row of n cells for a run that failed.
func failedRow(n int, cells ...string) []string {
	row := make([]string, n)
	copy(row, cells)
	return row
}

// schemeCostRows formats the runs without --emit_* of every scheme.
func schemeCostRows(c schemeComparisonResult) [][]string {
	var rows [][]string
	for _, s := range c.Schemes {
		r := s.Run
		if r.Err != nil {
			rows = append(rows, failedRow(len(schemeCostColumns), c.Input, s.Scheme.Name, "failed: "+r.Err.Error()))
			continue
		}
		rows = append(rows, []string{
			c.Input, s.Scheme.Name,
			fmt.Sprintf("%.2f", r.Run.Wall.Seconds()),
			fmt.Sprintf("%.2f", r.Run.CPU.Seconds()),
			fmt.Sprintf("%.0f", float64(r.Run.PeakRSS)/mb),
			fmt.Sprint(candidatePairs(r.Counts)),
			fmt.Sprint(r.Counts.CandidateEdges),
			fmt.Sprint(r.Counts.EdgesVerified),
			fmt.Sprint(r.Counts.Clusters),
			fmt.Sprint(r.Counts.SentencesInClusters),
		})
	}
	return rows
}

// schemeQualityColumns head the table of recall and edges, t the
// threshold.
func schemeQualityColumns(t string) []string {
	return []string{
		"input", "scheme", "exact pairs J ≥ " + t, "recall", "as direct edge",
		t + " ≤ J < 1", "recall", "as direct edge", "verified edges", "edges at J ≥ " + t,
	}
}

func schemeQualityNote(t string) string {
	return "`recall`: the share of the exact pairs (every pair of in-window sentences whose shingle sets have Jaccard ≥ " + t +
		", found by the peer's prefix-filter join over the run's sentences-*.jsonl) whose two sentences are in one cluster; " +
		"`as direct edge`: the share that is itself a verified edge (edges-*.jsonl); the second pair of columns counts the near " +
		"but not identical pairs only (" + t + " ≤ J < 1). `edges at J ≥ " + t + "`: the share of verified edges whose Jaccard " +
		"is at least the threshold. This is not a precision: verification accepts a candidate pair at Jaccard ≥ --min_jaccard " +
		"(0.5) or normalised edit distance ≤ --max_edit (0.25), so every edge is a legitimate near duplicate by the pipeline's " +
		"own test, and a scheme that finds more of the pairs below the threshold (which it is not tuned for) scores lower here."
}

// share formats part/whole with 4 decimals, or "–" for no whole.
func share(part, whole int) string {
	if whole == 0 {
		return "–"
	}
	return fmt.Sprintf("%.4f", float64(part)/float64(whole))
}

// schemeQualityRows formats recall and edges of every scheme's run with
// --emit_edges and --emit_sentences.
func schemeQualityRows(c schemeComparisonResult) [][]string {
	var rows [][]string
	for _, s := range c.Schemes {
		if s.Err != nil || s.Data == nil {
			msg := "no run with --emit_*"
			if s.Err != nil {
				msg = "failed: " + s.Err.Error()
			}
			rows = append(rows, failedRow(len(schemeQualityColumns("")), c.Input, s.Scheme.Name, msg))
			continue
		}
		all, near := recallOf(c.Exact, *s.Data)
		n := len(s.Data.Edges)
		rows = append(rows, []string{
			c.Input, s.Scheme.Name,
			fmt.Sprint(all.Pairs), share(all.Together, all.Pairs), share(all.Direct, all.Pairs),
			fmt.Sprint(near.Pairs), share(near.Together, near.Pairs), share(near.Direct, near.Pairs),
			fmt.Sprint(n), share(edgesAtLeast(s.Data.Edges, c.Threshold), n),
		})
	}
	return rows
}

// comparisonColumns head the table of clusters one scheme finds and
// another misses.
func comparisonColumns(t string) []string {
	return []string{
		"input", "X", "Y", "clusters of X", "missed by Y", "of them with a pair J ≥ " + t, "split by Y", "pairs together in X", "apart in Y",
	}
}

func comparisonNote(t string) string {
	return "`missed by Y`: clusters of X none of whose member pairs are in one cluster of Y (Y has each member alone " +
		"or in different clusters), and how many of those hold an exact pair (Jaccard ≥ " + t + ", which a scheme tuned for " +
		t + " should find; the others are linked by pairs below it, which verification accepts); `split by Y`: the other " +
		"clusters of X with some member pair apart in Y; `apart in Y`: the pairs of sentences together in a cluster of X that are in no one cluster of Y (a pair is counted by sizes, never listed)."
}

// comparisonRows compares the clusterings of the schemes' runs.
func comparisonRows(c schemeComparisonResult) [][]string {
	var rows [][]string
	eachComparison(c, func(x, y schemeResult, cc clusterComparison, withPair, _ []int32) {
		rows = append(rows, []string{
			c.Input, x.Scheme.Name, y.Scheme.Name, fmt.Sprint(cc.Clusters), fmt.Sprint(len(cc.Missed)), fmt.Sprint(len(withPair)),
			fmt.Sprint(len(cc.Partial)), fmt.Sprint(cc.Pairs), fmt.Sprint(cc.Split),
		})
	})
	return rows
}

// eachComparison calls f with each comparison of two schemes of c whose
// runs with --emit_* succeeded, X's clusters compared with Y's, and the
// clusters Y missed split into those that hold an exact pair and the
// others.
func eachComparison(c schemeComparisonResult, f func(x, y schemeResult, cc clusterComparison, withPair, without []int32)) {
	for _, xy := range comparisonPairs(schemesOf(c)) {
		x, y := c.Schemes[xy[0]], c.Schemes[xy[1]]
		if x.Data == nil || y.Data == nil {
			continue
		}
		cc := compareClusterings(x.Data.Labels, y.Data.Labels)
		withPair, without := partition(cc.Missed, clustersWithPairs(x.Data.Labels, c.Exact))
		f(x, y, cc, withPair, without)
	}
}

func schemesOf(c schemeComparisonResult) []schemeVariant {
	s := make([]schemeVariant, len(c.Schemes))
	for i, r := range c.Schemes {
		s[i] = r.Scheme
	}
	return s
}

// examplesPerDirection is how many clusters missed (and how many split)
// the examples file shows for each comparison.
const examplesPerDirection = 3

// Most members and edges an example lists.
const (
	exampleMembers = 6
	exampleEdges   = 8
)

// writeExamples writes, for each comparison of the input's schemes, up to n
// clusters of X that Y missed and that hold an exact pair, n that Y missed
// and that hold none, and n that Y split, each evenly spaced among its
// kind: each member's id, its cluster in Y and its text, and X's verified
// edges and the exact pairs inside the cluster.
func writeExamples(w io.Writer, c schemeComparisonResult, n int) {
	fmt.Fprintf(w, "## %s\n\n", c.Input)
	t := fmt.Sprint(c.Threshold)
	eachComparison(c, func(x, y schemeResult, cc clusterComparison, withPair, without []int32) {
		fmt.Fprintf(w, "### %s finds, %s misses (%s): %d of %d clusters missed (%d with a pair J ≥ %s), %d split\n\n",
			x.Scheme.Name, y.Scheme.Name, c.Input, len(cc.Missed), cc.Clusters, len(withPair), t, len(cc.Partial))
		for _, part := range []struct {
			what   string
			labels []int32
		}{
			{"missed by " + y.Scheme.Name + ", with a pair J ≥ " + t, withPair},
			{"missed by " + y.Scheme.Name + ", every pair J < " + t, without},
			{"split by " + y.Scheme.Name, cc.Partial},
		} {
			for _, l := range spaced(part.labels, n) {
				writeExample(w, c, x, y, l, part.what)
			}
		}
	})
}

// writeExample writes X's cluster l, which Y missed or split.
func writeExample(w io.Writer, c schemeComparisonResult, x, y schemeResult, l int32, what string) {
	sents := c.Sentences
	var members []int32
	for i, m := range x.Data.Labels {
		if m == l {
			members = append(members, int32(i))
		}
	}
	fmt.Fprintf(w, "%s cluster %s (%d members), %s:\n\n", x.Scheme.Name, x.Data.Names[l], len(members), what)
	for _, i := range members[:min(len(members), exampleMembers)] {
		in := "in no cluster"
		if yl := y.Data.Labels[i]; yl >= 0 {
			in = "cluster " + y.Data.Names[yl]
		}
		fmt.Fprintf(w, "- `%s` (%s: %s): %s\n", sents.IDs[i], y.Scheme.Name, in, sents.Texts[i])
	}
	if len(members) > exampleMembers {
		fmt.Fprintf(w, "- … %d more\n", len(members)-exampleMembers)
	}
	fmt.Fprintf(w, "\n%s's verified edges in it: %s\n", x.Scheme.Name, edgesIn(sents, x.Data.Labels, l, x.Data.Edges, true))
	fmt.Fprintf(w, "exact pairs in it: %s\n\n", edgesIn(sents, x.Data.Labels, l, c.Exact, false))
}

// edgesIn lists the edges within cluster l of labels, at most
// exampleEdges of them, with their edit distances if edit.
func edgesIn(sents *sentenceSet, labels []int32, l int32, edges []edge, edit bool) string {
	var out []string
	for _, e := range edges {
		if labels[e.A] != l || labels[e.B] != l {
			continue
		}
		s := fmt.Sprintf("`%s`–`%s` J %.3f", sents.IDs[e.A], sents.IDs[e.B], e.Jaccard)
		if edit {
			s += fmt.Sprintf(" edit %.3f", e.Edit)
		}
		out = append(out, s)
	}
	switch {
	case len(out) == 0:
		return "none"
	case len(out) > exampleEdges:
		return strings.Join(out[:exampleEdges], "; ") + fmt.Sprintf("; … %d more", len(out)-exampleEdges)
	}
	return strings.Join(out, "; ")
}

// spaced returns up to n elements of xs, evenly spaced from the first.
func spaced[T any](xs []T, n int) []T {
	if len(xs) <= n {
		return xs
	}
	out := make([]T, n)
	for i := range out {
		out[i] = xs[i*len(xs)/n]
	}
	return out
}
