// Package multistream reads and writes Wikimedia's multistream bzip2 dumps,
// so that one dump file can be read by many workers at once.
//
// A multistream dump is a concatenation of independent bzip2 streams (a
// header, groups of usually 100 pages, a footer), and its index gives the
// byte offset of the stream that holds each page; so the file splits into
// byte ranges of whole streams that can be read in any order and in
// parallel:
//
//   - ParseIndex lists the streams of an index, with their page counts;
//   - Ranges turns them into byte ranges of the file;
//   - ReadRange decompresses one range and returns its pages through
//     io/dump's Reader, which accepts the bare <page> elements of a stream.
//
// Write builds a multistream file and its index from raw pages as
// Wikimedia's recompressxml does, and Split cuts a dump into the header,
// raw pages and footer that Write takes. The layout: docs/running.md.
package multistream

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/dsnet/compress/bzip2"
)

// Stream is one bzip2 stream of pages, as listed in an index.
type Stream struct {
	Offset      int64 // byte offset of the stream in the .bz2 file
	Pages       int64 // number of index lines (pages) of the stream
	FirstPageID int64 // page id of the stream's first index line
}

// Range is the byte range [Start, End) of a multistream file that holds one
// or more whole bzip2 streams.
type Range struct {
	Start, End  int64
	Pages       int64 // pages listed in the index; 0 for the header
	FirstPageID int64 // page id of the first page, 0 for the header
}

// Size returns the number of bytes of the range.
func (r Range) Size() int64 { return r.End - r.Start }

// maxIndexLine bounds the length of an index line. Titles are at most 255
// bytes before escaping, so real lines are far shorter.
const maxIndexLine = 64 << 10

// bzip2Magic starts every bzip2 stream.
var bzip2Magic = []byte("BZh")

