package component

import (
	"math/bits"
	"slices"

	"github.com/neardup/neardup/internal/shuffle"
)

// Stars: the distributed rounds that need no worker to hold more than its
// shard of the graph and the neighbours of its largest node.
//
// The star operations of Kiveris et al. ("Connected Components in
// MapReduce and Beyond", SoCC 2014) look at one node and its neighbours
// at a time. Large-star links every neighbour larger than the node to
// the smallest of the node and its neighbours; small-star links the node
// and every smaller neighbour to the smallest of them. Neither changes
// the components, every edge they emit points from a larger node to a
// smaller one, and alternating them turns every component into a star
// around its smallest node in O(log² n) rounds, about log n in practice.
// Their state is one node's neighbours, so never more than its component.
//
// After the rounds, Settle looks at every node once more: in a component
// that has become a star every node is either the root (no smaller
// neighbour) or a leaf (one smaller neighbour, no larger one), and a leaf
// is labelled with its neighbour. A node that is neither is unsettled:
// its edges are left over, the union-find of the leftovers labels their
// nodes, and the others take the label of their target (see Settle). The
// rounds are chosen so that nothing is left over on the graphs the tests
// make, and what is left over is counted, so the labels are exact
// whatever the depth.

// Neighbours calls fn for each node of adj with its neighbours, in
// ascending order of node. adj holds (node, neighbour) pairs in any
// order, with repeats; Neighbours sorts it and drops the repeats and
// self-loops. The neighbour slice is reused between calls.
func Neighbours(adj []shuffle.Pair, fn func(node uint64, nbrs []uint64)) {
	shuffle.SortPairs(adj)
	var nbrs []uint64
	for i := 0; i < len(adj); {
		node := adj[i].A
		nbrs = nbrs[:0]
		for ; i < len(adj) && adj[i].A == node; i++ {
			if b := adj[i].B; b != node && (len(nbrs) == 0 || nbrs[len(nbrs)-1] != b) {
				nbrs = append(nbrs, b)
			}
		}
		if len(nbrs) > 0 {
			fn(node, nbrs)
		}
	}
}

// LargeStar emits, for each neighbour of node larger than node, the edge
// from it to the smallest of node and its neighbours. nbrs are node's
// neighbours, ascending, without node.
func LargeStar(node uint64, nbrs []uint64, emit func(Edge)) {
	least := min(node, nbrs[0])
	i, _ := slices.BinarySearch(nbrs, node) // nbrs[i:] are larger than node
	for _, v := range nbrs[i:] {
		emit(Edge{U: v, V: least})
	}
}

// SmallStar emits an edge from node and from each of its neighbours but
// the smallest to the smallest. smaller are node's neighbours smaller than
// node, ascending; larger neighbours do not take part.
func SmallStar(node uint64, smaller []uint64, emit func(Edge)) {
	least := smaller[0]
	for _, v := range smaller[1:] {
		emit(Edge{U: v, V: least})
	}
	emit(Edge{U: node, V: least})
}

// Settle returns the node whose label node takes, and whether node is
// settled: a leaf of a star (one smaller neighbour, no larger one) takes
// its neighbour's label; any other node takes its own. A node is
// unsettled when it has two smaller neighbours, or one smaller and one
// larger: its edges are then left over for a union-find. nbrs are node's
// neighbours, ascending, without node.
//
// Labels are exact: a node's label is the smallest node of its component
// if the label of a node of the leftover edges is the smallest node the
// leftovers connect it to and any other node's label is itself. Only
// edges between a leaf and a settled root are not left over, and a leaf
// has no other edge, so the leftovers of a component connect all of its
// nodes that are not such leaves; its smallest node is among them, since
// a leaf has a smaller neighbour. A component without leftovers is a
// star around its smallest node.
func Settle(node uint64, nbrs []uint64) (target uint64, settled bool) {
	smaller, _ := slices.BinarySearch(nbrs, node)
	larger := len(nbrs) - smaller
	switch {
	case smaller == 0:
		return node, true
	case smaller == 1 && larger == 0:
		return nbrs[0], true
	default:
		return node, false
	}
}

// Depth returns the star rounds Labels runs on a graph of at most nodes
// nodes: ⌊log₂ nodes⌋+1. A path whose ids ascend along it is the slowest
// graph the tests found: its n nodes need ⌈log₂ n⌉ rounds (20 for a
// million), paths in random order about 0.8 times that, a random graph,
// a grid or a tree of 20,000 to 40,000 nodes at most 7, and the clusters
// of near-duplicate sentences, stars and cliques, one or two.
func Depth(nodes int64) int { return bits.Len64(uint64(max(nodes, 0))) }
