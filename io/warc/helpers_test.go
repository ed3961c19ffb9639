package warc

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
)

// result is everything a read emitted.
type result struct {
	pages  []document.Page
	dead   []document.DeadLetter
	counts counters.Counts
}

// readBytes reads src from data, the whole file, as Open would open it.
func readBytes(t testing.TB, data []byte, src Source, opt ReadOptions) result {
	t.Helper()
	var res result
	r := NewReader(bytes.NewReader(data[min(int64(len(data)), StreamOffset(src)):]), src, opt)
	err := Drain(r, src, &res.counts,
		func(p document.Page) { res.pages = append(res.pages, p) },
		func(d document.DeadLetter) { res.dead = append(res.dead, d) })
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// readSplits reads the splits of src, splitBytes each, and returns the
// union of what they emitted, sorted by offset, and the counts summed.
func readSplits(t testing.TB, data []byte, srcs []Source, opt ReadOptions) result {
	t.Helper()
	var all result
	for _, s := range srcs {
		r := readBytes(t, data, s, opt)
		all.pages = append(all.pages, r.pages...)
		all.dead = append(all.dead, r.dead...)
		all.counts.Merge(r.counts)
	}
	slices.SortStableFunc(all.pages, func(a, b document.Page) int { return cmp.Compare(a.Offset, b.Offset) })
	slices.SortStableFunc(all.dead, func(a, b document.DeadLetter) int { return cmp.Compare(a.Offset, b.Offset) })
	return all
}

// rawRecord is a record's bytes with a Content-Length of cl (-1: the
// block's length).
func rawRecord(typ string, fields []Field, block []byte, cl int) []byte {
	if cl < 0 {
		cl = len(block)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "WARC/1.0\r\nWARC-Type: %s\r\n", typ)
	for _, f := range fields {
		fmt.Fprintf(&b, "%s: %s\r\n", f.Name, f.Value)
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", cl)
	b.Write(block)
	b.WriteString("\r\n\r\n")
	return b.Bytes()
}

// gz returns b as one gzip member.
func gz(b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}

// htmlResponse is a response record of an HTML page.
func htmlResponse(uri, title string, paras ...string) Record {
	body := "<html><head><title>" + title + "</title></head><body>"
	for _, p := range paras {
		body += "<p>" + p + "</p>"
	}
	body += "</body></html>"
	return response(uri, 200, []Field{{"Content-Type", "text/html; charset=utf-8"}}, []byte(body))
}

// response is a response record.
func response(uri string, status int, http []Field, body []byte) Record {
	return Record{Type: "response", Fields: []Field{
		{"WARC-Record-ID", "<urn:uuid:" + uri + ">"},
		{"WARC-Target-URI", uri},
		{"Content-Type", "application/http; msgtype=response"},
	}, Block: HTTPResponse(status, http, body)}
}

// The paragraphs of page A: the second ends no sentence and the third
// starts in lower case.
const (
	paraA1 = "The river rises in the northern hills and flows south for two hundred kilometres, through farmland, forests and three small towns, before it reaches the sea."
	paraA2 = "Its valley has been settled since the Bronze Age, and the remains of several hill forts can still be seen on the ridges above the water, including the best preserved of the region"
	paraA3 = "most of them were excavated in the nineteenth century by local antiquarians, whose notes and drawings are kept in the county museum and were published in 1902."
)

// corpusRecords are the records of the fixture corpus: of every kind the
// reader tells apart.
func corpusRecords() []Record {
	prose := "The quick brown fox jumps over the lazy dog near the river bank today."
	return []Record{
		{Type: "warcinfo", Fields: []Field{{"Content-Type", "application/warc-fields"}}, Block: []byte("software: test\r\n")},
		{Type: "request", Fields: []Field{{"WARC-Target-URI", "https://a.example/"}}, Block: []byte("GET / HTTP/1.1\r\nHost: a.example\r\n\r\n")},
		htmlResponse("https://a.example/", "Page A", paraA1, paraA2, paraA3),
		response("https://a.example/logo.png", 200, []Field{{"Content-Type", "image/png"}}, []byte("\x89PNG\r\n\x1a\n\x00\x00")),
		response("https://a.example/gone", 404, []Field{{"Content-Type", "text/html"}}, []byte("<p>Not found</p>")),
		{Type: "metadata", Fields: []Field{{"WARC-Target-URI", "https://a.example/"}}, Block: []byte("fetchTimeMs: 12\r\n")},
		htmlResponse("https://b.example/", "Page B", "Bravo paragraph. "+prose),
		{Type: "conversion", Fields: []Field{{"WARC-Target-URI", "https://c.example/"}, {"WARC-Record-ID", "<urn:uuid:c>"},
			{"WARC-Identified-Content-Language", "eng,fra"}}, Block: []byte("Charlie line one\nsecond line lower\n\nThird.\n")},
		htmlResponse("https://d.example/", "Empty"),
	}
}

// writeCorpus writes records and returns the file and each record's
// offset.
func writeCorpus(t testing.TB, records []Record, compress bool) ([]byte, []int64) {
	t.Helper()
	var b bytes.Buffer
	w := NewWriter(&b, compress)
	var offsets []int64
	for _, r := range records {
		off, err := w.Write(r)
		if err != nil {
			t.Fatal(err)
		}
		offsets = append(offsets, off)
	}
	return b.Bytes(), offsets
}

// readRecords reads every record of data, and the errors, as "type@offset"
// and "error@offset".
func readRecords(data []byte, src Source, opt ReadOptions) ([]string, error) {
	r := NewReader(bytes.NewReader(data[StreamOffset(src):]), src, opt)
	var out []string
	for {
		rec, off, err := r.Next()
		var bad *RecordError
		switch {
		case err == nil:
			out = append(out, fmt.Sprintf("%s@%d", rec.Type, off))
		case errors.Is(err, io.EOF):
			return out, nil
		case errors.As(err, &bad):
			out = append(out, fmt.Sprintf("bad@%d", off))
		default:
			return out, err
		}
	}
}

func writeFile(t testing.TB, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
