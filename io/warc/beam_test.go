package warc

import (
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
)

func init() { register.Function1x1(pageTitle) }

func pageTitle(p document.Page) string { return p.Wiki + ":" + p.Title }

// TestRead runs Read on Prism over a gzip-per-record file in splits and an
// uncompressed one with a bad record.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	members, _ := writeCorpus(t, corpusRecords(), true)
	writeFile(t, dir+"/m.warc.gz", members)
	writeFile(t, dir+"/p.warc", append([]byte("junk\n"), good()...))
	sources, err := Plan(t.Context(), []string{dir + "/m.warc.gz", dir + "/p.warc"}, 700, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, s := beam.NewPipelineWithRoot()
	pages, dead, counts := Read(s, beam.CreateList(s, sources), ReadOptions{})
	passert.Equals(s, beam.ParDo(s, pageTitle, pages), "m:Page A", "m:Page B", "m:https://c.example/", "p:OK")
	passert.Equals(s, dead, document.DeadLetter{File: dir + "/p.warc", Reason: "no WARC record starts here: skipped 5 bytes to the next one"})
	want := corpusCounts
	want.FilesRead, want.PagesRead, want.PagesKept, want.DeadLetters = 2, 5, 4, 1
	want.Web.Records, want.Web.Responses, want.Web.HTMLPages, want.Web.BadRecords, want.Web.SkippedBytes = 10, 6, 4, 1, 5
	passert.Equals(s, beam.ParDo(s, withoutBytes, counters.Total(s, counts)), want)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
}

func init() { register.Function1x1(withoutBytes) }

// withoutBytes zeroes the counts that depend on the HTML extractor's
// output.
func withoutBytes(c counters.Counts) counters.Counts {
	c.Web.HTMLBytes, c.Web.TextBytes, c.Web.CharsetSniffed = 0, 0, 0
	return c
}
