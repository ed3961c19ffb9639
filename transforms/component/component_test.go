package component

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/hashmix"
)

func TestContract(t *testing.T) {
	const top = math.MaxUint64
	tests := []struct {
		name  string
		edges []Edge
		want  []Edge
	}{
		{"empty", nil, nil},
		{"self-loop only", []Edge{{5, 5}}, nil},
		{"one edge", []Edge{{7, 3}}, []Edge{{7, 3}}},
		{"reversed edge", []Edge{{3, 7}}, []Edge{{7, 3}}},
		{"duplicates", []Edge{{3, 7}, {7, 3}, {3, 7}, {7, 7}}, []Edge{{7, 3}}},
		{"chain", []Edge{{9, 4}, {4, 8}, {8, 2}, {2, 6}}, []Edge{{4, 2}, {6, 2}, {8, 2}, {9, 2}}},
		{"triangle", []Edge{{30, 20}, {20, 10}, {10, 30}}, []Edge{{20, 10}, {30, 10}}},
		{
			"two components",
			[]Edge{{100, 50}, {1, 2}, {50, 75}, {3, 2}},
			[]Edge{{2, 1}, {3, 1}, {75, 50}, {100, 50}},
		},
		{
			"star already",
			[]Edge{{11, 1}, {12, 1}, {13, 1}},
			[]Edge{{11, 1}, {12, 1}, {13, 1}},
		},
		{
			"merging stars",
			[]Edge{{11, 1}, {12, 1}, {21, 2}, {22, 2}, {22, 12}},
			[]Edge{{2, 1}, {11, 1}, {12, 1}, {21, 1}, {22, 1}},
		},
		{"extreme ids", []Edge{{top, 0}, {top - 1, top}}, []Edge{{top - 1, 0}, {top, 0}}},
		{"isolated self-loop beside edge", []Edge{{4, 4}, {9, 8}}, []Edge{{9, 8}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Contract(tt.edges)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Contract(%v) = %v, want %v", tt.edges, got, tt.want)
			}
		})
	}
}

func TestComponents(t *testing.T) {
	tests := []struct {
		name  string
		edges []Edge
		want  map[uint64]uint64
	}{
		{"empty", nil, map[uint64]uint64{}},
		{"self-loop", []Edge{{5, 5}}, map[uint64]uint64{5: 5}},
		{"one edge", []Edge{{7, 3}}, map[uint64]uint64{3: 3, 7: 3}},
		{
			"two components and a loner",
			[]Edge{{100, 50}, {1, 2}, {50, 75}, {3, 2}, {60, 60}},
			map[uint64]uint64{1: 1, 2: 1, 3: 1, 50: 50, 75: 50, 100: 50, 60: 60},
		},
		{
			"late merge lowers the root",
			[]Edge{{40, 30}, {30, 20}, {50, 60}, {60, 10}, {50, 40}},
			map[uint64]uint64{10: 10, 20: 10, 30: 10, 40: 10, 50: 10, 60: 10},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Components(tt.edges); !maps.Equal(got, tt.want) {
				t.Errorf("Components(%v) = %v, want %v", tt.edges, got, tt.want)
			}
		})
	}
}

func TestUnionFind(t *testing.T) {
	var zero UnionFind // the zero value must work
	for _, u := range []*UnionFind{NewUnionFind(0), NewUnionFind(-3), &zero} {
		if got := u.Root(42); got != 42 {
			t.Errorf("Root of unknown id = %d, want 42", got)
		}
		u.Union(9, 9)
		u.Union(8, 6)
		u.Union(6, 7)
		u.Union(9, 7)
		u.Union(3, 1)
		if got := u.Len(); got != 6 {
			t.Errorf("Len = %d, want 6", got)
		}
		for id, want := range map[uint64]uint64{9: 6, 8: 6, 7: 6, 6: 6, 3: 1, 1: 1, 42: 42} {
			if got := u.Root(id); got != want {
				t.Errorf("Root(%d) = %d, want %d", id, got, want)
			}
		}
		if got := u.Len(); got != 6 {
			t.Errorf("Len after Root = %d, want 6 (Root must not add ids)", got)
		}
		prefix := []Edge{{100, 100}}
		got := u.Stars(prefix)
		want := []Edge{{100, 100}, {3, 1}, {7, 6}, {8, 6}, {9, 6}}
		if !slices.Equal(got, want) {
			t.Errorf("Stars(prefix) = %v, want %v", got, want)
		}
	}
}

