package docfreq

import (
	"fmt"

	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/testkit/sentencetest"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
)

// TestMain runs the package's pipeline tests on ptest's runner, Prism
// unless --runner says otherwise.
func TestMain(m *testing.M) { ptest.Main(m) }

func init() {
	register.DoFn2x0[Sketch, func(string)](&summaryFn{})
	register.Emitter1[string]()
}

// summaryFn describes a sketch by its documents and the counts of the
// tokens of Probes.
type summaryFn struct {
	Cfg    Config
	Probes []string
}

func (f *summaryFn) ProcessElement(s Sketch, emit func(string)) {
	emit(summary(&s, f.Cfg, f.Probes))
}

func summary(s *Sketch, cfg Config, probes []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "documents=%d empty=%v", s.Documents(), s.Empty())
	tok := cfg.Tokenizer()
	for _, p := range probes {
		fmt.Fprintf(&b, " %q:", p)
		for _, t := range tok.AppendTokens(nil, p) {
			fmt.Fprintf(&b, "%d,", s.Count(t))
		}
	}
	return b.String()
}

// testSentences are sentences of several documents, with words and
// shingles shared by some of them.
var testSentences = []string{
	"The storm made landfall near the coast of Louisiana early on Monday.",
	"The storm made landfall near the coast of Mississippi later on Monday.",
	"Levees failed in New Orleans, flooding most of the city.",
	"Levees failed in New Orleans, flooding most of the city.",
	"Η καταιγίδα έπληξε την ακτή τη Δευτέρα.",
	"Шторм обрушився на узбережжя в понеділок.",
	"Relief efforts were slow.",
}

// recordBatches encodes the test sentences as minhash.Sign batches them:
// by the shard of the sentence's id, several batches per shard.
func recordBatches(shards int) [][]byte {
	byShard := map[int][][]byte{}
	for i, text := range testSentences {
		s := sentence.Sentence{ID: sentence.Doc(i / 2).Sentence(i % 2), Title: "T", Text: text}
		rec := s.AppendBinary(nil)
		byShard[s.ID.Shard(shards)] = append(byShard[s.ID.Shard(shards)], rec)
	}
	var batches [][]byte
	for shard := range shards {
		recs := byShard[shard]
		for len(recs) > 0 {
			n := min(len(recs), 2)
			batches = append(batches, shuffle.KindSentences.PackRecords(recs[:n]...))
			recs = recs[n:]
		}
	}
	return batches
}

// serialSketch counts the test sentences with a plain loop.
func serialSketch(cfg Config) *Sketch {
	tok := cfg.Tokenizer()
	var s Sketch
	for _, text := range testSentences {
		s.AddDocument(tok.AppendTokens(nil, text))
	}
	return &s
}

var testConfigs = []Config{
	{Tokens: Shingles, ShingleLength: 12, Norm: shingle.DefaultNormalization},
	{Tokens: Words, Norm: shingle.DefaultNormalization},
}

// TestCountFnIndependentOfBundling runs the counting DoFn without Beam with
// its batches in one bundle or spread over three, on one worker or four:
// the sum of what the bundles emit is the serial loop's sketch.
func TestCountFnIndependentOfBundling(t *testing.T) {
	const shards = 3
	batches := recordBatches(shards)
	for _, cfg := range testConfigs {
		want := serialSketch(cfg)
		for _, workers := range []int{1, 4} {
			for _, bundles := range []int{1, 3} {
				cfg := cfg
				cfg.Workers = workers
				f := &countFn{Cfg: cfg}
				if err := f.Setup(); err != nil {
					t.Fatal(err)
				}
				var total Sketch
				emitted := 0
				emit := func(s Sketch) { total.Merge(&s); emitted++ }
				for b := range bundles {
					for i := b; i < len(batches); i += bundles {
						if err := f.ProcessElement(0, batches[i], emit); err != nil {
							t.Fatal(err)
						}
					}
					if err := f.FinishBundle(emit); err != nil {
						t.Fatal(err)
					}
				}
				if err := f.FinishBundle(emit); err != nil { // a bundle of nothing emits nothing
					t.Fatal(err)
				}
				f.Teardown()
				if !total.Equal(want) || emitted != bundles {
					t.Errorf("%s, %d workers, %d bundles: %d sketches emitted, summing to %s; want %d summing to %s",
						cfg.Tokens, workers, bundles, emitted, summary(&total, cfg, testSentences), bundles, summary(want, cfg, testSentences))
				}
			}
		}
	}
}

