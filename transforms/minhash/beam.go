package minhash

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/orderedpool"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
)

func init() {
	register.DoFn6x1[context.Context, sentence.Page, func(int, []byte), func(int, []byte), func(int, []byte), func(counters.Counts), error](&signFn{})
	register.Emitter2[int, []byte]()
}

// Config is everything Sign needs; it is serialised with the DoFn.
type Config struct {
	ShingleLength int
	MinShingles   int // keep sentences with MinShingles < n < MaxShingles shingles
	MaxShingles   int
	Norm          shingle.Normalization
	Scheme        string // "weissman", "bands" or "oph"; "simhash" or "exact": no band keys
	Bands, Rows   int    // for "bands" and "oph"
	Seed          uint64
	BucketShards  int // shards of the signature shuffle
	RecordShards  int // shards of the sentence records and page infos
	Workers       int // goroutines of the DoFn's pool (0: GOMAXPROCS)
}

// NewScheme builds the scheme named by c.
func (c Config) NewScheme() (*Scheme, error) {
	switch c.Scheme {
	case "weissman":
		return Weissman(c.Seed), nil
	case "bands":
		return Banding(c.Seed, c.Bands, c.Rows)
	case "oph":
		return OnePermutation(c.Seed, c.Bands, c.Rows)
	case "simhash", "exact":
		return Unbanded(c.Scheme, c.Seed), nil // their candidates come from the records
	}
	return nil, fmt.Errorf("minhash: unknown scheme %q (want bands, oph, weissman, simhash or exact)", c.Scheme)
}

// Sign shingles and signs the sentences of each page of
// PCollection<sentence.Page>, keeps those whose shingle count is inside the
// window and returns:
//   - entries: (band key, sentence id) pairs keyed by the band key's shard;
//   - records: the encoded in-window sentences keyed by
//     sentence.ID.Shard(cfg.RecordShards);
//   - infos: encoded PageInfos, one per page, keyed by the shard of its
//     document, for rereads.Count;
//   - counts: partial counters.Counts (sentences, and how many were in the
//     window, too short or too long).
//
// Pages are signed on cfg.Workers goroutines, a batch at a time (package
// ordered), and their results packed in page order, so that no sentence
// crosses the runner's element machinery on its own.
func Sign(s beam.Scope, pages beam.PCollection, cfg Config) (shuffle.Entries, shuffle.Sentences, shuffle.PageInfos, beam.PCollection) {
	s = s.Scope("MinHash")
	entries, records, infos, counts := beam.ParDo4(s, &signFn{Cfg: cfg}, pages)
	return shuffle.MakeEntries(entries), shuffle.MakeSentences(records), shuffle.MakePageInfos(infos), counts
}

type signFn struct {
	Cfg Config

	orderedpool.Owner[[]sentence.Page, *signed]
	bands   int // band keys per sentence
	batch   orderedpool.Batch[sentence.Page]
	entries *shuffle.Packer
	records *shuffle.Packer
	infos   *shuffle.Packer
	counts  counters.Counts
}

// signed is what a worker made of a batch of pages.
type signed struct {
	pages   []PageInfo // one per page, with its counts
	ids     []sentence.ID
	status  []int8   // -1 too short, +1 too long, 0 in the window
	keys    []uint64 // the band keys of the in-window sentences, in order
	records []byte   // their encodings, one after the other
	ends    []int    // where each encoding ends in records
}

func (f *signFn) Setup() error {
	scheme, err := f.Cfg.NewScheme()
	if err != nil {
		return err
	}
	f.bands = scheme.Bands
	f.Start(f.Cfg.Workers, 0, func() func([]sentence.Page) (*signed, error) {
		w := &signer{cfg: f.Cfg, bands: scheme.Bands, shingler: shingle.New(f.Cfg.ShingleLength, f.Cfg.Norm), signer: NewSigner(scheme)}
		return w.sign
	})
	return nil
}

func (f *signFn) StartBundle(context.Context, func(int, []byte), func(int, []byte), func(int, []byte), func(counters.Counts)) {
	f.batch.Take()
	f.entries = shuffle.NewPacker(shuffle.KindEntries, f.Cfg.BucketShards)
	f.records = shuffle.NewPacker(shuffle.KindSentences, f.Cfg.RecordShards)
	f.infos = shuffle.NewPacker(shuffle.KindPageInfos, f.Cfg.RecordShards)
	f.counts = counters.Counts{}
}

