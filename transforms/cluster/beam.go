package cluster

import (
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/ordered"
	"github.com/neardup/neardup/internal/tally"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/batch"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/summary"
	"github.com/neardup/neardup/transforms/verify"
)

func init() {
	register.DoFn5x1[int, func(*[]byte) bool, func(*[]byte) bool, func(*[]byte) bool, func(int, []byte), error](&joinFn{})
	register.DoFn6x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(summary.PairCount), func(tally.Counts), error](&buildFn{})
	register.Iter1[[]byte]()
	register.Emitter2[int, []byte]()
	register.Emitter1[summary.PairCount]()
	register.Emitter1[tally.Counts]()
}

// Tags of the values joinFn sends to a component. Each value is a record of
// a batch keyed by the component's shard: uvarint component, tag, payload.
const (
	tagMember = 'm' // followed by an encoded sentence.Sentence
	tagEdge   = 'e' // followed by an encoded verify.Edge
)

// Assemble joins component labels (batches of (sentence id, component)
// pairs), sentence records (batches of encoded sentence.Sentence) and
// verified edge similarities (batches of encoded verify.Edge), all
// PCollection<KV<int, []byte>> keyed by the same sentence shard, and builds
// one Cluster per component. Members and edges travel to their component
// in batches keyed by one of componentShards shards, never one element per
// sentence. It returns the clusters as JSON lines ready for
// result.Write (keyed by output shard, sorted by cluster id), the number of
// shared clusters per pair of pages (PCollection<summary.PairCount>, one
// element per pair and bundle) and partial counts. A cluster line lists at
// most maxMembers members (0: all; see Build).
func Assemble(s beam.Scope, labels, records, sims beam.PCollection, componentShards, outShards, maxMembers int) (lines, pairs, counts beam.PCollection) {
	s = s.Scope("Clusters")
	joined := beam.CoGroupByKey(s, labels, records, sims)
	members := beam.ParDo(s, &joinFn{Shards: componentShards}, joined)
	return beam.ParDo3(s, &buildFn{OutShards: outShards, MaxMembers: maxMembers}, beam.GroupByKey(s, members))
}

// joinFn sends the record of every labelled sentence and the similarity of
// every verified edge (by its first node's label) to its component's shard.
// Shards are joined on every core (package ordered) and emitted in input
// order, as a serial loop would.
type joinFn struct {
	Shards int

	pool *ordered.Pool[joinWork, batch.Held]
}

// joinWork is the batches of one sentence shard.
type joinWork struct {
	shard                 int
	labels, records, sims [][]byte
}

func (f *joinFn) Setup() {
	f.pool = ordered.New(0, 0, func() func(joinWork) (batch.Held, error) {
		return func(w joinWork) (batch.Held, error) { return join(w, f.Shards) }
	})
}

func (f *joinFn) Teardown() {
	if f.pool != nil {
		f.pool.Close()
	}
}

func (f *joinFn) StartBundle(func(int, []byte)) { f.pool.Discard() }

func (f *joinFn) ProcessElement(shard int, labels, records, sims func(*[]byte) bool, emit func(int, []byte)) error {
	w := joinWork{shard: shard}
	var b []byte
	for labels(&b) {
		w.labels = append(w.labels, b)
	}
	if len(w.labels) == 0 {
		return nil
	}
	for records(&b) {
		w.records = append(w.records, b)
	}
	for sims(&b) {
		w.sims = append(w.sims, b)
	}
	return f.pool.Submit(w, replay(emit))
}

// FinishBundle emits the shards still being joined.
func (f *joinFn) FinishBundle(emit func(int, []byte)) error {
	return f.pool.Flush(replay(emit))
}

func replay(emit func(int, []byte)) func(batch.Held) error {
	return func(h batch.Held) error {
		h.Replay(emit)
		return nil
	}
}