// TestUnionFindOrderIndependent checks that roots and stars do not depend on
// the order of unions or on the orientation of edges.
func TestUnionFindOrderIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	edges := randomGraph(rng, 3000, 2500)
	want := NewUnionFind(0)
	for _, e := range edges {
		want.Union(e.U, e.V)
	}
	wantStars := want.Stars(nil)
	for trial := range 5 {
		rng.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
		u := NewUnionFind(len(edges))
		for _, e := range edges {
			if rng.IntN(2) == 0 {
				e.U, e.V = e.V, e.U
			}
			u.Union(e.U, e.V)
		}
		if got := u.Stars(nil); !slices.Equal(got, wantStars) {
			t.Fatalf("trial %d: Stars differ after shuffling the unions", trial)
		}
	}
}

func TestShard(t *testing.T) {
	for _, n := range []int{-1, 0} {
		if got := Shard(Edge{1, 2}, 0, n); got != 0 {
			t.Errorf("Shard(n=%d) = %d, want 0", n, got)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	const shards, keys = 64, 64 * 2000
	counts := make([]int, shards)
	stayed := 0
	for range keys {
		e := Edge{rng.Uint64(), rng.Uint64()}
		s := Shard(e, 0, shards)
		if s < 0 || s >= shards {
			t.Fatalf("Shard(%v, 0, %d) = %d, out of range", e, shards, s)
		}
		if r := Shard(Edge{e.V, e.U}, 0, shards); r != s {
			t.Fatalf("Shard of %v is %d but of its reverse %d", e, s, r)
		}
		if r := Shard(Edge{min(e.U, e.V), rng.Uint64() | min(e.U, e.V)}, 0, shards); r != s {
			t.Fatalf("edges with the same smaller endpoint %d go to shards %d and %d", min(e.U, e.V), s, r)
		}
		if Shard(e, 1, shards) == s {
			stayed++
		}
		counts[s]++
	}
	// Each shard expects 2000 keys (σ ≈ 44); 20% off is over 9σ.
	for s, c := range counts {
		if c < 1600 || c > 2400 {
			t.Errorf("shard %d got %d of %d keys, want about %d", s, c, keys, keys/shards)
		}
	}
	// Independent partitions keep about 1/64 of the keys (2000) in place.
	if stayed > 2400 {
		t.Errorf("%d of %d keys stay in the same shard from round 0 to 1, want about %d", stayed, keys, keys/shards)
	}
	// Small sequential ids must spread too.
	seen := make(map[int]bool)
	for id := range uint64(1000) {
		seen[Shard(Edge{id, id + 1}, 7, 4)] = true
	}
	if len(seen) != 4 {
		t.Errorf("ids 0..999 reach %d of 4 shards", len(seen))
	}
}

// TestRoundsMatchUnionFind runs the distributed algorithm in memory and
// checks it against the reference on many graph shapes.
func TestRoundsMatchUnionFind(t *testing.T) {
	for _, g := range testGraphs() {
		want := Components(g.edges)
		for _, rounds := range []int{0, 1, 2, 3} {
			for _, shards := range []int{1, 4, 64} {
				name := fmt.Sprintf("%s/R=%d/S=%d", g.name, rounds, shards)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					final, sizes := simulate(g.edges, rounds, shards)
					for i := 1; i < len(sizes); i++ {
						if sizes[i] > sizes[i-1] {
							t.Fatalf("edge count grew from %d to %d in step %d: %v", sizes[i-1], sizes[i], i, sizes)
						}
					}
					checkStarForest(t, final)
					checkRoots(t, final, want)
				})
			}
		}
	}
}

// simulate partitions edges into shards by Shard, contracts each shard and
// concatenates the results, for the given number of rounds, then contracts
// what is left on one worker. It returns the final star forest and the edge
// count at the start and after every step.
func simulate(edges []Edge, rounds, shards int) ([]Edge, []int) {
	current, sizes := contractRounds(edges, rounds, shards)
	final := Contract(current)
	return final, append(sizes, len(final))
}

// contractRounds runs the contraction rounds of simulate and returns what
// they leave and the edge count at the start and after every round.
func contractRounds(edges []Edge, rounds, shards int) ([]Edge, []int) {
	sizes := []int{len(edges)}
	current := edges
	parts := make([][]Edge, shards)
	for round := range rounds {
		for i := range parts {
			parts[i] = parts[i][:0]
		}
		for _, e := range current {
			s := Shard(e, round, shards)
			parts[s] = append(parts[s], e)
		}
		var next []Edge
		for _, part := range parts {
			next = append(next, Contract(part)...)
		}
		current = next
		sizes = append(sizes, len(current))
	}
	return current, sizes
}

// checkStarForest checks that stars is sorted by U, has distinct U, and
// points every U at a smaller V that is not itself a U.
func checkStarForest(t *testing.T, stars []Edge) {
	t.Helper()
	leaves := make(map[uint64]bool, len(stars))
	for i, e := range stars {
		if i > 0 && stars[i-1].U >= e.U {
			t.Fatalf("stars not strictly sorted by U at %d: %v then %v", i, stars[i-1], e)
		}
		if e.V >= e.U {
			t.Fatalf("star edge %v does not point at a smaller id", e)
		}
		leaves[e.U] = true
	}
	for _, e := range stars {
		if leaves[e.V] {
			t.Fatalf("star edge %v points at %d, which is not a root", e, e.V)
		}
	}
}

