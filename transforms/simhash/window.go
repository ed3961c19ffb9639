package simhash

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"

	"github.com/neardup/neardup/internal/shuffle"
)

// Stats counts what the window stages saw; the fields are those of
// tally.Scheme.
type Stats struct {
	Entries       int64 // entries received, repeats included
	Groups        int64 // non-empty range shards of a permutation
	LargestGroup  int64 // distinct entries of the largest
	PairsCompared int64 // pairs of distinct sentences inside a window
	PairsFiltered int64 // compared pairs over the Hamming limit
	Candidates    int64 // compared pairs within it
}

// Add adds o to st; LargestGroup takes the larger.
func (st *Stats) Add(o Stats) {
	st.Entries += o.Entries
	st.Groups += o.Groups
	st.LargestGroup = max(st.LargestGroup, o.LargestGroup)
	st.PairsCompared += o.PairsCompared
	st.PairsFiltered += o.PairsFiltered
	st.Candidates += o.Candidates
}

// SortEntries sorts entries, pairs of (permuted signature, sentence id), by
// signature then id, in place, and returns them without repeats (a
// sentence read twice).
func SortEntries(entries []shuffle.Pair) []shuffle.Pair {
	shuffle.SortPairs(entries)
	return slices.Compact(entries)
}

// Window appends to dst the pair {min id, max id} of every two entries of
// sorted that are at most window-1 apart and whose signatures differ in at
// most maxHamming bits, in the order of the first entry, then the second.
// Entries of one id (a sentence whose copies differ) are not compared.
func Window(dst, sorted []shuffle.Pair, window, maxHamming int) ([]shuffle.Pair, Stats) {
	var st Stats
	for i, x := range sorted {
		for _, y := range sorted[i+1 : min(len(sorted), i+window)] {
			if x.B == y.B {
				continue
			}
			st.PairsCompared++
			if bits.OnesCount64(x.A^y.A) > maxHamming {
				st.PairsFiltered++
				continue
			}
			st.Candidates++
			dst = append(dst, shuffle.Pair{A: min(x.B, y.B), B: max(x.B, y.B)})
		}
	}
	return dst, st
}

// Seam is what a range shard of one permutation passes to the seam stage
// so that its entries are compared with the neighbouring shards' as in one
// sorted order: the window-1 entries at each end, or all of them when there
// are no more than 2(window-1).
type Seam struct {
	Shard      int  // the range shard, in the permutation's order
	Whole      bool // Head holds every entry of the shard, Tail none
	Head, Tail []shuffle.Pair
}

// SeamOf returns the seam of shard's sorted, distinct entries.
func SeamOf(shard int, sorted []shuffle.Pair, window int) Seam {
	end := window - 1
	if len(sorted) <= 2*end {
		return Seam{Shard: shard, Whole: true, Head: sorted}
	}
	return Seam{Shard: shard, Head: sorted[:end], Tail: sorted[len(sorted)-end:]}
}

// Batch encodes the seam as one KindWindows batch: a header pair (the
// shard, then the number of head entries shifted left by one, with the
// low bit set for a whole shard) followed by the head and tail entries.
func (s Seam) Batch() []byte {
	whole := uint64(0)
	if s.Whole {
		whole = 1
	}
	pairs := make([]shuffle.Pair, 0, 1+len(s.Head)+len(s.Tail))
	pairs = append(pairs, shuffle.Pair{A: uint64(s.Shard), B: uint64(len(s.Head))<<1 | whole})
	pairs = append(append(pairs, s.Head...), s.Tail...)
	return shuffle.KindWindows.PackPairs(pairs...)
}

// UnmarshalSeam decodes what Seam.Batch encoded.
func UnmarshalSeam(b []byte) (Seam, error) {
	pairs, err := shuffle.KindWindows.AppendPairs(nil, b)
	if err != nil {
		return Seam{}, fmt.Errorf("simhash: seam: %w", err)
	}
	if len(pairs) == 0 {
		return Seam{}, fmt.Errorf("simhash: seam without a header: %w", shuffle.ErrCorrupt)
	}
	h, rest := pairs[0], pairs[1:]
	head := h.B >> 1
	if head > uint64(len(rest)) || h.A > 1<<31 {
		return Seam{}, fmt.Errorf("simhash: seam header %v for %d entries: %w", h, len(rest), shuffle.ErrCorrupt)
	}
	s := Seam{Shard: int(h.A), Whole: h.B&1 == 1, Head: rest[:head], Tail: rest[head:]}
	if s.Whole && len(s.Tail) > 0 {
		return Seam{}, fmt.Errorf("simhash: whole seam of shard %d with a tail: %w", s.Shard, shuffle.ErrCorrupt)
	}
	return s, nil
}

// LinkSeams appends to dst the candidates Window would find, in the order
// of the shards' entries one after the other, between entries of different
// shards: seams holds the seam of every non-empty shard of one
// permutation, in any order. Entries of one shard are compared by Window.
func LinkSeams(dst []shuffle.Pair, seams []Seam, window, maxHamming int) ([]shuffle.Pair, Stats, error) {
	seams = slices.Clone(seams)
	slices.SortFunc(seams, func(a, b Seam) int { return cmp.Compare(a.Shard, b.Shard) })
	for i := 1; i < len(seams); i++ {
		if seams[i].Shard == seams[i-1].Shard {
			return dst, Stats{}, fmt.Errorf("simhash: two seams of shard %d", seams[i].Shard)
		}
	}
	// Each entry gets a position in the shards' concatenation; a shard's
	// middle, never sent, is a gap of window positions, wider than a window.
	type placed struct {
		pos   int
		shard int
		e     shuffle.Pair
	}
	var all []placed
	pos := 0
	for _, s := range seams {
		for _, e := range s.Head {
			all = append(all, placed{pos, s.Shard, e})
			pos++
		}
		if s.Whole {
			continue
		}
		pos += window
		for _, e := range s.Tail {
			all = append(all, placed{pos, s.Shard, e})
			pos++
		}
	}
	var st Stats
	for i, x := range all {
		for _, y := range all[i+1:] {
			if y.pos-x.pos >= window {
				break
			}
			if y.shard == x.shard || x.e.B == y.e.B {
				continue
			}
			st.PairsCompared++
			if bits.OnesCount64(x.e.A^y.e.A) > maxHamming {
				st.PairsFiltered++
				continue
			}
			st.Candidates++
			dst = append(dst, shuffle.Pair{A: min(x.e.B, y.e.B), B: max(x.e.B, y.e.B)})
		}
	}
	return dst, st, nil
}
