package bucket

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/orderedpool"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/sentence"
)

func init() {
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(counters.Counts), error](&starsFn{})
	register.Iter1[[]byte]()
	register.Emitter2[int, []byte]()
}

// Candidates groups the (band key, sentence id) entries by shard, links the
// members of each bucket by a star and returns the distinct star edges
// (U, V), U < V, each twice: (U, V) keyed by shuffle.ShardOf(U,
// recordShards) and (V, U) keyed by shuffle.ShardOf(V, recordShards), ready
// to be joined with both sentences' records and verified (verify.Edges),
// with partial counts. The shards are linked by workers goroutines (0:
// GOMAXPROCS).
func Candidates(s beam.Scope, entries shuffle.Entries, recordShards, workers int) (shuffle.Candidates, beam.PCollection) {
	s = s.Scope("Buckets")
	edges, counts := beam.ParDo2(s, &starsFn{RecordShards: recordShards, Workers: workers}, beam.GroupByKey(s, entries.Raw()))
	return shuffle.MakeCandidates(edges), counts
}

// CrossCandidates is Candidates for a run comparing two sides: it links
// each bucket's members by Cross, every member of side A with every one of
// side B, sides giving each wiki index's side (true: B; the index of a
// sentence id's wiki, sentence.Doc.Wiki). A bucket with more than
// maxPairs pairs across is linked by stars; the pairs left out are counted
// (counters.Reuse.CrossPairsCapped).
func CrossCandidates(s beam.Scope, entries shuffle.Entries, sides []bool, maxPairs, recordShards, workers int) (shuffle.Candidates, beam.PCollection) {
	s = s.Scope("Buckets across")
	fn := &starsFn{RecordShards: recordShards, Workers: workers, Sides: sides, MaxPairs: maxPairs}
	edges, counts := beam.ParDo2(s, fn, beam.GroupByKey(s, entries.Raw()))
	return shuffle.MakeCandidates(edges), counts
}

// starsFn links the buckets of each shard. The shards of a bundle are
// linked on every core (package ordered), a few at a time, while the next
// ones are read; their edges are packed in shard order.
type starsFn struct {
	RecordShards int
	Workers      int
	// Sides, when set, links the buckets across two sides (Cross) instead
	// of by stars, with at most MaxPairs pairs a bucket.
	Sides    []bool
	MaxPairs int

	orderedpool.Owner[[]shuffle.Pair, *linked]
	packer *shuffle.Packer
	sent   *edgeSet // edges already sent by this bundle
	counts counters.Counts
}

// maxSent bounds the edges a bundle remembers to avoid sending one twice:
// a pair of near duplicates shares most of its band keys, so it comes out
// of several bucket shards (nine times on average in the 8× benchmark
// corpus). Past the bound the memory is cleared; verify.Edges removes any
// repeat that gets through.
const maxSent = 1 << 20

// linked is one shard's distinct star edges and statistics.
type linked struct {
	edges  []shuffle.Pair
	stats  Stats
	capped int64 // pairs across left out (Cross)
}

func (f *starsFn) Setup() {
	fn := link
	if f.Sides != nil {
		fn = linkCross(f.sideB, f.MaxPairs)
	}
	f.Start(f.Workers, 0, func() func([]shuffle.Pair) (*linked, error) { return fn })
}

// sideB reports whether the sentence id is of a wiki of side B.
func (f *starsFn) sideB(id uint64) bool {
	w := sentence.ID(id).Doc().Wiki()
	return w < len(f.Sides) && f.Sides[w]
}

func (f *starsFn) StartBundle(context.Context, func(int, []byte), func(counters.Counts)) {
	f.packer = shuffle.NewPacker(shuffle.KindCandidates, f.RecordShards)
	if f.sent == nil {
		f.sent = newEdgeSet(maxSent)
	}
	f.sent.clear()
	f.counts = counters.Counts{}
}

func (f *starsFn) ProcessElement(_ context.Context, shard int, batches func(*[]byte) bool, emitEdges func(int, []byte), _ func(counters.Counts)) error {
	all := shuffle.Collect(batches)
	most := 0 // pairs the batches can hold: 9 bytes at least each
	for _, b := range all {
		most += len(b) / 9
	}
	entries := make([]shuffle.Pair, 0, most)
	for _, b := range all {
		var err error
		if entries, err = shuffle.KindEntries.AppendPairs(entries, b); err != nil {
			return fmt.Errorf("bucket: shard %d: %w", shard, err)
		}
	}
	return f.Pool().Submit(entries, f.deliver(emitEdges))
}

func (f *starsFn) FinishBundle(ctx context.Context, emitEdges func(int, []byte), emitCounts func(counters.Counts)) error {
	if err := f.Pool().Flush(f.deliver(emitEdges)); err != nil {
		return err
	}
	f.packer.Flush(emitEdges)
	counters.Emit(ctx, f.counts, emitCounts)
	return nil
}

// deliver packs each edge of a shard that this bundle has not sent yet,
// once in each direction, by the shard of its first node.
func (f *starsFn) deliver(emitEdges func(int, []byte)) func(*linked) error {
	return func(l *linked) error {
		for _, e := range l.edges {
			if !f.sent.add(e) {
				continue
			}
			f.packer.Add(shuffle.ShardOf(e.A, f.RecordShards), e, emitEdges)
			f.packer.Add(shuffle.ShardOf(e.B, f.RecordShards), shuffle.Pair{A: e.B, B: e.A}, emitEdges)
		}
		st := l.stats
		f.counts.Merge(counters.Counts{Buckets: st.Buckets, MultiBuckets: st.MultiBuckets, Edges: st.Edges, LargestBucket: st.LargestSize,
			Reuse: counters.Reuse{CrossPairsCapped: l.capped}})
		return nil
	}
}

// link returns the distinct star edges of one shard's entries, sorted.
func link(entries []shuffle.Pair) (*linked, error) {
	stars, st := Stars(nil, entries)
	shuffle.SortPairs(stars)
	return &linked{edges: slices.Compact(stars), stats: st}, nil
}
