package multistream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/testshared"
)

func TestParseIndex(t *testing.T) {
	tests := []struct {
		name  string
		index string
		want  []Stream
	}{
		{"empty", "", nil},
		{"one stream", "597:10:AccessibleComputing\n597:12:Anarchism\n", []Stream{{597, 2, 10}}},
		{"streams in order", "597:10:A\n597:12:B\n683059:13:C\n1322751:14:D\n1322751:15:E\n",
			[]Stream{{597, 2, 10}, {683059, 1, 13}, {1322751, 2, 14}}},
		{"titles with colons", "600:1:Wikipedia:Manual of Style\n600:2:Talk:C++: a language\n900:3:::\n",
			[]Stream{{600, 2, 1}, {900, 1, 3}}},
		{"escaped and non-ASCII titles", "7:1:AT&amp;T\n7:2:Григориански календар\n",
			[]Stream{{7, 2, 1}}},
		{"CRLF, blank lines, no final newline", "5:1:A\r\n\r\n\n5:2:B\r\n9:3:C",
			[]Stream{{5, 2, 1}, {9, 1, 3}}},
		{"empty title", "5:1:\n", []Stream{{5, 1, 1}}},
		{"offset zero", "0:1:A\n", []Stream{{0, 1, 1}}},
		{"largest int64", "9223372036854775807:9223372036854775807:A\n",
			[]Stream{{1<<63 - 1, 1, 1<<63 - 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseIndex(strings.NewReader(tt.index))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseIndex = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseIndexErrors(t *testing.T) {
	tests := []struct {
		name  string
		index string
		want  string
	}{
		{"two fields", "5:1:A\n597:12\n", "index line 2: \"597:12\" is not offset:page_id:title"},
		{"one field", "597\n", "index line 1: \"597\" is not offset:page_id:title"},
		{"letter in offset", "59x:1:A\n", `offset "59x" is not a decimal number`},
		{"signed offset", "+5:1:A\n", `offset "+5" is not a decimal number`},
		{"negative id", "5:-1:A\n", `page id "-1" is not a decimal number`},
		{"empty id", "5::A\n", `page id "" is not a decimal number`},
		{"spaces", " 5:1:A\n", `offset " 5" is not a decimal number`},
		{"overflow", "9223372036854775808:1:A\n", `offset "9223372036854775808" is not a decimal number`},
		{"decreasing offset", "9:1:A\n5:2:B\n", "index line 2: offset 5 comes after offset 9: the index is not in file order"},
		{"offset seen again", "5:1:A\n9:2:B\n5:3:C\n", "index line 3: offset 5 comes after offset 9"},
		{"line too long", "5:1:" + strings.Repeat("x", maxIndexLine) + "\n", "reading index: bufio.Scanner: token too long"},
		{"bad bz2", "BZh9garbage", "reading index: bzip2: corrupted input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseIndex(strings.NewReader(tt.index))
			if err == nil {
				t.Fatalf("ParseIndex = %v, want an error containing %q", got, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

// TestParseIndexBzip2 reads an index compressed as Wikimedia publishes it,
// in two concatenated bzip2 streams, and one cut short.
func TestParseIndexBzip2(t *testing.T) {
	text := "597:10:A\n597:12:B\n683059:13:C\n"
	var compressed []byte
	for _, part := range []string{text[:9], text[9:]} {
		compressed = append(compressed, testshared.Bzip2(t, []byte(part))...)
	}
	got, err := ParseIndex(bytes.NewReader(compressed))
	if err != nil {
		t.Fatal(err)
	}
	want := []Stream{{597, 2, 10}, {683059, 1, 13}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseIndex = %v, want %v", got, want)
	}
	_, err = ParseIndex(bytes.NewReader(compressed[:len(compressed)-5]))
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("cut index: error %v, want io.ErrUnexpectedEOF", err)
	}
}

// errReader fails every read.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestParseIndexReadError(t *testing.T) {
	boom := errors.New("boom")
	_, err := ParseIndex(io.MultiReader(strings.NewReader("5:1:A\n"), errReader{boom}))
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want it to wrap %v", err, boom)
	}
}

func TestRanges(t *testing.T) {
	three := []Stream{{600, 100, 10}, {5000, 100, 900}, {9000, 7, 2000}}
	tests := []struct {
		name     string
		streams  []Stream
		fileSize int64
		want     []Range
	}{
		{"header, streams, last to the end", three, 9500, []Range{
			{0, 600, 0, 0}, {600, 5000, 100, 10}, {5000, 9000, 100, 900}, {9000, 9500, 7, 2000}}},
		{"no header stream", []Stream{{0, 2, 1}, {70, 1, 3}}, 100, []Range{
			{0, 70, 2, 1}, {70, 100, 1, 3}}},
		{"file shorter than the index says", three, 4000, []Range{
			{0, 600, 0, 0}, {600, 4000, 100, 10}, {4000, 4000, 100, 900}, {4000, 4000, 7, 2000}}},
		{"no stream", nil, 300, []Range{{0, 300, 0, 0}}},
		{"no stream, empty file", nil, 0, nil},
		{"negative size", []Stream{{0, 1, 1}}, -5, []Range{{0, 0, 1, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Ranges(tt.streams, tt.fileSize)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Ranges = %v, want %v", got, tt.want)
			}
		})
	}
}

// FuzzParseIndex checks that ParseIndex never panics, that what it accepts
// is consistent (offsets increasing, every stream listing pages, as many
// pages as non-blank lines), and that the streams survive a round trip
// through an index written from them.
func FuzzParseIndex(f *testing.F) {
	f.Add([]byte("597:10:AccessibleComputing\n597:12:Anarchism\n683059:13:AfghanistanHistory\n"))
	f.Add([]byte("600:1:Wikipedia:Manual of Style\r\n\n900:3:::"))
	f.Add([]byte("9:1:A\n5:2:B\n"))
	f.Add([]byte("5::A\n+5:1:A\n"))
	f.Add(testshared.Bzip2(f, []byte("5:1:A\n5:2:B\n")))
	f.Fuzz(func(t *testing.T, data []byte) {
		streams, err := ParseIndex(bytes.NewReader(data))
		if err != nil {
			return
		}
		var pages int64
		var index strings.Builder
		for i, s := range streams {
			if s.Pages < 1 || s.Offset < 0 || s.FirstPageID < 0 {
				t.Fatalf("stream %d: %+v", i, s)
			}
			if i > 0 && s.Offset <= streams[i-1].Offset {
				t.Fatalf("offsets not increasing: %v", streams)
			}
			pages += s.Pages
			for range s.Pages {
				fmt.Fprintf(&index, "%d:%d:t\n", s.Offset, s.FirstPageID)
			}
		}
		if !bytes.HasPrefix(data, bzip2Magic) {
			if lines := countLines(data); pages != lines {
				t.Fatalf("%d pages from %d non-blank lines", pages, lines)
			}
		}
		again, err := ParseIndex(strings.NewReader(index.String()))
		if err != nil || !reflect.DeepEqual(again, streams) {
			t.Fatalf("round trip: %v, %v; want %v", again, err, streams)
		}
	})
}

// countLines counts the lines of data that are not blank once a final
// "\r" is removed.
func countLines(data []byte) int64 {
	var n int64
	for line := range bytes.Lines(data) {
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if len(line) > 0 {
			n++
		}
	}
	return n
}
