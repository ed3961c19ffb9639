package warc

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/io/text"
)

// Source is a WARC file, or a split of one, as the read stage plans it: it
// owns the records that start at an offset in [Start, End).
type Source struct {
	File string
	Size int64
	// Corpus is the corpus's name, stamped on its documents as
	// document.Page.Wiki: text.CorpusName(File).
	Corpus string
	// Members says the file is gzip-compressed a record per gzip member,
	// as Common Crawl ships WARC files: it is read as raw bytes, member by
	// member, and offsets are those of the members in the file. Otherwise
	// the file is read as dump.Open decompresses it, and offsets are those
	// of the decompressed stream (the file's own for an uncompressed
	// file).
	Members bool
	// Start and End bound the offsets of the records the Source owns; End
	// 0 means the end of the file. Only a Members or uncompressed file
	// can be split; others have Start 0.
	Start, End int64
	// Aligned says a record starts at Start (0, or an offset a CDX index
	// lists). Otherwise the reader looks for the first record start at or
	// after Start.
	Aligned bool
}

// Plan returns the Sources of a run's WARC files: one per file, or, for a
// file that can be split (gzip per record, or uncompressed) and is larger
// than splitBytes (0: no splitting), one per split. cdx maps a WARC file to
// its CDX or CDXJ index, if it has one: splits are then cut at the record
// offsets the index lists, so that no split needs to look for its first
// record. Two files whose corpus names are the same are an error naming
// both: their documents would share ids. So is a directory.
func Plan(ctx context.Context, files []string, splitBytes int64, cdx map[string]string) ([]Source, error) {
	var out []Source
	byCorpus := map[string]string{}
	for _, f := range slices.Sorted(slices.Values(files)) {
		corpus := text.CorpusName(f)
		if other, ok := byCorpus[corpus]; ok {
			return nil, fmt.Errorf("warc: %s and %s are both corpus %q (a WARC file's corpus is named after the file): their ids would mix; rename one", other, f, corpus)
		}
		byCorpus[corpus] = f
		srcs, err := planFile(ctx, f, corpus, splitBytes, cdx[f])
		if err != nil {
			return nil, err
		}
		out = append(out, srcs...)
	}
	return out, nil
}

// planFile returns the Sources of one file.
func planFile(ctx context.Context, file, corpus string, splitBytes int64, index string) ([]Source, error) {
	size, err := fileSize(ctx, file)
	if err != nil {
		return nil, err
	}
	whole := Source{File: file, Size: size, Corpus: corpus, Aligned: true}
	switch ext := path.Ext(file); {
	case ext == ".gz":
		if whole.Members, err = probeMembers(ctx, file); err != nil {
			return nil, err
		}
		if !whole.Members {
			return []Source{whole}, nil
		}
	case ext == ".bz2" || ext == ".xz" || ext == ".zst":
		return []Source{whole}, nil
	}
	if index != "" {
		offsets, err := IndexOffsets(ctx, index, file)
		if err != nil {
			return nil, err
		}
		return cutAt(whole, offsets, splitBytes), nil
	}
	return cutEvery(whole, splitBytes), nil
}

// cutEvery cuts src into splits of splitBytes bytes.
func cutEvery(src Source, splitBytes int64) []Source {
	if splitBytes <= 0 || src.Size <= splitBytes {
		return []Source{src}
	}
	var out []Source
	for start := int64(0); start < src.Size; start += splitBytes {
		s := src
		s.Start, s.End, s.Aligned = start, start+splitBytes, start == 0
		if s.End >= src.Size {
			s.End = 0
		}
		out = append(out, s)
	}
	return out
}

// cutAt cuts src at record offsets, sorted, into splits of at least
// splitBytes bytes.
func cutAt(src Source, offsets []int64, splitBytes int64) []Source {
	if splitBytes <= 0 {
		return []Source{src}
	}
	var out []Source
	cur := src // Start 0, Aligned
	for _, o := range offsets {
		if o-cur.Start >= splitBytes && o < src.Size {
			cur.End = o
			out = append(out, cur)
			cur.Start, cur.End = o, 0
		}
	}
	return append(out, cur)
}

// probeMembers says whether the .gz file holds a record per gzip member:
// whether its first member holds one record and nothing more. It reads
// only that record.
func probeMembers(ctx context.Context, file string) (bool, error) {
	rc, err := dump.OpenAt(ctx, file, 0)
	if err != nil {
		return false, err
	}
	defer rc.Close()
	var in buffer
	in.reset(rc, 0)
	if !isMemberStart(in.peek(memberPeek)) {
		return false, nil
	}
	zr, err := gzip.NewReader(countingReader{&in})
	if err != nil {
		return false, nil
	}
	zr.Multistream(false)
	var m buffer
	m.reset(zr, 0)
	h, err := parseHeader(m.peek(maxHeaderBytes), m.err != nil)
	if err != nil {
		return false, nil
	}
	m.discard(h.size)
	if m.skip(h.length) < h.length {
		return false, nil
	}
	return m.skipSpace() && m.err == io.EOF, nil
}

