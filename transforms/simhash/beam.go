package simhash

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/hashmix"
	"github.com/neardup/neardup/internal/orderedpool"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/docfreq"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
)

func init() {
	register.DoFn4x1[context.Context, int, []byte, func(int, []byte), error](&signFn{})
	register.DoFn5x1[context.Context, int, []byte, docfreq.Sketch, func(int, []byte), error](&signWordsFn{})
	register.DoFn6x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(int, []byte), func(counters.Counts), error](&windowFn{})
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(counters.Counts), error](&seamFn{})
	register.Iter1[[]byte]()
	register.Emitter2[int, []byte]()
}

// Candidates signs the in-window sentence records (KindSentences batches
// keyed by the id's shard, as minhash.Sign makes them), sorts the permuted
// signatures of each permutation by range shards, and returns the
// candidate pairs (U, V), U < V, of sentences at most cfg.Window-1 apart in
// some permutation's sorted order whose signatures differ in at most
// cfg.MaxHamming bits, each twice: (U, V) keyed by shuffle.ShardOf(U,
// cfg.RecordShards) and (V, U) keyed by shuffle.ShardOf(V,
// cfg.RecordShards), as bucket.Candidates returns them; and partial counts
// (counters.Counts.Scheme). A pair found in several permutations may be sent
// more than once: verify.Edges removes repeats.
//
// With cfg.Features "words", the words' document frequencies are counted
// first (docfreq.Count) and read by the signing DoFn as a side input.
//
// cfg must be valid (Config.Validate); the DoFns fail their bundles
// otherwise.
func Candidates(s beam.Scope, records shuffle.Sentences, cfg Config) (shuffle.Candidates, beam.PCollection) {
	s = s.Scope("SimHash")
	cfg = cfg.withDefaults()
	var windows beam.PCollection
	if cfg.Features == FeaturesWords {
		freq := docfreq.Count(s, records, docfreq.Config{Tokens: docfreq.Words, Norm: cfg.Norm, Workers: cfg.Workers})
		windows = beam.ParDo(s.Scope("Sign"), &signWordsFn{signBase{Cfg: cfg}}, records.Raw(), beam.SideInput{Input: freq})
	} else {
		windows = beam.ParDo(s.Scope("Sign"), &signFn{signBase{Cfg: cfg}}, records.Raw())
	}
	ws := s.Scope("Windows")
	inShards, seams, shardCounts := beam.ParDo3(ws, &windowFn{Cfg: cfg}, beam.GroupByKey(ws, windows))
	ss := s.Scope("Seams")
	atSeams, seamCounts := beam.ParDo2(ss, &seamFn{Cfg: cfg}, beam.GroupByKey(ss, seams))
	return shuffle.MakeCandidates(beam.Flatten(s, inShards, atSeams)), beam.Flatten(s, shardCounts, seamCounts)
}

// signFn signs the sentences of each record batch by their shingles and
// packs one entry per permutation, (permuted signature, id), keyed by
// permutation and range shard. Batches are signed on every core (package
// ordered) and packed in input order.
type signFn struct{ signBase }

func (f *signFn) ProcessElement(_ context.Context, _ int, batch []byte, emit func(int, []byte)) error {
	return f.Pool().Submit(signJob{batch: batch}, f.deliver(emit))
}

// signWordsFn is signFn for words weighted by TF-IDF, whose document
// frequencies come as a side input.
type signWordsFn struct{ signBase }

// StartBundle and FinishBundle take the side input too, as Beam requires
// of a DoFn whose ProcessElement takes one.
func (f *signWordsFn) StartBundle(ctx context.Context, _ docfreq.Sketch, emit func(int, []byte)) {
	f.signBase.StartBundle(ctx, emit)
}

func (f *signWordsFn) FinishBundle(ctx context.Context, _ docfreq.Sketch, emit func(int, []byte)) error {
	return f.signBase.FinishBundle(ctx, emit)
}

func (f *signWordsFn) ProcessElement(_ context.Context, _ int, batch []byte, freq docfreq.Sketch, emit func(int, []byte)) error {
	return f.Pool().Submit(signJob{batch: batch, freq: &freq}, f.deliver(emit))
}

// signBase is the signing DoFns' pool, packer and bundle methods.
type signBase struct {
	Cfg Config

	orderedpool.Owner[signJob, *signed]
	packer *shuffle.Packer
}

// signJob is a batch of sentence records and, for words, the frequencies.
type signJob struct {
	batch []byte
	freq  Frequencies
}

// signed is a batch's ids and, for each, its permuted signatures.
type signed struct {
	ids  []uint64
	sigs []uint64 // Permutations per id
}

