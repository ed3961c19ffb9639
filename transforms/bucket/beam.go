package bucket

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/transforms/batch"
	"github.com/neardup/neardup/transforms/component"
	"github.com/neardup/neardup/transforms/summary"
)

func init() {
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(summary.Counts), error](&starsFn{})
	register.Iter1[[]byte]()
	register.Emitter2[int, []byte]()
}

// Candidates groups PCollection<KV<int, []byte>> batches of (band key,
// sentence id) entries by shard, links the members of each bucket by a star,
// contracts each shard's edges to a star forest (component.Contract) and
// returns them as PCollection<KV<int, []byte>> batches of edges keyed by
// component.Shard(edge, 0, edgeShards), with partial counts.
func Candidates(s beam.Scope, entries beam.PCollection, edgeShards int) (edges, counts beam.PCollection) {
	s = s.Scope("Buckets")
	return beam.ParDo2(s, &starsFn{EdgeShards: edgeShards}, beam.GroupByKey(s, entries))
}

type starsFn struct {
	EdgeShards int
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
	edges := make([]component.Edge, len(stars))
	for i, e := range stars {
		edges[i] = component.Edge{U: e.A, V: e.B}
	}
	p := batch.NewPacker(f.EdgeShards, 0)
	for _, e := range component.Contract(edges) {
		p.AddPair(component.Shard(e, 0, f.EdgeShards), batch.Pair{A: e.U, B: e.V}, emitEdges)
	}
	p.Flush(emitEdges)
	c := summary.Counts{Buckets: st.Buckets, MultiBuckets: st.MultiBuckets, Edges: st.Edges, LargestBucket: st.LargestSize}
	summary.Report(ctx, c)
	emitCounts(c)
	return nil
}
