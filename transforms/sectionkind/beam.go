package sectionkind

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/util/reflectx"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/orderedpool"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/internal/varint"
	"github.com/neardup/neardup/transforms/clean"
)

func init() {
	beam.RegisterCoder(reflect.TypeOf(Table{}), encodeTable, decodeTable)
	register.DoFn2x1[clean.Page, func(int, []byte), error](&countFn{})
	register.Emitter2[int, []byte]()
	register.Function3x1(learnShard)
	register.Iter1[[]byte]()
	register.Emitter1[Table]()
	register.Function2x0(emptyTable)
	register.Function2x1(mergeTables)
	register.Function1x2(encodeTable)
	register.Function4x1(finishTable)
	register.Emitter1[[]byte]()
	register.Emitter1[counters.Counts]()
}

// MaxBundleHeadings bounds the headings a bundle sums before it sends
// them on: a bundle of many pages holds at most this many in memory.
const MaxBundleHeadings = 1 << 14

// Config says how Learn runs.
type Config struct {
	Shards  int // shards of the headings' counts (at least 1)
	Workers int // goroutines testing lines (0: GOMAXPROCS)
}

// Learn learns the reference headings of the wikis of pages
// (PCollection<clean.Page>), testing each line with citation, a registered
// function (register.Function1x1) that is not a closure and is safe for
// concurrent use; the pipeline gives categorize.IsCitation. It returns a
// PCollection of exactly one []byte, the encoded Table (empty when nothing
// is learned), to be read as a side input and decoded once (Decode), and
// the partial counters.Counts of the learned headings (ReferenceSections).
//
// Each bundle sums its pages' counts per heading (Summarize, on
// cfg.Workers goroutines) and sends them packed, one batch per shard of
// the headings; a GroupByKey gathers each shard's, which are summed and
// judged (Stats.Learned); a global combine gathers the learned headings,
// which are few. The counts are sums and the pages the smallest ids, so
// the table is the same however the runner bundles the pages.
func Learn(s beam.Scope, pages beam.PCollection, citation func(string) bool, cfg Config) (table, counts beam.PCollection) {
	s = s.Scope("ReferenceSections")
	fn := &countFn{Citation: beam.EncodedFunc{Fn: reflectx.MakeFunc(citation)}, Shards: max(cfg.Shards, 1), Workers: cfg.Workers}
	learned := beam.ParDo(s, learnShard, beam.GroupByKey(s, beam.ParDo(s, fn, pages)))
	// A global combine of nothing is nothing: the empty table makes it one.
	empty := beam.ParDo(s, emptyTable, beam.Impulse(s))
	merged := beam.Combine(s, mergeTables, beam.Flatten(s, learned, empty))
	return beam.ParDo2(s, finishTable, merged)
}

// finishTable encodes the learned table and counts its headings.
func finishTable(ctx context.Context, t Table, emit func([]byte), emitCounts func(counters.Counts)) error {
	b, err := t.MarshalBinary()
	if err != nil {
		return err
	}
	emit(b)
	counters.Emit(ctx, counters.Counts{ReferenceSections: int64(t.Len())}, emitCounts)
	return nil
}

// countFn sums the entries of its bundle's pages per heading and emits
// them, a batch per shard of the headings, when the bundle finishes or
// holds MaxBundleHeadings headings.
type countFn struct {
	Citation beam.EncodedFunc // func(string) bool
	Shards   int
	Workers  int

	orderedpool.Owner[[]clean.Page, [][]Entry]
	batch   orderedpool.Batch[clean.Page]
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

func (f *countFn) ProcessElement(p clean.Page, emit func(int, []byte)) error {
	size := 0
	for _, para := range p.Paragraphs {
		size += len(para.Text)
	}
	if full := f.batch.Add(p, size); full != nil {
		return f.Pool().Submit(full, f.deliver(emit))
	}
	return nil
}

func (f *countFn) FinishBundle(emit func(int, []byte)) error {
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
func (f *countFn) deliver(emit func(int, []byte)) func([][]Entry) error {
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

// flush sends the sums, one batch per shard, in shard order.
func (f *countFn) flush(emit func(int, []byte)) {
	batches := make([][]byte, f.Shards)
	for _, e := range f.counter.Take() {
		shard := headingShard(e.Key(), f.Shards)
		batches[shard] = appendEntry(batches[shard], e)
	}
	for shard, b := range batches {
		if b != nil {
			emit(shard, b)
		}
	}
}

// headingShard is the shard of a heading's key.
func headingShard(key string, shards int) int {
	h := fnv.New64a()
	h.Write([]byte(key))
	return shuffle.Shard(h.Sum64(), shards)
}

// learnShard sums the batches of one shard and emits the table of its
// learned headings, if any.
func learnShard(shard int, batches func(*[]byte) bool, emit func(Table)) error {
	var c Counter
	var b []byte
	for batches(&b) {
		err := unmarshalEntries(b, func(e Entry) { c.Add(e) })
		if err != nil {
			return fmt.Errorf("sectionkind: heading counts of shard %d: %w", shard, err)
		}
	}
	if t := Build(c.Take()); t.Len() > 0 {
		emit(*t)
	}
	return nil
}

func emptyTable(_ []byte, emit func(Table)) { emit(Table{}) }

func mergeTables(a, b Table) Table { return *Merge(&a, &b) }

func encodeTable(t Table) ([]byte, error) { return t.MarshalBinary() }

func decodeTable(b []byte) (Table, error) {
	var t Table
	err := t.UnmarshalBinary(b)
	return t, err
}

// errEntries is the error of a damaged batch of entries.
var errEntries = errors.New("damaged heading counts")

// appendEntry appends e to a batch: its key's length and key, then its
// lines, citations, number of pages and pages, as varints.
func appendEntry(b []byte, e Entry) []byte {
	k := e.Key()
	b = binary.AppendUvarint(b, uint64(len(k)))
	b = append(b, k...)
	b = binary.AppendVarint(b, e.Stats.Lines)
	b = binary.AppendVarint(b, e.Stats.Citations)
	b = binary.AppendUvarint(b, uint64(len(e.Stats.Pages)))
	for _, p := range e.Stats.Pages {
		b = binary.AppendVarint(b, p)
	}
	return b
}

// unmarshalEntries calls fn with each entry of a batch (appendEntry's).
func unmarshalEntries(b []byte, fn func(Entry)) error {
	d := varint.NewDecoder(b)
	for d.Len() > 0 {
		wiki, heading := splitKey(d.Text())
		e := Entry{Wiki: wiki, Heading: heading}
		e.Stats.Lines, e.Stats.Citations = d.Varint(), d.Varint()
		n := d.Uvarint()
		if d.Err() != nil || n > MaxPages || e.Stats.Lines < 0 || e.Stats.Citations < 0 || e.Stats.Citations > e.Stats.Lines {
			return errEntries
		}
		if n > 0 {
			e.Stats.Pages = make([]int64, n)
		}
		for i := range e.Stats.Pages {
			e.Stats.Pages[i] = d.Varint()
		}
		if d.Err() != nil {
			return errEntries
		}
		fn(e)
	}
	return nil
}
