package exactjoin

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/orderedpool"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/bucket"
	"github.com/neardup/neardup/transforms/docfreq"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
)

func init() {
	register.DoFn6x1[context.Context, int, []byte, docfreq.Sketch, func(int, []byte), func(int, []byte), error](&prefixFn{})
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(counters.Counts), error](&identicalFn{})
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(counters.Counts), error](&joinFn{})
	register.Iter1[[]byte]()
	register.Emitter1[counters.Counts]()
	register.Emitter2[int, []byte]()
}

// Config is everything Candidates needs; it is serialised with the DoFns.
type Config struct {
	Threshold     float64 // the Jaccard threshold t of the join
	ShingleLength int
	Norm          shingle.Normalization
	Shards        int // shards of the fingerprint and prefix-shingle shuffles
	RecordShards  int // shards of the candidate output (those of the sentence records)
	Workers       int // goroutines of each DoFn's pool (0: GOMAXPROCS)
}

// Validate reports a configuration Candidates cannot run with.
func (c Config) Validate() error {
	if !(c.Threshold > 0 && c.Threshold <= 1) {
		return fmt.Errorf("exactjoin: threshold %v: need 0 < threshold ≤ 1", c.Threshold)
	}
	if c.Shards < 1 || c.RecordShards < 1 {
		return fmt.Errorf("exactjoin: %d shards and %d record shards: need at least 1 of each", c.Shards, c.RecordShards)
	}
	return c.docfreq().Validate()
}

// docfreq is the configuration of the shingles' document frequencies:
// the same shingles as the join's.
func (c Config) docfreq() docfreq.Config {
	return docfreq.Config{Tokens: docfreq.Shingles, ShingleLength: c.ShingleLength, Norm: c.Norm, Workers: c.Workers}
}

// Candidates joins the in-window sentences of records (KindSentences
// batches, as minhash.Sign emits them) and returns:
//   - candidates: every distinct pair (U, V), U < V, that the join passes
//     or that links a sentence to the representative of its identical set,
//     each twice: (U, V) keyed by shuffle.ShardOf(U, RecordShards) and
//     (V, U) keyed by shuffle.ShardOf(V, RecordShards), as
//     bucket.Candidates returns its edges, for verify.Edges; a pair found
//     in several groups is sent once per bundle, and verify.Edges removes
//     what repeats remain;
//   - counts: partial counters.Counts of the Scheme sub-struct.
//
// Its stages: the shingles' document frequencies (docfreq.Count), read as
// a side input by the DoFn that orders every set, sends its (fingerprint,
// id) to the fingerprint's shard and its prefix entries to their
// shingles' shards; then two GroupByKeys, one linking identical sets by
// stars (bucket.Stars), one joining each shingle's group (Joiner).
func Candidates(s beam.Scope, records shuffle.Sentences, cfg Config) (shuffle.Candidates, beam.PCollection) {
	s = s.Scope("ExactJoin")
	sketch := docfreq.Count(s, records, cfg.docfreq())
	sets, prefixes := beam.ParDo2(s, &prefixFn{Cfg: cfg}, records.Raw(), beam.SideInput{Input: sketch})
	stars, starCounts := beam.ParDo2(s, &identicalFn{Cfg: cfg}, beam.GroupByKey(s, sets))
	pairs, joinCounts := beam.ParDo2(s, &joinFn{Cfg: cfg}, beam.GroupByKey(s, prefixes))
	return shuffle.MakeCandidates(beam.Flatten(s, stars, pairs)), beam.Flatten(s, starCounts, joinCounts)
}

// prefixFn orders the shingle set of every sentence of a batch by the
// document frequencies of the side input and packs (fingerprint, id)
// pairs (KindEntries, by the fingerprint's shard) and prefix entries
// (KindPrefixes, by the shingle's shard). Batches are worked on by the
// pool (package ordered) and packed in input order.
type prefixFn struct {
	Cfg Config

	orderedpool.Owner[prefixWork, *prefixed]
	sets, prefixes *shuffle.Packer
}

// prefixWork is a batch of sentence records and the sketch to order by.
type prefixWork struct {
	shard  int
	batch  []byte
	sketch *docfreq.Sketch
}

// prefixed is what a worker made of a batch: the sets' fingerprints and
// ids, and their records of prefix entries (AppendPrefixes), one after the
// other, each with its shard.
type prefixed struct {
	sets    []shuffle.Pair
	shards  []int
	records []byte
	ends    []int // where each record ends in records
}

func (f *prefixFn) Setup() error {
	if err := f.Cfg.Validate(); err != nil {
		return err
	}
	f.Start(f.Cfg.Workers, 0, func() func(prefixWork) (*prefixed, error) {
		w := &prefixer{tokenizer: f.Cfg.docfreq().Tokenizer(), prefixer: Prefixer{T: f.Cfg.Threshold}, shards: f.Cfg.Shards}
		return w.prefix
	})
	return nil
}

