package sectionkind

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/util/reflectx"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/ordered"
	"github.com/neardup/neardup/transforms/clean"
)

func init() {
	beam.RegisterCoder(reflect.TypeOf(Stats{}), encodeStats, decodeStats)
	beam.RegisterCoder(reflect.TypeOf(Table{}), encodeTable, decodeTable)
	register.DoFn2x1[clean.Page, func(string, Stats), error](&countFn{})
	register.Emitter2[string, Stats]()
	register.Function2x1(mergeStats)
	register.Function3x0(learnedHeading)
	register.Emitter1[Table]()
	register.Function2x0(emptyTable)
	register.Function2x1(mergeTables)
	register.Function1x2(encodeTable)
}

// MaxBundleHeadings bounds the headings a bundle sums before it sends
// them on: a bundle of many pages holds at most this many in memory.
const MaxBundleHeadings = 1 << 14

// Config says how Learn runs.
type Config struct {
	Workers int // goroutines testing lines (0: GOMAXPROCS)
}

// Learn learns the reference headings of the wikis of pages
// (PCollection<clean.Page>), testing each line with citation, a registered
// function (register.Function1x1) that is not a closure; the pipeline
// gives categorize.IsCitation. It returns a PCollection of exactly one
// []byte, the encoded Table (empty when nothing is learned), to be read
// as a side input and decoded once (Decode).
//
// Each bundle sums its pages' counts per heading (Summarize, on
// cfg.Workers goroutines); a combine per wiki and heading sums the
// bundles', and a global combine gathers the learned headings, which are
// few. The counts are sums and the pages the smallest ids, so the table is
// the same however the runner bundles the pages.
func Learn(s beam.Scope, pages beam.PCollection, citation func(string) bool, cfg Config) beam.PCollection {
	s = s.Scope("ReferenceSections")
	fn := &countFn{Citation: beam.EncodedFunc{Fn: reflectx.MakeFunc(citation)}, Workers: cfg.Workers}
	counts := beam.CombinePerKey(s, mergeStats, beam.ParDo(s, fn, pages))
	learned := beam.ParDo(s, learnedHeading, counts)
	// A global combine of nothing is nothing: the empty table makes it one.
	empty := beam.ParDo(s, emptyTable, beam.Impulse(s))
	table := beam.Combine(s, mergeTables, beam.Flatten(s, learned, empty))
	return beam.ParDo(s, encodeTable, table)
}

// countFn sums the entries of its bundle's pages per heading and emits
// them, keyed by Entry.Key, when the bundle finishes or holds
// MaxBundleHeadings headings.
type countFn struct {
	Citation beam.EncodedFunc
	Workers  int

	ordered.Owner[[]clean.Page, [][]Entry]
	batch   ordered.Batch[clean.Page]
	counter Counter
}

func (f *countFn) Setup() error {
	if t := f.Citation.Fn.Type(); t != reflect.TypeOf(func(string) bool { return false }) {
		return fmt.Errorf("sectionkind: the citation test is a %v, not a func(string) bool", t)
	}
	// Registered, the function is called without reflection.
	call := reflectx.ToFunc1x1(f.Citation.Fn)
	citation := func(line string) bool { return call.Call1x1(line).(bool) }
	f.Start(f.Workers, 0, func() func([]clean.Page) ([][]Entry, error) {
		return func(ps []clean.Page) ([][]Entry, error) {
			out := make([][]Entry, len(ps))
			for i, p := range ps {
				out[i] = Summarize(p, citation)
			}
			return out, nil
		}
	})
	return nil
}

func (f *countFn) ProcessElement(p clean.Page, emit func(string, Stats)) error {
	size := 0
	for _, para := range p.Paragraphs {
		size += len(para.Text)
	}
	if full := f.batch.Add(p, size); full != nil {
		return f.Pool().Submit(full, f.deliver(emit))
	}
	return nil
}

func (f *countFn) FinishBundle(emit func(string, Stats)) error {
	if rest := f.batch.Take(); rest != nil {
		if err := f.Pool().Submit(rest, f.deliver(emit)); err != nil {
			return err
		}
	}
	if err := f.Pool().Flush(f.deliver(emit)); err != nil {
		return err
	}
	f.flush(emit)
	return nil
}

// deliver returns the function that adds a batch's entries to the bundle's
// sums, sending them on when they hold MaxBundleHeadings headings.
func (f *countFn) deliver(emit func(string, Stats)) func([][]Entry) error {
	return func(pages [][]Entry) error {
		for _, entries := range pages {
			for _, e := range entries {
				f.counter.Add(e)
			}
		}
		if f.counter.Len() >= MaxBundleHeadings {
			f.flush(emit)
		}
		return nil
	}
}

func (f *countFn) flush(emit func(string, Stats)) {
	for _, e := range f.counter.Take() {
		emit(e.Key(), e.Stats)
	}
}

func mergeStats(a, b Stats) Stats {
	a.Merge(b)
	return a
}

// learnedHeading emits the one-heading table of a heading that is
// Learned.
func learnedHeading(k string, s Stats, emit func(Table)) {
	if !s.Learned() {
		return
	}
	wiki, heading := splitKey(k)
	emit(*Build([]Entry{{Wiki: wiki, Heading: heading, Stats: s}}))
}

func emptyTable(_ []byte, emit func(Table)) { emit(Table{}) }

func mergeTables(a, b Table) Table { return *Merge(&a, &b) }

func encodeTable(t Table) ([]byte, error) { return t.MarshalBinary() }

func decodeTable(b []byte) (Table, error) {
	t, err := Decode(b)
	if err != nil {
		return Table{}, err
	}
	return *t, nil
}

// errStats is the error of a damaged Stats encoding.
var errStats = errors.New("sectionkind: damaged heading counts")

// encodeStats writes the lines, the citations, the number of pages and the
// pages, as varints.
func encodeStats(s Stats) ([]byte, error) {
	b := make([]byte, 0, 8+4*len(s.Pages))
	b = binary.AppendVarint(b, s.Lines)
	b = binary.AppendVarint(b, s.Citations)
	b = binary.AppendUvarint(b, uint64(len(s.Pages)))
	for _, p := range s.Pages {
		b = binary.AppendVarint(b, p)
	}
	return b, nil
}

func decodeStats(b []byte) (Stats, error) {
	var s Stats
	var n uint64
	ok := readVarint(&b, &s.Lines) && readVarint(&b, &s.Citations) && readUvarint(&b, &n) && n <= MaxPages
	if !ok {
		return Stats{}, errStats
	}
	if n > 0 {
		s.Pages = make([]int64, n)
	}
	for i := range s.Pages {
		if !readVarint(&b, &s.Pages[i]) {
			return Stats{}, errStats
		}
	}
	if len(b) != 0 {
		return Stats{}, errStats
	}
	return s, nil
}

func readVarint(b *[]byte, v *int64) bool {
	x, n := binary.Varint(*b)
	*b, *v = (*b)[max(n, 0):], x
	return n > 0
}

func readUvarint(b *[]byte, v *uint64) bool {
	x, n := binary.Uvarint(*b)
	*b, *v = (*b)[max(n, 0):], x
	return n > 0
}
