package warc

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/document"
)

// okRecord is a response record that reads as a document of uri.
func okRecord(uri string) []byte {
	rec := htmlResponse(uri, "OK", paraA1)
	return rawRecord(rec.Type, rec.Fields, rec.Block, -1)
}

// TestResync reads uncompressed files in which something is wrong between
// or in records: every valid record is read, and what is skipped is one
// dead letter at its offset, counted once.
func TestResync(t *testing.T) {
	a, b := okRecord("https://a.example/"), okRecord("https://b.example/")
	lenA := int64(len(a))
	header := func(cl int64) []byte {
		return []byte(fmt.Sprintf("WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: %d\r\n\r\n", cl))
	}
	tests := []struct {
		name  string
		data  []byte
		uris  []string              // the documents read
		dead  []document.DeadLetter // File "f"
		skip  int64                 // counts.Web.SkippedBytes
		trunc int64                 // counts.FilesTruncated
	}{
		{name: "Content-Length 2^63-1, over the limit",
			data: cat(header(1<<63-1), []byte("short block\r\n\r\n"), a, b),
			uris: []string{"https://a.example/", "https://b.example/"},
			dead: []document.DeadLetter{{File: "f", Offset: 0, Reason: "resource record of 9223372036854775807 bytes, over the 67108864-byte limit (--max_page_bytes), and a record starts 15 bytes into its block: its Content-Length is wrong; read on from there"}},
			skip: int64(len(header(1<<63-1))) + 15},
		{name: "Content-Length 100 MB, over the limit",
			data: cat(header(100<<20), []byte("short block\r\n\r\n"), a, b),
			uris: []string{"https://a.example/", "https://b.example/"},
			dead: []document.DeadLetter{{File: "f", Offset: 0, Reason: "resource record of 104857600 bytes, over the 67108864-byte limit (--max_page_bytes), and a record starts 15 bytes into its block: its Content-Length is wrong; read on from there"}},
			skip: int64(len(header(100<<20))) + 15},
		{name: "Content-Length 10 MB, under the limit",
			data: cat(a, header(10<<20), []byte("short block\r\n\r\n"), b),
			uris: []string{"https://a.example/", "https://b.example/"},
			dead: []document.DeadLetter{{File: "f", Offset: lenA, Reason: "resource record: Content-Length 10485760 is wrong: the stream ends inside its block, and a record starts 15 bytes into it; read on from there"}},
			skip: int64(len(header(10<<20))) + 15},
		{name: "junk line between records",
			data: cat(a, []byte("junk bytes\n"), b),
			uris: []string{"https://a.example/", "https://b.example/"},
			dead: []document.DeadLetter{{File: "f", Offset: lenA, Reason: "no WARC record starts here: skipped 11 bytes to the next one"}},
			skip: 11},
		{name: "junk without a line feed",
			data: cat(a, []byte("\x00\x01junk"), b),
			uris: []string{"https://a.example/", "https://b.example/"},
			dead: []document.DeadLetter{{File: "f", Offset: lenA, Reason: "no WARC record starts here: skipped 6 bytes to the next one"}},
			skip: 6},
		{name: "junk at the end",
			data: cat(a, []byte("trailing junk")),
			uris: []string{"https://a.example/"},
			dead: []document.DeadLetter{{File: "f", Offset: lenA, Reason: "no WARC record starts here: skipped 13 bytes to the end of the file"}},
			skip: 13},
		{name: "truncated inside an oversized record",
			data: cat(a, header(100<<20), []byte(strings.Repeat("x", 1000))),
			uris: []string{"https://a.example/"},
			dead: []document.DeadLetter{{File: "f", Offset: lenA, Reason: "truncated: resource record of 104857600 bytes, over the 67108864-byte limit (--max_page_bytes): the stream ends 104856600 bytes before its block does"}},
			skip: int64(len(header(100<<20))) + 1000, trunc: 1},
		{name: "truncated inside a record",
			data:  cat(a, header(5000), []byte(strings.Repeat("x", 1000))),
			uris:  []string{"https://a.example/"},
			dead:  []document.DeadLetter{{File: "f", Offset: lenA, Reason: "truncated: Content-Length 5000 but only 1000 bytes follow the header"}},
			trunc: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := readBytes(t, tt.data, Source{File: "f"}, ReadOptions{})
			var uris []string
			for _, p := range res.pages {
				uris = append(uris, p.URL)
			}
			if !reflect.DeepEqual(uris, tt.uris) {
				t.Errorf("documents %q, want %q", uris, tt.uris)
			}
			if !reflect.DeepEqual(res.dead, tt.dead) {
				t.Errorf("dead letters\n%+v, want\n%+v", res.dead, tt.dead)
			}
			c := res.counts
			if c.Web.SkippedBytes != tt.skip || c.FilesTruncated != tt.trunc {
				t.Errorf("skipped %d bytes, %d files truncated; want %d, %d", c.Web.SkippedBytes, c.FilesTruncated, tt.skip, tt.trunc)
			}
			if c.DeadLetters != int64(len(tt.dead)) || c.DeadLetters != c.Web.BadRecords+c.Web.TooLarge+c.PagesFailed+c.FilesTruncated {
				t.Errorf("dead letters not counted once each: %+v", c)
			}
			checkSplits(t, tt.data, Source{File: "f", Size: int64(len(tt.data)), Aligned: true})
		})
	}
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// TestResyncMembers reads junk between the gzip members of a file: the
// member after it is read, and the junk is one dead letter.
func TestResyncMembers(t *testing.T) {
	a, b := gz(okRecord("https://a.example/")), gz(okRecord("https://b.example/"))
	data := cat(a, []byte("junk bytes"), b)
	res := readBytes(t, data, Source{File: "f", Members: true}, ReadOptions{})
	if len(res.pages) != 2 || res.pages[1].URL != "https://b.example/" {
		t.Errorf("documents %+v, want a and b", res.pages)
	}
	want := []document.DeadLetter{{File: "f", Offset: int64(len(a)), Reason: "no gzip member starts here: skipped 10 bytes to the next one"}}
	if !reflect.DeepEqual(res.dead, want) {
		t.Errorf("dead letters %+v, want %+v", res.dead, want)
	}
	if c := res.counts; c.Web.SkippedBytes != 10 || c.Web.BadRecords != 1 || c.FilesTruncated != 0 {
		t.Errorf("counts %+v", c.Web)
	}
	checkSplits(t, data, Source{File: "f", Size: int64(len(data)), Members: true, Aligned: true})
}
