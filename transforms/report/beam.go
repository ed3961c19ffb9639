package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/top"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/passage"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/verify"
)

func init() {
	beam.RegisterCoder(reflect.TypeOf(Stats{}), encodeStats, decodeStats)
	register.DoFn3x1[int, []byte, func(Stats), error](&linesFn{})
	register.DoFn2x0[document.DeadLetter, func(Stats)](&deadFn{})
	register.Emitter1[Stats]()
	register.Function2x1(mergeStats)
	register.DoFn7x2[context.Context, int, func(*[]byte) bool, func(*Stats) bool, func(*PassageSample) bool, func(*ExampleMatch) bool, func(*ExampleText) bool, int, error](&writeFn{})
	register.Iter1[[]byte]()
	register.Iter1[Stats]()
	beam.RegisterCoder(reflect.TypeOf(PassageSample{}), encodeSample, decodeSample)
	beam.RegisterType(reflect.TypeOf(ExampleMatch{}))
	beam.RegisterType(reflect.TypeOf(ExampleText{}))
	register.DoFn4x1[int, []byte, func(*[]passage.DocPair) bool, func(PassageSample), error](&pickFn{})
	register.DoFn4x1[int, []byte, func(*PassageSample) bool, func(ExampleMatch), error](&exampleMatchesFn{})
	register.DoFn4x1[int, []byte, func(*ExampleMatch) bool, func(ExampleText), error](&exampleTextsFn{})
	register.Function2x1(mergePassageSamples)
	register.Function2x1(lessCoverage)
	register.Emitter1[PassageSample]()
	register.Emitter1[ExampleMatch]()
	register.Emitter1[ExampleText]()
	register.Iter1[[]passage.DocPair]()
	register.Iter1[PassageSample]()
	register.Iter1[ExampleMatch]()
	register.Iter1[ExampleText]()
}

func encodeSample(s PassageSample) ([]byte, error) { return json.Marshal(s) }

func decodeSample(b []byte) (PassageSample, error) {
	var s PassageSample
	err := json.Unmarshal(b, &s)
	return s, err
}

func encodeStats(s Stats) ([]byte, error) { return json.Marshal(s) }

func decodeStats(b []byte) (Stats, error) {
	var s Stats
	err := json.Unmarshal(b, &s)
	return s, err
}

// mergeStats merges two partial Stats into new ones, leaving both as they
// were.
func mergeStats(a, b Stats) Stats {
	var out Stats
	out.Merge(a)
	out.Merge(b)
	return out
}

// Config says what the page samples.
type Config struct {
	Examples int    // example clusters per kind (0: none)
	Seed     uint64 // salt of the sample's hash (the run's --seed)
}

// Collect returns PCollection<Stats>: the one Stats of the cluster lines
// of categorize.Clusters (read by their digest rows; only the sampled
// lines are kept) and of the dead letters (PCollection<document.DeadLetter>).
// Each bundle builds partial Stats, which are merged into one. With no
// cluster and no dead letter the collection is empty.
func Collect(s beam.Scope, lines shuffle.Lines, dead beam.PCollection, cfg Config) beam.PCollection {
	s = s.Scope("Report statistics")
	fromLines := beam.ParDo(s, &linesFn{Cfg: cfg}, lines.Raw())
	fromDead := beam.ParDo(s, &deadFn{Cfg: cfg}, dead)
	return beam.Combine(s, mergeStats, beam.Flatten(s, fromLines, fromDead))
}

// linesFn adds a bundle's cluster lines to partial Stats.
type linesFn struct {
	Cfg   Config
	stats Stats
}

func (f *linesFn) StartBundle(func(Stats)) { f.stats = NewStats(f.Cfg.Examples, f.Cfg.Seed) }

func (f *linesFn) ProcessElement(_ int, batch []byte, _ func(Stats)) error {
	return shuffle.KindLines.Records(batch, f.stats.AddRecord)
}

func (f *linesFn) FinishBundle(emit func(Stats)) { emit(f.stats) }

// deadFn adds a bundle's dead letters to partial Stats.
type deadFn struct {
	Cfg   Config
	stats Stats
}

func (f *deadFn) StartBundle(func(Stats)) { f.stats = NewStats(f.Cfg.Examples, f.Cfg.Seed) }

func (f *deadFn) ProcessElement(d document.DeadLetter, _ func(Stats)) { f.stats.AddDeadLetter(d) }

func (f *deadFn) FinishBundle(emit func(Stats)) { emit(f.stats) }