// ParseIndex reads a multistream index and returns its distinct stream
// offsets in file order, each with the number of pages it lists and the id
// of its first page. r holds the index text, or its bzip2 compression as
// Wikimedia publishes it (recognised by the "BZh" magic, which no index
// line starts with). Titles may contain ':' (only the first two separate
// fields) and are not checked; blank lines and a "\r" before "\n" are
// ignored. Offsets must not decrease: an index whose lines are not in file
// order is an error, as is a malformed line.
func ParseIndex(r io.Reader) ([]Stream, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(len(bzip2Magic)); bytes.Equal(magic, bzip2Magic) {
		zr, err := bzip2.NewReader(br, nil)
		if err != nil {
			return nil, fmt.Errorf("multistream: index: %w", err)
		}
		br = bufio.NewReaderSize(&guardedReader{r: zr}, 64<<10)
	}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 4<<10), maxIndexLine)
	var streams []Stream
	for line := 1; sc.Scan(); line++ {
		text := sc.Bytes() // without "\n" or "\r\n"
		if len(text) == 0 {
			continue
		}
		offset, id, err := parseIndexLine(text)
		if err != nil {
			return nil, fmt.Errorf("multistream: index line %d: %w", line, err)
		}
		if streams, err = addPage(streams, offset, id); err != nil {
			return nil, fmt.Errorf("multistream: index line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("multistream: reading index: %w", err)
	}
	return streams, nil
}

// addPage counts one index line of the stream at offset.
func addPage(streams []Stream, offset, id int64) ([]Stream, error) {
	n := len(streams)
	switch {
	case n > 0 && offset == streams[n-1].Offset:
		streams[n-1].Pages++
		return streams, nil
	case n > 0 && offset < streams[n-1].Offset:
		return nil, fmt.Errorf("offset %d comes after offset %d: the index is not in file order", offset, streams[n-1].Offset)
	}
	return append(streams, Stream{Offset: offset, Pages: 1, FirstPageID: id}), nil
}

// parseIndexLine parses "offset:page_id:title".
func parseIndexLine(line []byte) (offset, id int64, err error) {
	offsetField, rest, ok := bytes.Cut(line, []byte(":"))
	idField, _, ok2 := bytes.Cut(rest, []byte(":"))
	if !ok || !ok2 {
		return 0, 0, fmt.Errorf("%q is not offset:page_id:title", truncate(line))
	}
	if offset, ok = parseDigits(offsetField); !ok {
		return 0, 0, fmt.Errorf("offset %q is not a decimal number", truncate(offsetField))
	}
	if id, ok = parseDigits(idField); !ok {
		return 0, 0, fmt.Errorf("page id %q is not a decimal number", truncate(idField))
	}
	return offset, id, nil
}

// parseDigits parses a non-empty run of ASCII digits that fits an int64.
func parseDigits(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (1<<63-1-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// truncate shortens b for an error message.
func truncate(b []byte) []byte {
	const max = 80
	if len(b) > max {
		return b[:max]
	}
	return b
}

// Ranges returns the byte ranges of a multistream file of fileSize bytes
// whose index lists streams (in file order, as ParseIndex returns them).
// The first range is the header stream, [0, first offset), with Pages 0; it
// is left out when the first stream starts at 0. Each stream then runs to
// the next one's offset, and the last to fileSize, so that it also covers
// the stream holding </mediawiki>. The ranges tile [0, fileSize) when every
// offset is at most fileSize; an offset beyond it (an index that does not
// match the file) gives an empty range, which ReadRange reports as
// truncated. Without streams the whole file is one range without pages.
func Ranges(streams []Stream, fileSize int64) []Range {
	fileSize = max(fileSize, 0)
	if len(streams) == 0 {
		if fileSize == 0 {
			return nil
		}
		return []Range{{Start: 0, End: fileSize}}
	}
	ranges := make([]Range, 0, len(streams)+1)
	if first := min(streams[0].Offset, fileSize); first > 0 {
		ranges = append(ranges, Range{Start: 0, End: first})
	}
	for i, s := range streams {
		end := fileSize
		if i+1 < len(streams) {
			end = streams[i+1].Offset
		}
		start := min(max(s.Offset, 0), fileSize)
		end = min(max(end, start), fileSize)
		ranges = append(ranges, Range{Start: start, End: end, Pages: s.Pages, FirstPageID: s.FirstPageID})
	}
	return ranges
}

// checkStreams checks that the streams of an index can be those of a
// multistream file of fileSize bytes: there is at least one, their offsets
// increase and lie inside the file, and the first is after byte 0, where
// the header stream (<mediawiki> and <siteinfo>) must be. Whether a bzip2
// stream starts at each offset is checked when it is read.
func checkStreams(streams []Stream, fileSize int64) error {
	if len(streams) == 0 {
		return errors.New("the index lists no page")
	}
	if streams[0].Offset <= 0 {
		return fmt.Errorf("its first stream is at byte %d, where the header stream must be", streams[0].Offset)
	}
	for i, s := range streams {
		if i > 0 && s.Offset <= streams[i-1].Offset {
			return fmt.Errorf("stream offset %d comes after offset %d", s.Offset, streams[i-1].Offset)
		}
		if s.Offset >= fileSize {
			return fmt.Errorf("stream offset %d (page id %d) is at or past the end of the file, %d bytes", s.Offset, s.FirstPageID, fileSize)
		}
	}
	return nil
}

// guardedReader turns a panic of the decompressor it reads, which would be
// a bug of the decompressor, into an error, so that no input can crash a
// worker.
type guardedReader struct {
	r io.Reader
}

// errDecoderPanic is the cause reported for a panic of the decompressor.
var errDecoderPanic = errors.New("bzip2 decoder panicked")

func (g *guardedReader) Read(p []byte) (n int, err error) {
	defer func() {
		if v := recover(); v != nil {
			n, err = 0, fmt.Errorf("%w: %v", errDecoderPanic, v)
		}
	}()
	return g.r.Read(p)
}
