package minhash

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
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

	shingler *shingle.Shingler
	signer   *Signer
	keys     []uint64
	rec      []byte
	entries  *batch.Packer
	records  *batch.Packer
	counts   summary.Counts
}

func (f *signFn) Setup() error {
	scheme, err := f.Cfg.NewScheme()
	if err != nil {
		return err
	}
	f.shingler = shingle.New(f.Cfg.ShingleLength, f.Cfg.Norm)
	f.signer = NewSigner(scheme)
	return nil
}

func (f *signFn) StartBundle(context.Context, func(int, []byte), func(int, []byte), func(summary.Counts)) {
	f.entries = batch.NewPacker(f.Cfg.BucketShards, 0)
	f.records = batch.NewPacker(f.Cfg.RecordShards, 0)
	f.counts = summary.Counts{}
}

func (f *signFn) ProcessElement(_ context.Context, st sentence.Sentence, emitEntries, emitRecords func(int, []byte), _ func(summary.Counts)) error {
	hashes := f.shingler.Hashes(st.Text)
	switch n := len(hashes); {
	case n <= f.Cfg.MinShingles:
		f.counts.SentencesTooShort++
		return nil
	case n >= f.Cfg.MaxShingles:
		f.counts.SentencesTooLong++
		return nil
	}
	f.counts.SentencesInWindow++
	f.keys = f.signer.AppendKeys(f.keys[:0], hashes)
	for _, k := range f.keys {
		f.entries.AddPair(batch.Shard(k, f.Cfg.BucketShards), batch.Pair{A: k, B: uint64(st.ID)}, emitEntries)
	}
	f.counts.Signatures += int64(len(f.keys))
	var err error
	if f.rec, err = st.AppendBinary(f.rec[:0]); err != nil {
		return err
	}
	f.records.AddRecord(st.ID.Shard(f.Cfg.RecordShards), f.rec, emitRecords)
	return nil
}

func (f *signFn) FinishBundle(ctx context.Context, emitEntries, emitRecords func(int, []byte), emitCounts func(summary.Counts)) {
	f.entries.Flush(emitEntries)
	f.records.Flush(emitRecords)
	summary.Emit(ctx, f.counts, emitCounts)
}