// fileSize returns the size of file through Beam's filesystem layer; a
// local directory is an error naming it.
func fileSize(ctx context.Context, file string) (int64, error) {
	if !strings.Contains(file, "://") {
		if info, err := os.Stat(file); err == nil && info.IsDir() {
			return 0, fmt.Errorf("warc: input %s is a directory, not a file", file)
		}
	}
	fs, err := filesystem.New(ctx, file)
	if err != nil {
		return 0, fmt.Errorf("warc: no filesystem for %s: %w", file, err)
	}
	defer fs.Close()
	size, err := fs.Size(ctx, file)
	if err != nil {
		return 0, fmt.Errorf("warc: size of %s: %w", file, err)
	}
	return size, nil
}

// maxIndexLine bounds a line of a CDX index.
const maxIndexLine = 1 << 20

// IndexOffsets returns the sorted, unique offsets of the records of the
// WARC file warc that the CDX index at index lists (possibly compressed,
// as dump.Open decompresses it). It reads CDXJ, Common Crawl's format
// ("urlkey timestamp {json}" with "offset" and "filename"), and classic
// space-separated CDX, whose " CDX" header line names the columns (V: the
// compressed offset, v: the uncompressed one, g: the file name). Lines of
// other files, by the base name of "filename" or g, are skipped; lines that
// name none are taken for warc's. A line that gives no offset is an error
// naming the index and the line.
func IndexOffsets(ctx context.Context, index, warc string) ([]int64, error) {
	rc, err := dump.Open(ctx, index)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	sc := bufio.NewScanner(rc)
	sc.Buffer(make([]byte, 64<<10), maxIndexLine)
	var p cdxParser
	var out []int64
	for line := 1; sc.Scan(); line++ {
		off, file, ok, err := p.line(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("warc: index %s line %d: %w", index, line, err)
		}
		if ok && (file == "" || path.Base(file) == path.Base(warc)) {
			out = append(out, off)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("warc: reading index %s: %w", index, err)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// cdxParser parses the lines of a CDX or CDXJ index.
type cdxParser struct {
	offsetCol, fileCol int // columns of classic CDX, from its header; -1: none
	classic            bool
}

// line parses one line: ok is false for a header or blank line.
func (p *cdxParser) line(s string) (off int64, file string, ok bool, err error) {
	s = strings.TrimRight(s, "\r")
	switch {
	case strings.TrimSpace(s) == "":
		return 0, "", false, nil
	case strings.HasPrefix(s, " CDX ") || strings.HasPrefix(s, "CDX "):
		return 0, "", false, p.header(strings.Fields(s)[1:])
	case p.classic:
		cols := strings.Fields(s)
		if p.offsetCol >= len(cols) {
			return 0, "", false, fmt.Errorf("%d columns, the header names %d", len(cols), p.offsetCol+1)
		}
		if p.fileCol >= 0 && p.fileCol < len(cols) {
			file = cols[p.fileCol]
		}
		off, err = parseOffset(cols[p.offsetCol])
		return off, file, err == nil, err
	}
	i := strings.IndexByte(s, '{')
	if i < 0 {
		return 0, "", false, fmt.Errorf("no JSON object (not CDXJ) and no CDX header before")
	}
	var v struct {
		Offset   json.RawMessage `json:"offset"`
		Filename string          `json:"filename"`
	}
	if err := json.Unmarshal([]byte(s[i:]), &v); err != nil {
		return 0, "", false, fmt.Errorf("bad JSON: %w", err)
	}
	off, err = parseOffset(strings.Trim(string(v.Offset), `"`))
	return off, v.Filename, err == nil, err
}

// header reads the column letters of a classic CDX header.
func (p *cdxParser) header(cols []string) error {
	p.classic, p.offsetCol, p.fileCol = true, -1, -1
	for i, c := range cols {
		switch c {
		case "V", "v":
			if p.offsetCol < 0 || c == "V" {
				p.offsetCol = i
			}
		case "g":
			p.fileCol = i
		}
	}
	if p.offsetCol < 0 {
		return fmt.Errorf("the CDX header names no offset column (V or v)")
	}
	return nil
}

// parseOffset parses a record offset.
func parseOffset(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad offset %q", cut(s))
	}
	return n, nil
}

// Open opens the stream of src and returns a Reader of its records, whose
// Close closes the stream. The file's own bytes are read through meter
// when it is not nil.
func Open(ctx context.Context, src Source, opt ReadOptions, meter func(io.Reader) io.Reader) (*Reader, error) {
	var rc io.ReadCloser
	var err error
	if src.Members || src.Start > 0 {
		rc, err = dump.OpenAt(ctx, src.File, StreamOffset(src))
		if err == nil && meter != nil {
			rc = readCloser{meter(rc), rc}
		}
	} else {
		rc, err = dump.OpenMetered(ctx, src.File, 0, meter)
	}
	if err != nil {
		return nil, fmt.Errorf("warc: %w", err)
	}
	r := NewReader(rc, src, opt)
	r.closer = rc
	return r, nil
}

// readCloser reads through one reader and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}
