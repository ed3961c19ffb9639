// Package verify checks candidate pairs of near-duplicate sentences.
//
// MinHash collisions only estimate similarity, so a candidate pair found by a
// shared band key may be a false positive. Following Weissman et al. (second
// pass on the output) and Ayhan et al.'s edit-distance filter, a pair
// is kept if the exact Jaccard similarity of its two shingle sets reaches a
// minimum, or if its normalised Levenshtein distance stays under a maximum.
// Both measures are computed on the same normalised text the shingles come
// from (package shingle), so "The" and "the" do not count as an edit.
//
// The edit distance uses Ukkonen's cut-off: only the diagonal band of the
// dynamic-programming table that can still hold a path of cost <= limit is
// filled, and the computation stops as soon as every cell of a row, plus the
// cost still needed to reach the end, exceeds the limit. Dissimilar long
// pairs therefore cost little, and similar pairs cost O(n·d).
package verify

import (
	"math"
	"slices"

	"github.com/neardup/neardup/transforms/shingle"
)

// Similarity of two sentences.
type Similarity struct {
	// Jaccard is the exact Jaccard similarity of the two shingle sets.
	Jaccard float64 `json:"jaccard"`
	// Edit is the Levenshtein distance between the normalised texts, in
	// runes, divided by the rune length of the longer one (0 for two empty
	// texts).
	Edit float64 `json:"edit"`
}

// Thresholds decide which pairs are near duplicates.
type Thresholds struct {
	MinJaccard float64 // accept if Jaccard >= MinJaccard
	MaxEdit    float64 // accept if Edit <= MaxEdit
}

// DefaultThresholds returns a Jaccard minimum of 0.5 and an edit maximum of
// 0.25, Ayhan et al.'s "good pair" bound.
func DefaultThresholds() Thresholds { return Thresholds{MinJaccard: 0.5, MaxEdit: 0.25} }

// Accept reports whether s passes either threshold.
func (t Thresholds) Accept(s Similarity) bool {
	return s.Jaccard >= t.MinJaccard || s.Edit <= t.MaxEdit
}

// Set appends the distinct values of hashes to dst in increasing order and
// returns the extended slice. hashes is not modified.
func Set(dst []uint64, hashes []uint64) []uint64 {
	start := len(dst)
	dst = append(dst, hashes...)
	slices.Sort(dst[start:])
	set := slices.Compact(dst[start:])
	return dst[:start+len(set)]
}

// Jaccard returns |a ∩ b| / |a ∪ b| for two sets given as sorted slices of
// distinct values. Two empty sets are identical: their similarity is 1.
func Jaccard(a, b []uint64) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	common := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			common++
			i++
			j++
		}
	}
	return float64(common) / float64(len(a)+len(b)-common)
}

// EditDistance returns the Levenshtein distance between a and b (insertions,
// deletions and substitutions of runes, each costing 1) if it is at most
// limit, and limit+1 as soon as it knows the distance exceeds limit. A
// negative limit means no limit: the exact distance is returned.
func EditDistance(a, b []rune, limit int) int {
	d, _ := editDistance(a, b, limit, nil)
	return d
}

// editDistance is EditDistance using buf as scratch space; it returns the
// possibly grown buffer for reuse.
func editDistance(a, b []rune, limit int, buf []int) (int, []int) {
	a, b = trimCommon(a, b)
	if len(a) > len(b) {
		a, b = b, a
	}
	n, m := len(a), len(b)
	if limit < 0 {
		return exactDistance(a, b, buf)
	}
	if m-n > limit {
		return limit + 1, buf
	}
	if n == 0 {
		return m, buf
	}
	return bandedDistance(a, b, limit, buf)
}

// trimCommon drops the common prefix and suffix of a and b, which never
// change the distance.
func trimCommon(a, b []rune) ([]rune, []rune) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	a, b = a[p:], b[p:]
	s := 0
	for s < len(a) && s < len(b) && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return a[:len(a)-s], b[:len(b)-s]
}

// exactDistance finds the distance by Ukkonen's doubling: try a band for
// limit k and double k until the distance fits, so the cost is O(n·d) for a
// distance d. len(a) <= len(b).
func exactDistance(a, b []rune, buf []int) (int, []int) {
	m := len(b)
	if len(a) == 0 {
		return m, buf
	}
	k := max(16, m-len(a))
	for {
		k = min(k, m) // the distance never exceeds the longer length
		var d int
		d, buf = bandedDistance(a, b, k, buf)
		if d <= k || k == m {
			return d, buf
		}
		k *= 2
	}
}

