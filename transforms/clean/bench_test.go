package clean_test

import (
	"context"
	"errors"
	"io"
	"syscall"
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/sentence"
)

// benchDumps are the four .xz samples of ../shared/data: Greek, Japanese,
// Ukrainian and Vietnamese articles.
var benchDumps = []string{
	"xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz",
	"xztextfilter-wiki-truncated/jawiki-truncated-100k.xml.xz",
	"xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz",
	"xztextfilter-wiki-truncated/viwiki-truncated-100k.xml.xz",
}

// BenchmarkCleanSplit cleans and splits the articles of the four .xz
// samples, as the pipeline's cleaning and splitting stages do; the pages
// are read before the timer starts. Bytes are those of the wikitext.
func BenchmarkCleanSplit(b *testing.B) { benchmarkStages(b, true) }

// BenchmarkClean is BenchmarkCleanSplit without the splitting.
func BenchmarkClean(b *testing.B) { benchmarkStages(b, false) }

// BenchmarkCleanLinks is BenchmarkClean keeping each page's links, as the
// sentence pipeline's cleaning stage does for the alias table.
func BenchmarkCleanLinks(b *testing.B) { benchmarkStages(b, false, withLinks) }

// withLinks makes a benchmark's cleaners keep the pages' links.
func withLinks(c *clean.Cleaner) { c.Links = true }

func benchmarkStages(b *testing.B, split bool, options ...func(*clean.Cleaner)) {
	type wiki struct {
		splitter *sentence.PageSplitter
		cleaner  *clean.Cleaner
		pages    []document.Page
	}
	var wikis []wiki
	var size int64
	for _, rel := range benchDumps {
		file := testshared.Data(b, rel)
		site, err := dump.ReadSite(context.Background(), file)
		if err != nil {
			b.Fatal(err)
		}
		wikis2, err := sentence.NewWikis([]document.Site{site})
		if err != nil {
			b.Fatal(err)
		}
		w := wiki{splitter: &sentence.PageSplitter{Sites: clean.NewSites([]document.Site{site}), Wikis: wikis2},
			cleaner: &clean.Cleaner{Sites: clean.NewSites([]document.Site{site})}}
		for _, o := range options {
			o(w.cleaner)
		}
		rc, err := dump.Open(context.Background(), file)
		if err != nil {
			b.Fatal(err)
		}
		r := dump.NewReader(rc, file, dump.Options{})
		for {
			p, err := r.Next()
			if errors.Is(err, io.EOF) || errors.Is(err, dump.ErrTruncated) {
				break
			}
			if err != nil {
				continue
			}
			if p.NS == 0 && p.Redirect == "" {
				p.Wiki = site.Wiki
				w.pages = append(w.pages, p)
				size += int64(len(p.Text))
			}
		}
		rc.Close()
		wikis = append(wikis, w)
	}
	b.SetBytes(size)
	b.ResetTimer()
	cpu := cpuTime()
	defer func() { b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op") }()
	for b.Loop() {
		for _, w := range wikis {
			for _, p := range w.pages {
				var err error
				if split {
					_, err = w.splitter.Split(p)
				} else {
					_, err = w.cleaner.Clean(p)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// cpuTime is the process's user and system CPU time in nanoseconds: on a
// loaded machine it varies less than the wall time.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
