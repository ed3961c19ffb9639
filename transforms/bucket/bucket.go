// Package bucket turns MinHash collisions into candidate edges.
//
// All sentences that share a band key form a bucket. Linking every pair of a
// bucket of n members would cost n² edges, and template buckets of 40,000
// sentences are real; since the pipeline only needs the bucket's connected
// component, a star is enough: the bucket's smallest sentence id (its
// anchor) is linked to each other member, n-1 edges in all.
package bucket

import (
	"slices"

	"github.com/neardup/neardup/internal/shuffle"
)

// Stats counts what Stars saw.
type Stats struct {
	Entries      int64 // (key, id) entries read
	Buckets      int64 // distinct band keys
	MultiBuckets int64 // buckets with at least two distinct members
	Edges        int64 // star edges emitted
	LargestSize  int64 // members of the largest bucket
}

// Stars sorts entries, pairs of (band key, sentence id), in place and appends
// to dst one edge {anchor, member} for every member of every bucket other
// than its anchor, the bucket's smallest id. Edges come out ordered by band
// key, then member id, so the result does not depend on the input's order.
func Stars(dst []shuffle.Pair, entries []shuffle.Pair) ([]shuffle.Pair, Stats) {
	shuffle.SortPairs(entries)
	dst = slices.Grow(dst, starEdges(entries))
	st := Stats{Entries: int64(len(entries))}
	for i := 0; i < len(entries); {
		j := i + 1
		for j < len(entries) && entries[j].A == entries[i].A {
			j++
		}
		st.Buckets++
		anchor, size := entries[i].B, int64(1)
		for k := i + 1; k < j; k++ {
			if entries[k].B == entries[k-1].B {
				continue // the same sentence twice under one key
			}
			dst = append(dst, shuffle.Pair{A: anchor, B: entries[k].B})
			size++
		}
		if size > 1 {
			st.MultiBuckets++
			st.Edges += size - 1
		}
		st.LargestSize = max(st.LargestSize, size)
		i = j
	}
	return dst, st
}

// starEdges counts the edges Stars makes of sorted entries: one for each
// entry that repeats its predecessor's key but not its id.
func starEdges(sorted []shuffle.Pair) int {
	n := 0
	for i := 1; i < len(sorted); i++ {
		if sorted[i].A == sorted[i-1].A && sorted[i].B != sorted[i-1].B {
			n++
		}
	}
	return n
}