// checkRoots checks that the star forest maps every node to the root want
// gives it, and mentions no node outside want.
func checkRoots(t *testing.T, stars []Edge, want map[uint64]uint64) {
	t.Helper()
	got := make(map[uint64]uint64, len(stars))
	for _, e := range stars {
		got[e.U] = e.V
	}
	for node, root := range want {
		g, ok := got[node]
		if !ok {
			g = node
		}
		if g != root {
			t.Fatalf("node %d: root %d, want %d", node, g, root)
		}
	}
	for _, e := range stars {
		if _, ok := want[e.V]; !ok {
			t.Fatalf("star edge %v mentions node %d, which is not in the input", e, e.V)
		}
	}
}

type testGraph struct {
	name  string
	edges []Edge
}

func testGraphs() []testGraph {
	rng := rand.New(rand.NewPCG(20240611, 7))
	relabel := randomLabels(rng)
	var graphs []testGraph
	add := func(name string, edges []Edge) {
		shuffleEdges(rng, edges)
		graphs = append(graphs, testGraph{name, edges})
	}
	for _, d := range []struct {
		name  string
		nodes int
		edges int
	}{
		{"er-sparse", 20000, 5000},    // mean degree 0.5: mostly pairs and trees
		{"er-critical", 20000, 10000}, // mean degree 1: the giant component appears
		{"er-giant", 20000, 20000},    // mean degree 2: one giant component
		{"er-dense", 1000, 16000},     // mean degree 32: connected with many cycles
	} {
		add(d.name, mapEdges(randomGraph(rng, d.nodes, d.edges), relabel))
	}
	add("chain-100k", chain(rng.Perm(100000)))
	add("star-40k", mapEdges(star(40000), relabel))
	add("cliques-200", mapEdges(cliques(2, 200), relabel))
	add("small-components", mapEdges(smallComponents(rng, 8000), relabel))
	add("grid-150", mapEdges(grid(150, 150), relabel))
	add("binary-tree", mapEdges(binaryTree(1<<15-1), relabel))
	add("duplicates-self-loops", mapEdges(withDuplicatesAndLoops(rng, randomGraph(rng, 5000, 4000), 5000), relabel))
	return graphs
}

// randomLabels returns a bijection of uint64 that scatters small indices
// over the whole id space, so that ids are sparse and unordered.
func randomLabels(rng *rand.Rand) func(uint64) uint64 {
	key := rng.Uint64()
	return func(i uint64) uint64 { return hashmix.Splitmix64(i ^ key) }
}

func mapEdges(edges []Edge, f func(uint64) uint64) []Edge {
	for i, e := range edges {
		edges[i] = Edge{f(e.U), f(e.V)}
	}
	return edges
}

// shuffleEdges shuffles edges and flips about half of them.
func shuffleEdges(rng *rand.Rand, edges []Edge) {
	rng.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
	for i, e := range edges {
		if rng.IntN(2) == 0 {
			edges[i] = Edge{e.V, e.U}
		}
	}
}

// randomGraph returns an Erdős–Rényi G(n, m) graph: m edges between
// uniformly drawn nodes 0..n-1 (repeats and self-loops are rare and allowed).
func randomGraph(rng *rand.Rand, n, m int) []Edge {
	edges := make([]Edge, m)
	for i := range edges {
		edges[i] = Edge{uint64(rng.IntN(n)), uint64(rng.IntN(n))}
	}
	return edges
}

// chain links ids in the given order.
func chain(order []int) []Edge {
	edges := make([]Edge, 0, len(order))
	for i := 1; i < len(order); i++ {
		edges = append(edges, Edge{uint64(order[i-1]), uint64(order[i])})
	}
	return edges
}

// star links node 0 to leaves 1..leaves.
func star(leaves int) []Edge {
	edges := make([]Edge, leaves)
	for i := range edges {
		edges[i] = Edge{0, uint64(i + 1)}
	}
	return edges
}

// cliques returns count disjoint complete graphs of size nodes.
func cliques(count, size int) []Edge {
	var edges []Edge
	for c := range count {
		base := uint64(c * size)
		for i := range uint64(size) {
			for j := range i {
				edges = append(edges, Edge{base + i, base + j})
			}
		}
	}
	return edges
}

