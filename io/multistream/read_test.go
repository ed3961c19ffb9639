package multistream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
)

// content is what the tests compare of a page: all but its offset, which
// counts from the start of a range.
type content struct {
	ID, RevID   int64
	NS          int
	Title, Text string
	Redirect    string
}

func contentOf(p document.Page) content {
	return content{p.ID, p.RevID, p.NS, p.Title, p.Text, p.Redirect}
}

// readAll reads every page of r and returns them with the error that ended
// the reading (nil for io.EOF). Bad pages fail the test.
func readAll(t testing.TB, r *dump.Reader) ([]content, error) {
	t.Helper()
	var pages []content
	for {
		p, err := r.Next()
		switch {
		case err == io.EOF:
			return pages, nil
		case err != nil:
			var bad *dump.PageError
			if errors.As(err, &bad) {
				t.Fatalf("bad page: %v", err)
			}
			return pages, err
		}
		pages = append(pages, contentOf(p))
	}
}

// smallFile builds a multistream file of n small pages, perStream a stream.
func smallFile(t testing.TB, n, perStream int) (file []byte, ranges []Range, pages []content) {
	t.Helper()
	var raw [][]byte
	for i := 1; i <= n; i++ {
		text := fmt.Sprintf("Page %d says %s.", i, strings.Repeat("something ", i))
		raw = append(raw, []byte(page(i, fmt.Sprintf("P%d", i), text)))
		pages = append(pages, content{ID: int64(i), RevID: int64(1000 + i), Title: fmt.Sprintf("P%d", i), Text: text})
	}
	var buf, index bytes.Buffer
	if err := Write(&buf, &index, raw, []byte(header), []byte(footer), perStream); err != nil {
		t.Fatal(err)
	}
	streams, err := ParseIndex(&index)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), Ranges(streams, int64(buf.Len())), pages
}

func TestReadRange(t *testing.T) {
	file, ranges, want := smallFile(t, 7, 3)
	if len(ranges) != 4 {
		t.Fatalf("ranges %v", ranges)
	}
	ra := bytes.NewReader(file)

	header, err := readAll(t, ReadRange(ra, ranges[0], "f", dump.Options{}))
	if len(header) != 0 || !errors.Is(err, dump.ErrTruncated) {
		t.Errorf("header range: %d pages, error %v; want none and truncation (no </mediawiki>)", len(header), err)
	}
	var got []content
	for _, rg := range ranges[1:] {
		pages, err := readAll(t, ReadRange(ra, rg, "f", dump.Options{}))
		if err != nil {
			t.Fatalf("range %v: %v", rg, err)
		}
		if int64(len(pages)) != rg.Pages || pages[0].ID != rg.FirstPageID {
			t.Errorf("range %v gave %d pages, first %d", rg, len(pages), pages[0].ID)
		}
		got = append(got, pages...)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("pages\n%v\nwant\n%v", got, want)
	}

	merged := Range{Start: ranges[1].Start, End: ranges[3].End}
	all, err := readAll(t, ReadRange(ra, merged, "f", dump.Options{}))
	if err != nil || fmt.Sprint(all) != fmt.Sprint(want) {
		t.Errorf("merged range: %d pages, %v", len(all), err)
	}
}

// TestReadRangeOffsets checks that offsets count from the range's start.
func TestReadRangeOffsets(t *testing.T) {
	file, ranges, _ := smallFile(t, 4, 2)
	r := ReadRange(bytes.NewReader(file), ranges[2], "f", dump.Options{})
	p, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != 3 || p.Offset != 2 || p.File != "f" { // after the page's two-space indentation
		t.Errorf("first page of the range: id %d, offset %d, file %q", p.ID, p.Offset, p.File)
	}
}

// failingReaderAt fails reads at or after offset at.
type failingReaderAt struct {
	r   io.ReaderAt
	at  int64
	err error
}

func (f failingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) <= f.at {
		return f.r.ReadAt(p, off)
	}
	if off >= f.at {
		return 0, f.err
	}
	n, _ := f.r.ReadAt(p[:f.at-off], off)
	return n, f.err
}

