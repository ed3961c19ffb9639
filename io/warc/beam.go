package warc

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
)

func init() {
	register.DoFn5x1[context.Context, Source, func(document.Page), func(document.DeadLetter), func(counters.Counts), error](&readFn{})
	register.Emitter1[document.Page]()
	register.Emitter1[document.DeadLetter]()
	register.Emitter1[counters.Counts]()
}

// Read reads the WARC files and splits of a PCollection<Source> (Plan), each
// by one worker, and returns, as text.Read does, the documents with text
// (PCollection<document.Page>, marked Plain, stamped with their corpus as
// Wiki), the dead letters of what could not be read
// (PCollection<document.DeadLetter>) and partial counts
// (PCollection<counters.Counts>): files read and truncated, documents read,
// kept, empty and failed, dead letters, and the records by kind (Web).
func Read(s beam.Scope, sources beam.PCollection, opt ReadOptions) (pages, dead, counts beam.PCollection) {
	s = s.Scope("ReadWARC")
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
	r, err := Open(ctx, src, f.ReadOptions, f.meter.Reader)
	if err != nil {
		return err
	}
	defer r.Close()
	empty := f.counts.PagesEmpty
	err = Drain(r, src, &f.counts,
		func(p document.Page) { f.meter.Page(ctx); emitPage(p) },
		func(d document.DeadLetter) { f.meter.Page(ctx); emitDead(d) })
	f.meter.Add(ctx, f.counts.PagesEmpty-empty, 0) // read, not emitted
	return err
}

func (f *readFn) FinishBundle(ctx context.Context, _ func(document.Page), _ func(document.DeadLetter), emitCounts func(counters.Counts)) {
	counters.Emit(ctx, f.counts, emitCounts)
}

// Drain reads the records of src from r to the end of the file or split,
// counting into c the file (once, for the split that starts it), every
// record and every document: it emits the documents whose text is not
// blank, stamped with src.Corpus as Wiki, and a dead letter for each bad
// record or document and for the truncation. Every dead letter is counted
// in DeadLetters and in one of Web.BadRecords, Web.TooLarge, PagesFailed
// (a document that could not be made) and FilesTruncated. A truncation
// ends the reading without error; an I/O error is returned.
func Drain(r *Reader, src Source, c *counters.Counts, emit func(document.Page), emitDead func(document.DeadLetter)) error {
	if src.Start == 0 {
		c.FilesRead++
	}
	conv := converter{file: src.File, max: r.max, web: &c.Web}
	dead := func(d document.DeadLetter) {
		c.DeadLetters++
		emitDead(d)
	}
	defer func(skipped int64) { c.Web.SkippedBytes += r.Skipped() - skipped }(r.Skipped())
	for {
		rec, off, err := r.Next()
		var bad *RecordError
		var cut *TruncatedError
		switch {
		case err == nil:
			c.Web.Records++
			emitDocument(&conv, rec, off, src, c, emit, dead)
		case errors.Is(err, io.EOF):
			return nil
		case errors.As(err, &bad):
			if bad.TooLarge {
				c.Web.TooLarge++
			} else {
				c.Web.BadRecords++
			}
			dead(bad.DeadLetter)
		case errors.As(err, &cut):
			c.FilesTruncated++
			dead(document.DeadLetter{File: src.File, Offset: cut.Offset, Reason: "truncated: " + cut.Err.Error()})
			return nil
		default:
			return err
		}
	}
}

// emitDocument makes the document of a record read whole, and counts it.
func emitDocument(conv *converter, rec Record, off int64, src Source, c *counters.Counts, emit func(document.Page), dead func(document.DeadLetter)) {
	p, why, err := conv.document(rec, off)
	var derr *docError
	switch {
	case errors.As(err, &derr):
		switch {
		case derr.bad:
			c.Web.BadRecords++
		case derr.tooLarge:
			c.Web.TooLarge++
		default:
			c.PagesRead++
			c.PagesFailed++
		}
		dead(document.DeadLetter{File: src.File, Offset: off, Reason: rec.Type + " record: " + derr.reason})
		return
	case why == otherRecord:
		c.Web.OtherRecords++
		return
	case why == notOK:
		c.Web.NotOK++
		return
	case why == notHTML:
		c.Web.NotHTML++
		return
	}
	c.PagesRead++
	if rec.Type == "response" {
		c.Web.HTMLPages++
	} else {
		c.Web.Conversions++
	}
	c.Web.TextBytes += int64(len(p.Text))
	if strings.TrimFunc(p.Text, unicode.IsSpace) == "" {
		c.PagesEmpty++
		if rec.Type == "response" {
			c.Web.NoContent++
		}
		return
	}
	c.PagesKept++
	p.Wiki = src.Corpus
	emit(p)
}
