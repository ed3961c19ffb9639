package multistream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/orderedpool"
	"github.com/neardup/neardup/internal/progress"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
)

func init() {
	register.DoFn6x1[context.Context, *sdf.LockRTracker, Source, func(document.Page), func(document.DeadLetter), func(counters.Counts), error](&readFn{})
}

// Source is a multistream dump and its index.
type Source struct {
	File  string // …-pages-articles-multistream.xml.bz2
	Index string // …-pages-articles-multistream-index.txt.bz2
	Size  int64  // bytes of File
	// IndexSize is the bytes of Index.
	IndexSize int64
	// Wiki is the wiki's name, stamped on the file's pages (document.Site.Wiki).
	Wiki string
}

// IndexName is the name Wikimedia gives the index of a multistream dump,
// or "" if file is not named like one: the whole dump
// (…-pages-articles-multistream.xml.bz2, index
// …-pages-articles-multistream-index.txt.bz2) or one part of a split one
// (…-pages-articles-multistream3.xml-p151574p311329.bz2, index
// …-pages-articles-multistream-index3.txt-p151574p311329.bz2).
func IndexName(file string) string {
	const dumpSuffix = "multistream.xml.bz2"
	if strings.HasSuffix(file, dumpSuffix) {
		return strings.TrimSuffix(file, dumpSuffix) + "multistream-index.txt.bz2"
	}
	if m := partName.FindStringSubmatch(file); m != nil {
		return m[1] + "multistream-index" + m[2] + ".txt-" + m[3] + ".bz2"
	}
	return ""
}

// partName matches the name of one part of a split multistream dump.
var partName = regexp.MustCompile(`^(.*)multistream([0-9]+)\.xml-(p[0-9]+p[0-9]+)\.bz2$`)

// Read reads multistream dumps (PCollection<Source>) in parallel: a
// splittable DoFn over the compressed byte offsets of each file, whose
// ranges of opt.SplitBytes each read the bzip2 streams that start inside
// them (~100 pages each), found in the index. It returns pages, dead letters
// and counts as dump.Read does. Dead-letter offsets count decompressed bytes
// from the start of their stream, whose compressed offset the reason gives.
func Read(s beam.Scope, sources beam.PCollection, opt dump.ReadOptions) (pages, dead, counts beam.PCollection) {
	s = s.Scope("ReadMultistream")
	return beam.ParDo3(s, &readFn{ReadOptions: opt}, beam.Reshuffle(s, sources))
}

type readFn struct {
	dump.ReadOptions

	// bufferBytes bounds the bytes of pages held by the streams in flight
	// in the pool; 0 means defaultBufferBytes. A field for the tests.
	bufferBytes int64

	index  map[string][]Range // ranges of each file read by this worker
	counts counters.Counts
	meter  progress.Meter
}

// defaultBufferBytes bounds the bytes of pages (their text, titles and
// dead letters) that the streams decompressed ahead of the emitting
// goroutine hold at once. Each of the pool's streams gets an equal share; a
// stream whose pages exceed it is not buffered but read again, page by
// page, by the emitting goroutine (see readStream), so that a stream of
// 120 pages of 50 MB costs a few pages' worth of memory, not 6 GB.
const defaultBufferBytes = 256 << 20

// CreateInitialRestriction is the compressed byte range of the file.
func (f *readFn) CreateInitialRestriction(src Source) offsetrange.Restriction {
	return offsetrange.Restriction{Start: 0, End: max(src.Size, 1)}
}

// SplitRestriction cuts the file into ranges of SplitBytes.
func (f *readFn) SplitRestriction(_ Source, rest offsetrange.Restriction) []offsetrange.Restriction {
	if f.SplitBytes <= 0 {
		return []offsetrange.Restriction{rest}
	}
	return rest.SizedSplits(f.SplitBytes)
}

// RestrictionSize weighs a restriction by the compressed bytes it covers.
func (f *readFn) RestrictionSize(_ Source, rest offsetrange.Restriction) float64 {
	return rest.Size()
}

// CreateTracker tracks claimed stream offsets.
func (f *readFn) CreateTracker(rest offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(rest))
}

func (f *readFn) StartBundle(context.Context, func(document.Page), func(document.DeadLetter), func(counters.Counts)) {
	f.counts = counters.Counts{}
}

func (f *readFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, src Source, emitPage func(document.Page), emitDead func(document.DeadLetter), _ func(counters.Counts)) error {
	rest := rt.GetRestriction().(offsetrange.Restriction)
	ranges, err := f.ranges(ctx, src)
	if err != nil {
		return err
	}
	ra, err := dump.OpenReaderAt(ctx, src.File)
	if err != nil {
		return fmt.Errorf("multistream: %w", err)
	}
	defer ra.Close()
	if rest.Start == 0 {
		f.counts.FilesRead++
	}
	claim := func(off int64) bool { return rt.TryClaim(off) }
	defer f.meter.Flush(ctx)
	err = f.read(ctx, ra, src, ranges, rest, claim, emitPage, emitDead)
	switch {
	case errors.Is(err, errRefused):
		return rt.GetError()
	case err != nil:
		return err
	}
	rt.TryClaim(rest.End) // no stream starts in the rest of the restriction: done
	return rt.GetError()
}

