package dump

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/progress"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/result"
)

func init() {
	register.DoFn6x1[context.Context, *sdf.LockRTracker, Source, func(document.Page), func(document.DeadLetter), func(counters.Counts), error](&readFn{})
	register.Emitter1[document.Page]()
	register.Emitter1[document.DeadLetter]()
	register.Function1x3(deadLetterLine)
	register.Function3x0(splitRedirects)
}

// ReadOptions says which pages Read keeps and how it splits files.
type ReadOptions struct {
	Namespaces   []int // namespaces to keep; empty keeps every namespace
	MaxPageBytes int   // see Options.MaxPageBytes
	// SplitBytes is the size of the byte ranges a splittable plain file is
	// read in, in parallel; 0 reads every file whole.
	SplitBytes int64
	// Workers is how many goroutines decompress the streams of a
	// multistream file at once (0: GOMAXPROCS).
	Workers int
	// Redirects makes Read emit the redirect pages of the namespaces it
	// keeps too, still counted as redirects and not as pages kept: their
	// titles and targets say which names are one page (package alias), and
	// their short texts whether the target is a section of it.
	// SplitRedirects takes them out.
	Redirects bool
}

// Read reads the files of a PCollection<Source> and returns the pages it
// keeps (PCollection<Page>: in one of opt.Namespaces and not redirects), the
// dead letters of what could not be read (PCollection<DeadLetter>,
// including one per truncated file), and partial counts
// (PCollection<counters.Counts>).
//
// Reading is a splittable DoFn over byte offsets: a Splittable file is cut
// into ranges of opt.SplitBytes, each read by seeking to its start and
// keeping the pages whose "<page>" starts inside it (the runner may split
// ranges further while they run); any other file is one indivisible range.
func Read(s beam.Scope, sources beam.PCollection, opt ReadOptions) (pages, dead, counts beam.PCollection) {
	s = s.Scope("ReadDumps")
	return beam.ParDo3(s, &readFn{ReadOptions: opt}, beam.Reshuffle(s, sources))
}

type readFn struct {
	ReadOptions

	counts counters.Counts
	meter  progress.Meter
}

// CreateInitialRestriction is the byte range of a splittable file, or the
// single position 0 of a file read whole.
func (f *readFn) CreateInitialRestriction(src Source) offsetrange.Restriction {
	if src.Splittable {
		return offsetrange.Restriction{Start: 0, End: src.Size}
	}
	return offsetrange.Restriction{Start: 0, End: 1}
}

// SplitRestriction cuts a splittable file into ranges of SplitBytes.
func (f *readFn) SplitRestriction(src Source, rest offsetrange.Restriction) []offsetrange.Restriction {
	if !src.Splittable || f.SplitBytes <= 0 {
		return []offsetrange.Restriction{rest}
	}
	return rest.SizedSplits(f.SplitBytes)
}

// RestrictionSize weighs a restriction by the bytes it covers.
func (f *readFn) RestrictionSize(src Source, rest offsetrange.Restriction) float64 {
	if !src.Splittable {
		return float64(src.Size)
	}
	return rest.Size()
}

// CreateTracker tracks claimed page offsets.
func (f *readFn) CreateTracker(rest offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(rest))
}

func (f *readFn) StartBundle(context.Context, func(document.Page), func(document.DeadLetter), func(counters.Counts)) {
	f.counts = counters.Counts{}
}

func (f *readFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, src Source, emitPage func(document.Page), emitDead func(document.DeadLetter), _ func(counters.Counts)) error {
	rest := rt.GetRestriction().(offsetrange.Restriction)
	defer f.meter.Flush(ctx)
	if !src.Splittable {
		if !rt.TryClaim(int64(0)) {
			return nil
		}
		count := func(int64) bool { f.meter.Page(ctx); return true }
		err := f.read(ctx, src, rest, count, f.meter.Reader, emitPage, emitDead)
		rt.TryClaim(rest.End) // done
		return err
	}
	// A byte range counts the bytes from its start to each page it claims,
	// and at the end to its end, which a split may have moved.
	refused, pos := false, rest.Start
	claim := func(offset int64) bool {
		refused = !rt.TryClaim(offset)
		if !refused {
			f.meter.Add(ctx, 1, offset-pos)
			pos = offset
		}
		return !refused
	}
	if err := f.read(ctx, src, rest, claim, nil, emitPage, emitDead); err != nil {
		return err
	}
	if !refused {
		rt.TryClaim(rest.End) // the file ended inside the range: done
	}
	f.meter.Add(ctx, 0, max(0, rt.GetRestriction().(offsetrange.Restriction).End-pos))
	return rt.GetError()
}

