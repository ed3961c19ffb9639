package sentence

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/result"
)

func init() {
	register.DoFn3x1[int, []byte, func(int, []byte), error](&linesFn{})
	register.Emitter2[int, []byte]()
}

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
