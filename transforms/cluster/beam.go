package cluster

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/hashmix"
	"github.com/neardup/neardup/internal/orderedpool"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/verify"
)

func init() {
	register.DoFn5x1[int, func(*[]byte) bool, func(*[]byte) bool, func(*[]byte) bool, func(int, []byte), error](&joinFn{})
	register.DoFn7x1[context.Context, int, func(*[]byte) bool, func(Cluster), func(int, []byte), func(int, []byte), func(counters.Counts), error](&buildFn{})
	register.Emitter1[Cluster]()
	register.Iter1[[]byte]()
	register.Emitter2[int, []byte]()
	register.Emitter1[counters.Counts]()
}

// Tags of the values joinFn sends to a component. Each value is a record of
// a batch keyed by the component's shard: uvarint component, tag, payload.
const (
	tagMember = 'm' // followed by an encoded sentence.Sentence
	tagEdge   = 'e' // followed by an encoded verify.Edge
)

// Assemble joins component labels, sentence records and verified edge
// similarities, all keyed by the same sentence shard, and builds one
// Cluster per component. Members and edges travel to their component in
// batches keyed by one of cfg.ComponentShards shards, never one element per
// sentence. It returns the clusters (PCollection<Cluster>, for
// categorize.Clusters), the number of shared clusters per pair of pages
// (shuffle.KindPagePairs batches of encoded PairCounts, one per pair and
// bundle, keyed by PairCount.Shard of cfg.ComponentShards) and partial
// counts. A cluster lists at most cfg.MaxMembers members (0: all; see
// Build). With cfg.SentenceShards > 0, memberships holds the cluster id of
// every member, listed or not: lines of its cluster's ID keyed by the
// member's sentence id, in batches keyed by the sentence's shard of
// cfg.SentenceShards (for sentence.Lines); otherwise it is empty.
func Assemble(s beam.Scope, labels shuffle.Labels, records shuffle.Sentences, sims shuffle.Similarities, cfg Config) (clusters beam.PCollection, pairs shuffle.PagePairs, memberships shuffle.Lines, counts beam.PCollection) {
	s = s.Scope("Clusters")
	joined := beam.CoGroupByKey(s, labels.Raw(), records.Raw(), sims.Raw())
	members := beam.ParDo(s, &joinFn{Shards: cfg.ComponentShards, Workers: cfg.Workers}, joined)
	outs := beam.ParDoN(s, &buildFn{Cfg: cfg}, beam.GroupByKey(s, members))
	return outs[0], shuffle.MakePagePairs(outs[1]), shuffle.MakeLines(outs[2]), outs[3]
}

// Config says how Assemble shards and caps the clusters.
type Config struct {
	ComponentShards int // shards of the members and edges sent to their components
	MaxMembers      int // members a cluster line lists at most (0: all; see Build)
	SentenceShards  int // shards of the memberships (0: none are emitted)
	Workers         int // goroutines of each DoFn's pool (0: GOMAXPROCS)
}

// joinFn sends the record of every labelled sentence and the similarity of
// every verified edge (by its first node's label) to its component's shard.
// Shards are joined on every core (package ordered) and emitted in input
// order, as a serial loop would.
type joinFn struct {
	Shards  int
	Workers int

	orderedpool.Owner[joinWork, shuffle.Held]
}

// joinWork is the batches of one sentence shard.
type joinWork struct {
	shard                 int
	labels, records, sims [][]byte
}

func (f *joinFn) Setup() {
	f.Start(f.Workers, 0, func() func(joinWork) (shuffle.Held, error) {
		return func(w joinWork) (shuffle.Held, error) { return join(w, f.Shards) }
	})
}

func (f *joinFn) ProcessElement(shard int, labels, records, sims func(*[]byte) bool, emit func(int, []byte)) error {
	w := joinWork{shard: shard, labels: shuffle.Collect(labels)}
	if len(w.labels) == 0 {
		return nil
	}
	w.records, w.sims = shuffle.Collect(records), shuffle.Collect(sims)
	return f.Pool().Submit(w, replay(emit))
}

// FinishBundle emits the shards still being joined.
func (f *joinFn) FinishBundle(emit func(int, []byte)) error {
	return f.Pool().Flush(replay(emit))
}

func replay(emit func(int, []byte)) func(shuffle.Held) error {
	return func(h shuffle.Held) error {
		h.Replay(emit)
		return nil
	}
}

