package sentence

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/batch"
	"github.com/neardup/neardup/transforms/summary"
)

func init() {
	register.DoFn4x0[context.Context, dump.Page, func(Sentence), func(summary.Counts)](&fromPagesFn{})
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

type fromPagesFn struct {
	splitter PageSplitter
	counts   summary.Counts
}

func (f *fromPagesFn) StartBundle(context.Context, func(Sentence), func(summary.Counts)) {
	f.counts = summary.Counts{}
}

func (f *fromPagesFn) ProcessElement(_ context.Context, p dump.Page, emit func(Sentence), _ func(summary.Counts)) {
	f.counts.Sentences += int64(f.splitter.Sentences(p, emit))
}

func (f *fromPagesFn) FinishBundle(ctx context.Context, _ func(Sentence), emitCounts func(summary.Counts)) {
	summary.Emit(ctx, f.counts, emitCounts)
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