func (f *prefixFn) StartBundle(context.Context, docfreq.Sketch, func(int, []byte), func(int, []byte)) {
	f.sets = shuffle.NewPacker(shuffle.KindEntries, f.Cfg.Shards)
	f.prefixes = shuffle.NewPacker(shuffle.KindPrefixes, f.Cfg.Shards)
}

func (f *prefixFn) ProcessElement(_ context.Context, shard int, batch []byte, sketch docfreq.Sketch, emitSets, emitPrefixes func(int, []byte)) error {
	return f.Pool().Submit(prefixWork{shard, batch, &sketch}, f.deliver(emitSets, emitPrefixes))
}

func (f *prefixFn) FinishBundle(_ context.Context, _ docfreq.Sketch, emitSets, emitPrefixes func(int, []byte)) error {
	if err := f.Pool().Flush(f.deliver(emitSets, emitPrefixes)); err != nil {
		return err
	}
	f.sets.Flush(emitSets)
	f.prefixes.Flush(emitPrefixes)
	return nil
}

// deliver packs what a worker made of a batch.
func (f *prefixFn) deliver(emitSets, emitPrefixes func(int, []byte)) func(*prefixed) error {
	return func(p *prefixed) error {
		for _, s := range p.sets {
			f.sets.Add(shuffle.Shard(s.A, f.Cfg.Shards), s, emitSets)
		}
		start := 0
		for i, shard := range p.shards {
			f.prefixes.AddRecord(shard, p.records[start:p.ends[i]], emitPrefixes)
			start = p.ends[i]
		}
		return nil
	}
}

// prefixer is one pool worker's tokenizer, prefixer and buffers.
type prefixer struct {
	tokenizer *docfreq.Tokenizer
	prefixer  Prefixer
	shards    int
	tokens    []uint64
	entries   []Entry
	sentence  sentence.Sentence
}