// join packs the members and edges of one sentence shard by component
// shard.
func join(w joinWork, shards int) (shuffle.Held, error) {
	component := map[uint64]uint64{}
	for _, b := range w.labels {
		pairs, err := shuffle.KindLabels.AppendPairs(nil, b)
		if err != nil {
			return nil, fmt.Errorf("cluster: labels of shard %d: %w", w.shard, err)
		}
		for _, p := range pairs {
			component[p.A] = p.B
		}
	}
	var out shuffle.Held
	emit := out.Emit
	p := shuffle.NewPacker(shuffle.KindParts, shards)
	var value []byte
	send := func(root uint64, tag byte, rec []byte) {
		value = append(binary.AppendUvarint(value[:0], root), tag)
		p.AddRecord(shuffle.ShardOf(root, shards), append(value, rec...), emit)
	}
	var id sentence.ID
	for _, b := range w.records {
		err := shuffle.KindSentences.Records(b, func(rec []byte) error {
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
		err := shuffle.KindSimilarities.Records(b, func(rec []byte) error {
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

// buildFn builds each component's cluster. The clusters are built on
// Cfg.Workers goroutines, across the shards of a bundle, and emitted in
// shard and component order, as a serial loop would.
type buildFn struct {
	Cfg Config

	orderedpool.Owner[[]component, []built]
	pairs       map[PagePair]int64
	memberships *shuffle.Packer // nil when Cfg.SentenceShards is 0
	counts      counters.Counts
}

// component is one component's root and parts.
type component struct {
	root  uint64
	parts *parts
}

// built is a cluster, its page pairs and the ids of all its members.
type built struct {
	cluster Cluster
	pairs   []PagePair
	members []sentence.ID
}

// buildBatch is how many components a pool worker builds at a time.
const buildBatch = 16

func (f *buildFn) Setup() {
	f.Start(f.Cfg.Workers, 4, func() func([]component) ([]built, error) {
		return func(w []component) ([]built, error) { return buildAll(w, f.Cfg.MaxMembers) }
	})
}

func (f *buildFn) StartBundle(context.Context, func(Cluster), func(int, []byte), func(int, []byte), func(counters.Counts)) {
	f.pairs = map[PagePair]int64{}
	f.counts = counters.Counts{}
	f.memberships = nil
	if f.Cfg.SentenceShards > 0 {
		f.memberships = shuffle.NewPacker(shuffle.KindLines, f.Cfg.SentenceShards)
	}
}

func (f *buildFn) ProcessElement(_ context.Context, shard int, batches func(*[]byte) bool, emit func(Cluster), _ func(int, []byte), emitMembers func(int, []byte), _ func(counters.Counts)) error {
	// Batches are read one at a time and their members decoded as they
	// come, so that the shard's members are held once, decoded: neither
	// the compressed batches nor their records outlive the loop.
	all := map[uint64]*parts{}
	var b []byte
	for batches(&b) {
		if err := shuffle.KindParts.Records(b, func(rec []byte) error { return addPart(all, rec) }); err != nil {
			return fmt.Errorf("cluster: components of shard %d: %w", shard, err)
		}
	}
	deliver := f.deliver(emit, emitMembers)
	var work []component
	for _, root := range slices.Sorted(maps.Keys(all)) {
		work = append(work, component{root, all[root]})
		if len(work) == buildBatch {
			if err := f.Pool().Submit(work, deliver); err != nil {
				return err
			}
			work = nil
		}
	}
	if len(work) > 0 {
		return f.Pool().Submit(work, deliver)
	}
	return nil
}

// buildAll builds the clusters of a batch of components.
func buildAll(work []component, maxMembers int) ([]built, error) {
	out := make([]built, len(work))
	for i, w := range work {
		sents := w.parts.members
		ids := make([]sentence.ID, len(sents))
		for j := range sents {
			ids[j] = sents[j].ID
		}
		slices.Sort(ids)
		ids = slices.Compact(ids) // a sentence read twice is one member
		c, pairs := Build(sents, w.parts.sims, maxMembers)
		c.Root = w.root
		out[i] = built{cluster: c, pairs: pairs, members: ids}
	}
	return out, nil
}

// parts are what joinFn sent of one component.
type parts struct {
	members []sentence.Sentence
	sims    []verify.Similarity
}

// addPart files one record of joinFn's batches under its component,
// decoded: the record's bytes are not kept.
func addPart(all map[uint64]*parts, rec []byte) error {
	root, n := binary.Uvarint(rec)
	if n <= 0 || n >= len(rec) {
		return shuffle.ErrCorrupt
	}
	p := all[root]
	if p == nil {
		p = &parts{}
		all[root] = p
	}
	tag, payload := rec[n], rec[n+1:]
	switch tag {
	case tagMember:
		var m sentence.Sentence
		if err := m.UnmarshalBinary(payload); err != nil {
			return fmt.Errorf("component %v: %w", sentence.ID(root), err)
		}
		p.members = append(p.members, m)
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

// deliver returns the function that emits built clusters and their
// memberships, and counts them.
func (f *buildFn) deliver(emit func(Cluster), emitMembers func(int, []byte)) func([]built) error {
	return func(bs []built) error {
		for _, b := range bs {
			for _, pp := range b.pairs {
				f.pairs[pp]++
			}
			f.count(b.cluster)
			emit(b.cluster)
			if f.memberships != nil {
				for _, id := range b.members {
					f.memberships.AddRecord(id.Shard(f.Cfg.SentenceShards), membership(id, b.cluster.ID), emitMembers)
				}
			}
		}
		return nil
	}
}

// membership is the record saying that sentence id is in the cluster of
// that ID: the id as an 8-byte big-endian key, then the cluster's ID.
func membership(id sentence.ID, cluster string) []byte {
	rec := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(cluster)), uint64(id))
	return append(rec, cluster...)
}

func (f *buildFn) count(c Cluster) {
	n := int64(c.Size)
	f.counts.Clusters++
	f.counts.SentencesInClusters += n
	f.counts.LargestCluster = max(f.counts.LargestCluster, n)
	f.counts.AddClusterSize(n, 1)
	f.counts.MembersOmitted += int64(c.MembersOmitted)
}

// FinishBundle delivers the clusters still being built: the pool runs
// across elements, so one shard's decoding overlaps the previous shard's
// building.
func (f *buildFn) FinishBundle(ctx context.Context, emit func(Cluster), emitPairs func(int, []byte), emitMembers func(int, []byte), emitCounts func(counters.Counts)) error {
	if err := f.Pool().Flush(f.deliver(emit, emitMembers)); err != nil {
		return err
	}
	if f.memberships != nil {
		f.memberships.Flush(emitMembers)
	}
	packer := shuffle.NewPacker(shuffle.KindPagePairs, f.Cfg.ComponentShards)
	var rec []byte
	for p, n := range f.pairs {
		c := PairCount{WikiA: p.WikiA, PageA: p.A, WikiB: p.WikiB, PageB: p.B, TitleA: p.TitleA, TitleB: p.TitleB, Clusters: n}
		rec = c.AppendBinary(rec[:0])
		packer.AddRecord(c.Shard(f.Cfg.ComponentShards), rec, emitPairs)
	}
	packer.Flush(emitPairs)
	counters.Emit(ctx, f.counts, emitCounts)
	return nil
}

// PairCount is a pair of pages and the number of clusters (near-duplicate
// sentences) they share: a row of the papers' "article pairs" table.
type PairCount struct {
	WikiA    string `json:"wiki_a"`
	PageA    int64  `json:"page_a"`
	WikiB    string `json:"wiki_b"`
	PageB    int64  `json:"page_b"`
	TitleA   string `json:"title_a"`
	TitleB   string `json:"title_b"`
	Clusters int64  `json:"shared_clusters"`
}

// AppendBinary appends p to b as a shuffle.KindPagePairs record.
func (p PairCount) AppendBinary(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(p.PageA))
	b = binary.AppendUvarint(b, uint64(p.PageB))
	b = binary.AppendUvarint(b, uint64(p.Clusters))
	for _, s := range [...]string{p.WikiA, p.WikiB, p.TitleA, p.TitleB} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// UnmarshalBinary decodes what AppendBinary wrote.
func (p *PairCount) UnmarshalBinary(b []byte) error {
	var nums [3]uint64
	for i := range nums {
		n, k := binary.Uvarint(b)
		if k <= 0 {
			return errShortPair
		}
		nums[i], b = n, b[k:]
	}
	p.PageA, p.PageB, p.Clusters = int64(nums[0]), int64(nums[1]), int64(nums[2])
	for _, s := range [...]*string{&p.WikiA, &p.WikiB, &p.TitleA, &p.TitleB} {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return errShortPair
		}
		*s, b = string(b[k:k+int(n)]), b[k+int(n):]
	}
	if len(b) != 0 {
		return errShortPair
	}
	return nil
}

var errShortPair = errors.New("cluster: malformed page pair count")

// Shard is which of n shards the pair's counts are summed in: every
// bundle's count of one pair goes to the same shard.
func (p PairCount) Shard(n int) int {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%d\x00%s\x00%d", p.WikiA, p.PageA, p.WikiB, p.PageB)
	return shuffle.Shard(hashmix.Splitmix64(h.Sum64()), n)
}
