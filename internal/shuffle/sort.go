package shuffle

import (
	"cmp"
	"math/bits"
	"slices"
)

// ComparePairs orders pairs by A, then by B.
func ComparePairs(x, y Pair) int {
	if c := cmp.Compare(x.A, y.A); c != 0 {
		return c
	}
	return cmp.Compare(x.B, y.B)
}

// pairsPerBucket is the mean bucket size SortPairs aims at.
const pairsPerBucket = 4

// SortPairs sorts ps by A, then by B, as slices.SortFunc(ps, ComparePairs)
// does, but in about linear time when the A's are spread over their range,
// as the pipeline's band keys (hashes) and sentence ids are: a counting
// pass distributes the pairs into buckets by where A lies between the least
// and the greatest A, and each small bucket is then sorted by comparison.
// Pairs sharing one A share a bucket, so any input stays O(n log n).
func SortPairs(ps []Pair) {
	if len(ps) < 64 {
		slices.SortFunc(ps, ComparePairs)
		return
	}
	lo, hi := ps[0].A, ps[0].A
	for _, p := range ps[1:] {
		lo, hi = min(lo, p.A), max(hi, p.A)
	}
	if lo == hi {
		slices.SortFunc(ps, func(x, y Pair) int { return cmp.Compare(x.B, y.B) })
		return
	}
	// (A-lo) << shift fills 64 bits; its top bits, scaled to the bucket
	// count, give a bucket that grows with A.
	shift := uint(bits.LeadingZeros64(hi - lo))
	buckets := uint64(len(ps)/pairsPerBucket + 1)
	bucket := func(a uint64) int {
		b, _ := bits.Mul64((a-lo)<<shift, buckets)
		return int(b)
	}
	start := make([]int, buckets+1)
	for _, p := range ps {
		start[bucket(p.A)+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	sorted := make([]Pair, len(ps))
	next := slices.Clone(start[:buckets])
	for _, p := range ps {
		b := bucket(p.A)
		sorted[next[b]] = p
		next[b]++
	}
	for i := range buckets {
		if part := sorted[start[i]:start[i+1]]; len(part) > 1 {
			slices.SortFunc(part, ComparePairs)
		}
	}
	copy(ps, sorted)
}
