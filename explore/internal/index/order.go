package index

import (
	"cmp"
	"slices"
)

// sortOrders sorts the clusters by id and by size.
func (r *Run) sortOrders() {
	r.rank = r.wikiRanks()
	rank := r.rank
	r.byID = make([]uint32, len(r.clusters))
	for i := range r.byID {
		r.byID[i] = uint32(i)
	}
	slices.SortFunc(r.byID, func(a, b uint32) int {
		x, y := &r.clusters[a], &r.clusters[b]
		return cmp.Or(cmp.Compare(rank[x.wiki], rank[y.wiki]), cmp.Compare(x.page, y.page),
			cmp.Compare(x.revOrd, y.revOrd), cmp.Compare(a, b))
	})
	r.bySize = bySizeDesc(r.clusters, r.byID)
}

// wikiRanks returns the rank of each interned wiki's name.
func (r *Run) wikiRanks() []int {
	order := make([]int, len(r.wikis))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(r.wikis[a], r.wikis[b]) })
	rank := make([]int, len(r.wikis))
	for i, w := range order {
		rank[w] = i
	}
	return rank
}

// bySizeDesc returns the clusters of order by size, largest first, in the
// order they have in order among those of one size (a counting sort).
func bySizeDesc(clusters []record, order []uint32) []uint32 {
	var largest uint32
	for _, c := range clusters {
		largest = max(largest, c.size)
	}
	if largest > 1<<24 { // a counting array too large: sort instead
		out := slices.Clone(order)
		slices.SortStableFunc(out, func(a, b uint32) int { return cmp.Compare(clusters[b].size, clusters[a].size) })
		return out
	}
	start := make([]uint32, largest+2) // start[largest-s]: where clusters of size s begin
	for _, c := range clusters {
		start[largest-c.size+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	out := make([]uint32, len(order))
	for _, i := range order {
		k := largest - clusters[i].size
		out[start[k]] = i
		start[k]++
	}
	return out
}

// Find returns the index of the cluster with the given id.
func (r *Run) Find(id string) (int, bool) {
	wiki, page, revOrd, err := parseID([]byte(id))
	if err != nil {
		return 0, false
	}
	w := slices.Index(r.wikis, string(wiki))
	if w < 0 {
		return 0, false
	}
	rank := r.rank
	i, found := slices.BinarySearchFunc(r.byID, w, func(c uint32, _ int) int {
		x := &r.clusters[c]
		return cmp.Or(cmp.Compare(rank[x.wiki], rank[w]), cmp.Compare(x.page, page), cmp.Compare(x.revOrd, revOrd))
	})
	if !found {
		return 0, false
	}
	return int(r.byID[i]), true
}
