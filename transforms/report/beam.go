package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/result"
)

func init() {
	beam.RegisterCoder(reflect.TypeOf(Stats{}), encodeStats, decodeStats)
	register.DoFn3x1[int, []byte, func(Stats), error](&linesFn{})
	register.DoFn2x0[document.DeadLetter, func(Stats)](&deadFn{})
	register.Emitter1[Stats]()
	register.Function2x1(mergeStats)
	register.DoFn4x2[context.Context, int, func(*[]byte) bool, func(*Stats) bool, int, error](&writeFn{})
	register.Iter1[[]byte]()
	register.Iter1[Stats]()
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
// (the bytes of summary.json, as summary.Write passes them on) and of stats
// (Collect's; empty Stats if there is none), and returns PCollection<int>:
// the page's size in bytes once it is written, for stages that must come
// after it.
func Write(s beam.Scope, path string, info Info, cfg Config, summaryFile, stats beam.PCollection) beam.PCollection {
	s = s.Scope("Write report")
	joined := beam.CoGroupByKey(s, beam.AddFixedKey(s, summaryFile), beam.AddFixedKey(s, stats))
	return beam.ParDo(s, &writeFn{Path: path, Info: info, Cfg: cfg}, joined)
}

type writeFn struct {
	Path string
	Info Info
	Cfg  Config
}

func (f *writeFn) ProcessElement(ctx context.Context, _ int, files func(*[]byte) bool, parts func(*Stats) bool) (int, error) {
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
	p, err := NewPage(f.Info, doc, st)
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
