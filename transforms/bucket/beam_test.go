package bucket

import (
	"cmp"
	"context"
	"runtime"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/testkit/testshared"
)

// pack makes a batch of signature entries, as minhash.Sign does.
func pack(ps []shuffle.Pair) []byte { return shuffle.KindEntries.PackPairs(ps...) }

// TestStarsFnSendsEachEdgeOnceBothWays runs the bucket DoFn without Beam
// over two shards whose buckets link the same pair twice, on one core and
// on four: each distinct edge goes out once in each direction, keyed by
// the shard of its first node.
func TestStarsFnSendsEachEdgeOnceBothWays(t *testing.T) {
	const shards = 3
	shard0 := pairs(1, 10, 1, 20)                      // bucket 1: 10–20
	shard1 := pairs(2, 20, 2, 10, 3, 30, 3, 10, 4, 40) // bucket 2: 10–20 again; bucket 3: 10–30; bucket 4 alone
	want := pairs(10, 20, 20, 10, 10, 30, 30, 10)
	byPair := func(x, y shuffle.Pair) int { return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B)) }
	slices.SortFunc(want, byPair)
	wantCounts := counters.Counts{Buckets: 4, MultiBuckets: 3, Edges: 3, LargestBucket: 2}

	for _, procs := range []int{1, 4} {
		prev := runtime.GOMAXPROCS(procs)
		var got []shuffle.Pair
		emit := func(shard int, b []byte) {
			ps, err := shuffle.KindCandidates.AppendPairs(nil, b)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				if shuffle.ShardOf(p.A, shards) != shard {
					t.Errorf("edge %v sent to shard %d", p, shard)
				}
			}
			got = append(got, ps...)
		}
		var counts counters.Counts
		ctx := context.Background()
		f := &starsFn{RecordShards: shards}
		f.Setup()
		f.StartBundle(ctx, emit, nil)
		for i, entries := range [][]shuffle.Pair{shard0, shard1} {
			if err := f.ProcessElement(ctx, i, testshared.Iter(pack(entries)), emit, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.FinishBundle(ctx, emit, func(c counters.Counts) { counts.Merge(c) }); err != nil {
			t.Fatal(err)
		}
		f.Teardown()
		runtime.GOMAXPROCS(prev)

		slices.SortFunc(got, byPair)
		if !slices.Equal(got, want) {
			t.Errorf("%d cores: sent %v, want %v", procs, got, want)
		}
		if counts.Buckets != wantCounts.Buckets || counts.MultiBuckets != wantCounts.MultiBuckets ||
			counts.Edges != wantCounts.Edges || counts.LargestBucket != wantCounts.LargestBucket {
			t.Errorf("%d cores: counts %+v, want %+v", procs, counts, wantCounts)
		}
	}
}