// Write renders report.html to path from the one element of summaryFile
// (the bytes of summary.json, as summary.Write passes them on), of stats
// (Collect's; empty Stats if there is none) and of passages
// (CollectPassages' or NoPassages), and returns PCollection<int>: the
// page's size in bytes once it is written, for stages that must come after
// it.
func Write(s beam.Scope, path string, info Info, cfg Config, summaryFile, stats beam.PCollection, passages Passages) beam.PCollection {
	s = s.Scope("Write report")
	joined := beam.CoGroupByKey(s, beam.AddFixedKey(s, summaryFile), beam.AddFixedKey(s, stats))
	return beam.ParDo(s, &writeFn{Path: path, Info: info, Cfg: cfg}, joined,
		beam.SideInput{Input: passages.Sample}, beam.SideInput{Input: passages.Matches}, beam.SideInput{Input: passages.Texts})
}

type writeFn struct {
	Path string
	Info Info
	Cfg  Config
}

func (f *writeFn) ProcessElement(ctx context.Context, _ int, files func(*[]byte) bool, parts func(*Stats) bool,
	samples func(*PassageSample) bool, matches func(*ExampleMatch) bool, texts func(*ExampleText) bool) (int, error) {
	var doc, b []byte
	for files(&b) {
		doc = b
	}
	if doc == nil {
		return 0, fmt.Errorf("report: no summary.json to write %s from", f.Path)
	}
	st := NewStats(f.Cfg.Examples, f.Cfg.Seed)
	var part Stats
	for parts(&part) {
		st.Merge(part)
	}
	var ex PassageData
	var sample PassageSample
	for samples(&sample) {
		ex.Sample.Merge(sample)
	}
	var m ExampleMatch
	for matches(&m) {
		ex.Matches = append(ex.Matches, m)
	}
	ex.Texts = map[uint64]string{}
	var t ExampleText
	for texts(&t) {
		ex.Texts[t.ID] = t.Text
	}
	p, err := NewPage(f.Info, doc, st, ex)
	if err != nil {
		return 0, err
	}
	var out bytes.Buffer
	if err := Render(&out, p); err != nil {
		return 0, err
	}
	if err := result.WriteBytes(ctx, f.Path, out.Bytes()); err != nil {
		return 0, fmt.Errorf("report: %w", err)
	}
	return out.Len(), nil
}

// Passages are the collections the passages section is made of
// (CollectPassages); NoPassages for a run without passages.
type Passages struct {
	Sample  beam.PCollection // the one PassageSample, or none
	Matches beam.PCollection // of ExampleMatch
	Texts   beam.PCollection // of ExampleText
}

// NoPassages returns empty Passages.
func NoPassages(s beam.Scope) Passages {
	return Passages{Sample: beam.CreateList(s, []PassageSample{}), Matches: beam.CreateList(s, []ExampleMatch{}),
		Texts: beam.CreateList(s, []ExampleText{})}
}

// ExampleMatch is a matched sentence pair of the example passage of the
// sample's pair Pair.
type ExampleMatch struct {
	Pair         int
	A, B         int    // ordinals in the pair's documents a and b
	IDA, IDB     uint64 // the sentences' ids (sentence.ID)
	Jaccard      float64
	RankA, RankB int
}

// ExampleText is the text of a sentence of an example passage.
type ExampleText struct {
	ID   uint64
	Text string
}

// CollectPassages returns what the passages section shows: the document
// pairs of pairs (PCollection<passage.DocPair>) that passages cover most,
// their lines of lines (passages-*.jsonl's), and the matched pairs of an
// example passage of each of the first, found among the verified edges
// (sims) with their texts (from records, verify.Edges' sentence records of
// the candidates). The texts are read here for the few dozen sentences of
// the examples, so that the page shows them whether or not the run asked
// for --passage_text. wikis are the run's wiki names, sorted.
func CollectPassages(s beam.Scope, lines shuffle.Lines, pairs beam.PCollection, sims shuffle.Similarities, records shuffle.Sentences, wikis []string) Passages {
	s = s.Scope("Report passages")
	best := top.Largest(s, pairs, MaxPassagePairs, lessCoverage)
	partial := beam.ParDo(s, &pickFn{}, lines.Raw(), beam.SideInput{Input: best})
	sample := beam.Combine(s, mergePassageSamples, partial)
	matches := beam.ParDo(s, &exampleMatchesFn{Wikis: wikis}, sims.Raw(), beam.SideInput{Input: sample})
	texts := beam.ParDo(s, &exampleTextsFn{}, records.Raw(), beam.SideInput{Input: matches})
	return Passages{Sample: sample, Matches: matches, Texts: texts}
}

// mergePassageSamples merges two partial samples into a new one.
func mergePassageSamples(a, b PassageSample) PassageSample {
	var out PassageSample
	out.Merge(a)
	out.Merge(b)
	return out
}

