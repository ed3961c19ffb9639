package cluster

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/batch"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/summary"
)

func init() {
	register.DoFn4x1[int, func(*[]byte) bool, func(*[]byte) bool, func(uint64, []byte), error](&joinFn{})
	register.DoFn5x1[context.Context, uint64, func(*[]byte) bool, func(int, []byte), func(summary.Counts), error](&buildFn{})
	register.Iter1[[]byte]()
	register.Emitter2[uint64, []byte]()
	register.Emitter2[int, []byte]()
}

// Assemble joins component labels (batches of (sentence id, component)
// pairs) with sentence records (batches of encoded sentence.Sentence), both
// PCollection<KV<int, []byte>> keyed by the same sentence shard, and builds
// one Cluster per component. It returns the clusters as JSON lines ready for
// result.Write (PCollection<KV<int, []byte>> keyed by output shard, sorted by
// cluster id) and partial counts.
func Assemble(s beam.Scope, labels, records beam.PCollection, outShards int) (lines, counts beam.PCollection) {
	s = s.Scope("Clusters")
	joined := beam.CoGroupByKey(s, labels, records)
	members := beam.ParDo(s, &joinFn{}, joined)
	return beam.ParDo2(s, &buildFn{OutShards: outShards}, beam.GroupByKey(s, members))
}

// joinFn emits the record of every labelled sentence, keyed by its component.
type joinFn struct{}

func (joinFn) ProcessElement(shard int, labels, records func(*[]byte) bool, emit func(uint64, []byte)) error {
	component := map[uint64]uint64{}
	var b []byte
	for labels(&b) {
		pairs, err := batch.AppendPairs(nil, b)
		if err != nil {
			return fmt.Errorf("cluster: labels of shard %d: %w", shard, err)
		}
		for _, p := range pairs {
			component[p.A] = p.B
		}
	}
	if len(component) == 0 {
		return nil
	}
	var id sentence.ID
	for records(&b) {
		err := batch.Records(b, func(rec []byte) error {
			if err := id.UnmarshalPrefix(rec); err != nil {
				return err
			}
			if root, ok := component[uint64(id)]; ok {
				emit(root, append([]byte(nil), rec...))
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("cluster: records of shard %d: %w", shard, err)
		}
	}
	return nil
}

// buildFn builds each component's cluster and packs its JSON line.
type buildFn struct {
	OutShards int

	packer *batch.Packer
	counts summary.Counts
}

func (f *buildFn) StartBundle(context.Context, func(int, []byte), func(summary.Counts)) {
	f.packer = batch.NewPacker(f.OutShards, 0)
	f.counts = summary.Counts{}
}

func (f *buildFn) ProcessElement(_ context.Context, root uint64, recs func(*[]byte) bool, emitLines func(int, []byte), _ func(summary.Counts)) error {
	var sents []sentence.Sentence
	var b []byte
	for recs(&b) {
		var s sentence.Sentence
		if err := s.UnmarshalBinary(b); err != nil {
			return fmt.Errorf("cluster: component %v: %w", sentence.ID(root), err)
		}
		sents = append(sents, s)
	}
	c := Build(sents)
	line, err := c.MarshalLine()
	if err != nil {
		return fmt.Errorf("cluster %s: %w", c.ID, err)
	}
	f.packer.AddRecord(batch.ShardOf(root, f.OutShards), result.Record(root, line), emitLines)
	f.counts.Clusters++
	f.counts.SentencesInClusters += int64(c.Size)
	f.counts.LargestCluster = max(f.counts.LargestCluster, int64(c.Size))
	f.counts.AddClusterSize(int64(c.Size), 1)
	return nil
}

func (f *buildFn) FinishBundle(ctx context.Context, emitLines func(int, []byte), emitCounts func(summary.Counts)) {
	f.packer.Flush(emitLines)
	if !f.counts.IsZero() {
		summary.Report(ctx, f.counts)
		emitCounts(f.counts)
	}
}
