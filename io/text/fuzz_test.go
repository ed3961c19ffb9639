package text

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/neardup/neardup/io/document"
)

// FuzzJSONL checks that the JSON-lines reader never panics or loops, that
// documents and dead letters come in line order with growing offsets, that
// every document has a unique non-empty id, its line number as page id and
// valid UTF-8 text, that a dead letter names its line, that the end is
// sticky, and that the paragraphs of every document's text are clean:
// non-empty, one line, single spaces, none at either end.
func FuzzJSONL(f *testing.F) {
	seeds := []string{
		`{"id":"a","text":"One.\nTwo lines\nwrapped."}` + "\n" + `{"id":2,"text":"x","metadata":{"url":"u","language":"en"}}`,
		`{"id":"a","text":"x"}` + "\n" + `{"id":"a","text":"y"}` + "\n\n" + `not json` + "\n" + `[1]`,
		"\xef\xbb\xbf" + `{"id":"é","text":"a\u00a0b\r\nc","title":"T","lang":"pt_BR"}` + "\r\n",
		`{"id":"x","text":"` + strings.Repeat("long ", 50) + `"}`,
		`{"text":"no id"}` + "\n" + `{"id":"","text":""}` + "\n" + `{"id":null,"text":5}` + "\n" + `{"id":"z"`,
	}
	for _, s := range seeds {
		f.Add([]byte(s), uint16(0))
		f.Add([]byte(s), uint16(40))
	}
	f.Fuzz(func(t *testing.T, data []byte, maxLine uint16) {
		r := NewJSONLReader(bytes.NewReader(data), "fuzz.jsonl", int(maxLine))
		lines := int64(bytes.Count(data, []byte{'\n'})) + 1
		lastLine, lastOffset := int64(0), int64(-1)
		names := map[string]bool{}
		for calls := int64(0); ; calls++ {
			if calls > lines+1 {
				t.Fatalf("%d calls to Next for %d lines", calls, lines)
			}
			p, err := r.Next()
			var bad *DocError
			switch {
			case err == nil:
				checkDocument(t, p, names)
				checkOrder(t, p.ID, p.Offset, &lastLine, &lastOffset, lines)
			case errors.As(err, &bad):
				d := bad.DeadLetter
				if d.File != "fuzz.jsonl" || d.Reason == "" || !utf8.ValidString(d.Reason) {
					t.Fatalf("dead letter %+v", d)
				}
				checkOrder(t, d.Line, d.Offset, &lastLine, &lastOffset, lines)
			case err == io.EOF:
				if _, again := r.Next(); again != io.EOF {
					t.Fatalf("Next after io.EOF: %v", again)
				}
				return
			default:
				t.Fatalf("Next: %v (a bytes.Reader neither fails nor is cut)", err)
			}
		}
	})
}

// checkDocument checks a document read and its paragraphs.
func checkDocument(t *testing.T, p document.Page, names map[string]bool) {
	t.Helper()
	if p.Name == "" || names[p.Name] || !p.Plain || p.Title == "" || !utf8.ValidString(p.Text) || !utf8.ValidString(p.Name) {
		t.Fatalf("document %+v", p)
	}
	names[p.Name] = true
	if p.Lang != cleanLang(p.Lang) {
		t.Fatalf("language %q is not a clean tag", p.Lang)
	}
	for _, para := range AppendParagraphs(nil, p.Text) {
		if para == "" || para != strings.TrimSpace(para) || strings.ContainsAny(para, "\r\n\t") || strings.Contains(para, "  ") {
			t.Fatalf("paragraph %q of %q", para, p.Text)
		}
	}
}

// checkOrder checks that a record's line and offset come after the last
// record's.
func checkOrder(t *testing.T, line, offset int64, lastLine, lastOffset *int64, lines int64) {
	t.Helper()
	if line <= *lastLine || line > lines || offset <= *lastOffset {
		t.Fatalf("line %d at offset %d after line %d at offset %d (%d lines)", line, offset, *lastLine, *lastOffset, lines)
	}
	*lastLine, *lastOffset = line, offset
}
