package shuffle

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSortPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	random := func(n int, a func() uint64) []Pair {
		ps := make([]Pair, n)
		for i := range ps {
			ps[i] = Pair{a(), r.Uint64N(50)}
		}
		return ps
	}
	tests := []struct {
		name string
		in   []Pair
	}{
		{"empty", nil},
		{"one", []Pair{{3, 4}}},
		{"small", random(40, r.Uint64)},
		{"hashes", random(5000, r.Uint64)},
		{"hashes of one shard", random(5000, func() uint64 { return 7<<58 | r.Uint64N(1<<58) })},
		{"sentence ids", random(5000, func() uint64 { return r.Uint64N(3000)<<20 | r.Uint64N(40) })},
		{"few keys", random(5000, func() uint64 { return r.Uint64N(3) })},
		{"one key", random(5000, func() uint64 { return 42 })},
		{"extremes", random(5000, func() uint64 { return []uint64{0, 1, 1<<64 - 1, 1<<63 + r.Uint64N(9)}[r.IntN(4)] })},
		{"one outlier", append(random(5000, func() uint64 { return r.Uint64N(1000) }), Pair{1<<64 - 1, 0})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := slices.Clone(tt.in)
			SortPairs(got)
			want := slices.Clone(tt.in)
			slices.SortFunc(want, ComparePairs)
			if !slices.Equal(got, want) {
				t.Errorf("SortPairs differs from slices.SortFunc on %d pairs", len(tt.in))
			}
		})
	}
}

func BenchmarkSortPairs(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	in := make([]Pair, 50000) // about one bucket shard of the 8× corpus
	for i := range in {
		in[i] = Pair{r.Uint64(), r.Uint64N(1 << 40)}
	}
	ps := make([]Pair, len(in))
	for _, sorter := range []struct {
		name string
		sort func([]Pair)
	}{
		{"SortPairs", SortPairs},
		{"slices.SortFunc", func(ps []Pair) { slices.SortFunc(ps, ComparePairs) }},
	} {
		b.Run(fmt.Sprintf("%s/n=%d", sorter.name, len(in)), func(b *testing.B) {
			for b.Loop() {
				copy(ps, in)
				sorter.sort(ps)
			}
		})
	}
}