func TestCountFnRefusesBadInput(t *testing.T) {
	f := &countFn{Cfg: Config{Tokens: "bytes"}}
	if err := f.Setup(); err == nil {
		t.Error("Setup accepted unknown tokens")
	}
	f = &countFn{Cfg: testConfigs[0]}
	if err := f.Setup(); err != nil {
		t.Fatal(err)
	}
	defer f.Teardown()
	err := f.ProcessElement(2, shuffle.KindCandidates.PackPairs(shuffle.Pair{A: 1, B: 2}), func(Sketch) {})
	if err == nil {
		err = f.FinishBundle(func(Sketch) {})
	}
	if err == nil || !strings.Contains(err.Error(), "shard 2") {
		t.Errorf("a batch of candidates: error %v, want one naming the shard", err)
	}
}

// TestCount runs Count on Prism, on the test sentences and on none: one
// sketch comes out, the serial loop's, or an empty one.
func TestCount(t *testing.T) {
	for _, cfg := range testConfigs {
		for _, withSentences := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/sentences=%v", cfg.Tokens, withSentences), func(t *testing.T) {
				batches := [][]byte{{}}
				want := summary(&Sketch{}, cfg, testSentences)
				if withSentences {
					batches = recordBatches(4)
					want = summary(serialSketch(cfg), cfg, testSentences)
				}
				p, s := beam.NewPipelineWithRoot()
				records := sentencetest.Records(s, batches, 4)
				sketch := Count(s, records, cfg)
				passert.Equals(s, beam.ParDo(s, &summaryFn{Cfg: cfg, Probes: testSentences}, sketch), want)
				ptest.RunAndValidate(t, p)
			})
		}
	}
}

// TestCountAsSideInput reads the sketch as a side input, as the join does.
func TestCountAsSideInput(t *testing.T) {
	cfg := testConfigs[0]
	p, s := beam.NewPipelineWithRoot()
	records := sentencetest.Records(s, recordBatches(2), 2)
	sketch := Count(s, records, cfg)
	probes := beam.CreateList(s, testSentences)
	got := beam.ParDo(s, &probeFn{Cfg: cfg}, probes, beam.SideInput{Input: sketch})
	var want []any
	serial := serialSketch(cfg)
	for _, text := range testSentences {
		want = append(want, probe(serial, cfg, text))
	}
	passert.Equals(s, got, want...)
	ptest.RunAndValidate(t, p)
}

func init() { register.DoFn3x0[string, Sketch, func(string)](&probeFn{}) }

// probeFn describes the counts of a text's tokens in the side input.
type probeFn struct{ Cfg Config }

func (f *probeFn) ProcessElement(text string, s Sketch, emit func(string)) {
	emit(probe(&s, f.Cfg, text))
}

func probe(s *Sketch, cfg Config, text string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%.20s", text)
	for _, t := range cfg.Tokenizer().AppendTokens(nil, text) {
		fmt.Fprintf(&b, " %d", s.Count(t))
	}
	return b.String()
}

func init() {
	register.Function2x0(denseSketches)
	register.DoFn3x0[[]byte, Sketch, func(string)](&checkDenseFn{})
}

// denseSketches emits two sketches whose every counter is set: each
// encodes to 16 MiB.
func denseSketches(_ []byte, emit func(Sketch)) {
	for k := range 2 {
		s := Sketch{docs: 1, cells: make([]uint32, Depth*Width)}
		for i := range s.cells {
			s.cells[i] = uint32(i%1000 + k + 1)
		}
		emit(s)
	}
}

type checkDenseFn struct{}

func (checkDenseFn) ProcessElement(_ []byte, s Sketch, emit func(string)) {
	ok := s.Documents() == 2 && len(s.cells) == Depth*Width
	for i := 0; ok && i < len(s.cells); i++ {
		ok = s.cells[i] == uint32(2*(i%1000)+3)
	}
	emit(fmt.Sprint("dense sums right: ", ok))
}

// TestDenseSketchCrossesPrism combines two dense sketches and reads their
// sum as a side input: 16 MiB elements pass the runner.
func TestDenseSketchCrossesPrism(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	sum := beam.Combine(s, mergeSketches, beam.ParDo(s, denseSketches, beam.Impulse(s)))
	passert.Equals(s, beam.ParDo(s, checkDenseFn{}, beam.Impulse(s), beam.SideInput{Input: sum}), "dense sums right: true")
	ptest.RunAndValidate(t, p)
}
