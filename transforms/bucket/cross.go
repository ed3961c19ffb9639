package bucket

import (
	"slices"

	"github.com/neardup/neardup/internal/shuffle"
)

// Cross is Stars for a run that compares two sides, such as web pages with
// Wikipedia articles, and needs every pair across them rather than the
// buckets' connected components: it sorts entries in place and appends to
// dst, for each bucket, an edge {U, V}, U < V, for every pair of a member
// of side A and one of side B (sideB reports the side of an id), and none
// between two members of one side. A star would link a web sentence to
// the bucket's anchor only, and its pairs with the other members, the
// articles it may really copy, would be lost.
//
// A bucket with more than maxPairs such pairs (a template sentence shared
// by thousands of articles) is linked by two stars instead, each member
// to the smallest member of the other side, and the pairs left out are
// counted in capped.
func Cross(dst []shuffle.Pair, entries []shuffle.Pair, sideB func(id uint64) bool, maxPairs int) (out []shuffle.Pair, st Stats, capped int64) {
	shuffle.SortPairs(entries)
	st.Entries = int64(len(entries))
	var a, b []uint64
	for i := 0; i < len(entries); {
		j := i + 1
		for j < len(entries) && entries[j].A == entries[i].A {
			j++
		}
		st.Buckets++
		a, b = split(a[:0], b[:0], entries[i:j], sideB)
		size := int64(len(a) + len(b))
		st.LargestSize = max(st.LargestSize, size)
		if size > 1 {
			st.MultiBuckets++
		}
		n := len(dst)
		if len(a)*len(b) <= maxPairs {
			dst = allPairs(dst, a, b)
		} else {
			dst = crossStars(dst, a, b)
			capped += int64(len(a)*len(b) - (len(dst) - n))
		}
		st.Edges += int64(len(dst) - n)
		i = j
	}
	return dst, st, capped
}

// split sorts the distinct member ids of one bucket's entries (sorted by
// id) by side.
func split(a, b []uint64, bucket []shuffle.Pair, sideB func(uint64) bool) ([]uint64, []uint64) {
	for k, e := range bucket {
		if k > 0 && e.B == bucket[k-1].B {
			continue // the same sentence twice under one key
		}
		if sideB(e.B) {
			b = append(b, e.B)
		} else {
			a = append(a, e.B)
		}
	}
	return a, b
}

// allPairs appends every pair of a member of a and one of b.
func allPairs(dst []shuffle.Pair, a, b []uint64) []shuffle.Pair {
	for _, u := range a {
		for _, v := range b {
			dst = append(dst, pairOf(u, v))
		}
	}
	return dst
}

// crossStars links each member of a to the smallest of b, and each other
// member of b to the smallest of a.
func crossStars(dst []shuffle.Pair, a, b []uint64) []shuffle.Pair {
	for _, u := range a {
		dst = append(dst, pairOf(u, b[0]))
	}
	for _, v := range b[1:] {
		dst = append(dst, pairOf(a[0], v))
	}
	return dst
}

func pairOf(u, v uint64) shuffle.Pair {
	return shuffle.Pair{A: min(u, v), B: max(u, v)}
}

// linkCross is link for Cross.
func linkCross(sideB func(uint64) bool, maxPairs int) func([]shuffle.Pair) (*linked, error) {
	return func(entries []shuffle.Pair) (*linked, error) {
		edges, st, capped := Cross(nil, entries, sideB, maxPairs)
		shuffle.SortPairs(edges)
		return &linked{edges: slices.Compact(edges), stats: st, capped: capped}, nil
	}
}