// read reads the streams of ranges that start in rest, claiming each
// stream's offset before emitting its pages. It returns errRefused when a
// claim is refused, and an error naming the index and the file when a
// stream does not start where the index says.
func (f *readFn) read(ctx context.Context, ra io.ReaderAt, src Source, ranges []Range, rest offsetrange.Restriction, claim func(int64) bool, emitPage func(document.Page), emitDead func(document.DeadLetter)) error {
	remote := strings.HasPrefix(src.File, "gs://")
	filter := dump.Filter{Namespaces: f.Namespaces, Wiki: src.Wiki, Redirects: f.Redirects}
	if rest.Start == 0 && len(ranges) > 0 && ranges[0].Pages == 0 {
		// The header stream, which no worker decompresses, must be one.
		if err := checkMagic(ra, ranges[0].Start); err != nil {
			return notDescribed(src, err)
		}
		f.meter.Add(ctx, 0, ranges[0].Size()) // read by the header's parser at planning
	}
	// The streams are decompressed and parsed on f.Workers cores, a few ahead of
	// the claims, and emitted in file order: a stream whose claim is refused
	// (the runner split the restriction) is dropped unseen. Each holds at
	// most its share of the buffer budget; one that would hold more is read
	// again here, its pages emitted as they are parsed.
	workers := f.Workers
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	budget := f.bufferBytes
	if budget <= 0 {
		budget = defaultBufferBytes
	}
	share := max(budget/int64(workers+1), 1) // workers in flight and one being emitted
	pool := orderedpool.New(workers, workers, func() func(Range) (*stream, error) {
		var d Decoder
		return func(rg Range) (*stream, error) {
			return readStream(&d, ra, remote, rg, src.File, filter, f.MaxPageBytes, share)
		}
	})
	defer pool.Close()
	var own *Decoder // the emitting goroutine's, for the streams over their share
	deliver := func(st *stream) error {
		if !claim(st.rg.Start) {
			return errRefused
		}
		f.meter.Add(ctx, st.rg.Pages, st.rg.Size())
		if st.over {
			if own == nil {
				own = new(Decoder)
			}
			r := own.ReadRange(st.ra, st.rg, src.File, dump.Options{MaxPageBytes: f.MaxPageBytes})
			all := func(int64) bool { return true }
			return dump.Drain(r, src.File, filter, all, &f.counts, emitPage, streamDead(st.rg, emitDead))
		}
		f.counts.Merge(st.counts)
		for _, p := range st.pages {
			emitPage(p)
		}
		for _, d := range st.dead {
			emitDead(d)
		}
		return nil
	}
	var err error
	for _, rg := range ranges {
		if rg.Start < rest.Start || rg.Pages == 0 {
			continue // before this restriction, or the header stream
		}
		if rg.Start >= rest.End {
			break
		}
		if err = pool.Submit(rg, deliver); err != nil {
			break
		}
	}
	if err == nil {
		err = pool.Flush(deliver)
	}
	var nm *notStreamError
	if errors.As(err, &nm) {
		return notDescribed(src, err)
	}
	return err
}

// fetched is a byte range of a file held in memory, read at the file's
// offsets.
type fetched struct {
	b     []byte
	start int64
}

