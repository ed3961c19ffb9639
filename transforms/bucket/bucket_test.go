package bucket

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/shuffle"
)

func TestStars(t *testing.T) {
	tests := []struct {
		name      string
		entries   []shuffle.Pair
		wantEdges []shuffle.Pair
		wantStats Stats
	}{
		{"empty", nil, nil, Stats{}},
		{"singletons make no edges",
			pairs(1, 10, 2, 11, 3, 12),
			nil, Stats{Entries: 3, Buckets: 3, LargestSize: 1}},
		{"a bucket of four is a star on its smallest id",
			pairs(7, 40, 7, 10, 7, 30, 7, 20, 9, 5),
			pairs(10, 20, 10, 30, 10, 40),
			Stats{Entries: 5, Buckets: 2, MultiBuckets: 1, Edges: 3, LargestSize: 4}},
		{"duplicate members count once",
			pairs(3, 1, 3, 1, 3, 2, 4, 8, 4, 8),
			pairs(1, 2),
			Stats{Entries: 5, Buckets: 2, MultiBuckets: 1, Edges: 1, LargestSize: 2}},
		{"edges ordered by key then member",
			pairs(2, 9, 1, 9, 2, 3, 1, 4, 1, 1),
			pairs(1, 4, 1, 9, 3, 9),
			Stats{Entries: 5, Buckets: 2, MultiBuckets: 2, Edges: 3, LargestSize: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, st := Stars(nil, slices.Clone(tt.entries))
			if !slices.Equal(got, tt.wantEdges) {
				t.Errorf("edges = %v, want %v", got, tt.wantEdges)
			}
			if st != tt.wantStats {
				t.Errorf("stats = %+v, want %+v", st, tt.wantStats)
			}
			sorted := slices.Clone(tt.entries)
			shuffle.SortPairs(sorted)
			if n := starEdges(sorted); n != len(tt.wantEdges) {
				t.Errorf("starEdges = %d, want %d", n, len(tt.wantEdges))
			}
		})
	}
}

// TestStarsLinearInBucketSize checks that a template bucket of 40,000
// members costs 39,999 edges, not 800 million, whatever the input order.
func TestStarsLinearInBucketSize(t *testing.T) {
	const n = 40000
	entries := make([]shuffle.Pair, n)
	for i := range entries {
		entries[i] = shuffle.Pair{A: 42, B: uint64(i + 1)}
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(n, func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
	edges, st := Stars(nil, entries)
	if len(edges) != n-1 || st.Edges != n-1 || st.LargestSize != n {
		t.Fatalf("%d edges (stats %+v), want %d", len(edges), st, n-1)
	}
	for _, e := range edges {
		if e.A != 1 {
			t.Fatalf("edge %v not anchored on the smallest id 1", e)
		}
	}
}

func BenchmarkStars(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	entries := make([]shuffle.Pair, 1<<20)
	for i := range entries {
		entries[i] = shuffle.Pair{A: r.Uint64N(1 << 18), B: r.Uint64()}
	}
	work := make([]shuffle.Pair, len(entries))
	var edges []shuffle.Pair
	b.ReportAllocs()
	for b.Loop() {
		copy(work, entries)
		edges, _ = Stars(edges[:0], work)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(entries)), "ns/entry")
}

// pairs builds pairs from a flat list: pairs(a1, b1, a2, b2, ...).
func pairs(xs ...uint64) []shuffle.Pair {
	var out []shuffle.Pair
	for i := 0; i+1 < len(xs); i += 2 {
		out = append(out, shuffle.Pair{A: xs[i], B: xs[i+1]})
	}
	return out
}
