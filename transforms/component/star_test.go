package component

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/shuffle"
)

// bothWays returns the (node, neighbour) pairs of edges, in both
// directions: what a large-star round or Settle sees.
func bothWays(edges []Edge) []shuffle.Pair {
	adj := make([]shuffle.Pair, 0, 2*len(edges))
	for _, e := range edges {
		adj = append(adj, shuffle.Pair{A: e.U, B: e.V}, shuffle.Pair{A: e.V, B: e.U})
	}
	return adj
}

// downward returns the (larger, smaller) pairs of edges: what a
// small-star round sees.
func downward(edges []Edge) []shuffle.Pair {
	adj := make([]shuffle.Pair, 0, len(edges))
	for _, e := range edges {
		adj = append(adj, shuffle.Pair{A: max(e.U, e.V), B: min(e.U, e.V)})
	}
	return adj
}

// starRound runs one large-star and one small-star operation on the whole
// graph (their result does not depend on how nodes are sharded).
func starRound(edges []Edge) []Edge {
	var large, small []Edge
	Neighbours(bothWays(edges), func(node uint64, nbrs []uint64) {
		LargeStar(node, nbrs, func(e Edge) { large = append(large, e) })
	})
	Neighbours(downward(large), func(node uint64, smaller []uint64) {
		SmallStar(node, smaller, func(e Edge) { small = append(small, e) })
	})
	return small
}

// starLabels runs depth star rounds, settles every node, and labels the
// nodes as the pipeline does. It returns the labels and the number of
// leftover edges.
func starLabels(edges []Edge, depth int) (map[uint64]uint64, int) {
	for range depth {
		edges = starRound(edges)
	}
	targets := map[uint64]uint64{}
	var left []Edge
	Neighbours(bothWays(edges), func(node uint64, nbrs []uint64) {
		target, settled := Settle(node, nbrs)
		targets[node] = target
		if !settled {
			for _, v := range nbrs {
				left = append(left, Edge{node, v})
			}
		}
	})
	roots := Components(left)
	labels := make(map[uint64]uint64, len(targets))
	for node, target := range targets {
		if root, ok := roots[target]; ok {
			target = root
		}
		labels[node] = target
	}
	return labels, len(left)
}

func TestNeighbours(t *testing.T) {
	adj := []shuffle.Pair{{A: 9, B: 3}, {A: 2, B: 7}, {A: 9, B: 1}, {A: 9, B: 3}, {A: 4, B: 4}, {A: 2, B: 2}, {A: 2, B: 5}}
	type group struct {
		node uint64
		nbrs []uint64
	}
	var got []group
	Neighbours(adj, func(node uint64, nbrs []uint64) { got = append(got, group{node, slices.Clone(nbrs)}) })
	want := []group{{2, []uint64{5, 7}}, {9, []uint64{1, 3}}} // repeats and self-loops dropped; 4 has only a self-loop
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Neighbours = %v, want %v", got, want)
	}
}

func TestStarOperations(t *testing.T) {
	tests := []struct {
		name    string
		node    uint64
		nbrs    []uint64
		large   []Edge
		small   []Edge // of the neighbours smaller than node
		target  uint64
		settled bool
	}{
		{"root", 5, []uint64{7, 9}, []Edge{{7, 5}, {9, 5}}, nil, 5, true},
		{"leaf", 9, []uint64{5}, nil, []Edge{{9, 5}}, 5, true},
		{"middle of a path", 5, []uint64{3, 8}, []Edge{{8, 3}}, []Edge{{5, 3}}, 5, false},
		{"two parents", 9, []uint64{2, 5}, nil, []Edge{{5, 2}, {9, 2}}, 9, false},
		{"two parents and children", 6, []uint64{1, 4, 7, 8}, []Edge{{7, 1}, {8, 1}}, []Edge{{4, 1}, {6, 1}}, 6, false},
		{"extreme ids", ^uint64(0), []uint64{0, 1}, nil, []Edge{{1, 0}, {^uint64(0), 0}}, ^uint64(0), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var large, small []Edge
			LargeStar(tt.node, tt.nbrs, func(e Edge) { large = append(large, e) })
			if !slices.Equal(large, tt.large) {
				t.Errorf("LargeStar = %v, want %v", large, tt.large)
			}
			if i, _ := slices.BinarySearch(tt.nbrs, tt.node); i > 0 {
				SmallStar(tt.node, tt.nbrs[:i], func(e Edge) { small = append(small, e) })
			}
			if !slices.Equal(small, tt.small) {
				t.Errorf("SmallStar = %v, want %v", small, tt.small)
			}
			if target, settled := Settle(tt.node, tt.nbrs); target != tt.target || settled != tt.settled {
				t.Errorf("Settle = %d, %v, want %d, %v", target, settled, tt.target, tt.settled)
			}
		})
	}
}

