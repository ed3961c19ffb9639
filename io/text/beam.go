package text

import (
	"context"
	"errors"
	"io"
	"strings"
	"unicode"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/progress"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
)

func init() {
	register.DoFn5x1[context.Context, Source, func(document.Page), func(document.DeadLetter), func(counters.Counts), error](&readFn{})
	register.Emitter1[document.Page]()
	register.Emitter1[document.DeadLetter]()
	register.Emitter1[counters.Counts]()
}

// ReadOptions says how Read reads documents.
type ReadOptions struct {
	// MaxDocBytes bounds a JSON line and a plain-text file: a larger one
	// is dead-lettered, never buffered whole (0:
	// dump.DefaultMaxPageBytes).
	MaxDocBytes int
}

// Read reads the files of a PCollection<Source>, each whole by one worker,
// and returns, as dump.Read does, the documents with text
// (PCollection<document.Page>, marked Plain, stamped with their corpus as
// Wiki), the dead letters of what could not be read
// (PCollection<document.DeadLetter>, one per bad line or file, one per
// truncated file) and partial counts (PCollection<counters.Counts>): files
// read and truncated, documents read, kept, empty and failed, dead
// letters.
func Read(s beam.Scope, sources beam.PCollection, opt ReadOptions) (pages, dead, counts beam.PCollection) {
	s = s.Scope("ReadText")
	return beam.ParDo3(s, &readFn{ReadOptions: opt}, beam.Reshuffle(s, sources))
}

type readFn struct {
	ReadOptions

	counts counters.Counts
	meter  progress.Meter
}

func (f *readFn) StartBundle(context.Context, func(document.Page), func(document.DeadLetter), func(counters.Counts)) {
	f.counts = counters.Counts{}
}

func (f *readFn) ProcessElement(ctx context.Context, src Source, emitPage func(document.Page), emitDead func(document.DeadLetter), _ func(counters.Counts)) error {
	defer f.meter.Flush(ctx)
	rc, err := dump.OpenMetered(ctx, src.File, 0, f.meter.Reader)
	if err != nil {
		return err
	}
	defer rc.Close()
	empty := f.counts.PagesEmpty
	err = Drain(rc, src, f.MaxDocBytes, &f.counts,
		func(p document.Page) { f.meter.Page(ctx); emitPage(p) },
		func(d document.DeadLetter) { f.meter.Page(ctx); emitDead(d) })
	f.meter.Add(ctx, f.counts.PagesEmpty-empty, 0) // read, not emitted
	return err
}

func (f *readFn) FinishBundle(ctx context.Context, _ func(document.Page), _ func(document.DeadLetter), emitCounts func(counters.Counts)) {
	counters.Emit(ctx, f.counts, emitCounts)
}

// Drain reads the documents of src from r, its opened stream, to its end,
// counting into c the file and every document it reads: it emits the
// documents whose text is not blank (stamped with src.Corpus as Wiki), and
// a dead letter for each bad document, for a cut one and for the
// truncation. A truncation ends the reading without error; an I/O error is
// returned.
func Drain(r io.Reader, src Source, maxDocBytes int, c *counters.Counts, emit func(document.Page), emitDead func(document.DeadLetter)) error {
	c.FilesRead++
	next := plainNext(r, src, maxDocBytes)
	if !src.Plain {
		next = NewJSONLReader(r, src.File, maxDocBytes).Next
	}
	for {
		p, err := next()
		var bad *DocError
		var cut *TruncatedError
		switch {
		case err == nil:
			c.PagesRead++
			if strings.TrimFunc(p.Text, unicode.IsSpace) == "" {
				c.PagesEmpty++
				continue
			}
			c.PagesKept++
			p.Wiki = src.Corpus
			emit(p)
		case errors.Is(err, io.EOF):
			return nil
		case errors.As(err, &bad):
			c.PagesRead++
			c.PagesFailed++
			c.DeadLetters++
			emitDead(bad.DeadLetter)
		case errors.As(err, &cut):
			if cut.Cut {
				// The cut document is a document read and failed; the
				// file's truncation is counted too.
				c.PagesRead++
				c.PagesFailed++
				c.DeadLetters++
				emitDead(document.DeadLetter{File: src.File, Offset: cut.Offset, Line: cut.Line,
					Reason: "truncated: document cut: " + cut.Err.Error()})
			}
			c.FilesTruncated++
			c.DeadLetters++
			emitDead(document.DeadLetter{File: src.File, Offset: cut.Offset, Reason: "truncated: " + cut.Err.Error()})
			return nil
		default:
			return err
		}
	}
}

// plainNext returns a function that returns the one document of a
// plain-text file, then io.EOF.
func plainNext(r io.Reader, src Source, maxDocBytes int) func() (document.Page, error) {
	done := false
	return func() (document.Page, error) {
		if done {
			return document.Page{}, io.EOF
		}
		done = true
		return ReadPlain(r, src, maxDocBytes)
	}
}
