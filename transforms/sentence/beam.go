package sentence

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/batch"
)

func init() {
	register.DoFn3x1[int, []byte, func(int, []byte), error](&linesFn{})
	register.Emitter2[int, []byte]()
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
