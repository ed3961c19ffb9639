package text

import (
	"context"
	"reflect"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
)

// readOnce runs the read DoFn over sources as a runner would for one
// bundle, and returns everything it emitted.
func readOnce(t *testing.T, fn *readFn, sources ...Source) ([]document.Page, []document.DeadLetter, []counters.Counts) {
	t.Helper()
	var pages []document.Page
	var dead []document.DeadLetter
	var counts []counters.Counts
	emitPage := func(p document.Page) { pages = append(pages, p) }
	emitDead := func(d document.DeadLetter) { dead = append(dead, d) }
	emitCounts := func(c counters.Counts) { counts = append(counts, c) }
	ctx := context.Background()
	fn.StartBundle(ctx, emitPage, emitDead, emitCounts)
	for _, src := range sources {
		if err := fn.ProcessElement(ctx, src, emitPage, emitDead, emitCounts); err != nil {
			t.Fatal(err)
		}
	}
	fn.FinishBundle(ctx, emitPage, emitDead, emitCounts)
	return pages, dead, counts
}

// corpus writes a JSON-lines file and two plain-text files and plans them.
func corpus(t *testing.T) []Source {
	t.Helper()
	dir := t.TempDir()
	lines := `{"id":"a","text":"Alpha text. It has two sentences.","url":"https://example.org/a"}` + "\n" +
		`{"id":"b","text":""}` + "\n" +
		`{"id":"a","text":"Again."}` + "\n" +
		`{"id":"c","text":"Gamma.","language":"fr"}` + "\n"
	jsonl := writeFile(t, dir, "web.jsonl.gz", gzipped(t, []byte(lines)))
	one := writeFile(t, dir, "one.txt", []byte("A plain document.\n"))
	two := writeFile(t, dir, "two.txt.zst", zstded(t, []byte("Another one,\nwrapped.\n")))
	sources, err := Plan(t.Context(), []string{jsonl}, []string{one, two})
	if err != nil {
		t.Fatal(err)
	}
	return sources
}

// TestReadFn reads a corpus with the DoFn, twice with the same instance as
// a runner retrying a bundle does: the same elements, counts that do not
// accumulate.
func TestReadFn(t *testing.T) {
	sources := corpus(t)
	fn := &readFn{}
	pages, dead, counts := readOnce(t, fn, sources...)
	var got []string
	for _, p := range pages {
		got = append(got, p.Wiki+":"+p.Name+":"+p.Title+":"+p.Lang+":"+p.URL)
	}
	want := []string{
		"text:" + sources[0].File + ":" + sources[0].File + "::",
		"text:" + sources[1].File + ":" + sources[1].File + "::",
		"web:a:a::https://example.org/a",
		"web:c:c:fr:",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pages %q, want %q", got, want)
	}
	wantDead := []document.DeadLetter{{File: sources[2].File, Offset: 105, Line: 3, Reason: `id "a" repeats line 1`}}
	if !reflect.DeepEqual(dead, wantDead) {
		t.Errorf("dead letters %+v, want %+v", dead, wantDead)
	}
	wantCounts := []counters.Counts{{FilesRead: 3, PagesRead: 6, PagesKept: 4, PagesEmpty: 1, PagesFailed: 1, DeadLetters: 1}}
	if !reflect.DeepEqual(counts, wantCounts) {
		t.Errorf("counts %+v, want %+v", counts, wantCounts)
	}
	p2, d2, c2 := readOnce(t, fn, sources...)
	if !reflect.DeepEqual(p2, pages) || !reflect.DeepEqual(d2, dead) || !reflect.DeepEqual(c2, counts) {
		t.Error("a retried bundle emitted different elements or counts")
	}
}

func init() { register.Function1x1(pageName) }

func pageName(p document.Page) string { return p.Wiki + ":" + p.Name }

// TestRead runs Read on Prism.
func TestRead(t *testing.T) {
	sources := corpus(t)
	p, s := beam.NewPipelineWithRoot()
	pages, dead, counts := Read(s, beam.CreateList(s, sources), ReadOptions{})
	names := beam.ParDo(s, pageName, pages)
	passert.Equals(s, names, "text:"+sources[0].File, "text:"+sources[1].File, "web:a", "web:c")
	passert.Equals(s, dead, document.DeadLetter{File: sources[2].File, Offset: 105, Line: 3, Reason: `id "a" repeats line 1`})
	passert.Equals(s, counters.Total(s, counts), counters.Counts{FilesRead: 3, PagesRead: 6, PagesKept: 4, PagesEmpty: 1, PagesFailed: 1, DeadLetters: 1})
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
}