func (f *signBase) Setup() error {
	if err := f.Cfg.Validate(); err != nil {
		return err
	}
	f.Cfg = f.Cfg.withDefaults()
	cfg := f.Cfg
	perms := Permutations(cfg.Seed, cfg.Bits, cfg.Permutations)
	f.Start(cfg.Workers, 0, func() func(signJob) (*signed, error) {
		w := &signWorker{perms: perms, signer: NewSigner(cfg.Seed, cfg.Bits)}
		if cfg.Features == FeaturesWords {
			w.words = newWordFeatures(cfg)
		} else {
			w.shingler = shingle.New(cfg.ShingleLength, cfg.Norm)
		}
		return w.sign
	})
	return nil
}

func (f *signBase) StartBundle(context.Context, func(int, []byte)) {
	f.packer = shuffle.NewPacker(shuffle.KindWindows, f.Cfg.Permutations*f.Cfg.Shards)
}

func (f *signBase) FinishBundle(_ context.Context, emit func(int, []byte)) error {
	if err := f.Pool().Flush(f.deliver(emit)); err != nil {
		return err
	}
	f.packer.Flush(emit)
	return nil
}

// deliver packs a signed batch's entries.
func (f *signBase) deliver(emit func(int, []byte)) func(*signed) error {
	q, shards := f.Cfg.Permutations, f.Cfg.Shards
	return func(s *signed) error {
		for i, id := range s.ids {
			for k, sig := range s.sigs[i*q : (i+1)*q] {
				f.packer.Add(k*shards+hashmix.Range(sig, shards), shuffle.Pair{A: sig, B: id}, emit)
			}
		}
		return nil
	}
}

// signWorker is one pool worker's signer and buffers.
type signWorker struct {
	perms    []Permutation // shared, read only
	signer   *Signer
	shingler *shingle.Shingler // shingles
	words    *wordFeatures     // or words
	s        sentence.Sentence
}

