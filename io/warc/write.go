package warc

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/neardup/neardup/internal/bytecount"
)

// Field is one named field of a WARC record's header.
type Field struct{ Name, Value string }

// Record is a WARC record as Writer writes it: its type, its other header
// fields in order, and its block. Writer adds WARC-Type first and
// Content-Length last; the fields must not name them.
type Record struct {
	Type   string // "warcinfo", "response", "conversion", ...
	Fields []Field
	Block  []byte
}

// Writer writes WARC 1.1 records, each as a gzip member of its own (as
// Common Crawl ships them) or uncompressed, and tells the offset of each.
// It is for tests and test corpora: records are written as given.
type Writer struct {
	w        *bytecount.Writer
	compress bool
}

// NewWriter returns a Writer to w; compress asks for a gzip member per
// record.
func NewWriter(w io.Writer, compress bool) *Writer {
	return &Writer{w: &bytecount.Writer{W: w}, compress: compress}
}

// Write writes r and returns the offset in the output where its record (its
// gzip member, when compressed) starts.
func (w *Writer) Write(r Record) (int64, error) {
	start := w.w.N
	var out io.Writer = w.w
	var zw *gzip.Writer
	if w.compress {
		zw = gzip.NewWriter(w.w)
		out = zw
	}
	b := bufio.NewWriter(out)
	fmt.Fprintf(b, "WARC/1.1\r\nWARC-Type: %s\r\n", r.Type)
	for _, f := range r.Fields {
		if strings.EqualFold(f.Name, "WARC-Type") || strings.EqualFold(f.Name, "Content-Length") {
			return start, fmt.Errorf("warc: record field %s is written by Writer", f.Name)
		}
		fmt.Fprintf(b, "%s: %s\r\n", f.Name, f.Value)
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(r.Block)) + "\r\n\r\n")
	b.Write(r.Block)
	b.WriteString("\r\n\r\n")
	if err := b.Flush(); err != nil {
		return start, fmt.Errorf("warc: writing record at offset %d: %w", start, err)
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return start, fmt.Errorf("warc: writing record at offset %d: %w", start, err)
		}
	}
	return start, nil
}

// HTTPResponse is the block of a response record: an HTTP/1.1 status line,
// the header fields in order (Content-Length added last) and the body.
func HTTPResponse(status int, fields []Field, body []byte) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", status, statusText(status))
	for _, f := range fields {
		fmt.Fprintf(&b, "%s: %s\r\n", f.Name, f.Value)
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(body))
	return append([]byte(b.String()), body...)
}

func statusText(code int) string {
	switch code {
	case 200:
		return "OK"
	case 301:
		return "Moved Permanently"
	case 404:
		return "Not Found"
	}
	return "Status"
}
