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
	"github.com/neardup/neardup/transforms/verify"
)

func init() {
	register.DoFn5x1[int, func(*[]byte) bool, func(*[]byte) bool, func(*[]byte) bool, func(uint64, []byte), error](&joinFn{})
	register.DoFn6x1[context.Context, uint64, func(*[]byte) bool, func(int, []byte), func(summary.PairCount), func(summary.Counts), error](&buildFn{})
	register.Iter1[[]byte]()
	register.Emitter2[uint64, []byte]()
	register.Emitter2[int, []byte]()
	register.Emitter1[summary.PairCount]()
	register.Emitter1[summary.Counts]()
}

// Tags of the values joinFn sends to a component.
const (
	tagMember = 'm' // followed by an encoded sentence.Sentence
	tagEdge   = 'e' // followed by an encoded verify.Edge
)

// Assemble joins component labels (batches of (sentence id, component)
// pairs), sentence records (batches of encoded sentence.Sentence) and
// verified edge similarities (batches of encoded verify.Edge), all
// PCollection<KV<int, []byte>> keyed by the same sentence shard, and builds
// one Cluster per component. It returns the clusters as JSON lines ready for
// result.Write (keyed by output shard, sorted by cluster id), the number of
// shared clusters per pair of pages (PCollection<summary.PairCount>, one
// element per pair and bundle) and partial counts.
func Assemble(s beam.Scope, labels, records, sims beam.PCollection, outShards int) (lines, pairs, counts beam.PCollection) {
	s = s.Scope("Clusters")
	joined := beam.CoGroupByKey(s, labels, records, sims)
	members := beam.ParDo(s, &joinFn{}, joined)
	return beam.ParDo3(s, &buildFn{OutShards: outShards}, beam.GroupByKey(s, members))
}

// joinFn emits, keyed by component, the record of every labelled sentence
// and the similarity of every verified edge (by its first node's label).
type joinFn struct{}

func (joinFn) ProcessElement(shard int, labels, records, sims func(*[]byte) bool, emit func(uint64, []byte)) error {
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
	tagged := func(tag byte, rec []byte) []byte { return append([]byte{tag}, rec...) }
	var id sentence.ID
	for records(&b) {
		err := batch.Records(b, func(rec []byte) error {
			if err := id.UnmarshalPrefix(rec); err != nil {
				return err
			}
			if root, ok := component[uint64(id)]; ok {
				emit(root, tagged(tagMember, rec))
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("cluster: records of shard %d: %w", shard, err)
		}
	}
	var e verify.Edge
	for sims(&b) {
		err := batch.Records(b, func(rec []byte) error {
			if err := e.UnmarshalBinary(rec); err != nil {
				return err
			}
			if root, ok := component[e.U]; ok {
				emit(root, tagged(tagEdge, rec))
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("cluster: similarities of shard %d: %w", shard, err)
		}
	}
	return nil
}

// buildFn builds each component's cluster and packs its JSON line.
type buildFn struct {
	OutShards int

	packer *batch.Packer
	pairs  map[PagePair]int64
	counts summary.Counts
}

func (f *buildFn) StartBundle(context.Context, func(int, []byte), func(summary.PairCount), func(summary.Counts)) {
	f.packer = batch.NewPacker(f.OutShards, 0)
	f.pairs = map[PagePair]int64{}
	f.counts = summary.Counts{}
}

func (f *buildFn) ProcessElement(_ context.Context, root uint64, values func(*[]byte) bool, emitLines func(int, []byte), _ func(summary.PairCount), _ func(summary.Counts)) error {
	var sents []sentence.Sentence
	var sims []verify.Similarity
	var b []byte
	for values(&b) {
		if len(b) == 0 {
			return fmt.Errorf("cluster: component %v: empty value", sentence.ID(root))
		}
		var err error
		switch b[0] {
		case tagMember:
			var s sentence.Sentence
			err = s.UnmarshalBinary(b[1:])
			sents = append(sents, s)
		case tagEdge:
			var e verify.Edge
			err = e.UnmarshalBinary(b[1:])
			sims = append(sims, e.Similarity)
		default:
			err = fmt.Errorf("unknown tag %q", b[0])
		}
		if err != nil {
			return fmt.Errorf("cluster: component %v: %w", sentence.ID(root), err)
		}
	}
	c := Build(sents, sims)
	line, err := c.MarshalLine()
	if err != nil {
		return fmt.Errorf("cluster %s: %w", c.ID, err)
	}
	f.packer.AddRecord(batch.ShardOf(root, f.OutShards), result.Record(root, line), emitLines)
	for _, p := range c.PagePairs() {
		f.pairs[p]++
	}
	f.count(c)
	return nil
}

func (f *buildFn) count(c Cluster) {
	n := int64(c.Size)
	f.counts.Clusters++
	f.counts.SentencesInClusters += n
	f.counts.LargestCluster = max(f.counts.LargestCluster, n)
	f.counts.AddClusterSize(n, 1)
	f.counts.AddCategory(c.Category, 1, n)
}

func (f *buildFn) FinishBundle(ctx context.Context, emitLines func(int, []byte), emitPairs func(summary.PairCount), emitCounts func(summary.Counts)) {
	f.packer.Flush(emitLines)
	for p, n := range f.pairs {
		emitPairs(summary.PairCount{PageA: p.A, PageB: p.B, TitleA: p.TitleA, TitleB: p.TitleB, Clusters: n})
	}
	summary.Emit(ctx, f.counts, emitCounts)
}
