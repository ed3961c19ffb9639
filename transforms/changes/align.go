package changes

import (
	"slices"
	"sort"
)

// Match pairs the sentence at index Old of the old revision with the one at
// index New of the new revision.
type Match struct{ Old, New int }

// Align returns the pairs of equal values of a and b (the hashes of two
// revisions' normalised sentences) that a diff of the two sequences keeps,
// in increasing order of both indices.
//
// It is patience diff: the common prefix and suffix are matched, then the
// values that occur exactly once in each side are matched along their
// longest increasing subsequence (O(k log k)), and the gaps between those
// anchors are aligned the same way, recursively. A gap without such an
// anchor (repeated sentences only) is aligned by the quadratic LCS table
// if it fits in what is left of maxCells cells, and is otherwise left
// unaligned: its sentences are still paired by similarity afterwards, so
// a sentence equal to another is found there, not lost. The work outside
// the table is bounded too (a few passes over each side per level, at
// most maxCells element visits in all), so a pathological page costs
// O(maxCells), never O(len(a)·len(b)).
func Align(a, b []uint64, maxCells int) []Match {
	al := aligner{a: a, b: b, budget: maxCells}
	al.run(0, len(a), 0, len(b))
	return al.out
}

type aligner struct {
	a, b   []uint64
	budget int // table cells and element visits still allowed
	out    []Match
}

// run aligns a[a0:a1] with b[b0:b1], appending its matches to out.
func (al *aligner) run(a0, a1, b0, b1 int) {
	for a0 < a1 && b0 < b1 && al.a[a0] == al.b[b0] {
		al.out = append(al.out, Match{a0, b0})
		a0, b0 = a0+1, b0+1
	}
	suffix := 0
	for a1 > a0 && b1 > b0 && al.a[a1-1] == al.b[b1-1] {
		a1, b1, suffix = a1-1, b1-1, suffix+1
	}
	al.middle(a0, a1, b0, b1)
	for k := range suffix {
		al.out = append(al.out, Match{a1 + k, b1 + k})
	}
}

// middle aligns two ranges whose first and last values differ.
func (al *aligner) middle(a0, a1, b0, b1 int) {
	n := (a1 - a0) + (b1 - b0)
	if a0 == a1 || b0 == b1 || al.budget < n {
		return
	}
	al.budget -= n
	anchors := al.anchors(a0, a1, b0, b1)
	if len(anchors) == 0 {
		al.table(a0, a1, b0, b1)
		return
	}
	pa, pb := a0, b0
	for _, m := range anchors {
		al.run(pa, m.Old, pb, m.New)
		al.out = append(al.out, m)
		pa, pb = m.Old+1, m.New+1
	}
	al.run(pa, a1, pb, b1)
}

// anchors returns the longest increasing run of the values unique in both
// ranges, as matches.
func (al *aligner) anchors(a0, a1, b0, b1 int) []Match {
	type seen struct{ na, nb, ia, ib int }
	count := make(map[uint64]*seen, a1-a0)
	for i := a0; i < a1; i++ {
		s := count[al.a[i]]
		if s == nil {
			s = &seen{}
			count[al.a[i]] = s
		}
		s.na++
		s.ia = i
	}
	for j := b0; j < b1; j++ {
		if s := count[al.b[j]]; s != nil {
			s.nb++
			s.ib = j
		}
	}
	var unique []Match
	for i := a0; i < a1; i++ {
		if s := count[al.a[i]]; s.na == 1 && s.nb == 1 {
			unique = append(unique, Match{s.ia, s.ib})
		}
	}
	return longestIncreasing(unique)
}

// longestIncreasing returns the longest subsequence of ms (sorted by Old)
// whose New indices increase, by patience sorting.
func longestIncreasing(ms []Match) []Match {
	if len(ms) == 0 {
		return nil
	}
	tops := []int{}              // index in ms of the top of each pile
	prev := make([]int, len(ms)) // the top of the previous pile when each was placed
	for k, m := range ms {
		p := sort.Search(len(tops), func(t int) bool { return ms[tops[t]].New >= m.New })
		prev[k] = -1
		if p > 0 {
			prev[k] = tops[p-1]
		}
		if p == len(tops) {
			tops = append(tops, k)
		} else {
			tops[p] = k
		}
	}
	out := make([]Match, len(tops))
	for k, i := len(tops)-1, tops[len(tops)-1]; k >= 0; k, i = k-1, prev[i] {
		out[k] = ms[i]
	}
	return out
}

// table aligns two ranges by the dynamic-programming LCS table, if it fits
// in the budget; otherwise it leaves them unaligned.
func (al *aligner) table(a0, a1, b0, b1 int) {
	n, m := a1-a0, b1-b0
	if n*m > al.budget {
		return
	}
	al.budget -= n * m
	// lcs[i*(m+1)+j] is the LCS length of a[a0+i:a1] and b[b0+j:b1].
	w := m + 1
	lcs := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case al.a[a0+i] == al.b[b0+j]:
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			default:
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case al.a[a0+i] == al.b[b0+j]:
			al.out = append(al.out, Match{a0 + i, b0 + j})
			i, j = i+1, j+1
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			i++
		default:
			j++
		}
	}
}

// gap is a run of unmatched sentences of each side between two matches:
// old[Old0:Old1] and new[New0:New1].
type gap struct{ old0, old1, new0, new1 int }

// gaps returns the gaps between the matches ms (increasing) of sequences
// of lengths n and m, empty ones left out.
func gaps(ms []Match, n, m int) []gap {
	var out []gap
	pa, pb := 0, 0
	for _, x := range append(slices.Clip(ms), Match{n, m}) {
		if x.Old > pa || x.New > pb {
			out = append(out, gap{pa, x.Old, pb, x.New})
		}
		pa, pb = x.Old+1, x.New+1
	}
	return out
}
