package warc

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/transforms/sentence"
)

// good is a record that reads as a document, after a bad one.
func good() []byte {
	rec := htmlResponse("https://ok.example/", "OK", paraA1)
	return rawRecord(rec.Type, rec.Fields, rec.Block, -1)
}

// respBlock is a response record's raw bytes, its HTTP response given.
func respBlock(block []byte) []byte {
	rec := response("https://x.example/", 200, nil, nil)
	return rawRecord("response", rec.Fields, block, -1)
}

func gzipped(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

// TestBadInput reads records that are bad in one way, each followed by a
// good one: the bad one's dead letter (its offset and reason) or how it is
// counted, and the good one still read.
func TestBadInput(t *testing.T) {
	page := "<html><head><title>T</title></head><body><p>" + paraA1 + "</p></body></html>"
	htmlCT := []Field{{"Content-Type", "text/html"}}
	chunked := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n", len(gzipped(page)), gzipped(page))
	tests := []struct {
		name     string
		bad      []byte // the bad record
		gzip     bool   // as gzip members (else uncompressed)
		max      int
		reason   string // of the dead letter at offset 0; "" for none
		counter  string // the tally.Web counter the record adds to
		pages    int    // documents, the good one's included
		skipGood bool
	}{
		{name: "Content-Length too short", bad: rawRecord("metadata", nil, []byte("0123456789"), 4),
			reason: "metadata record: Content-Length 4 is wrong: the bytes after its block are not a WARC record", counter: "BadRecords", pages: 1},
		{name: "Content-Length too long", bad: rawRecord("metadata", nil, []byte("0123456789"), 50),
			reason: "metadata record: Content-Length 50 is wrong: the bytes after its block are not a WARC record", counter: "BadRecords", pages: 1},
		{name: "gzip Content-Length too short", gzip: true, bad: rawRecord("metadata", nil, []byte("0123456789"), 4),
			reason: "metadata record: Content-Length 4 is short: more bytes follow the block in its gzip member", counter: "BadRecords", pages: 1},
		{name: "gzip Content-Length too long", gzip: true, bad: rawRecord("metadata", nil, []byte("0123456789"), 50),
			reason: "metadata record: Content-Length 50 but only 14 bytes follow the header: the gzip member ends there", counter: "BadRecords", pages: 1},
		{name: "gzip member of two records", gzip: true, bad: append(rawRecord("metadata", nil, nil, -1), rawRecord("metadata", nil, nil, -1)...),
			reason: "metadata record: the gzip member holds more than one record", counter: "BadRecords", pages: 1},
		{name: "gzip member not WARC", gzip: true, bad: []byte("hello"),
			reason: "gzip member does not start with a WARC/1.0 or WARC/1.1 version line", counter: "BadRecords", pages: 1},
		{name: "no Content-Length", bad: []byte("WARC/1.0\r\nWARC-Type: metadata\r\n\r\nxyz\r\n\r\n"),
			reason: "bad header: no Content-Length", counter: "BadRecords", pages: 1},
		{name: "bad version", bad: []byte("WARC/2.0\r\nWARC-Type: metadata\r\nContent-Length: 0\r\n\r\n\r\n\r\n"),
			reason: "no WARC record starts here: skipped 56 bytes to the next one", counter: "BadRecords", pages: 1},
		{name: "junk", bad: []byte("junk\n"), reason: "no WARC record starts here: skipped 5 bytes to the next one", counter: "BadRecords", pages: 1},
		{name: "not HTML", bad: respBlock(HTTPResponse(200, []Field{{"Content-Type", "application/javascript"}}, []byte("var x;"))), counter: "NotHTML", pages: 1},
		{name: "not OK", bad: respBlock(HTTPResponse(301, []Field{{"Location", "/"}}, nil)), counter: "NotOK", pages: 1},
		{name: "binary declared HTML", bad: respBlock(HTTPResponse(200, htmlCT, []byte("%PDF-1.4\n..."))),
			reason: "response record: payload declared HTML is binary (sniffed as application/pdf)", counter: "Responses", pages: 1},
		{name: "NUL byte", bad: respBlock(HTTPResponse(200, htmlCT, []byte(strings.Repeat("<p>x</p>", 100)+"\x00"))),
			reason: "response record: payload declared HTML is binary (a NUL byte at payload offset 800)", counter: "Responses", pages: 1},
		{name: "too large", max: 500, bad: respBlock(HTTPResponse(200, htmlCT, []byte(strings.Repeat("x", 600)))),
			reason: "response record of 665 bytes, over the 500-byte limit (--max_page_bytes)", counter: "TooLarge", pages: 1},
		{name: "gzip too large", gzip: true, max: 500, bad: respBlock(HTTPResponse(200, htmlCT, []byte(strings.Repeat("x", 600)))),
			reason: "response record of 665 bytes, over the 500-byte limit (--max_page_bytes)", counter: "TooLarge", pages: 1},
		{name: "bad HTTP", bad: respBlock([]byte("HTTQ 200\r\n\r\n")), reason: `response record: bad HTTP response: malformed HTTP version "HTTQ"`, counter: "BadRecords", pages: 1},
		{name: "chunked gzip", bad: respBlock([]byte(chunked)), counter: "HTMLPages", pages: 2},
		{name: "no Content-Type, sniffed", bad: respBlock(HTTPResponse(200, nil, []byte(page))), counter: "HTMLPages", pages: 2},
		{name: "brotli", bad: respBlock(HTTPResponse(200, []Field{{"Content-Type", "text/html"}, {"Content-Encoding", "br"}}, []byte(page))),
			reason: `response record: unsupported Content-Encoding "br"`, counter: "Responses", pages: 1},
		{name: "broken deflate", bad: respBlock(HTTPResponse(200, []Field{{"Content-Type", "text/html"}, {"Content-Encoding", "deflate"}}, []byte(page))),
			reason: "response record: Content-Encoding deflate: flate: corrupt input before offset 5", counter: "Responses", pages: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := append(bytes.Clone(tt.bad), good()...)
			if tt.gzip {
				data = append(gz(tt.bad), gz(good())...)
			}
			res := readBytes(t, data, Source{File: "f", Members: tt.gzip}, ReadOptions{MaxRecordBytes: tt.max})
			var want []document.DeadLetter
			if tt.reason != "" {
				want = []document.DeadLetter{{File: "f", Reason: tt.reason}}
			}
			if !reflect.DeepEqual(res.dead, want) {
				t.Errorf("dead letters %+v, want %+v", res.dead, want)
			}
			if len(res.pages) != tt.pages {
				t.Errorf("%d pages, want %d", len(res.pages), tt.pages)
			}
			if tt.pages > 0 && res.pages[len(res.pages)-1].URL != "https://ok.example/" {
				t.Errorf("the good record was not read: %+v", res.pages)
			}
			web := reflect.ValueOf(res.counts.Web)
			if n := web.FieldByName(tt.counter).Int(); n == 0 {
				t.Errorf("counter %s 0: %+v", tt.counter, res.counts.Web)
			}
			if res.counts.DeadLetters != int64(len(want)) {
				t.Errorf("%d dead letters counted", res.counts.DeadLetters)
			}
			c := res.counts
			if c.DeadLetters != c.Web.BadRecords+c.Web.TooLarge+c.PagesFailed+c.FilesTruncated {
				t.Errorf("dead letters not counted once each: %+v", c)
			}
		})
	}
}

// TestMaxKey dead-letters a document whose offset cannot be a page id.
func TestMaxKey(t *testing.T) {
	start := int64(sentence.MaxKey) + 1
	src := Source{File: "f", Start: start, Aligned: true}
	var res result
	err := Drain(NewReader(bytes.NewReader(good()), src, ReadOptions{}), src, &res.counts,
		func(p document.Page) { res.pages = append(res.pages, p) },
		func(d document.DeadLetter) { res.dead = append(res.dead, d) })
	if err != nil {
		t.Fatal(err)
	}
	want := []document.DeadLetter{{File: "f", Offset: start, Reason: fmt.Sprintf("response record: record offset beyond %d, the largest page id", int64(sentence.MaxKey))}}
	if !reflect.DeepEqual(res.dead, want) || len(res.pages) != 0 || res.counts.PagesFailed != 1 {
		t.Errorf("dead %+v pages %d counts %+v", res.dead, len(res.pages), res.counts)
	}
}