// join packs the members and edges of one sentence shard by component
// shard.
func join(w joinWork, shards int) (batch.Held, error) {
	component := map[uint64]uint64{}
	for _, b := range w.labels {
		pairs, err := batch.AppendPairs(nil, b)
		if err != nil {
			return nil, fmt.Errorf("cluster: labels of shard %d: %w", w.shard, err)
		}
		for _, p := range pairs {
			component[p.A] = p.B
		}
	}
	var out batch.Held
	emit := out.Emit
	p := batch.NewPacker(shards, 0)
	var value []byte
	send := func(root uint64, tag byte, rec []byte) {
		value = append(binary.AppendUvarint(value[:0], root), tag)
		p.AddRecord(batch.ShardOf(root, shards), append(value, rec...), emit)
	}
	var id sentence.ID
	for _, b := range w.records {
		err := batch.Records(b, func(rec []byte) error {
			if err := id.UnmarshalPrefix(rec); err != nil {
				return err
			}
			if root, ok := component[uint64(id)]; ok {
				send(root, tagMember, rec)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("cluster: records of shard %d: %w", w.shard, err)
		}
	}
	var e verify.Edge
	for _, b := range w.sims {
		err := batch.Records(b, func(rec []byte) error {
			if err := e.UnmarshalBinary(rec); err != nil {
				return err
			}
			if root, ok := component[e.U]; ok {
				send(root, tagEdge, rec)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("cluster: similarities of shard %d: %w", w.shard, err)
		}
	}
	p.Flush(emit)
	return out, nil
}

// buildFn builds each component's cluster and packs its JSON line. The
// clusters are built on every core (package ordered), across the shards of
// a bundle, and packed in shard and component order, as a serial loop
// would.
type buildFn struct {
	OutShards  int
	MaxMembers int

	pool   *ordered.Pool[[]component, []built]
	packer *batch.Packer
	pairs  map[PagePair]int64
	counts tally.Counts
}

// component is one component's root and parts.
type component struct {
	root  uint64
	parts *parts
}

// built is what the pipeline keeps of a cluster: its JSON line, its page
// pairs and what the counts need.
type built struct {
	root     uint64
	line     []byte
	pairs    []PagePair
	size     int
	omitted  int // members left out of the line
	category string
}

// buildBatch is how many components a pool worker builds at a time.
const buildBatch = 16

func (f *buildFn) Setup() {
	f.pool = ordered.New(0, 4, func() func([]component) ([]built, error) {
		return func(w []component) ([]built, error) { return buildAll(w, f.MaxMembers) }
	})
}

func (f *buildFn) Teardown() {
	if f.pool != nil {
		f.pool.Close()
	}
}

func (f *buildFn) StartBundle(context.Context, func(int, []byte), func(summary.PairCount), func(tally.Counts)) {
	f.pool.Discard()
	f.packer = batch.NewPacker(f.OutShards, 0)
	f.pairs = map[PagePair]int64{}
	f.counts = tally.Counts{}
}

func (f *buildFn) ProcessElement(_ context.Context, shard int, batches func(*[]byte) bool, emitLines func(int, []byte), _ func(summary.PairCount), _ func(tally.Counts)) error {
	all := map[uint64]*parts{}
	var b []byte
	for batches(&b) {
		if err := batch.Records(b, func(rec []byte) error { return addPart(all, rec) }); err != nil {
			return fmt.Errorf("cluster: components of shard %d: %w", shard, err)
		}
	}
	deliver := f.deliver(emitLines)
	var work []component
	for _, root := range slices.Sorted(maps.Keys(all)) {
		work = append(work, component{root, all[root]})
		if len(work) == buildBatch {
			if err := f.pool.Submit(work, deliver); err != nil {
				return err
			}
			work = nil
		}
	}
	if len(work) > 0 {
		return f.pool.Submit(work, deliver)
	}
	return nil
}

// buildAll builds the clusters of a batch of components.
func buildAll(work []component, maxMembers int) ([]built, error) {
	out := make([]built, len(work))
	for i, w := range work {
		sents := make([]sentence.Sentence, len(w.parts.members))
		for j, m := range w.parts.members {
			if err := sents[j].UnmarshalBinary(m); err != nil {
				return nil, fmt.Errorf("cluster: component %v: %w", sentence.ID(w.root), err)
			}
		}
		c := Build(sents, w.parts.sims, maxMembers)
		line, err := c.MarshalLine()
		if err != nil {
			return nil, fmt.Errorf("cluster %s: %w", c.ID, err)
		}
		out[i] = built{root: w.root, line: line, pairs: c.PagePairs(), size: c.Size, category: c.Category, omitted: c.MembersOmitted}
	}
	return out, nil
}

// parts are what joinFn sent of one component.
type parts struct {
	members [][]byte // encoded sentence.Sentence, decoded by the pool's workers
	sims    []verify.Similarity
}

// addPart files one record of joinFn's batches under its component. The
// record may alias the batch, which must not change afterwards.
func addPart(all map[uint64]*parts, rec []byte) error {
	root, n := binary.Uvarint(rec)
	if n <= 0 || n >= len(rec) {
		return batch.ErrCorrupt
	}
	p := all[root]
	if p == nil {
		p = &parts{}
		all[root] = p
	}
	tag, payload := rec[n], rec[n+1:]
	switch tag {
	case tagMember:
		p.members = append(p.members, payload)
	case tagEdge:
		var e verify.Edge
		if err := e.UnmarshalBinary(payload); err != nil {
			return fmt.Errorf("component %v: %w", sentence.ID(root), err)
		}
		p.sims = append(p.sims, e.Similarity)
	default:
		return fmt.Errorf("component %v: unknown tag %q", sentence.ID(root), tag)
	}
	return nil
}

// deliver returns the function that packs built clusters' lines and
// counts them.
func (f *buildFn) deliver(emitLines func(int, []byte)) func([]built) error {
	return func(bs []built) error {
		for _, b := range bs {
			f.packer.AddRecord(batch.ShardOf(b.root, f.OutShards), result.Record(b.root, b.line), emitLines)
			for _, pp := range b.pairs {
				f.pairs[pp]++
			}
			f.count(b)
		}
		return nil
	}
}

func (f *buildFn) count(b built) {
	n := int64(b.size)
	f.counts.Clusters++
	f.counts.SentencesInClusters += n
	f.counts.LargestCluster = max(f.counts.LargestCluster, n)
	f.counts.AddClusterSize(n, 1)
	f.counts.AddCategory(b.category, 1, n)
	f.counts.MembersOmitted += int64(b.omitted)
}

// FinishBundle delivers the clusters still being built: the pool runs
// across elements, so one shard's decoding overlaps the previous shard's
// building.
func (f *buildFn) FinishBundle(ctx context.Context, emitLines func(int, []byte), emitPairs func(summary.PairCount), emitCounts func(tally.Counts)) error {
	if err := f.pool.Flush(f.deliver(emitLines)); err != nil {
		return err
	}
	f.packer.Flush(emitLines)
	for p, n := range f.pairs {
		emitPairs(summary.PairCount{WikiA: p.WikiA, PageA: p.A, WikiB: p.WikiB, PageB: p.B, TitleA: p.TitleA, TitleB: p.TitleB, Clusters: n})
	}
	tally.Emit(ctx, f.counts, emitCounts)
	return nil
}
