package minhash

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/ordered"
	"github.com/neardup/neardup/transforms/batch"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/summary"
)

func init() {
	register.DoFn5x1[context.Context, sentence.Sentence, func(int, []byte), func(int, []byte), func(summary.Counts), error](&signFn{})
	register.Emitter2[int, []byte]()
}

// Config is everything Sign needs; it is serialised with the DoFn.
type Config struct {
	ShingleLength int
	MinShingles   int // keep sentences with MinShingles < n < MaxShingles shingles
	MaxShingles   int
	Norm          shingle.Normalization
	Scheme        string // "weissman" or "bands"
	Bands, Rows   int    // for "bands"
	Seed          uint64
	BucketShards  int // shards of the signature shuffle
	RecordShards  int // shards of the sentence records
}

// NewScheme builds the scheme named by c.
func (c Config) NewScheme() (*Scheme, error) {
	switch c.Scheme {
	case "weissman":
		return Weissman(c.Seed), nil
	case "bands":
		return Banding(c.Seed, c.Bands, c.Rows)
	}
	return nil, fmt.Errorf("minhash: unknown scheme %q (want weissman or bands)", c.Scheme)
}

// Sign keeps the sentences of PCollection<sentence.Sentence> whose shingle
// count is inside the window and returns:
//   - entries: PCollection<KV<int, []byte>>, batches of (band key, sentence id)
//     pairs keyed by the band key's shard;
//   - records: PCollection<KV<int, []byte>>, batches of encoded in-window
//     sentences keyed by sentence.ID.Shard(cfg.RecordShards);
//   - counts: partial summary.Counts.
func Sign(s beam.Scope, sentences beam.PCollection, cfg Config) (entries, records, counts beam.PCollection) {
	s = s.Scope("MinHash")
	return beam.ParDo3(s, &signFn{Cfg: cfg}, sentences)
}

type signFn struct {
	Cfg Config

	bands   int // band keys per sentence
	pool    *ordered.Pool[[]sentence.Sentence, *signed]
	batch   []sentence.Sentence
	entries *batch.Packer
	records *batch.Packer
	counts  summary.Counts
}

// signBatch is how many sentences a pool worker signs at a time.
const signBatch = 64

// signed is what a worker made of a batch of sentences.
type signed struct {
	ids     []sentence.ID
	status  []int8   // -1 too short, +1 too long, 0 in the window
	keys    []uint64 // the band keys of the in-window sentences, in order
	records []byte   // their encodings, each length-prefixed
}

func (f *signFn) Setup() error {
	scheme, err := f.Cfg.NewScheme()
	if err != nil {
		return err
	}
	f.bands = scheme.Bands
	f.pool = ordered.New(0, 4, func() func([]sentence.Sentence) (*signed, error) {
		w := &signer{cfg: f.Cfg, shingler: shingle.New(f.Cfg.ShingleLength, f.Cfg.Norm), signer: NewSigner(scheme)}
		return w.sign
	})
	return nil
}

func (f *signFn) Teardown() {
	if f.pool != nil {
		f.pool.Close()
	}
}

func (f *signFn) StartBundle(context.Context, func(int, []byte), func(int, []byte), func(summary.Counts)) {
	f.pool.Discard()
	f.batch = nil
	f.entries = batch.NewPacker(f.Cfg.BucketShards, 0)
	f.records = batch.NewPacker(f.Cfg.RecordShards, 0)
	f.counts = summary.Counts{}
}

func (f *signFn) ProcessElement(_ context.Context, st sentence.Sentence, emitEntries, emitRecords func(int, []byte), _ func(summary.Counts)) error {
	f.batch = append(f.batch, st)
	if len(f.batch) < signBatch {
		return nil
	}
	b := f.batch
	f.batch = make([]sentence.Sentence, 0, signBatch)
	return f.pool.Submit(b, f.deliver(emitEntries, emitRecords))
}

func (f *signFn) FinishBundle(ctx context.Context, emitEntries, emitRecords func(int, []byte), emitCounts func(summary.Counts)) error {
	deliver := f.deliver(emitEntries, emitRecords)
	if len(f.batch) > 0 {
		if err := f.pool.Submit(f.batch, deliver); err != nil {
			return err
		}
		f.batch = nil
	}
	if err := f.pool.Flush(deliver); err != nil {
		return err
	}
	f.entries.Flush(emitEntries)
	f.records.Flush(emitRecords)
	summary.Emit(ctx, f.counts, emitCounts)
	return nil
}

// deliver returns the function that counts a signed batch and packs its
// entries and records.
func (f *signFn) deliver(emitEntries, emitRecords func(int, []byte)) func(*signed) error {
	return func(s *signed) error {
		keys, recs := s.keys, s.records
		for i, id := range s.ids {
			switch s.status[i] {
			case -1:
				f.counts.SentencesTooShort++
				continue
			case 1:
				f.counts.SentencesTooLong++
				continue
			}
			f.counts.SentencesInWindow++
			for _, k := range keys[:f.bands] {
				f.entries.AddPair(batch.Shard(k, f.Cfg.BucketShards), batch.Pair{A: k, B: uint64(id)}, emitEntries)
			}
			f.counts.Signatures += int64(f.bands)
			keys = keys[f.bands:]
			n, k := binary.Uvarint(recs)
			if k <= 0 || n > uint64(len(recs)-k) {
				return batch.ErrCorrupt
			}
			f.records.AddRecord(id.Shard(f.Cfg.RecordShards), recs[k:k+int(n)], emitRecords)
			recs = recs[k+int(n):]
		}
		return nil
	}
}

// signer is one pool worker's shingler and signer.
type signer struct {
	cfg      Config
	shingler *shingle.Shingler
	signer   *Signer
	rec      []byte
}

// sign shingles and signs a batch of sentences.
func (w *signer) sign(batch []sentence.Sentence) (*signed, error) {
	s := &signed{ids: make([]sentence.ID, len(batch)), status: make([]int8, len(batch))}
	for i := range batch {
		st := &batch[i]
		s.ids[i] = st.ID
		hashes := w.shingler.Hashes(st.Text)
		switch n := len(hashes); {
		case n <= w.cfg.MinShingles:
			s.status[i] = -1
			continue
		case n >= w.cfg.MaxShingles:
			s.status[i] = 1
			continue
		}
		s.keys = w.signer.AppendKeys(s.keys, hashes)
		var err error
		if w.rec, err = st.AppendBinary(w.rec[:0]); err != nil {
			return nil, err
		}
		s.records = binary.AppendUvarint(s.records, uint64(len(w.rec)))
		s.records = append(s.records, w.rec...)
	}
	return s, nil
}
