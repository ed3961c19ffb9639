// Package component computes the exact connected components of an undirected
// graph over uint64 node ids, in a form a distributed pipeline can run in
// rounds, with no worker holding the whole graph.
//
// Rounds of Shard and Contract replace each shard's edges by a star forest
// with the same components, never adding edges; rounds of LargeStar and
// SmallStar then make every component a star around its smallest id, and
// Settle labels each node from its neighbours alone (see star.go). No state
// is more than a shard of the graph and the neighbours of one node.
//
//   - A component's representative is its smallest id, so results do not
//     depend on edge order, sharding or round count.
//
// Why contraction alone need not finish, and the rounds it takes:
// docs/architecture.md, "Connected components are exact".
package component

import (
	"cmp"
	"slices"

	"github.com/neardup/neardup/internal/shuffle"
)

// Edge is an undirected edge between nodes U and V. U == V is a self-loop,
// which only makes its node known.
type Edge struct{ U, V uint64 }

// UnionFind is a disjoint-set forest over sparse uint64 ids. Ids are mapped
// to dense indices on first sight; the forest itself lives in slices, using
// union by rank and path halving, so a sequence of operations runs in
// near-linear time. Each root also records the smallest id of its set, which
// is what Root reports.
//
// The zero value is ready to use. A UnionFind is not safe for concurrent use.
type UnionFind struct {
	index map[uint64]int // id -> dense index
	ids   []uint64       // dense index -> id, in order of first sight
	nodes []node         // dense index -> forest node
}

// node is one element of the forest. Keeping its fields together means a
// union reads and writes one record per root instead of three slices.
type node struct {
	parent int    // index of the parent; a root is its own parent
	least  uint64 // for a root, the smallest id of its set
	rank   uint8  // for a root, an upper bound on the height of its tree
}

// NewUnionFind returns an empty UnionFind with room for about sizeHint ids.
func NewUnionFind(sizeHint int) *UnionFind {
	sizeHint = max(sizeHint, 0)
	return &UnionFind{
		index: make(map[uint64]int, sizeHint),
		ids:   make([]uint64, 0, sizeHint),
		nodes: make([]node, 0, sizeHint),
	}
}

// Len returns the number of distinct ids seen.
func (u *UnionFind) Len() int { return len(u.ids) }

// Union merges the sets of a and b, adding either id if it is new.
// Union(a, a) only adds a.
func (u *UnionFind) Union(a, b uint64) {
	ra, rb := u.find(u.add(a)), u.find(u.add(b))
	if ra == rb {
		return
	}
	big, small := &u.nodes[ra], &u.nodes[rb]
	if big.rank < small.rank {
		ra, big, small = rb, small, big
	}
	if big.rank == small.rank {
		big.rank++
	}
	small.parent = ra
	big.least = min(big.least, small.least)
}

// Root returns the smallest id of the set of a, or a itself if a is unknown.
func (u *UnionFind) Root(a uint64) uint64 {
	i, ok := u.index[a]
	if !ok {
		return a
	}
	return u.nodes[u.find(i)].least
}

// Stars appends to dst, for every id seen that is not the smallest of its
// set, the edge {U: id, V: smallest id of its set}, in ascending order of U,
// and returns the extended slice. The appended edges form a spanning forest
// of depth 1 with exactly the components of the UnionFind.
func (u *UnionFind) Stars(dst []Edge) []Edge {
	start := len(dst)
	for i, id := range u.ids {
		if least := u.nodes[u.find(i)].least; least != id {
			dst = append(dst, Edge{U: id, V: least})
		}
	}
	sortByU(dst[start:])
	return dst
}

// add returns the dense index of id, creating a singleton set if id is new.
func (u *UnionFind) add(id uint64) int {
	if i, ok := u.index[id]; ok {
		return i
	}
	if u.index == nil {
		u.index = make(map[uint64]int)
	}
	i := len(u.ids)
	u.index[id] = i
	u.ids = append(u.ids, id)
	u.nodes = append(u.nodes, node{parent: i, least: id})
	return i
}

// find returns the root index of i, halving the path on the way.
func (u *UnionFind) find(i int) int {
	nodes := u.nodes
	for p := nodes[i].parent; p != i; p = nodes[i].parent {
		nodes[i].parent = nodes[p].parent
		i = nodes[i].parent
	}
	return i
}

// Contract returns the star forest (see UnionFind.Stars) of the graph made of
// edges: the local contraction step of one shard. The result has the same
// components as edges, is sorted by U, and has at most min(len(edges),
// nodes-components) edges, so contraction never increases the edge count.
// Self-loops and duplicate edges are allowed; a node whose only edges are
// self-loops is a singleton component and so does not appear in the result.
func Contract(edges []Edge) []Edge {
	if len(edges) == 0 {
		return nil
	}
	u := NewUnionFind(len(edges))
	for _, e := range edges {
		u.Union(e.U, e.V)
	}
	return u.Stars(make([]Edge, 0, u.Len()-1))
}

// Components is the reference implementation: a plain union-find over all
// edges. It maps every node of edges to the smallest id of its component.
func Components(edges []Edge) map[uint64]uint64 {
	u := NewUnionFind(len(edges))
	for _, e := range edges {
		u.Union(e.U, e.V)
	}
	roots := make(map[uint64]uint64, u.Len())
	for _, id := range u.ids {
		roots[id] = u.Root(id)
	}
	return roots
}

// Shard returns which of n shards edge e goes to in round round
// (shuffle.EdgeShard).
func Shard(e Edge, round, n int) int { return shuffle.EdgeShard(e.U, e.V, round, n) }

// sortByU sorts edges by ascending U. Large inputs use a least significant
// digit radix sort on the bytes of U, which is several times faster than a
// comparison sort on the random ids a contraction produces; passes over a
// byte that is the same in every U are skipped.
func sortByU(edges []Edge) {
	const radixMin = 256 // below this a comparison sort is cheaper
	if len(edges) < radixMin {
		slices.SortFunc(edges, func(a, b Edge) int { return cmp.Compare(a.U, b.U) })
		return
	}
	var counts [8][256]int
	for _, e := range edges {
		for digit := range counts {
			counts[digit][byte(e.U>>(8*digit))]++
		}
	}
	src, dst := edges, make([]Edge, len(edges))
	for digit := range counts {
		count := &counts[digit]
		shift := 8 * digit
		if count[byte(src[0].U>>shift)] == len(src) {
			continue
		}
		offset := 0
		for b, n := range count {
			count[b] = offset
			offset += n
		}
		for _, e := range src {
			b := byte(e.U >> shift)
			dst[count[b]] = e
			count[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &edges[0] {
		copy(edges, src)
	}
}