// bandedDistance computes the distance between a and b, 0 < len(a) <=
// len(b), len(b)-len(a) <= limit, filling only the diagonals d = j-i that a
// path of cost <= limit can cross: |d| + |(m-n) - d| <= limit. It returns
// limit+1 once every cell of a row, plus the length difference still to be
// covered from it, exceeds limit.
func bandedDistance(a, b []rune, limit int, buf []int) (int, []int) {
	n, m := len(a), len(b)
	slack := (limit - (m - n)) / 2
	lo, hi := -slack, m-n+slack // diagonal range
	inf := limit + 1
	if cap(buf) < 2*(m+2) {
		buf = make([]int, 2*(m+2))
	}
	buf = buf[:2*(m+2)]
	prev, cur := buf[:m+2], buf[m+2:]

	// Row 0: D[0][j] = j inside the band.
	jmax := min(m, hi)
	for j := 0; j <= jmax; j++ {
		prev[j] = j
	}
	prev[jmax+1] = inf
	for i := 1; i <= n; i++ {
		jmin, jmax := max(0, i+lo), min(m, i+hi)
		if jmin > jmax {
			return inf, buf
		}
		best := inf
		if jmin > 0 {
			cur[jmin-1] = inf
		}
		ai := a[i-1]
		for j := jmin; j <= jmax; j++ {
			var v int
			if j == 0 {
				v = i
			} else {
				cost := 1
				if ai == b[j-1] {
					cost = 0
				}
				v = min(prev[j-1]+cost, prev[j]+1, cur[j-1]+1)
			}
			v = min(v, inf)
			cur[j] = v
			// Whatever path leaves (i, j) must still cover the
			// difference of the remaining lengths.
			if rest := v + abs((m-j)-(n-i)); rest < best {
				best = rest
			}
		}
		cur[jmax+1] = inf
		if best > limit {
			return inf, buf
		}
		prev, cur = cur, prev
	}
	return min(prev[m], inf), buf
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Checker compares sentences, reusing its buffers between calls. It is not
// safe for concurrent use; make one per worker.
type Checker struct {
	length int
	norm   shingle.Normalization
	t      Thresholds

	runesA, runesB  []rune
	hashesA         []uint64
	hashesB         []uint64
	overlap         overlap
	distanceScratch []int
}

// NewChecker returns a Checker for shingles of shingleLength runes of text
// normalised by norm, accepting pairs by t.
func NewChecker(shingleLength int, norm shingle.Normalization, t Thresholds) *Checker {
	return &Checker{length: shingleLength, norm: norm, t: t}
}

// Compare measures the similarity of a and b and reports whether the
// thresholds accept it.
//
// A text shorter than one shingle is treated as a single shingle of its
// whole normalised text, so two short texts have Jaccard 1 only when they
// are equal (an empty text has no shingle at all).
//
// Jaccard is always exact. Edit is exact whenever the pair is accepted: if
// Jaccard alone accepts, the distance is computed without a limit (its value
// is reported as the pair's cohesion). Otherwise only whether it is within
// MaxEdit matters, so the cut-off is set there; when it is exceeded the pair
// is rejected and Edit is a lower bound, the smallest value above MaxEdit
// that a whole number of edits can reach.
func (c *Checker) Compare(a, b string) (Similarity, bool) {
	c.runesA = c.norm.Normalize(c.runesA[:0], a)
	c.runesB = c.norm.Normalize(c.runesB[:0], b)
	c.hashesA = c.shingles(c.hashesA[:0], c.runesA)
	c.hashesB = c.shingles(c.hashesB[:0], c.runesB)
	s := Similarity{Jaccard: c.overlap.jaccard(c.hashesA, c.hashesB)}

	longer := max(len(c.runesA), len(c.runesB))
	if longer == 0 {
		return s, c.t.Accept(s)
	}
	limit := -1
	if s.Jaccard < c.t.MinJaccard || math.IsNaN(c.t.MinJaccard) {
		limit = editLimit(c.t.MaxEdit, longer)
	}
	var d int
	d, c.distanceScratch = editDistance(c.runesA, c.runesB, limit, c.distanceScratch)
	s.Edit = float64(d) / float64(longer)
	return s, c.t.Accept(s)
}

// shingles appends the shingle hashes of runes to dst.
func (c *Checker) shingles(dst []uint64, runes []rune) []uint64 {
	length := c.length
	if len(runes) < length {
		length = len(runes)
	}
	return shingle.AppendHashes(dst, runes, length)
}

// overlap measures the Jaccard similarity of two multisets of well-mixed
// hashes, as sets, with one open-addressing table instead of two sorts
// (BenchmarkJaccard: several times faster on sentence-sized sets). It
// gives exactly Jaccard(Set(a), Set(b)).
type overlap struct {
	keys []uint64
	seen []uint8 // 0 empty; bit 1: in a; bit 2: in b
}

func (o *overlap) jaccard(a, b []uint64) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	bits := 4
	for 1<<bits < 2*(len(a)+len(b)) {
		bits++
	}
	size := 1 << bits
	if cap(o.keys) < size {
		o.keys, o.seen = make([]uint64, size), make([]uint8, size)
	}
	o.keys, o.seen = o.keys[:size], o.seen[:size]
	clear(o.seen)
	shift, mask := uint(64-bits), size-1
	var inA, inB, both int
	for _, x := range a {
		i := o.slot(x, shift, mask)
		if o.seen[i] == 0 {
			o.keys[i], o.seen[i] = x, 1
			inA++
		}
	}
	for _, x := range b {
		i := o.slot(x, shift, mask)
		switch o.seen[i] {
		case 0:
			o.keys[i], o.seen[i] = x, 2
			inB++
		case 1:
			o.seen[i] = 3
			inB++
			both++
		}
	}
	return float64(both) / float64(inA+inB-both)
}

// slot returns the slot holding x, or the empty slot where it belongs.
func (o *overlap) slot(x uint64, shift uint, mask int) int {
	i := int(shingle.Mix(x) >> shift)
	for o.seen[i] != 0 && o.keys[i] != x {
		i = (i + 1) & mask
	}
	return i
}

// editLimit returns the largest number of edits d with d/longer <= maxEdit,
// clamped to [0, longer]. With a maximum below 0 no distance can pass, and 0
// still tells equal texts from different ones.
func editLimit(maxEdit float64, longer int) int {
	if !(maxEdit >= 0) { // negative or NaN
		return 0
	}
	if maxEdit >= 1 {
		return longer
	}
	d := int(math.Floor(maxEdit * float64(longer)))
	// Correct the rounding of the product so the bound matches Accept's
	// float comparison exactly.
	for d+1 <= longer && float64(d+1)/float64(longer) <= maxEdit {
		d++
	}
	for d > 0 && float64(d)/float64(longer) > maxEdit {
		d--
	}
	return d
}
