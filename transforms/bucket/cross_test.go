package bucket

import (
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/shuffle"
)

func pair(a, b uint64) shuffle.Pair { return shuffle.Pair{A: a, B: b} }

func TestCross(t *testing.T) {
	// Ids 100 and up are side B.
	sideB := func(id uint64) bool { return id >= 100 }
	type bucket struct {
		key     uint64
		members []uint64
	}
	tests := []struct {
		name     string
		buckets  []bucket
		maxPairs int
		want     []shuffle.Pair
		capped   int64
	}{
		{"one side only", []bucket{{1, []uint64{1, 2, 3}}, {2, []uint64{100, 101}}}, 10, nil, 0},
		{"every pair across, none within",
			[]bucket{{1, []uint64{1, 2, 100, 101}}}, 10,
			[]shuffle.Pair{pair(1, 100), pair(1, 101), pair(2, 100), pair(2, 101)}, 0},
		{"a sentence twice under one key counts once",
			[]bucket{{1, []uint64{1, 1, 100}}}, 10, []shuffle.Pair{pair(1, 100)}, 0},
		{"two buckets", []bucket{{1, []uint64{1, 100}}, {2, []uint64{2, 100, 102}}}, 10,
			[]shuffle.Pair{pair(1, 100), pair(2, 100), pair(2, 102)}, 0},
		{"over the cap: two stars",
			[]bucket{{1, []uint64{1, 2, 100, 101, 102}}}, 5,
			[]shuffle.Pair{pair(1, 100), pair(2, 100), pair(1, 101), pair(1, 102)}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var entries []shuffle.Pair
			for _, b := range slices.Backward(tt.buckets) { // unsorted input
				for _, m := range slices.Backward(b.members) {
					entries = append(entries, shuffle.Pair{A: b.key, B: m})
				}
			}
			got, st, capped := Cross(nil, entries, sideB, tt.maxPairs)
			if !slices.Equal(got, tt.want) || capped != tt.capped {
				t.Errorf("Cross = %v, capped %d; want %v, %d", got, capped, tt.want, tt.capped)
			}
			if st.Buckets != int64(len(tt.buckets)) || st.Edges != int64(len(tt.want)) {
				t.Errorf("stats %+v: want %d buckets, %d edges", st, len(tt.buckets), len(tt.want))
			}
		})
	}
}
