package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/testkit/testshared"
)

// TestWARCInput runs the sentence pipeline on a real WARC file (Common
// Crawl's records of the Allen Institute's and Creative Commons' sites,
// the Allen Institute's home page there three times): its HTML pages are
// documents of the corpus named after the file, with their record offsets
// as page ids and their URLs, and the copies share passages. Of the three
// copies' three pairs, two have a passage: the buckets link each copy to
// the one of the smallest id (docs/scale.md, Known limits).
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

// deadLetterSum is what docs/outputs.md's equation says counts.dead_letters
// is: pages_failed + files_truncated + files_not_dumps + web.bad_records +
// web.too_large.
func deadLetterSum(c counters.Counts) int64 {
	return c.PagesFailed + c.FilesTruncated + c.FilesNotDumps + c.Web.BadRecords + c.Web.TooLarge
}

// TestWARCDeadLetterEquation runs the pipeline on every real WARC, WAT and
// WET file in ../shared/data, and on an uncompressed copy of one damaged
// twice (junk without a line feed before its third record, a
// Content-Length of 2^63-1 in its fifth): the dead-letter file has as
// many lines as counts.dead_letters, which docs/outputs.md's equation gives,
// and the damaged copy loses only the record whose length is wrong.
func TestWARCDeadLetterEquation(t *testing.T) {
	dir := needShared(t, "commoncrawl-warc")
	files, err := filepath.Glob(filepath.Join(dir, "*.gz"))
	if err != nil || len(files) < 7 {
		t.Fatalf("found %d files in %s: %v", len(files), dir, err)
	}
	source := filepath.Join(dir, "dolma-sample-0000.warc.gz")
	damaged, records := damage(t, source)
	files = append(files, damaged)
	var wantRecords int64
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			out := run(t, testOptions(t, t.TempDir(), f))
			c := readSummary(t, out)
			dead := readDeadLetters(t, out)
			if int64(len(dead)) != c.DeadLetters || c.DeadLetters != deadLetterSum(c) {
				t.Errorf("%d dead-letter lines, counts say %d; failed %d + truncated %d + not dumps %d + bad records %d + too large %d = %d",
					len(dead), c.DeadLetters, c.PagesFailed, c.FilesTruncated, c.FilesNotDumps, c.Web.BadRecords, c.Web.TooLarge, deadLetterSum(c))
			}
			switch f {
			case source:
				wantRecords = c.Web.Records
				if wantRecords != records || c.DeadLetters != 0 {
					t.Errorf("%d records, %d dead letters; want %d, none", c.Web.Records, c.DeadLetters, records)
				}
			case damaged:
				if c.Web.Records != wantRecords-1 || c.Web.BadRecords != 1 || c.Web.TooLarge != 1 || c.FilesTruncated != 0 {
					t.Errorf("damaged copy: %d records, %d bad, %d too large, %d truncated; want %d, 1, 1, 0",
						c.Web.Records, c.Web.BadRecords, c.Web.TooLarge, c.FilesTruncated, wantRecords-1)
				}
			}
		})
	}
}

// damage writes an uncompressed copy of a gzip-per-record WARC file with
// junk (no line feed) before its third record and a Content-Length of
// 2^63-1 in its fifth, and returns it and the file's record count.
func damage(t *testing.T, file string) (string, int64) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	records := bytes.Split(data, []byte("WARC/1.0\r\n"))[1:] // no record's block holds a version line
	if len(records) < 6 {
		t.Fatalf("%s has %d records", file, len(records))
	}
	var b bytes.Buffer
	for i, r := range records {
		switch i {
		case 2:
			b.WriteString("\x00\x01junk")
		case 4:
			cl := regexp.MustCompile(`(?m)^Content-Length: \d+\r$`)
			if !cl.Match(r) {
				t.Fatalf("record %d has no Content-Length", i)
			}
			r = cl.ReplaceAll(r, []byte("Content-Length: 9223372036854775807\r"))
		}
		b.WriteString("WARC/1.0\r\n")
		b.Write(r)
	}
	out := filepath.Join(t.TempDir(), "dolma-sample-0000-damaged.warc")
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out, int64(len(records))
}