func (f *signFn) ProcessElement(_ context.Context, p sentence.Page, emitEntries, emitRecords, emitInfos func(int, []byte), _ func(counters.Counts)) error {
	size := 0
	for i := range p.Sentences {
		size += len(p.Sentences[i].Text)
	}
	if full := f.batch.Add(p, size); full != nil {
		return f.Pool().Submit(full, f.deliver(emitEntries, emitRecords, emitInfos))
	}
	return nil
}

func (f *signFn) FinishBundle(ctx context.Context, emitEntries, emitRecords, emitInfos func(int, []byte), emitCounts func(counters.Counts)) error {
	deliver := f.deliver(emitEntries, emitRecords, emitInfos)
	if rest := f.batch.Take(); rest != nil {
		if err := f.Pool().Submit(rest, deliver); err != nil {
			return err
		}
	}
	if err := f.Pool().Flush(deliver); err != nil {
		return err
	}
	f.entries.Flush(emitEntries)
	f.records.Flush(emitRecords)
	f.infos.Flush(emitInfos)
	counters.Emit(ctx, f.counts, emitCounts)
	return nil
}

// deliver returns the function that counts a signed batch and packs its
// entries, records and page infos.
func (f *signFn) deliver(emitEntries, emitRecords, emitInfos func(int, []byte)) func(*signed) error {
	var info []byte
	return func(s *signed) error {
		for i := range s.pages {
			info = s.pages[i].AppendBinary(info[:0])
			f.infos.AddRecord(shuffle.ShardOf(s.pages[i].Doc, f.Cfg.RecordShards), info, emitInfos)
			f.counts.SentencesCut += s.pages[i].Counts.Cut
			f.counts.DebrisLines += s.pages[i].Counts.Debris
		}
		f.counts.Sentences += int64(len(s.ids))
		keys, start, j := s.keys, 0, 0
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
				f.entries.Add(shuffle.Shard(k, f.Cfg.BucketShards), shuffle.Pair{A: k, B: uint64(id)}, emitEntries)
			}
			f.counts.Signatures += int64(f.bands)
			keys = keys[f.bands:]
			f.records.AddRecord(id.Shard(f.Cfg.RecordShards), s.records[start:s.ends[j]], emitRecords)
			start, j = s.ends[j], j+1
		}
		return nil
	}
}

// signer is one pool worker's shingler and signer.
type signer struct {
	cfg      Config
	bands    int
	shingler *shingle.Shingler
	signer   *Signer
	out      *signed
	rank     int // the next in-window sentence's Sentence.Rank in its page
}

// sign shingles and signs the sentences of a batch of pages.
func (w *signer) sign(pages []sentence.Page) (*signed, error) {
	w.out = &signed{}
	for _, p := range pages {
		before := len(w.out.status)
		w.rank = 0
		for i := range p.Sentences {
			w.add(p.Sentences[i])
		}
		info := PageInfo{
			Doc: uint64(p.Doc), PageID: p.PageID, File: p.File, Offset: p.Offset, Title: p.Title, Name: p.Name, URL: p.URL, Lang: p.Lang,
			TextHash: p.TextHash, Counts: count(w.out.status[before:], w.bands),
		}
		info.Counts.Cut = int64(p.Cut)
		info.Counts.Debris = int64(p.Debris)
		w.out.pages = append(w.out.pages, info)
	}
	return w.out, nil
}

// count is what a page whose sentences have the given statuses adds to the
// counts.
func count(status []int8, bands int) PageCounts {
	c := PageCounts{Sentences: int64(len(status))}
	for _, st := range status {
		switch st {
		case -1:
			c.TooShort++
		case 1:
			c.TooLong++
		default:
			c.InWindow++
		}
	}
	c.Signatures = c.InWindow * int64(bands)
	return c
}

// add shingles and signs one sentence into w.out.
func (w *signer) add(st sentence.Sentence) {
	s := w.out
	s.ids = append(s.ids, st.ID)
	// A sentence known to have MaxShingles shingles is given up as soon as
	// that is known: a one-line page of 60 MB would otherwise cost its runes
	// and hashes, 12 times its size.
	hashes, n := w.shingler.HashesBelow(st.Text, w.cfg.MaxShingles)
	switch {
	case n <= w.cfg.MinShingles:
		s.status = append(s.status, -1)
		return
	case n >= w.cfg.MaxShingles:
		s.status = append(s.status, 1)
		return
	}
	s.status = append(s.status, 0)
	s.keys = w.signer.AppendKeys(s.keys, hashes)
	st.Rank = w.rank
	w.rank++
	s.records = st.AppendBinary(s.records)
	s.ends = append(s.ends, len(s.records))
}
