package sectionkind_test

import (
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/sectionkind"
)

// benchPages reads and cleans the Ukrainian sample dump.
func benchPages(b *testing.B) ([]document.Page, []clean.Page, document.Site) {
	b.Helper()
	pages, site := readDump(b, testshared.Data(b, "xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz"))
	cleaner := clean.Cleaner{Sites: clean.NewSites([]document.Site{site})}
	var cleaned []clean.Page
	for _, p := range pages {
		cp, err := cleaner.Clean(p)
		if err == nil {
			cleaned = append(cleaned, cp)
		}
	}
	return pages, cleaned, site
}

// BenchmarkSummarize tests every line of the Ukrainian sample's pages
// for citations, as Learn's workers do; BenchmarkCleanYardstick cleans the
// same pages, the stage before, for a ratio measured in the same run.
func BenchmarkSummarize(b *testing.B) {
	_, cleaned, _ := benchPages(b)
	citation := categorize.IsCitation
	b.ResetTimer()
	for b.Loop() {
		for _, p := range cleaned {
			sectionkind.Summarize(p, citation)
		}
	}
}

func BenchmarkCleanYardstick(b *testing.B) {
	pages, _, site := benchPages(b)
	cleaner := clean.Cleaner{Sites: clean.NewSites([]document.Site{site})}
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pages {
			if _, err := cleaner.Clean(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}