// sign decodes a batch of sentence records and signs each sentence; a
// sentence without features (no shingle, no word) has no direction to
// project and is left out.
func (w *signWorker) sign(job signJob) (*signed, error) {
	out := &signed{}
	err := shuffle.KindSentences.Records(job.batch, func(rec []byte) error {
		if err := w.s.UnmarshalBinary(rec); err != nil {
			return err
		}
		var sig uint64
		if w.words != nil {
			hashes, weights := w.words.features(w.s.Text, job.freq)
			if len(hashes) == 0 {
				return nil
			}
			sig = w.signer.Weighted(hashes, weights)
		} else {
			hashes := w.shingler.Hashes(w.s.Text)
			if len(hashes) == 0 {
				return nil
			}
			sig = w.signer.Shingles(hashes)
		}
		out.ids = append(out.ids, uint64(w.s.ID))
		for k := range w.perms {
			out.sigs = append(out.sigs, w.perms[k].Apply(sig))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("simhash: signing sentence records: %w", err)
	}
	return out, nil
}

// windowFn sorts each range shard's entries, compares each with the next
// Window-1 and packs the candidates; it passes each shard's ends on to the
// seam stage of its permutation. Shards are sorted on every core (package
// ordered), their candidates packed in shard order.
type windowFn struct {
	Cfg Config

	orderedpool.Owner[shardEntries, *windowed]
	sender
}

// shardEntries is one range shard's key and entries.
type shardEntries struct {
	key     int
	entries []shuffle.Pair
}

// windowed is what a worker made of one range shard.
type windowed struct {
	key   int
	edges []shuffle.Pair // sorted, distinct
	seam  []byte         // the Seam batch, nil with one shard per permutation
	stats Stats
}

func (f *windowFn) Setup() error {
	if err := f.Cfg.Validate(); err != nil {
		return err
	}
	f.Cfg = f.Cfg.withDefaults()
	cfg := f.Cfg
	f.Start(cfg.Workers, 0, func() func(shardEntries) (*windowed, error) {
		return func(in shardEntries) (*windowed, error) { return windowShard(in, cfg), nil }
	})
	return nil
}

// windowShard sorts a range shard's entries, links them and cuts its seam.
func windowShard(in shardEntries, cfg Config) *windowed {
	sorted := SortEntries(in.entries)
	edges, st := Window(nil, sorted, cfg.Window, cfg.MaxHamming)
	st.Entries = int64(len(in.entries))
	if len(sorted) > 0 {
		st.Groups, st.LargestGroup = 1, int64(len(sorted))
	}
	shuffle.SortPairs(edges)
	out := &windowed{key: in.key, edges: slices.Compact(edges), stats: st}
	if cfg.Shards > 1 && len(sorted) > 0 {
		out.seam = SeamOf(in.key%cfg.Shards, sorted, cfg.Window).Batch()
	}
	return out
}

func (f *windowFn) StartBundle(context.Context, func(int, []byte), func(int, []byte), func(counters.Counts)) {
	f.start(f.Cfg.RecordShards)
}

func (f *windowFn) ProcessElement(_ context.Context, key int, batches func(*[]byte) bool, emitEdges, emitSeams func(int, []byte), _ func(counters.Counts)) error {
	all := shuffle.Collect(batches)
	most := 0 // pairs the batches can hold: 9 bytes at least each
	for _, b := range all {
		most += len(b) / 9
	}
	entries := make([]shuffle.Pair, 0, most)
	for _, b := range all {
		var err error
		if entries, err = shuffle.KindWindows.AppendPairs(entries, b); err != nil {
			return fmt.Errorf("simhash: range shard %d: %w", key, err)
		}
	}
	return f.Pool().Submit(shardEntries{key, entries}, f.deliver(emitEdges, emitSeams))
}

func (f *windowFn) FinishBundle(ctx context.Context, emitEdges, emitSeams func(int, []byte), emitCounts func(counters.Counts)) error {
	if err := f.Pool().Flush(f.deliver(emitEdges, emitSeams)); err != nil {
		return err
	}
	f.finish(ctx, emitEdges, emitCounts)
	return nil
}

// deliver packs a shard's candidates and sends its seam to its
// permutation's seam stage.
func (f *windowFn) deliver(emitEdges, emitSeams func(int, []byte)) func(*windowed) error {
	return func(w *windowed) error {
		f.send(w.edges, emitEdges)
		if w.seam != nil {
			emitSeams(w.key/f.Cfg.Shards, w.seam)
		}
		f.stats.Add(w.stats)
		return nil
	}
}

// seamFn links the entries at the ends of a permutation's range shards to
// those of the next shards.
type seamFn struct {
	Cfg Config
	sender
}

func (f *seamFn) Setup() error {
	f.Cfg = f.Cfg.withDefaults()
	return f.Cfg.Validate()
}

func (f *seamFn) StartBundle(context.Context, func(int, []byte), func(counters.Counts)) {
	f.start(f.Cfg.RecordShards)
}

func (f *seamFn) ProcessElement(_ context.Context, perm int, batches func(*[]byte) bool, emitEdges func(int, []byte), _ func(counters.Counts)) error {
	var seams []Seam
	var b []byte
	for batches(&b) {
		s, err := UnmarshalSeam(b)
		if err != nil {
			return fmt.Errorf("simhash: permutation %d: %w", perm, err)
		}
		seams = append(seams, s)
	}
	edges, st, err := LinkSeams(nil, seams, f.Cfg.Window, f.Cfg.MaxHamming)
	if err != nil {
		return fmt.Errorf("simhash: permutation %d: %w", perm, err)
	}
	shuffle.SortPairs(edges)
	f.send(slices.Compact(edges), emitEdges)
	f.stats.Add(st)
	return nil
}

func (f *seamFn) FinishBundle(ctx context.Context, emitEdges func(int, []byte), emitCounts func(counters.Counts)) error {
	f.finish(ctx, emitEdges, emitCounts)
	return nil
}

// sender packs a bundle's candidate pairs in both directions, each once,
// and adds up its statistics.
type sender struct {
	packer *shuffle.Packer
	sent   map[shuffle.Pair]struct{} // pairs already sent by this bundle
	stats  Stats
}

// maxSent bounds the pairs a bundle remembers to avoid sending one twice,
// as in package bucket: a pair of near duplicates is found under several
// permutations. Past the bound the memory is cleared; verify.Edges removes
// any repeat that gets through.
const maxSent = 1 << 20

func (s *sender) start(recordShards int) {
	s.packer = shuffle.NewPacker(shuffle.KindCandidates, recordShards)
	s.sent = map[shuffle.Pair]struct{}{}
	s.stats = Stats{}
}

// send packs each pair (U, V) this bundle has not sent yet as (U, V) in
// U's shard and (V, U) in V's.
func (s *sender) send(edges []shuffle.Pair, emit func(int, []byte)) {
	n := s.packer.Shards()
	for _, e := range edges {
		if _, ok := s.sent[e]; ok {
			continue
		}
		if len(s.sent) == maxSent {
			clear(s.sent)
		}
		s.sent[e] = struct{}{}
		s.packer.Add(shuffle.ShardOf(e.A, n), e, emit)
		s.packer.Add(shuffle.ShardOf(e.B, n), shuffle.Pair{A: e.B, B: e.A}, emit)
	}
}

// finish emits what is packed and the bundle's counts.
func (s *sender) finish(ctx context.Context, emit func(int, []byte), emitCounts func(counters.Counts)) {
	s.packer.Flush(emit)
	st := s.stats
	counters.Emit(ctx, counters.Counts{Scheme: counters.Scheme{
		Entries: st.Entries, Groups: st.Groups, LargestGroup: st.LargestGroup,
		PairsCompared: st.PairsCompared, PairsFiltered: st.PairsFiltered, Candidates: st.Candidates,
	}}, emitCounts)
}
