package multistream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/ordered"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/summary"
)

func init() {
	register.DoFn6x1[context.Context, *sdf.LockRTracker, Source, func(dump.Page), func(dump.DeadLetter), func(summary.Counts), error](&readFn{})
}

// Source is a multistream dump and its index.
type Source struct {
	File  string // …-pages-articles-multistream.xml.bz2
	Index string // …-pages-articles-multistream-index.txt.bz2
	Size  int64  // bytes of File
	// IndexSize is the bytes of Index.
	IndexSize int64
	// Wiki is the wiki's name, stamped on the file's pages (dump.Site.Wiki).
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
	fn := &readFn{Namespaces: opt.Namespaces, MaxPageBytes: opt.MaxPageBytes, SplitBytes: opt.SplitBytes}
	return beam.ParDo3(s, fn, beam.Reshuffle(s, sources))
}

type readFn struct {
	Namespaces   []int
	MaxPageBytes int
	SplitBytes   int64

	index  map[string][]Range // ranges of each file read by this worker
	counts summary.Counts
}

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

func (f *readFn) StartBundle(context.Context, func(dump.Page), func(dump.DeadLetter), func(summary.Counts)) {
	f.counts = summary.Counts{}
}

func (f *readFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, src Source, emitPage func(dump.Page), emitDead func(dump.DeadLetter), _ func(summary.Counts)) error {
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
	remote := strings.HasPrefix(src.File, "gs://")
	if rest.Start == 0 {
		f.counts.FilesRead++
	}
	// The streams are decompressed and parsed on every core, a few ahead of
	// the claims, and emitted in file order: a stream whose claim is refused
	// (the runner split the restriction) is dropped unseen.
	pool := ordered.New(0, 0, func() func(Range) (*stream, error) {
		var d Decoder
		filter := dump.Filter{Namespaces: f.Namespaces, Wiki: src.Wiki}
		return func(rg Range) (*stream, error) {
			return readStream(&d, ra, remote, rg, src.File, filter, f.MaxPageBytes)
		}
	})
	defer pool.Close()
	deliver := func(st *stream) error {
		if !rt.TryClaim(st.rg.Start) {
			return errRefused
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
	err = nil
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
	switch {
	case errors.Is(err, errRefused):
		return rt.GetError()
	case err != nil:
		return err
	}
	rt.TryClaim(rest.End) // no stream starts in the rest of the restriction: done
	return rt.GetError()
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
	pages  []dump.Page
	dead   []dump.DeadLetter
	counts summary.Counts
}

// maxPrefetch bounds the compressed bytes of a stream that readStream
// fetches from a remote file in one request; a larger stream is read in
// 64 KiB requests.
const maxPrefetch = 64 << 20

// readStream decompresses and parses the stream rg of file. From a remote
// file (remote: each ReadAt is a request) the stream's bytes are fetched
// at once.
func readStream(d *Decoder, ra io.ReaderAt, remote bool, rg Range, file string, filter dump.Filter, maxPageBytes int) (*stream, error) {
	st := &stream{rg: rg}
	if remote && rg.Size() > 0 && rg.Size() <= maxPrefetch {
		b := make([]byte, rg.Size())
		n, err := ra.ReadAt(b, rg.Start)
		if err != nil && err != io.EOF {
			return nil, err
		}
		ra = &fetched{b: b[:n], start: rg.Start}
	}
	r := d.ReadRange(ra, rg, file, dump.Options{MaxPageBytes: maxPageBytes})
	keep := func(p dump.Page) { st.pages = append(st.pages, p) }
	dead := func(dl dump.DeadLetter) {
		dl.Reason = fmt.Sprintf("in the bzip2 stream at byte %d: %s", rg.Start, dl.Reason)
		st.dead = append(st.dead, dl)
	}
	all := func(int64) bool { return true }
	if err := dump.Drain(r, file, filter, all, &st.counts, keep, dead); err != nil {
		return nil, err
	}
	return st, nil
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
	if f.index == nil {
		f.index = map[string][]Range{}
	}
	f.index[src.File] = Ranges(streams, src.Size)
	return f.index[src.File], nil
}

func (f *readFn) FinishBundle(ctx context.Context, _ func(dump.Page), _ func(dump.DeadLetter), emitCounts func(summary.Counts)) {
	summary.Emit(ctx, f.counts, emitCounts)
}
