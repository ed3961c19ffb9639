package main

import (
	"cmp"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// normalize lower-cases text and maps each run of white space to one
// space, trimmed at both ends, as the pipeline does before shingling with
// its default --fold_case and --collapse_space.
func normalize(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	space := false
	for _, r := range text {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// shingles calls yield with each run of k characters (code points) of s,
// in order, repetitions included; a non-empty s shorter than k is one
// shingle.
func shingles(s string, k int, yield func(string)) {
	if s == "" {
		return
	}
	if utf8.RuneCountInString(s) <= k {
		yield(s)
		return
	}
	start, n := 0, 0 // the window is s[start:i], n characters
	for i := range s {
		if n == k {
			yield(s[start:i])
			_, size := utf8.DecodeRuneInString(s[start:])
			start += size
			n--
		}
		n++
	}
	yield(s[start:])
}

// shingleSet returns the sorted distinct 64-bit FNV-1a hashes of the
// k-character shingles of the normalised text.
func shingleSet(text string, k int) []uint64 {
	var set []uint64
	h := fnv.New64a()
	shingles(normalize(text), k, func(sh string) {
		h.Reset()
		h.Write([]byte(sh))
		set = append(set, h.Sum64())
	})
	slices.Sort(set)
	return slices.Compact(set)
}

// jaccard returns |a∩b| / |a∪b| of two sorted sets.
func jaccard(a, b []uint64) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := intersection(a, b)
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// intersection counts the common elements of two sorted sets.
func intersection(a, b []uint64) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// Pair is two sentences, by index, A < B.
type Pair struct{ A, B int }

// eps absorbs rounding in threshold comparisons.
const eps = 1e-9

// similar reports whether sets of sizes na and nb sharing inter elements
// have a Jaccard similarity of at least t.
func similar(inter, na, nb int, t float64) bool {
	return float64(inter) >= t*float64(na+nb-inter)-eps
}

// exactPairs returns every pair of sets whose Jaccard similarity is at
// least t (0 < t ≤ 1), sorted. It is exact, and fast on sentence shingle
// sets, by the prefix filter of Bayardo et al. (All-Pairs, 2007): with the
// elements of every set ordered rarest first, two sets with J ≥ t share an
// element among the first |s| − ⌈t·|s|⌉ + 1 of each, so only pairs that
// share one of those are compared, and only when their sizes allow
// J ≥ t. Empty sets are never paired.
func exactPairs(sets [][]uint64, t float64) []Pair {
	ranked, distinct := rankRarestFirst(sets)
	bySize := make([]int, len(sets))
	for i := range bySize {
		bySize[i] = i
	}
	slices.SortStableFunc(bySize, func(x, y int) int { return cmp.Compare(len(sets[x]), len(sets[y])) })

	postings := make([][]int32, distinct) // element rank -> sets indexed so far
	seenBy := make([]int32, len(sets))    // seenBy[j] == i+1: j is a candidate of i already
	var pairs []Pair
	for _, i := range bySize {
		if len(sets[i]) == 0 {
			continue
		}
		prefix := ranked[i][:prefixLength(len(sets[i]), t)]
		minSize := int(math.Ceil(t*float64(len(sets[i])) - eps))
		for _, e := range prefix {
			for _, j := range postings[e] {
				if seenBy[j] == int32(i+1) || len(sets[j]) < minSize {
					continue
				}
				seenBy[j] = int32(i + 1)
				if similar(intersection(sets[i], sets[j]), len(sets[i]), len(sets[j]), t) {
					pairs = append(pairs, Pair{min(i, int(j)), max(i, int(j))})
				}
			}
		}
		for _, e := range prefix {
			postings[e] = append(postings[e], int32(i))
		}
	}
	slices.SortFunc(pairs, func(p, q Pair) int { return cmp.Or(cmp.Compare(p.A, q.A), cmp.Compare(p.B, q.B)) })
	return pairs
}

// prefixLength is the length of the prefix a set of n elements is indexed
// and probed by for threshold t.
func prefixLength(n int, t float64) int {
	return min(n, n-int(math.Ceil(t*float64(n)-eps))+1)
}

// rankRarestFirst replaces every element by its rank in the order of
// increasing frequency over all sets (ties broken by value) and sorts each
// set by rank, rarest first. It returns the ranked sets and the number of
// distinct elements.
func rankRarestFirst(sets [][]uint64) ([][]int32, int) {
	index := map[uint64]int32{} // frequency, then rank
	for _, s := range sets {
		for _, e := range s {
			index[e]++
		}
	}
	type element struct {
		value uint64
		freq  int32
	}
	elements := make([]element, 0, len(index))
	for v, f := range index {
		elements = append(elements, element{v, f})
	}
	slices.SortFunc(elements, func(x, y element) int { return cmp.Or(cmp.Compare(x.freq, y.freq), cmp.Compare(x.value, y.value)) })
	for r, e := range elements {
		index[e.value] = int32(r)
	}
	out := make([][]int32, len(sets))
	for i, s := range sets {
		r := make([]int32, len(s))
		for k, e := range s {
			r[k] = index[e]
		}
		slices.Sort(r)
		out[i] = r
	}
	return out, len(elements)
}

// unionFind is a disjoint-set forest over 0..n-1.
type unionFind []int

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = i
	}
	return u
}

func (u unionFind) find(x int) int {
	for u[x] != x {
		u[x] = u[u[x]]
		x = u[x]
	}
	return x
}

func (u unionFind) union(x, y int) {
	x, y = u.find(x), u.find(y)
	if x != y {
		u[max(x, y)] = min(x, y)
	}
}

// labels returns the root of every element: equal labels, same set.
func (u unionFind) labels() []int {
	out := make([]int, len(u))
	for i := range u {
		out[i] = u.find(i)
	}
	return out
}

// recall returns the fraction of pairs whose two sentences have the same
// label, and 1 when there is no pair.
func recall(pairs []Pair, label []int) float64 {
	if len(pairs) == 0 {
		return 1
	}
	found := 0
	for _, p := range pairs {
		if label[p.A] == label[p.B] {
			found++
		}
	}
	return float64(found) / float64(len(pairs))
}

// clusters counts the labels shared by two elements or more, and the
// elements that bear them.
func clusters(label []int) (clusters, elements int) {
	count := map[int]int{}
	for _, l := range label {
		count[l]++
	}
	for _, c := range count {
		if c > 1 {
			clusters++
			elements += c
		}
	}
	return clusters, elements
}