func (f *fetched) ReadAt(p []byte, off int64) (int, error) {
	i := off - f.start
	if i < 0 || i > int64(len(f.b)) {
		return 0, fmt.Errorf("multistream: read at %d outside the fetched bytes [%d, %d)", off, f.start, f.start+int64(len(f.b)))
	}
	n := copy(p, f.b[i:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// errRefused stops reading where the tracker refuses a claim.
var errRefused = errors.New("multistream: claim refused")

// stream is what one bzip2 stream held.
type stream struct {
	rg     Range
	pages  []document.Page
	dead   []document.DeadLetter
	counts counters.Counts
	// over says that the pages exceeded the stream's share of the buffer:
	// pages, dead and counts are empty, and the stream is to be read again
	// from ra while its pages are emitted.
	over bool
	ra   io.ReaderAt
}

// maxPrefetch bounds the compressed bytes of a stream that readStream
// fetches from a remote file in one request; a larger stream is read in
// 64 KiB requests.
const maxPrefetch = 64 << 20

// readStream decompresses and parses the stream rg of file, keeping at most
// about share bytes of its pages: past that (counting the page that crosses
// it), it gives up and returns the stream marked over, to be read again by
// the emitting goroutine. A stream that does not start with the bzip2 magic
// is a *notStreamError. From a remote file (remote: each ReadAt is a
// request) the stream's bytes are fetched at once.
func readStream(d *Decoder, ra io.ReaderAt, remote bool, rg Range, file string, filter dump.Filter, maxPageBytes int, share int64) (*stream, error) {
	st := &stream{rg: rg}
	if remote && rg.Size() > 0 && rg.Size() <= maxPrefetch {
		b := make([]byte, rg.Size())
		n, err := ra.ReadAt(b, rg.Start)
		if err != nil && err != io.EOF {
			return nil, err
		}
		ra = &fetched{b: b[:n], start: rg.Start}
	}
	if err := checkMagic(ra, rg.Start); err != nil {
		return nil, err
	}
	r := d.ReadRange(ra, rg, file, dump.Options{MaxPageBytes: maxPageBytes})
	var held int64
	keep := func(p document.Page) {
		held += pageBytes(p)
		st.pages = append(st.pages, p)
	}
	dead := streamDead(rg, func(dl document.DeadLetter) {
		held += deadBytes(dl)
		st.dead = append(st.dead, dl)
	})
	within := func(int64) bool {
		st.over = held >= share
		return !st.over
	}
	if err := dump.Drain(r, file, filter, within, &st.counts, keep, dead); err != nil {
		return nil, err
	}
	if st.over {
		return &stream{rg: rg, over: true, ra: ra}, nil
	}
	return st, nil
}

// streamDead returns emit with the stream's offset added to each dead
// letter's reason.
func streamDead(rg Range, emit func(document.DeadLetter)) func(document.DeadLetter) {
	return func(dl document.DeadLetter) {
		dl.Reason = fmt.Sprintf("in the bzip2 stream at byte %d: %s", rg.Start, dl.Reason)
		emit(dl)
	}
}

// pageBytes is about the memory a page holds.
func pageBytes(p document.Page) int64 {
	return int64(len(p.Text) + len(p.Title) + len(p.Redirect) + len(p.File) + len(p.Wiki) + 128)
}

// deadBytes is about the memory a dead letter holds.
func deadBytes(d document.DeadLetter) int64 {
	return int64(len(d.File) + len(d.Title) + len(d.Reason) + 64)
}

// notStreamError reports an index offset where no bzip2 stream starts.
type notStreamError struct {
	Offset int64
	Found  []byte // the bytes found there, at most 4
}

func (e *notStreamError) Error() string {
	if len(e.Found) == 0 {
		return fmt.Sprintf("no bzip2 stream starts at byte %d: it is at or past the end of the file", e.Offset)
	}
	return fmt.Sprintf("no bzip2 stream starts at byte %d: found %q, not \"BZh1\"…\"BZh9\"", e.Offset, e.Found)
}

// checkMagic checks that a bzip2 stream starts at offset of ra: "BZh" and a
// block size digit. An I/O error is returned as it is.
func checkMagic(ra io.ReaderAt, offset int64) error {
	var b [4]byte
	n, err := ra.ReadAt(b[:], offset)
	if n == len(b) && bytes.Equal(b[:3], bzip2Magic) && '1' <= b[3] && b[3] <= '9' {
		return nil
	}
	if err != nil && err != io.EOF && n < len(b) {
		return fmt.Errorf("multistream: reading byte %d: %w", offset, err)
	}
	return &notStreamError{Offset: offset, Found: bytes.Clone(b[:n])}
}

// notDescribed reports that the index of src does not describe its file.
func notDescribed(src Source, err error) error {
	return fmt.Errorf("multistream: the index %s does not describe the file %s (a wrong or damaged index?): %w", src.Index, src.File, err)
}

// ranges returns the byte ranges of src's streams, parsing its index the
// first time this worker reads the file.
func (f *readFn) ranges(ctx context.Context, src Source) ([]Range, error) {
	if rgs, ok := f.index[src.File]; ok {
		return rgs, nil
	}
	rc, err := dump.Open(ctx, src.Index)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	streams, err := ParseIndex(rc)
	if err != nil {
		return nil, fmt.Errorf("multistream: index %s: %w", src.Index, err)
	}
	if err := checkStreams(streams, src.Size); err != nil {
		return nil, notDescribed(src, err)
	}
	if f.index == nil {
		f.index = map[string][]Range{}
	}
	f.index[src.File] = Ranges(streams, src.Size)
	return f.index[src.File], nil
}

func (f *readFn) FinishBundle(ctx context.Context, _ func(document.Page), _ func(document.DeadLetter), emitCounts func(counters.Counts)) {
	counters.Emit(ctx, f.counts, emitCounts)
}
