package scaled

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/text"
	"github.com/neardup/neardup/testkit/corpus"
)

var testDocs = []Doc{
	{ID: "cc-1", Text: "In 2005 the storm hit 80 towns.\nThe levees failed & the city flooded.", URL: "http://example.com/a"},
	{ID: "cc-2", Text: `Prices rose by 12 percent in <b>May</b>, said the "report".`, URL: ""},
}

func TestWriteJSONL(t *testing.T) {
	const (
		a0 = `{"id":"cc-1-0","text":"In 2005 the storm hit 80 towns.\nThe levees failed & the city flooded.","url":"http://example.com/a"}` + "\n"
		b0 = `{"id":"cc-2-0","text":"Prices rose by 12 percent in <b>May</b>, said the \"report\".","url":""}` + "\n"
	)
	tests := []struct {
		name string
		s    Scaler
		k    int
		want string
	}{
		{"one copy is the documents, with new ids", Scaler{Seed: 1, Rate: 1}, 1, a0 + b0},
		{"copies without edits", Scaler{Seed: 1, Rate: 0}, 3, a0 + b0 +
			strings.ReplaceAll(a0+b0, `-0"`, `-1"`) + strings.ReplaceAll(a0+b0, `-0"`, `-2"`)},
		{"seed 1", Scaler{Seed: 1, Rate: 0.5}, 2, a0 + b0 +
			`{"id":"cc-1-1","text":"2005 the flooded storm 80 towns.\nThe levees failed & the city .","url":"http://example.com/a"}` + "\n" +
			`{"id":"cc-2-1","text":"the Prices rose 26 percent in <percent>rose</b>, the \"report\".","url":""}` + "\n"},
		{"seed 2", Scaler{Seed: 2, Rate: 0.5}, 2, a0 + b0 +
			`{"id":"cc-1-1","text":"4145 storm failed 80 towns.\nThe failed & city flooded.","url":"http://example.com/a"}` + "\n" +
			`{"id":"cc-2-1","text":"rose rose 12 in <>May</b>, said \"rose\".","url":""}` + "\n"},
		{"no copies", Scaler{Seed: 1, Rate: 0.5}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 2 { // the same output every time
				var b bytes.Buffer
				n, err := WriteJSONL(&b, tt.s, testDocs, tt.k)
				if err != nil || n != int64(b.Len()) {
					t.Fatalf("writeJSONL: %d bytes of %d, %v", n, b.Len(), err)
				}
				if got := b.String(); got != tt.want {
					t.Errorf("writeJSONL =\n%s\nwant\n%s", got, tt.want)
				}
			}
		})
	}
}

// TestWriteJSONLReadsBack reads a scaled corpus as the pipeline does: every
// line a document with its new id, its URL and the text written.
func TestWriteJSONLReadsBack(t *testing.T) {
	var b bytes.Buffer
	if _, err := WriteJSONL(&b, Scaler{Seed: 3, Rate: 0.2}, testDocs, 4); err != nil {
		t.Fatal(err)
	}
	r := text.NewJSONLReader(&b, "scaled.jsonl", 0)
	var ids []string
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.Name)
		if want := testDocs[(p.ID-1)%2].URL; p.URL != want {
			t.Errorf("line %d: url %q, want %q", p.ID, p.URL, want)
		}
	}
	want := []string{"cc-1-0", "cc-2-0", "cc-1-1", "cc-2-1", "cc-1-2", "cc-2-2", "cc-1-3", "cc-2-3"}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("ids %q, want %q", ids, want)
	}
}

func TestReadDocs(t *testing.T) {
	dir := t.TempDir()
	dolma := filepath.Join(dir, "dolma.jsonl.gz")
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	io.WriteString(zw, `{"id":"x1","text":"First.","source":"cc","metadata":{"url":"http://a/1","language":"en"}}`+"\n\n"+
		`{"text":"Second.","id":42,"url":"http://b/2"}`+"\n")
	zw.Close()
	os.WriteFile(dolma, z.Bytes(), 0o644)
	plain := filepath.Join(dir, "plain.jsonl")
	os.WriteFile(plain, []byte(`{"id":"y","text":"Third."}`), 0o644)

	got, err := ReadDocs(context.Background(), []string{dolma, plain})
	want := []Doc{{"x1", "First.", "http://a/1"}, {"42", "Second.", "http://b/2"}, {"y", "Third.", ""}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("readDocs = %+v, %v; want %+v", got, err, want)
	}

	again := filepath.Join(dir, "again.jsonl")
	os.WriteFile(again, []byte(`{"id":"y","text":"Repeated."}`), 0o644)
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"id":"z"}`), 0o644)
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	for _, paths := range [][]string{{plain, again}, {bad}, {empty}, {filepath.Join(dir, "missing.jsonl")}} {
		if _, err := ReadDocs(context.Background(), paths); err == nil {
			t.Errorf("ReadDocs(%q): no error", paths)
		}
	}
}

// TestEditIsCopys checks that a document's copy gets the edits a page's copy
// of the same index gets.
func TestEditIsCopys(t *testing.T) {
	s := Scaler{Seed: 5, Rate: 0.3}
	page, err := s.Copy([]byte(testPage), 2, 1, 9)
	if err != nil {
		t.Fatal(err)
	}
	start, end, _ := corpus.TextSpan(page)
	ts, te, _ := corpus.TextSpan([]byte(testPage))
	if got, want := page[start:end], s.Edit([]byte(testPage)[ts:te], 2, 1); !bytes.Equal(got, want) {
		t.Errorf("Copy's text\n%s\nEdit's\n%s", got, want)
	}
	if got := s.Edit([]byte("kept as it is"), 2, 0); string(got) != "kept as it is" {
		t.Errorf("copy 0 edited: %q", got)
	}
}
