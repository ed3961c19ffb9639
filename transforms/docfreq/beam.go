package docfreq

import (
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/orderedpool"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/sentence"
)

func init() {
	beam.RegisterCoder(reflect.TypeOf(Sketch{}), encodeSketch, decodeSketch)
	register.DoFn3x1[int, []byte, func(Sketch), error](&countFn{})
	register.Function2x0(emptySketch)
	register.Function2x1(mergeSketches)
	register.Emitter1[Sketch]()
}

func encodeSketch(s Sketch) ([]byte, error) { return s.AppendBinary(nil) }

func decodeSketch(b []byte) (Sketch, error) {
	var s Sketch
	err := s.UnmarshalBinary(b)
	return s, err
}

// Count counts the distinct tokens of every sentence of records
// (KindSentences batches, as minhash.Sign emits them) and returns a
// PCollection of exactly one Sketch, empty when there is no sentence, to be
// read as a side input (beam.SideInput{Input: …}, a Sketch parameter).
//
// Each bundle counts its batches on cfg.Workers goroutines, each into its
// own sketch (package ordered), and emits their sum when it finishes; a
// combine adds the bundles' sketches. A sum does not depend on the order of
// its terms, so the sketch is the same however the runner bundles the
// input. A sentence read twice (a page revision in two dumps) is counted
// twice: the counts stay upper bounds of the distinct sentences' ones.
func Count(s beam.Scope, records shuffle.Sentences, cfg Config) beam.PCollection {
	s = s.Scope("DocFreq")
	partial := beam.ParDo(s, &countFn{Cfg: cfg}, records.Raw())
	// A global combine of nothing is nothing: the empty sketch makes it one.
	empty := beam.ParDo(s, emptySketch, beam.Impulse(s))
	return beam.Combine(s, mergeSketches, beam.Flatten(s, partial, empty))
}

func emptySketch(_ []byte, emit func(Sketch)) { emit(Sketch{}) }

// mergeSketches adds b into a.
func mergeSketches(a, b Sketch) Sketch {
	a.Merge(&b)
	return a
}

// countFn counts the sentences of its bundle's batches into one sketch per
// pool worker and emits their sum when the bundle finishes.
type countFn struct {
	Cfg Config

	orderedpool.Owner[batch, struct{}]
	sketches []*Sketch // the workers', in the order they were made
}

// batch is a batch of sentence records and the shard it came keyed by.
type batch struct {
	shard   int
	records []byte
}

func (f *countFn) Setup() error {
	if err := f.Cfg.Validate(); err != nil {
		return err
	}
	f.sketches = nil
	f.Start(f.Cfg.Workers, 0, func() func(batch) (struct{}, error) {
		w := &counter{tokenizer: f.Cfg.Tokenizer(), sketch: &Sketch{}}
		f.sketches = append(f.sketches, w.sketch) // New makes the workers before it returns
		return w.count
	})
	return nil
}

func (f *countFn) ProcessElement(shard int, records []byte, _ func(Sketch)) error {
	return f.Pool().Submit(batch{shard, records}, ignore)
}

// FinishBundle waits for the workers and emits the sum of their sketches,
// which it empties for the next bundle.
func (f *countFn) FinishBundle(emit func(Sketch)) error {
	if err := f.Pool().Flush(ignore); err != nil {
		return err
	}
	var total Sketch
	for _, s := range f.sketches {
		if s.Documents() > 0 { // else the worker had no work in this bundle
			total.Merge(s)
			s.Reset()
		}
	}
	if total.Documents() > 0 {
		emit(total)
	}
	return nil
}

func ignore(struct{}) error { return nil }

// counter is one pool worker's tokenizer and sketch.
type counter struct {
	tokenizer *Tokenizer
	sketch    *Sketch
	tokens    []uint64
	sentence  sentence.Sentence
}

// count adds the sentences of one batch to the worker's sketch.
func (w *counter) count(b batch) (struct{}, error) {
	err := shuffle.KindSentences.Records(b.records, func(rec []byte) error {
		if err := w.sentence.UnmarshalBinary(rec); err != nil {
			return err
		}
		w.tokens = w.tokenizer.AppendTokens(w.tokens[:0], w.sentence.Text)
		w.sketch.AddDocument(w.tokens)
		return nil
	})
	if err != nil {
		return struct{}{}, fmt.Errorf("docfreq: sentences of shard %d: %w", b.shard, err)
	}
	return struct{}{}, nil
}
