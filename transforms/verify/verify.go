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
// Whether the edit distance is within a limit is decided by Ukkonen's
// cut-off (a diagonal band, abandoned once no path can stay under the
// limit), so dissimilar long pairs cost little; the exact distance that
// accepted pairs report comes from Myers' bit-parallel algorithm, 64 rows
// of a column per word operation (bench/README.md, "Figures moved out of
// code comments"). The rules: docs/categories.md, "Verification".
package verify

import (
	"math"
	"slices"

	"github.com/neardup/neardup/internal/hashmix"

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
	return new(distanceScratch).distance(a, b, limit)
}

// distanceScratch is the reusable space of the edit distance algorithms.
type distanceScratch struct {
	band  []int // two rows of the banded table
	myers myers
}

// distance is EditDistance using s's space.
func (s *distanceScratch) distance(a, b []rune, limit int) int {
	a, b = trimCommon(a, b)
	if len(a) > len(b) {
		a, b = b, a
	}
	n, m := len(a), len(b)
	if n == 0 {
		if limit >= 0 && m > limit {
			return limit + 1
		}
		return m
	}
	if limit < 0 {
		return s.myers.distance(a, b)
	}
	if m-n > limit {
		return limit + 1
	}
	var d int
	d, s.band = bandedDistance(a, b, limit, s.band)
	return d
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

// myers computes exact distances with Myers' bit-parallel algorithm in
// Hyyrö's blocked form (Myers 1999, "A fast bit-vector algorithm for
// approximate string matching based on dynamic programming"; Hyyrö 2003):
// a column of the table is kept as bit vectors of +1 and −1 vertical
// steps, 64 rows to a word, so a column costs a few word operations per
// block instead of one cell per row. A sentence of 150 runes is three
// blocks.
type myers struct {
	keys    []rune   // open-addressing table of the runes of the pattern
	slots   []int32  // 0 empty, else 1 + the rune's row in masks
	masks   []uint64 // row r (blocks words): the positions of rune r in the pattern
	pv, mv  []uint64 // vertical +1 and −1 steps of the current column, by block
	words   int
	tabBits uint
}

// distance returns the edit distance of pattern a and text b, 0 < len(a).
func (s *myers) distance(a, b []rune) int {
	s.index(a)
	words, m := s.words, len(a)
	last := uint64(1) << uint((m-1)%64)
	for w := range words {
		s.pv[w], s.mv[w] = ^uint64(0), 0 // D[i][0] = i
	}
	score := m
	for _, c := range b {
		eq := s.masks[s.row(c)*words:][:words]
		hin := 1 // D[0][j] = j: the top row steps by +1
		for w := range words {
			high := uint64(1) << 63
			if w == words-1 {
				high = last
			}
			hin = step(&s.pv[w], &s.mv[w], eq[w], hin, high)
		}
		score += hin
	}
	return score
}

// step advances one block of a column by one text character whose match
// vector is eq, given the horizontal step hin entering the block's top,
// and returns the step leaving the row marked by high.
func step(pv, mv *uint64, eq uint64, hin int, high uint64) int {
	p, m := *pv, *mv
	xv := eq | m
	if hin < 0 {
		eq |= 1
	}
	xh := (((eq & p) + p) ^ p) | eq
	ph := m | ^(xh | p)
	mh := p & xh
	hout := 0
	if ph&high != 0 {
		hout = 1
	} else if mh&high != 0 {
		hout = -1
	}
	ph, mh = ph<<1, mh<<1
	if hin < 0 {
		mh |= 1
	} else if hin > 0 {
		ph |= 1
	}
	*pv, *mv = mh|^(xv|ph), ph&xv
	return hout
}

// index builds the match vectors of pattern a.
func (s *myers) index(a []rune) {
	s.words = (len(a) + 63) / 64
	s.tabBits = 4
	for 1<<s.tabBits < 2*len(a) {
		s.tabBits++
	}
	size := 1 << s.tabBits
	s.keys = slices.Grow(s.keys[:0], size)[:size]
	s.slots = slices.Grow(s.slots[:0], size)[:size]
	clear(s.slots)
	s.masks = slices.Grow(s.masks[:0], s.words)[:s.words] // row 0: runes not in a
	clear(s.masks)
	s.pv = slices.Grow(s.pv[:0], s.words)[:s.words]
	s.mv = slices.Grow(s.mv[:0], s.words)[:s.words]
	for i, c := range a {
		j := s.slot(c)
		if s.slots[j] == 0 {
			s.keys[j] = c
			s.slots[j] = int32(len(s.masks) / s.words)
			n := len(s.masks)
			s.masks = slices.Grow(s.masks, s.words)[:n+s.words]
			clear(s.masks[n:])
		}
		s.masks[int(s.slots[j])*s.words+i/64] |= 1 << uint(i%64)
	}
}

// slot finds c's slot in the table, or the empty slot where it belongs.
func (s *myers) slot(c rune) int {
	mask := 1<<s.tabBits - 1
	j := int(uint32(c)*0x9e3779b1>>(32-s.tabBits)) & mask
	for s.slots[j] != 0 && s.keys[j] != c {
		j = (j + 1) & mask
	}
	return j
}

// row is the row of c's match vector in masks: 0 if c is not in the
// pattern.
func (s *myers) row(c rune) int { return int(s.slots[s.slot(c)]) }

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

	runesA, runesB []rune
	hashesA        []uint64
	hashesB        []uint64
	overlap        overlap
	scratch        distanceScratch
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
	d := c.scratch.distance(c.runesA, c.runesB, limit)
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
	i := int(hashmix.Splitmix64(x) >> shift)
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
