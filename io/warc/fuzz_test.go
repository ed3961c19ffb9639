package warc

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
)

// FuzzReader checks that the reader never panics or loops, on gzip members
// and on uncompressed streams, whole or from a split's start: records come
// in offset order within the split, documents have valid UTF-8 text, and
// every dead letter is counted once.
func FuzzReader(f *testing.F) {
	var fixture bytes.Buffer
	w := NewWriter(&fixture, false)
	for _, r := range corpusRecords()[:4] {
		w.Write(r)
	}
	seeds := [][]byte{fixture.Bytes(), good(), append([]byte("junk\n"), good()...),
		rawRecord("metadata", nil, []byte("0123456789"), 4), gz(good()), append(gz(good()), gz([]byte("x"))...),
		append([]byte("WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 9223372036854775807\r\n\r\nx\r\n\r\n"), good()...),
		append(append(good(), "\x00junk"...), good()...)}
	for _, s := range seeds {
		f.Add(s, false, uint16(0), uint16(0))
		f.Add(s, true, uint16(3), uint16(200))
	}
	f.Fuzz(func(t *testing.T, data []byte, members bool, start, max uint16) {
		src := Source{File: "f", Members: members, Start: int64(start) % int64(len(data)+1), Aligned: start%2 == 0}
		r := NewReader(bytes.NewReader(data[min(int64(len(data)), StreamOffset(src)):]), src, ReadOptions{MaxRecordBytes: int(max)})
		last := int64(-1)
		for calls := 0; ; calls++ {
			if calls > len(data)+2 {
				t.Fatalf("%d calls to Next for %d bytes", calls, len(data))
			}
			_, off, err := r.Next()
			var bad *RecordError
			if err != nil && !errors.As(err, &bad) {
				if !errors.Is(err, io.EOF) && !errors.Is(err, dump.ErrTruncated) {
					t.Fatalf("error %v", err)
				}
				break
			}
			if off <= last || off < src.Start {
				t.Fatalf("offset %d after %d (start %d)", off, last, src.Start)
			}
			last = off
		}
		var c counters.Counts
		r = NewReader(bytes.NewReader(data[min(int64(len(data)), StreamOffset(src)):]), src, ReadOptions{MaxRecordBytes: int(max)})
		err := Drain(r, src, &c, func(p document.Page) {
			if !utf8.ValidString(p.Text) {
				t.Fatalf("invalid UTF-8 text %q", p.Text)
			}
		}, func(document.DeadLetter) {})
		if err != nil {
			t.Fatal(err)
		}
		if c.DeadLetters != c.Web.BadRecords+c.Web.TooLarge+c.PagesFailed+c.FilesTruncated {
			t.Fatalf("dead letters not counted once each: %+v", c)
		}
		if c.Web.SkippedBytes < 0 || c.Web.SkippedBytes > int64(len(data)) {
			t.Fatalf("%d bytes skipped of %d", c.Web.SkippedBytes, len(data))
		}
	})
}
