package bucket

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/transforms/batch"
	"github.com/neardup/neardup/transforms/summary"
)

func init() {
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(summary.Counts), error](&starsFn{})
	register.Iter1[[]byte]()
	register.Emitter2[int, []byte]()
}

// Candidates groups PCollection<KV<int, []byte>> batches of (band key,
// sentence id) entries by shard, links the members of each bucket by a star
// and returns the distinct star edges (U, V) as PCollection<KV<int, []byte>>
// batches keyed by batch.ShardOf(U, recordShards), ready to be joined with
// the sentence records and verified, with partial counts.
func Candidates(s beam.Scope, entries beam.PCollection, recordShards int) (edges, counts beam.PCollection) {
	s = s.Scope("Buckets")
	return beam.ParDo2(s, &starsFn{RecordShards: recordShards}, beam.GroupByKey(s, entries))
}

type starsFn struct {
	RecordShards int
}

func (f *starsFn) ProcessElement(ctx context.Context, shard int, batches func(*[]byte) bool, emitEdges func(int, []byte), emitCounts func(summary.Counts)) error {
	var entries []batch.Pair
	var b []byte
	for batches(&b) {
		var err error
		if entries, err = batch.AppendPairs(entries, b); err != nil {
			return fmt.Errorf("bucket: shard %d: %w", shard, err)
		}
	}
	stars, st := Stars(nil, entries)
	slices.SortFunc(stars, comparePairs)
	p := batch.NewPacker(f.RecordShards, 0)
	for _, e := range slices.Compact(stars) {
		p.AddPair(batch.ShardOf(e.A, f.RecordShards), e, emitEdges)
	}
	p.Flush(emitEdges)
	c := summary.Counts{Buckets: st.Buckets, MultiBuckets: st.MultiBuckets, Edges: st.Edges, LargestBucket: st.LargestSize}
	summary.Emit(ctx, c, emitCounts)
	return nil
}