func TestDepth(t *testing.T) {
	for _, tt := range []struct {
		nodes int64
		want  int
	}{{-1, 0}, {0, 0}, {1, 1}, {2, 2}, {100, 7}, {1000, 10}, {1 << 20, 21}, {1_000_000, 20}} {
		if got := Depth(tt.nodes); got != tt.want {
			t.Errorf("Depth(%d) = %d, want %d", tt.nodes, got, tt.want)
		}
	}
}

// oldLabels labels the nodes of edges as the components stage did before
// the star rounds: contraction rounds, then one union-find of what is
// left, on one worker.
func oldLabels(edges []Edge, rounds, shards int) map[uint64]uint64 {
	stars, _ := simulate(edges, rounds, shards)
	labels := make(map[uint64]uint64, len(stars)+1)
	for _, e := range stars {
		labels[e.U] = e.V
		labels[e.V] = e.V
	}
	return labels
}

// adversarialGraphs are the shapes that need the most star rounds: paths
// whose ids ascend, zigzag or run at random, and a path of stars.
func adversarialGraphs(n int) []testGraph {
	rng := rand.New(rand.NewPCG(35, uint64(n)))
	ascending := make([]int, n)
	zigzag := make([]int, n)
	for i := range ascending {
		ascending[i] = i
		if i%2 == 0 {
			zigzag[i] = i / 2
		} else {
			zigzag[i] = n - 1 - i/2
		}
	}
	var starPath []Edge // stars of 16 leaves whose centres form a path
	for c := 0; c+17 < n; c += 17 {
		for l := 1; l <= 16; l++ {
			starPath = append(starPath, Edge{uint64(c), uint64(c + l)})
		}
		if c+34 < n {
			starPath = append(starPath, Edge{uint64(c), uint64(c + 17)})
		}
	}
	return []testGraph{
		{"path-ascending", chain(ascending)},
		{"path-zigzag", chain(zigzag)},
		{"path-random", chain(rng.Perm(n))},
		{"star-path", starPath},
	}
}

// nodeCount is the number of distinct nodes of edges.
func nodeCount(edges []Edge) int64 {
	seen := map[uint64]bool{}
	for _, e := range edges {
		seen[e.U], seen[e.V] = true, true
	}
	return int64(len(seen))
}

// TestStarsMatchOld checks that contraction rounds, Depth(nodes) star
// rounds and the settling label every node as the old finish did, and as
// the reference union-find does, with nothing left over; and that too few
// rounds leave edges over but still give the same labels.
func TestStarsMatchOld(t *testing.T) {
	graphs := append(testGraphs(), adversarialGraphs(30000)...)
	for _, g := range graphs {
		depth := Depth(nodeCount(g.edges))
		want := Components(g.edges)
		for _, rounds := range []int{0, 2} {
			t.Run(fmt.Sprintf("%s/R=%d", g.name, rounds), func(t *testing.T) {
				t.Parallel()
				old := oldLabels(g.edges, rounds, 64)
				for node, root := range want { // Components labels a self-loop's node; the stage does not
					if _, ok := old[node]; !ok && root == node {
						delete(want, node)
					}
				}
				if !maps.Equal(old, want) {
					t.Fatalf("the old finish disagrees with the union-find")
				}
				contracted, _ := contractRounds(g.edges, rounds, 64)
				for _, d := range []int{depth, 1, 0} {
					got, left := starLabels(contracted, d)
					if !maps.Equal(got, old) {
						t.Fatalf("depth %d: labels differ from the old finish's (%d nodes against %d)", d, len(got), len(old))
					}
					if d == depth && left > 0 {
						t.Errorf("depth %d left %d edges over", d, left)
					}
				}
			})
		}
	}
}

// TestMillionNodes runs the slowest shape, a path of a million nodes whose
// ids ascend, and a star of a million leaves, through Depth(n) rounds.
func TestMillionNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("a million-node path takes about a minute")
	}
	const n = 1_000_000
	for _, g := range []testGraph{adversarialGraphs(n)[0], {"star", star(n - 1)}} {
		t.Run(g.name, func(t *testing.T) {
			got, left := starLabels(g.edges, Depth(n))
			if left > 0 {
				t.Errorf("%d edges left over after %d rounds", left, Depth(n))
			}
			if len(got) != n {
				t.Fatalf("%d nodes labelled, want %d", len(got), n)
			}
			for node, label := range got {
				if label != 0 {
					t.Fatalf("node %d labelled %d, want 0", node, label)
				}
			}
		})
	}
}
