package input

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/neardup/neardup/io/text"
	"github.com/neardup/neardup/io/warc"
)

// writeCrawl writes a gzip-per-record WARC file of n HTML pages to path.
func writeCrawl(t *testing.T, path string, n int) {
	t.Helper()
	var b bytes.Buffer
	w := warc.NewWriter(&b, true)
	for i := range n {
		body := []byte("<html><body><p>A page of the crawl, with a sentence long enough to be kept as its main content here.</p></body></html>")
		_, err := w.Write(warc.Record{Type: "response", Block: warc.HTTPResponse(200, []warc.Field{{Name: "Content-Type", Value: "text/html"}}, body),
			Fields: []warc.Field{{Name: "WARC-Target-URI", Value: "https://example.org/" + string(rune('a'+i))}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPlanWARC plans WARC files beside a dump: each is a corpus of its
// own, listed once in the manifest's inputs; one with a CDXJ index beside
// it is planned with it, and the index, given too (as a glob of the
// directory would give it), is not read as an input.
func TestPlanWARC(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.warc.gz"), filepath.Join(dir, "b.warc.gz")
	writeCrawl(t, a, 2)
	writeCrawl(t, b, 3)
	if err := os.WriteFile(b+".cdxj", []byte("org,example)/a 20260101000000 {\"offset\": \"0\", \"filename\": \"b.warc.gz\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := Plan(t.Context(), []string{b, b + ".cdxj", a, "../../testdata/sample/simplewiki-sample.xml"}, text.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if got := src.Corpora(); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("corpora %q, want a and b", got)
	}
	var formats []string
	for _, in := range src.Inputs() {
		formats = append(formats, in.Format+":"+in.Corpus)
	}
	if want := []string{":", "warc:a", "warc:b"}; !slices.Equal(formats, want) {
		t.Errorf("inputs' formats and corpora %q, want %q", formats, want)
	}
	indexes, err := warcIndexes(t.Context(), []string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if len(indexes) != 1 || indexes[b] != b+".cdxj" {
		t.Errorf("indexes %v, want only %s's", indexes, b)
	}
	if len(src.Sites) != 3 {
		t.Errorf("sites %+v, want the wiki and two corpora", src.Sites)
	}
}
