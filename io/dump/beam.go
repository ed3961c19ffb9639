package dump

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/batch"
	"github.com/neardup/neardup/transforms/summary"
)

func init() {
	register.DoFn5x1[context.Context, string, func(Page), func(DeadLetter), func(summary.Counts), error](&readFn{})
	register.Emitter1[Page]()
	register.Emitter1[DeadLetter]()
	register.Function1x3(deadLetterLine)
}

// ReadOptions says which pages Read keeps.
type ReadOptions struct {
	Namespaces   []int // namespaces to keep; empty keeps every namespace
	MaxPageBytes int   // see Options.MaxPageBytes
}

// Read reads the dump files named by a PCollection<string> and returns the
// pages it keeps (PCollection<Page>: in one of opt.Namespaces and not
// redirects), the dead letters of what could not be read
// (PCollection<DeadLetter>, including one per truncated file), and partial
// counts (PCollection<summary.Counts>).
func Read(s beam.Scope, files beam.PCollection, opt ReadOptions) (pages, dead, counts beam.PCollection) {
	s = s.Scope("ReadDumps")
	files = beam.Reshuffle(s, files)
	fn := &readFn{Namespaces: opt.Namespaces, MaxPageBytes: opt.MaxPageBytes}
	return beam.ParDo3(s, fn, files)
}

type readFn struct {
	Namespaces   []int
	MaxPageBytes int

	counts summary.Counts
}

func (f *readFn) StartBundle(context.Context, func(Page), func(DeadLetter), func(summary.Counts)) {
	f.counts = summary.Counts{}
}

func (f *readFn) ProcessElement(ctx context.Context, file string, emitPage func(Page), emitDead func(DeadLetter), _ func(summary.Counts)) error {
	rc, err := Open(ctx, file)
	if err != nil {
		return err
	}
	defer rc.Close()
	c := &f.counts
	c.FilesRead++
	r := NewReader(rc, file, Options{MaxPageBytes: f.MaxPageBytes})
	for {
		p, err := r.Next()
		var pageErr *PageError
		var truncErr *TruncatedError
		switch {
		case err == nil:
			c.PagesRead++
			f.keep(p, emitPage)
		case errors.Is(err, io.EOF):
			return nil
		case errors.As(err, &pageErr):
			c.PagesRead++
			c.PagesFailed++
			c.DeadLetters++
			emitDead(pageErr.DeadLetter)
		case errors.As(err, &truncErr):
			c.FilesTruncated++
			c.DeadLetters++
			emitDead(DeadLetter{File: file, Offset: truncErr.Offset, Reason: "truncated: " + truncErr.Err.Error()})
			return nil
		default:
			return fmt.Errorf("dump: reading %s at offset %d: %w", file, r.Offset(), err)
		}
	}
}

func (f *readFn) keep(p Page, emit func(Page)) {
	c := &f.counts
	switch {
	case len(f.Namespaces) > 0 && !slices.Contains(f.Namespaces, p.NS):
		c.PagesSkippedNamespace++
	case p.Redirect != "":
		c.Redirects++
	default:
		c.PagesKept++
		emit(p)
	}
}

func (f *readFn) FinishBundle(ctx context.Context, _ func(Page), _ func(DeadLetter), emitCounts func(summary.Counts)) {
	if !f.counts.IsZero() {
		summary.Report(ctx, f.counts)
		emitCounts(f.counts)
	}
}

// DeadLetterLines turns PCollection<DeadLetter> into JSON lines for
// result.Write, all in shard 0, sorted by offset, then by content.
func DeadLetterLines(s beam.Scope, dead beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("DeadLetterLines"), deadLetterLine, dead)
}

func deadLetterLine(d DeadLetter) (int, []byte, error) {
	line, err := result.JSONLine(d)
	if err != nil {
		return 0, nil, err
	}
	return 0, batch.AppendRecord(nil, result.Record(uint64(d.Offset), line)), nil
}