// prefix orders the sets of a batch's sentences and makes their entries.
func (w *prefixer) prefix(in prefixWork) (*prefixed, error) {
	out := &prefixed{}
	err := shuffle.KindSentences.Records(in.batch, func(rec []byte) error {
		if err := w.sentence.UnmarshalBinary(rec); err != nil {
			return err
		}
		id := uint64(w.sentence.ID)
		w.tokens = w.tokenizer.AppendTokens(w.tokens[:0], w.sentence.Text)
		fp := Fingerprint(w.tokens)
		out.sets = append(out.sets, shuffle.Pair{A: fp, B: id})
		w.entries = AppendEntries(w.entries[:0], id, fp, len(w.tokens), w.prefixer.Prefix(w.tokens, in.sketch))
		// One record for the entries of each shard, in shard order.
		slices.SortStableFunc(w.entries, func(x, y Entry) int {
			return cmp.Compare(shuffle.Shard(x.Token, w.shards), shuffle.Shard(y.Token, w.shards))
		})
		for i := 0; i < len(w.entries); {
			shard, k := shuffle.Shard(w.entries[i].Token, w.shards), i+1
			for k < len(w.entries) && shuffle.Shard(w.entries[k].Token, w.shards) == shard {
				k++
			}
			out.records = AppendPrefixes(out.records, w.entries[i:k])
			out.shards, out.ends = append(out.shards, shard), append(out.ends, len(out.records))
			i = k
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("exactjoin: sentences of shard %d: %w", in.shard, err)
	}
	return out, nil
}

// identicalFn links the sentences of equal shingle sets (equal
// fingerprints) by a star on the smallest id, shard by shard on the pool.
type identicalFn struct {
	Cfg Config

	orderedpool.Owner[fingerprints, *linked]
	sender
}

// fingerprints is one shard's batches of (fingerprint, id) pairs.
type fingerprints struct {
	shard   int
	batches [][]byte
}

// linked is the pairs a shard passes on, sorted and distinct, and its
// counts.
type linked struct {
	pairs  []shuffle.Pair
	counts counters.Scheme
}

func (f *identicalFn) Setup() {
	f.Start(f.Cfg.Workers, 0, func() func(fingerprints) (*linked, error) { return stars })
}

func (f *identicalFn) StartBundle(context.Context, func(int, []byte), func(counters.Counts)) {
	f.start(f.Cfg.RecordShards)
}

func (f *identicalFn) ProcessElement(_ context.Context, shard int, batches func(*[]byte) bool, emit func(int, []byte), _ func(counters.Counts)) error {
	return f.Pool().Submit(fingerprints{shard, shuffle.Collect(batches)}, f.deliver(emit))
}

func (f *identicalFn) FinishBundle(ctx context.Context, emit func(int, []byte), emitCounts func(counters.Counts)) error {
	if err := f.Pool().Flush(f.deliver(emit)); err != nil {
		return err
	}
	f.finish(ctx, emit, emitCounts)
	return nil
}

// stars links one shard's identical sets.
func stars(in fingerprints) (*linked, error) {
	var sets []shuffle.Pair
	for _, b := range in.batches {
		var err error
		if sets, err = shuffle.KindEntries.AppendPairs(sets, b); err != nil {
			return nil, fmt.Errorf("exactjoin: fingerprints of shard %d: %w", in.shard, err)
		}
	}
	edges, _ := bucket.Stars(nil, sets)
	shuffle.SortPairs(edges)
	edges = slices.Compact(edges)
	n := int64(len(edges))
	return &linked{pairs: edges, counts: counters.Scheme{IdenticalSets: n, Candidates: n}}, nil
}

// joinFn joins the groups of prefix entries of each shard, shard by shard
// on the pool.
type joinFn struct {
	Cfg Config

	orderedpool.Owner[groups, *linked]
	sender
}

// groups is one shard's batches of prefix entries.
type groups struct {
	shard   int
	batches [][]byte
}

func (f *joinFn) Setup() error {
	if err := f.Cfg.Validate(); err != nil {
		return err
	}
	f.Start(f.Cfg.Workers, 0, func() func(groups) (*linked, error) {
		j := &Joiner{T: f.Cfg.Threshold}
		return j.joinShard
	})
	return nil
}

func (f *joinFn) StartBundle(context.Context, func(int, []byte), func(counters.Counts)) {
	f.start(f.Cfg.RecordShards)
}

func (f *joinFn) ProcessElement(_ context.Context, shard int, batches func(*[]byte) bool, emit func(int, []byte), _ func(counters.Counts)) error {
	return f.Pool().Submit(groups{shard, shuffle.Collect(batches)}, f.deliver(emit))
}

func (f *joinFn) FinishBundle(ctx context.Context, emit func(int, []byte), emitCounts func(counters.Counts)) error {
	if err := f.Pool().Flush(f.deliver(emit)); err != nil {
		return err
	}
	f.finish(ctx, emit, emitCounts)
	return nil
}

// joinShard decodes a shard's entries, splits them into groups by shingle
// and joins each.
func (j *Joiner) joinShard(in groups) (*linked, error) {
	var entries []Entry
	for _, b := range in.batches {
		err := shuffle.KindPrefixes.Records(b, func(rec []byte) error {
			var err error
			entries, err = UnmarshalPrefixes(entries, rec)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("exactjoin: prefix entries of shard %d: %w", in.shard, err)
		}
	}
	// Group by shingle: sort (shingle, index) pairs, then gather.
	order := make([]shuffle.Pair, len(entries))
	for i := range entries {
		order[i] = shuffle.Pair{A: entries[i].Token, B: uint64(i)}
	}
	shuffle.SortPairs(order)
	var st Stats
	var pairs []shuffle.Pair
	group := make([]Entry, 0, 16)
	for i := 0; i < len(order); {
		group = group[:0]
		k := i
		for ; k < len(order) && order[k].A == order[i].A; k++ {
			group = append(group, entries[order[k].B])
		}
		pairs = j.Join(pairs, group, &st)
		i = k
	}
	shuffle.SortPairs(pairs)
	pairs = slices.Compact(pairs)
	return &linked{pairs: pairs, counts: counters.Scheme{
		Entries: st.Entries, Groups: st.Groups, LargestGroup: st.LargestGroup,
		PairsCompared: st.PairsCompared, PairsFiltered: st.PairsFiltered, Candidates: st.Candidates,
	}}, nil
}

// sender packs candidate pairs in both directions, each pair once per
// bundle (as far as its memory goes), and adds up the counts.
type sender struct {
	packer *shuffle.Packer
	sent   map[shuffle.Pair]struct{}
	counts counters.Counts
}

// maxSent bounds the pairs a bundle remembers to avoid sending one twice:
// a pair of near duplicates shares several prefix shingles, and several
// shards may pass it. Past the bound the memory is cleared; verify.Edges
// removes any repeat that gets through.
const maxSent = 1 << 20

func (s *sender) start(recordShards int) {
	s.packer = shuffle.NewPacker(shuffle.KindCandidates, recordShards)
	s.sent = map[shuffle.Pair]struct{}{}
	s.counts = counters.Counts{}
}

// deliver packs a shard's pairs and adds its counts.
func (s *sender) deliver(emit func(int, []byte)) func(*linked) error {
	return func(l *linked) error {
		shards := s.packer.Shards()
		for _, p := range l.pairs {
			if _, ok := s.sent[p]; ok {
				continue
			}
			if len(s.sent) == maxSent {
				clear(s.sent)
			}
			s.sent[p] = struct{}{}
			s.packer.Add(shuffle.ShardOf(p.A, shards), p, emit)
			s.packer.Add(shuffle.ShardOf(p.B, shards), shuffle.Pair{A: p.B, B: p.A}, emit)
		}
		s.counts.Merge(counters.Counts{Scheme: l.counts})
		return nil
	}
}

// finish emits what is packed and the bundle's counts.
func (s *sender) finish(ctx context.Context, emit func(int, []byte), emitCounts func(counters.Counts)) {
	s.packer.Flush(emit)
	counters.Emit(ctx, s.counts, emitCounts)
}