func TestReadRangeErrors(t *testing.T) {
	file, ranges, _ := smallFile(t, 6, 3)
	rg := ranges[1]
	boom := errors.New("network down")
	corrupt := bytes.Clone(file)
	corrupt[rg.Start+rg.Size()/2] ^= 0x55

	tests := []struct {
		name      string
		ra        io.ReaderAt
		rg        Range
		truncated bool  // a *dump.TruncatedError caused by a *DecodeError
		is        error // the error matches this too
		pages     int   // pages read before the error
	}{
		{"empty range", bytes.NewReader(file), Range{Start: rg.Start, End: rg.Start}, true, io.ErrUnexpectedEOF, 0},
		// The stream's only block is whole: its pages are read, its end is missing.
		{"stream trailer cut", bytes.NewReader(file), Range{Start: rg.Start, End: rg.End - 10}, true, io.ErrUnexpectedEOF, 3},
		{"block cut", bytes.NewReader(file), Range{Start: rg.Start, End: rg.End - 20}, true, io.ErrUnexpectedEOF, 0},
		{"not at a stream start", bytes.NewReader(file), Range{Start: rg.Start + 1, End: rg.End}, true, io.ErrUnexpectedEOF, 0},
		{"range beyond the file", bytes.NewReader(file), Range{Start: int64(len(file)) + 5, End: int64(len(file)) + 50}, true, io.ErrUnexpectedEOF, 0},
		{"corrupt byte", bytes.NewReader(corrupt), rg, true, io.ErrUnexpectedEOF, 0},
		{"I/O error", failingReaderAt{bytes.NewReader(file), rg.Start + 20, boom}, rg, false, boom, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pages, err := readAll(t, ReadRange(tt.ra, tt.rg, "f", dump.Options{}))
			if err == nil {
				t.Fatalf("%d pages and no error", len(pages))
			}
			var decode *DecodeError
			if got := errors.Is(err, dump.ErrTruncated) && errors.As(err, &decode); got != tt.truncated {
				t.Errorf("error %v: truncated by a DecodeError = %v, want %v", err, got, tt.truncated)
			}
			if !errors.Is(err, tt.is) {
				t.Errorf("error %v does not match %v", err, tt.is)
			}
			if len(pages) != tt.pages {
				t.Errorf("%d pages before the error, want %d", len(pages), tt.pages)
			}
		})
	}
}

func TestDecodeErrorMessage(t *testing.T) {
	err := &DecodeError{Start: 10, End: 20, Err: errors.New("bzip2: corrupted input")}
	if got, want := err.Error(), "multistream: decompressing bytes [10, 20): bzip2: corrupted input"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// FuzzReadRange checks that reading any bytes as a range never panics or
// loops, and ends with io.EOF or an error. A few hundred bytes of bzip2 can
// decompress to hundreds of megabytes (each block's run-length coding
// expands up to 50 times), which is slow but harmless: the fuzz target
// reads at most 4 MB of decompressed data per input, so that the fuzzer
// explores inputs instead of waiting on such bombs.
func FuzzReadRange(f *testing.F) {
	file, ranges, _ := smallFile(f, 5, 2)
	for _, rg := range ranges {
		f.Add(file[rg.Start:rg.End])
	}
	f.Add([]byte("BZh9"))
	f.Add([]byte{})
	// One Decoder for all inputs, as a worker reads range after range: it
	// must recover from any failure, and its 5 MB of tables are not
	// reallocated for every input. Fuzz inputs run one at a time.
	var d Decoder
	f.Fuzz(func(t *testing.T, data []byte) {
		src := io.LimitReader(d.decompress(bytes.NewReader(data), Range{Start: 0, End: int64(len(data))}), 4<<20)
		r := dump.NewReader(src, "fuzz", dump.Options{MaxPageBytes: 1 << 16})
		for range 10000 {
			_, err := r.Next()
			var bad *dump.PageError
			if err != nil && !errors.As(err, &bad) {
				return
			}
		}
		t.Fatal("reader did not end")
	})
}
