package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/testshared"
)

// TestWARCInput runs the sentence pipeline on a real WARC file (Common
// Crawl's records of the Allen Institute's and Creative Commons' sites,
// the Allen Institute's home page there three times): its HTML pages are
// documents of the corpus named after the file, with their record offsets
// as page ids and their URLs, and the copies share passages. Of the three
// copies' three pairs, two have a passage: the buckets link each copy to
// the one of the smallest id (README, Known limits).
func TestWARCInput(t *testing.T) {
	file := testshared.Data(t, "commoncrawl-warc/dolma-sample-0001.warc.gz")
	o := testOptions(t, t.TempDir(), file)
	files := run(t, o)
	c := readSummary(t, files)
	if c.Web.Records != 34 || c.Web.HTMLPages != 15 || c.DeadLetters != 0 {
		t.Errorf("web counts %+v, %d dead letters: want 34 records, 15 HTML pages, none dead", c.Web, c.DeadLetters)
	}
	var pairs []string
	for _, l := range readPassages(t, files) {
		if l.A.Share != 1 || l.B.Share != 1 {
			continue
		}
		if l.A.Wiki != "dolma-sample-0001" || l.A.URL == "" || !strings.HasPrefix(l.A.ID, fmt.Sprintf("dolma-sample-0001:%d:0", l.A.PageID)) {
			t.Errorf("document %+v: want of corpus dolma-sample-0001, its record offset as page id, with its URL", l.A)
		}
		pairs = append(pairs, l.A.Title+" ↔ "+l.B.Title)
	}
	if want := []string{"Allen Institute for AI ↔ Allen Institute for AI", "Allen Institute for AI ↔ Allen Institute for AI"}; !slices.Equal(pairs, want) {
		t.Errorf("whole-page passages %q, want %q", pairs, want)
	}
}