// read reads the pages of src's file from rest.Start (0 for a whole file),
// and stops at the first record whose offset claim refuses. The file's
// bytes are read through meter, if not nil.
func (f *readFn) read(ctx context.Context, src Source, rest offsetrange.Restriction, claim func(int64) bool, meter func(io.Reader) io.Reader, emitPage func(document.Page), emitDead func(document.DeadLetter)) error {
	file := src.File
	rc, err := OpenMetered(ctx, file, rest.Start, meter)
	if err != nil {
		return err
	}
	defer rc.Close()
	if rest.Start == 0 {
		f.counts.FilesRead++
	}
	r := NewReader(rc, file, Options{MaxPageBytes: f.MaxPageBytes, StartOffset: rest.Start, FileStart: rest.Start == 0,
		Namespaces: NamespaceKeys(src.Namespaces)})
	notDumps := f.counts.FilesNotDumps
	err = Drain(r, file, Filter{Namespaces: f.Namespaces, Wiki: src.Wiki, Redirects: f.Redirects}, claim, &f.counts, emitPage, emitDead)
	if f.counts.FilesNotDumps > notDumps {
		log.Warnf(ctx, "dump: %s holds no page: it does not look like a MediaWiki XML dump (see the dead letters)", file)
	}
	return err
}

// Filter says which pages are kept: those in one of Namespaces (all if
// empty) that are not redirects. Kept pages are stamped with Wiki. With
// Redirects, the redirect pages of those namespaces are emitted too,
// stamped, but counted as redirects only.
type Filter struct {
	Namespaces []int
	Wiki       string
	Redirects  bool
}

// Drain reads r to its end, counting into c every page it reads: it emits
// the pages f keeps and a dead letter for each bad page (a page cut by a
// truncation is one), for a truncation and for a file that is not a dump. claim is asked for each record's offset first, and reading
// stops, without error, at the first record it refuses. A truncation ends
// the reading without error; an I/O error is returned.
func Drain(r *Reader, file string, f Filter, claim func(int64) bool, c *counters.Counts, emitPage func(document.Page), emitDead func(document.DeadLetter)) error {
	for {
		p, err := r.Next()
		var pageErr *PageError
		var truncErr *TruncatedError
		var notDump *NotDumpError
		switch {
		case err == nil:
			if !claim(p.Offset) {
				return nil
			}
			c.PagesRead++
			f.keep(p, c, emitPage)
		case errors.Is(err, io.EOF):
			return nil
		case errors.As(err, &pageErr):
			if !claim(pageErr.DeadLetter.Offset) {
				return nil
			}
			c.PagesRead++
			c.PagesFailed++
			c.DeadLetters++
			emitDead(pageErr.DeadLetter)
		case errors.As(err, &truncErr):
			if truncErr.PageCut {
				// The cut page is a page read and failed, with what can be
				// recovered of it; the file's truncation is counted too.
				if !claim(truncErr.Offset) {
					return nil // the page, and the truncation, belong to a later range
				}
				c.PagesRead++
				c.PagesFailed++
				c.DeadLetters++
				emitDead(document.DeadLetter{File: file, Offset: truncErr.Offset, PageID: truncErr.PageID, Title: truncErr.Title,
					Reason: "truncated: page cut: " + truncErr.Err.Error()})
			}
			c.FilesTruncated++
			c.DeadLetters++
			emitDead(document.DeadLetter{File: file, Offset: truncErr.Offset, Reason: "truncated: " + truncErr.Err.Error()})
			return nil
		case errors.As(err, &notDump):
			if !claim(0) {
				return nil
			}
			c.FilesNotDumps++
			c.DeadLetters++
			emitDead(document.DeadLetter{File: file, Reason: notDump.Error()})
			return nil
		default:
			return fmt.Errorf("dump: reading %s at offset %d: %w", file, r.Offset(), err)
		}
	}
}

func (f Filter) keep(p document.Page, c *counters.Counts, emit func(document.Page)) {
	switch {
	case len(f.Namespaces) > 0 && !slices.Contains(f.Namespaces, p.NS):
		c.PagesSkippedNamespace++
	case p.Redirect != "":
		c.Redirects++
		if f.Redirects {
			p.Wiki = f.Wiki
			emit(p)
		}
	default:
		c.PagesKept++
		p.Wiki = f.Wiki
		emit(p)
	}
}

func (f *readFn) FinishBundle(ctx context.Context, _ func(document.Page), _ func(document.DeadLetter), emitCounts func(counters.Counts)) {
	counters.Emit(ctx, f.counts, emitCounts)
}

// SplitRedirects splits the pages Read returns with ReadOptions.Redirects
// (PCollection<Page>) into the pages that are not redirects and the
// redirect pages.
func SplitRedirects(s beam.Scope, pages beam.PCollection) (articles, redirects beam.PCollection) {
	return beam.ParDo2(s.Scope("SplitRedirects"), splitRedirects, pages)
}

func splitRedirects(p document.Page, article, redirect func(document.Page)) {
	if p.Redirect != "" {
		redirect(p)
		return
	}
	article(p)
}

// DeadLetterLines turns PCollection<DeadLetter> into JSON lines for
// result.Write, all in shard 0, sorted by offset, then by content.
func DeadLetterLines(s beam.Scope, dead beam.PCollection) shuffle.Lines {
	return shuffle.MakeLines(beam.ParDo(s.Scope("DeadLetterLines"), deadLetterLine, dead))
}

func deadLetterLine(d document.DeadLetter) (int, []byte, error) {
	line, err := result.JSONLine(d)
	if err != nil {
		return 0, nil, err
	}
	return 0, shuffle.KindLines.PackRecords(result.Record(uint64(d.Offset), line)), nil
}