// pickFn adds a bundle's passage lines of the top pairs to a partial
// sample.
type pickFn struct {
	sample *PassageSample
}

func (f *pickFn) StartBundle(tops func(*[]passage.DocPair) bool, _ func(PassageSample)) {
	var t []passage.DocPair
	for tops(&t) {
	}
	s := NewPassageSample(t)
	f.sample = &s
}

func (f *pickFn) ProcessElement(_ int, batch []byte, _ func(*[]passage.DocPair) bool, _ func(PassageSample)) error {
	if len(f.sample.Pairs) == 0 {
		return nil
	}
	return shuffle.KindLines.Records(batch, func(rec []byte) error {
		if len(rec) < 8 {
			return fmt.Errorf("report: passage record of %d bytes", len(rec))
		}
		return f.sample.AddLine(rec[8:])
	})
}

func (f *pickFn) FinishBundle(_ func(*[]passage.DocPair) bool, emit func(PassageSample)) {
	if len(f.sample.Pairs) > 0 {
		emit(*f.sample)
	}
}

// exampleMatchesFn emits the verified edges of a shard that are matched
// pairs of an example passage: between its two documents, inside its
// first and last ordinals in both.
type exampleMatchesFn struct {
	Wikis []string
	spans map[[2]sentence.Doc]exampleSpan
}

// exampleSpan is where an example passage lies in its documents.
type exampleSpan struct {
	pair                         int
	firstA, lastA, firstB, lastB int
}

func (f *exampleMatchesFn) StartBundle(samples func(*PassageSample) bool, _ func(ExampleMatch)) error {
	var err error
	f.spans, err = exampleSpans(samples, f.Wikis)
	return err
}

func (f *exampleMatchesFn) ProcessElement(_ int, batch []byte, _ func(*PassageSample) bool, emit func(ExampleMatch)) error {
	if len(f.spans) == 0 {
		return nil
	}
	return shuffle.KindSimilarities.Records(batch, func(rec []byte) error {
		var e verify.Edge
		if err := e.UnmarshalBinary(rec); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		u, v := sentence.ID(e.U), sentence.ID(e.V)
		ru, rv := int(e.RankU), int(e.RankV)
		sp, ok := f.spans[[2]sentence.Doc{u.Doc(), v.Doc()}]
		if !ok {
			u, v, ru, rv = v, u, rv, ru
			if sp, ok = f.spans[[2]sentence.Doc{u.Doc(), v.Doc()}]; !ok {
				return nil
			}
		}
		a, b := u.Ordinal(), v.Ordinal()
		if a < sp.firstA || a > sp.lastA || b < sp.firstB || b > sp.lastB {
			return nil
		}
		emit(ExampleMatch{Pair: sp.pair, A: a, B: b, IDA: uint64(u), IDB: uint64(v), Jaccard: e.Similarity.Jaccard, RankA: ru, RankB: rv})
		return nil
	})
}

// exampleSpans maps the document pairs of the sample's example passages
// to their spans.
func exampleSpans(samples func(*PassageSample) bool, wikis []string) (map[[2]sentence.Doc]exampleSpan, error) {
	spans := map[[2]sentence.Doc]exampleSpan{}
	var s PassageSample
	for samples(&s) {
		for i, p := range s.Pairs {
			if p.Example == nil {
				continue
			}
			l := p.Example
			a, b, err := exampleDocs(*l, wikis)
			if err != nil {
				return nil, err
			}
			spans[[2]sentence.Doc{a, b}] = exampleSpan{pair: i, firstA: l.A.First, lastA: l.A.Last, firstB: l.B.First, lastB: l.B.Last}
		}
	}
	return spans, nil
}

// exampleTextsFn emits the texts of the sentences of the example matches
// that a shard of sentence records holds.
type exampleTextsFn struct {
	want map[uint64]bool
}

func (f *exampleTextsFn) StartBundle(matches func(*ExampleMatch) bool, _ func(ExampleText)) {
	f.want = map[uint64]bool{}
	var m ExampleMatch
	for matches(&m) {
		f.want[m.IDA], f.want[m.IDB] = true, true
	}
}

func (f *exampleTextsFn) ProcessElement(_ int, batch []byte, _ func(*ExampleMatch) bool, emit func(ExampleText)) error {
	if len(f.want) == 0 {
		return nil
	}
	return shuffle.KindSentences.Records(batch, func(rec []byte) error {
		var id sentence.ID
		if err := id.UnmarshalPrefix(rec); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		if !f.want[uint64(id)] {
			return nil
		}
		var s sentence.Sentence
		if err := s.UnmarshalBinary(rec); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		emit(ExampleText{ID: uint64(id), Text: s.Text})
		return nil
	})
}
