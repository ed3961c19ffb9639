package sentence

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/ordered"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/batch"
	"github.com/neardup/neardup/transforms/summary"
)

func init() {
	register.DoFn4x1[context.Context, dump.Page, func(Sentence), func(summary.Counts), error](&fromPagesFn{})
	register.Emitter1[Sentence]()
	register.DoFn3x1[int, []byte, func(int, []byte), error](&linesFn{})
	register.Emitter2[int, []byte]()
}

// FromPages cleans the wikitext of each dump.Page and splits it into
// sentences: it returns a PCollection<Sentence> with every sentence of every
// page, numbered in document order, and partial counts.
func FromPages(s beam.Scope, pages beam.PCollection) (sentences, counts beam.PCollection) {
	s = s.Scope("Sentences")
	return beam.ParDo2(s, &fromPagesFn{}, pages)
}

// fromPagesFn cleans and splits pages on every core (package ordered), a
// batch at a time, and emits their sentences in page order.
type fromPagesFn struct {
	pool   *ordered.Pool[[]dump.Page, []Sentence]
	batch  []dump.Page
	bytes  int
	counts summary.Counts
}

// Pages are handed to the pool in batches of this many pages or bytes of
// wikitext, whichever comes first.
const (
	pagesPerBatch = 16
	bytesPerBatch = 1 << 20
)

func (f *fromPagesFn) Setup() {
	f.pool = ordered.New(0, 0, func() func([]dump.Page) ([]Sentence, error) {
		var splitter PageSplitter
		return func(pages []dump.Page) ([]Sentence, error) {
			var out []Sentence
			for _, p := range pages {
				splitter.Sentences(p, func(s Sentence) { out = append(out, s) })
			}
			return out, nil
		}
	})
}

func (f *fromPagesFn) Teardown() {
	if f.pool != nil {
		f.pool.Close()
	}
}

func (f *fromPagesFn) StartBundle(context.Context, func(Sentence), func(summary.Counts)) {
	f.pool.Discard()
	f.batch, f.bytes = nil, 0
	f.counts = summary.Counts{}
}

func (f *fromPagesFn) ProcessElement(_ context.Context, p dump.Page, emit func(Sentence), _ func(summary.Counts)) error {
	f.batch = append(f.batch, p)
	f.bytes += len(p.Text)
	if len(f.batch) < pagesPerBatch && f.bytes < bytesPerBatch {
		return nil
	}
	b := f.batch
	f.batch, f.bytes = nil, 0
	return f.pool.Submit(b, f.deliver(emit))
}

func (f *fromPagesFn) FinishBundle(ctx context.Context, emit func(Sentence), emitCounts func(summary.Counts)) error {
	deliver := f.deliver(emit)
	if len(f.batch) > 0 {
		if err := f.pool.Submit(f.batch, deliver); err != nil {
			return err
		}
		f.batch, f.bytes = nil, 0
	}
	if err := f.pool.Flush(deliver); err != nil {
		return err
	}
	summary.Emit(ctx, f.counts, emitCounts)
	return nil
}

func (f *fromPagesFn) deliver(emit func(Sentence)) func([]Sentence) error {
	return func(sents []Sentence) error {
		for _, s := range sents {
			emit(s)
		}
		f.counts.Sentences += int64(len(sents))
		return nil
	}
}

// Lines turns batches of encoded sentences (PCollection<KV<int, []byte>>, as
// minhash.Sign returns them) into JSON lines of their View, keyed by output
// shard and sorted by sentence id, for result.Write.
func Lines(s beam.Scope, records beam.PCollection, outShards int) beam.PCollection {
	s = s.Scope("SentenceLines")
	return beam.ParDo(s, &linesFn{OutShards: outShards}, records)
}

type linesFn struct{ OutShards int }

func (f *linesFn) ProcessElement(_ int, b []byte, emit func(int, []byte)) error {
	p := batch.NewPacker(f.OutShards, 0)
	err := batch.Records(b, func(rec []byte) error {
		var s Sentence
		if err := s.UnmarshalBinary(rec); err != nil {
			return err
		}
		line, err := result.JSONLine(s.View())
		if err != nil {
			return err
		}
		p.AddRecord(s.ID.Shard(f.OutShards), result.Record(uint64(s.ID), line), emit)
		return nil
	})
	p.Flush(emit)
	return err
}
