package sentence

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/ordered"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/clean"
)

func init() {
	register.DoFn3x1[int, []byte, func(int, []byte), error](&linesFn{})
	register.Emitter2[int, []byte]()
	register.DoFn2x1[clean.Page, func(Page), error](&splitFn{})
	register.Emitter1[Page]()
}

// Pages splits each page of PCollection<clean.Page> into its sentences and
// returns PCollection<Page>, in the order of the input within each bundle.
// It needs what cleaning does: each page is split by the rules of its
// wiki's language (cfg.Sites), and its sentence ids carry the wiki's index.
// Pages are split on cfg.Workers goroutines, a batch at a time.
func Pages(s beam.Scope, pages beam.PCollection, cfg clean.Config) beam.PCollection {
	return beam.ParDo(s.Scope("Split"), &splitFn{Cfg: cfg}, pages)
}

type splitFn struct {
	Cfg clean.Config

	ordered.Mapper[clean.Page, Page]
}

func (f *splitFn) Setup() error {
	wikis, err := NewWikis(f.Cfg.Sites)
	if err != nil {
		return err
	}
	f.StartEach(f.Cfg.Workers, func() func(clean.Page) (Page, error) {
		s := &Splitter{Wikis: wikis}
		return s.Split
	})
	return nil
}

func (f *splitFn) ProcessElement(p clean.Page, emit func(Page)) error {
	size := 0
	for _, para := range p.Paragraphs {
		size += len(para.Text)
	}
	return f.Process(p, size, emit)
}

func (f *splitFn) FinishBundle(emit func(Page)) error { return f.Finish(emit) }

// Lines turns encoded sentences (as minhash.Sign returns them) into JSON
// lines of their View, keyed by output shard and sorted by sentence id, for
// result.Write.
func Lines(s beam.Scope, records shuffle.Sentences, outShards int) shuffle.Lines {
	s = s.Scope("SentenceLines")
	return shuffle.Lines{PCollection: beam.ParDo(s, &linesFn{OutShards: outShards}, records.PCollection)}
}

type linesFn struct{ OutShards int }

func (f *linesFn) ProcessElement(_ int, b []byte, emit func(int, []byte)) error {
	p := shuffle.NewPacker(shuffle.KindLines, f.OutShards)
	err := shuffle.KindSentences.Records(b, func(rec []byte) error {
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
