// Package passage finds passages that two documents share: runs of
// near-duplicate sentences that follow each other in both, as Zhang et al.
// (PDC-MR, seed 004) extract partial duplicates from the sentence
// duplicates of a document pair.
//
// The verified sentence pairs of two documents form a dot plot: a point
// (a, b) for each pair of a sentence at rank a of the first document and
// one at rank b of the second. A copied passage is a diagonal run of
// points. Ranks count only the sentences the pipeline signed (those inside
// the length window), so that a sentence too short or too long to be
// matched never breaks a run. A run may skip up to Config.Gap unmatched
// sentences on either side between two of its points: a reworded sentence,
// or one dropped from or added to the copy. Runs of at least
// Config.MinMatches points are passages, and so are the shorter runs of a
// document pair whose runs together cover at least Config.MinCoverage of
// the in-window sentences of the pair's shorter document (Config.Select): a
// sentence or two copied into a short document is a partial duplicate of
// it, a sentence that two long documents share is not.
//
// Find is the sequence matching of one document pair, in O(k log k) for k
// points: sort, chain each point to the longest run ending one step before
// it (looked up in a hash map), then take the longest runs first.
package passage

import (
	"cmp"
	"slices"
)

// Point is one verified sentence pair of a document pair: the sentences'
// ranks among their documents' in-window sentences, their ordinals (their
// positions among all of their documents' sentences, as in the outputs)
// and the pair's Jaccard similarity.
type Point struct {
	RankA, RankB int
	OrdA, OrdB   int
	Jaccard      float64
}

// comparePoints orders points by rank in the first document, then in the
// second.
func comparePoints(x, y Point) int {
	return cmp.Or(cmp.Compare(x.RankA, y.RankA), cmp.Compare(x.RankB, y.RankB))
}

// Config says what a passage is.
type Config struct {
	// Gap is how many unmatched in-window sentences a passage may skip
	// between two consecutive matches, in either document.
	Gap int
	// MinMatches is the fewest matched sentence pairs of a passage.
	MinMatches int
	// MinCoverage keeps a document pair's shorter runs too when its runs
	// together cover at least this share of the in-window sentences of
	// the pair's shorter document (Select); 0 keeps only runs of
	// MinMatches.
	MinCoverage float64
}

// DefaultConfig is the pipeline's default: a gap of one sentence, three
// matches (the paper's γ), or shorter runs covering DefaultMinCoverage of
// the shorter document.
func DefaultConfig() Config { return Config{Gap: 1, MinMatches: 3, MinCoverage: DefaultMinCoverage} }

// DefaultMinCoverage is the default Config.MinCoverage: one sentence of a
// document of six in-window sentences, two of thirteen. On the short
// copies of TestShortCopyEvaluation (docs/outputs.md) it finds every copy
// of 3 sentences and of 2–3 scattered ones, 89% of the copies of two and
// the single sentences copied into documents of six, and links no
// document that shared no sentence before. At 0.1 it would find single
// sentences in documents of up to ten too, but on ukwiki's sample it
// would also make passages of 140 more single template sentences that a
// page of nine to ten shares with the pages of its series (616 passages
// against 476; 165 with the rule off); at 0.2 it finds half the copies of
// two sentences.
const DefaultMinCoverage = 0.15

// shortest is the fewest matches of a run Find returns: every run when
// short ones may be kept by their coverage.
func (c Config) shortest() int {
	if c.MinCoverage > 0 {
		return 1
	}
	return c.MinMatches
}

// Select returns the passages among runs, the runs Find found for a
// document pair whose documents have sizeA and sizeB in-window sentences:
// the runs of at least MinMatches matches, and all of them if, together,
// they cover at least MinCoverage of the shorter document (Coverage).
// runs keep their order.
func (c Config) Select(runs []Passage, sizeA, sizeB int) []Passage {
	if c.MinCoverage > 0 && Coverage(runs, sizeA, sizeB) >= c.MinCoverage {
		return runs
	}
	return slices.DeleteFunc(runs, func(p Passage) bool { return len(p.Points) < c.MinMatches })
}

// MayKeep reports whether Select may keep some of runs, whatever the
// documents' sizes: if one is long enough, or if they could cover
// MinCoverage of a document as short as the ranks they reach allow. It
// lets a stage drop a document pair before it learns the sizes.
func (c Config) MayKeep(runs []Passage) bool {
	if slices.ContainsFunc(runs, func(p Passage) bool { return len(p.Points) >= c.MinMatches }) {
		return true
	}
	if c.MinCoverage <= 0 || len(runs) == 0 {
		return false
	}
	minA, minB := 0, 0 // the fewest in-window sentences each document can have
	for _, p := range runs {
		minA, minB = max(minA, p.Last().RankA+1), max(minB, p.Last().RankB+1)
	}
	covA, covB := Covered(runs)
	return max(float64(covA)/float64(minA), float64(covB)/float64(minB)) >= c.MinCoverage
}

// Coverage is the share of the in-window sentences of the shorter of two
// documents, of sizeA and sizeB, that runs cover together (Covered); of
// two documents of one size, the larger of their shares.
func Coverage(runs []Passage, sizeA, sizeB int) float64 {
	covA, covB := Covered(runs)
	shareA, shareB := float64(covA)/float64(max(sizeA, 1)), float64(covB)/float64(max(sizeB, 1))
	switch {
	case sizeA < sizeB:
		return shareA
	case sizeB < sizeA:
		return shareB
	}
	return max(shareA, shareB)
}