// smallComponents returns count components of 1 to 6 nodes each, as random
// trees plus an occasional extra edge; singletons are self-loops.
func smallComponents(rng *rand.Rand, count int) []Edge {
	var edges []Edge
	next := uint64(0)
	for range count {
		size := uint64(1 + rng.IntN(6))
		if size == 1 {
			edges = append(edges, Edge{next, next})
		}
		for i := uint64(1); i < size; i++ {
			edges = append(edges, Edge{next + i, next + rng.Uint64N(i)})
		}
		if size > 2 && rng.IntN(3) == 0 {
			edges = append(edges, Edge{next + rng.Uint64N(size), next + rng.Uint64N(size)})
		}
		next += size
	}
	return edges
}

// grid returns a rows×cols lattice.
func grid(rows, cols int) []Edge {
	var edges []Edge
	id := func(r, c int) uint64 { return uint64(r*cols + c) }
	for r := range rows {
		for c := range cols {
			if c+1 < cols {
				edges = append(edges, Edge{id(r, c), id(r, c+1)})
			}
			if r+1 < rows {
				edges = append(edges, Edge{id(r, c), id(r+1, c)})
			}
		}
	}
	return edges
}

// binaryTree returns the heap-ordered binary tree on nodes 0..n-1.
func binaryTree(n int) []Edge {
	edges := make([]Edge, 0, n)
	for i := 1; i < n; i++ {
		edges = append(edges, Edge{uint64(i), uint64((i - 1) / 2)})
	}
	return edges
}

// withDuplicatesAndLoops repeats every edge in both orientations, adds a
// self-loop on every endpoint and self-loops on loners extra new nodes.
func withDuplicatesAndLoops(rng *rand.Rand, edges []Edge, loners int) []Edge {
	out := make([]Edge, 0, 5*len(edges)+loners)
	top := uint64(0)
	for _, e := range edges {
		out = append(out, e, Edge{e.V, e.U}, e, Edge{e.U, e.U}, Edge{e.V, e.V})
		top = max(top, e.U, e.V)
	}
	for i := range uint64(loners) {
		loner := top + 1 + i
		out = append(out, Edge{loner, loner})
		if rng.IntN(2) == 0 {
			out = append(out, Edge{loner, loner})
		}
	}
	return out
}

// FuzzRounds checks the distributed algorithm against the reference on
// arbitrary small graphs: each pair of input bytes is an edge over ids
// 0..255, so graphs are dense in collisions, cycles and self-loops.
func FuzzRounds(f *testing.F) {
	f.Add(uint8(2), uint8(4), []byte{1, 2, 2, 3, 9, 9, 200, 1})
	f.Add(uint8(0), uint8(1), []byte{})
	f.Add(uint8(3), uint8(64), []byte{5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 7, 7})
	f.Fuzz(func(t *testing.T, rounds, shards uint8, data []byte) {
		edges := make([]Edge, 0, len(data)/2)
		for i := 0; i+1 < len(data); i += 2 {
			edges = append(edges, Edge{uint64(data[i]), uint64(data[i+1])})
		}
		final, sizes := simulate(edges, int(rounds%4), 1+int(shards%64))
		for i := 1; i < len(sizes); i++ {
			if sizes[i] > sizes[i-1] {
				t.Fatalf("edge count grew: %v", sizes)
			}
		}
		checkStarForest(t, final)
		checkRoots(t, final, Components(edges))
	})
}

// randomComponents returns about m edges forming random components of 2 to
// 64 nodes with sparse random ids: a random tree per component plus about
// one extra edge in four, shuffled.
func randomComponents(rng *rand.Rand, m int) []Edge {
	relabel := randomLabels(rng)
	edges := make([]Edge, 0, m+m/4+64)
	next := uint64(0)
	for len(edges) < m {
		size := uint64(2 + rng.IntN(63))
		for i := uint64(1); i < size; i++ {
			edges = append(edges, Edge{relabel(next + i), relabel(next + rng.Uint64N(i))})
			if rng.IntN(4) == 0 {
				edges = append(edges, Edge{relabel(next + rng.Uint64N(size)), relabel(next + rng.Uint64N(size))})
			}
		}
		next += size
	}
	edges = edges[:m]
	shuffleEdges(rng, edges)
	return edges
}

// benchEdges times f on a million random edges, per edge.
func benchEdges[T any](b *testing.B, f func([]Edge) T) {
	edges := randomComponents(rand.New(rand.NewPCG(5, 6)), 1_000_000)
	b.ReportAllocs()
	for b.Loop() {
		f(edges)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(edges)), "ns/edge")
}

func BenchmarkContract(b *testing.B) { benchEdges(b, Contract) }

func BenchmarkComponents(b *testing.B) { benchEdges(b, Components) }

func BenchmarkShard(b *testing.B) {
	edges := randomComponents(rand.New(rand.NewPCG(5, 6)), 1<<16)
	b.ReportAllocs()
	sum := 0
	for i := 0; b.Loop(); i++ {
		sum += Shard(edges[i&(len(edges)-1)], 3, 64)
	}
	if sum < 0 {
		b.Fatal("negative shard")
	}
}