// Passage is a run of matched sentences shared by two documents.
type Passage struct {
	// Points are the run's matches in order; both ranks increase.
	Points []Point
}

// First and Last are the passage's first and last matches.
func (p Passage) First() Point { return p.Points[0] }
func (p Passage) Last() Point  { return p.Points[len(p.Points)-1] }

// MeanJaccard is the mean similarity of the passage's matches.
func (p Passage) MeanJaccard() float64 {
	sum := 0.0
	for _, pt := range p.Points {
		sum += pt.Jaccard
	}
	return sum / float64(len(p.Points))
}

// Spans are how many in-window sentences the passage spans in each
// document, from its first match to its last.
func (p Passage) Spans() (a, b int) {
	return p.Last().RankA - p.First().RankA + 1, p.Last().RankB - p.First().RankB + 1
}

// step is one way to go from a run's last point to the next: da and db
// ranks further on.
type step struct{ da, db int }

// steps lists the steps a gap allows, best first: the diagonal, then the
// shortest detours (a sentence skipped in one document before one skipped
// in both), the straighter first.
func steps(gap int) []step {
	var out []step
	for da := 1; da <= gap+1; da++ {
		for db := 1; db <= gap+1; db++ {
			out = append(out, step{da, db})
		}
	}
	slices.SortStableFunc(out, func(x, y step) int {
		return cmp.Or(cmp.Compare(x.da+x.db, y.da+y.db), cmp.Compare(abs(x.da-x.db), abs(y.da-y.db)), cmp.Compare(x.da, y.da))
	})
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Finder finds the passages of document pairs, reusing its buffers. It is
// not safe for concurrent use.
type Finder struct {
	cfg   Config
	steps []step
	at    map[[2]int]int // a point's ranks → its index
	chain []link
	order []int
}

// link is what chaining knows of a point: the longest run ending at it and
// the point before it in that run (-1: none), and whether a run took it.
type link struct {
	length, prev int
	used         bool
}

// NewFinder returns a Finder of the passages cfg describes.
func NewFinder(cfg Config) *Finder {
	return &Finder{cfg: cfg, steps: steps(max(cfg.Gap, 0)), at: map[[2]int]int{}}
}

// Find returns the runs of one document pair whose matches are points, in
// order of their first match: its passages if Config.MinCoverage is 0,
// else every run, for Config.Select to choose from once the documents'
// sizes are known. It sorts points in place; a point whose ranks repeat
// an earlier one's is ignored (of two, the more similar is kept).
//
// Runs are chained as in sequence alignment: in rank order, each point
// extends the longest run that ends one allowed step before it (of equal
// runs, the one the straighter step reaches). The longest runs are then
// taken first, each point once: a run that meets a point a longer run
// took stops there. A sentence matched twice (a sentence repeated in one
// document) so does not split a passage.
func (f *Finder) Find(points []Point) []Passage {
	slices.SortFunc(points, func(x, y Point) int { return cmp.Or(comparePoints(x, y), cmp.Compare(y.Jaccard, x.Jaccard)) })
	points = slices.CompactFunc(points, func(x, y Point) bool { return comparePoints(x, y) == 0 })
	f.link(points)
	f.order = f.order[:0]
	for i := range points {
		f.order = append(f.order, i)
	}
	slices.SortStableFunc(f.order, func(i, j int) int { return cmp.Compare(f.chain[j].length, f.chain[i].length) })
	var out []Passage
	for _, end := range f.order {
		var run []Point
		for i := end; i >= 0 && !f.chain[i].used; i = f.chain[i].prev {
			f.chain[i].used = true
			run = append(run, points[i])
		}
		if len(run) >= f.cfg.shortest() {
			slices.Reverse(run)
			out = append(out, Passage{Points: run})
		}
	}
	slices.SortFunc(out, func(x, y Passage) int { return comparePoints(x.First(), y.First()) })
	return out
}

// link computes the longest run ending at each of the sorted points.
func (f *Finder) link(points []Point) {
	clear(f.at)
	f.chain = slices.Grow(f.chain[:0], len(points))[:len(points)]
	for i, pt := range points {
		best := link{length: 1, prev: -1}
		for _, s := range f.steps {
			j, ok := f.at[[2]int{pt.RankA - s.da, pt.RankB - s.db}]
			if ok && f.chain[j].length+1 > best.length {
				best = link{length: f.chain[j].length + 1, prev: j}
			}
		}
		f.chain[i] = best
		f.at[[2]int{pt.RankA, pt.RankB}] = i
	}
}

// Covered is how many in-window sentences of each document the passages
// cover together: the size of the union of their spans, so that passages
// overlapping in one document count its sentences once.
func Covered(ps []Passage) (a, b int) {
	spansA := make([][2]int, len(ps))
	spansB := make([][2]int, len(ps))
	for i, p := range ps {
		spansA[i] = [2]int{p.First().RankA, p.Last().RankA}
		spansB[i] = [2]int{p.First().RankB, p.Last().RankB}
	}
	return union(spansA), union(spansB)
}

// union is the number of integers in the union of the closed intervals.
func union(spans [][2]int) int {
	slices.SortFunc(spans, func(x, y [2]int) int { return cmp.Compare(x[0], y[0]) })
	n, end := 0, -1
	for _, s := range spans {
		lo := max(s[0], end+1)
		if s[1] >= lo {
			n += s[1] - lo + 1
		}
		end = max(end, s[1])
	}
	return n
}
