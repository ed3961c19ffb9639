package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/testshared"
)

func TestValidate(t *testing.T) {
	valid := func() Options {
		o := DefaultOptions()
		o.Wiki, o.Web, o.Output = []string{"w.xml"}, []string{"c.warc.gz"}, "out"
		return o
	}
	if err := valid().Validate(); err != nil {
		t.Fatalf("the defaults: %v", err)
	}
	tests := []struct {
		name   string
		change func(*Options)
		want   string
	}{
		{"no wiki", func(o *Options) { o.Wiki = nil }, "--wiki: no Wikipedia dump given"},
		{"no web", func(o *Options) { o.Web = nil }, "--web: no web crawl or corpus given"},
		{"no output", func(o *Options) { o.Output = "" }, "--output: required"},
		{"threshold", func(o *Options) { o.Threshold = 1 }, "--threshold 1: want a Jaccard similarity in (0, 1)"},
		{"shingles", func(o *Options) { o.MinShingles = 700 }, "--min_shingles 700 and --max_shingles 600: want 0 < min ≤ max"},
		{"passage", func(o *Options) { o.MinPassage = 0 }, "--min_passage 0: want at least 1 matched sentence"},
		{"bucket pairs", func(o *Options) { o.MaxBucketPairs = 0 }, "--max_bucket_pairs 0: must be positive"},
		{"output shards", func(o *Options) { o.OutputShards = 0 }, "--output_shards 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := valid()
			tt.change(&o)
			if err := o.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestSides refuses a web file given as Wikipedia and a dump given as web,
// before any work.
func TestSides(t *testing.T) {
	wiki := filepath.Join("..", "..", filepath.FromSlash(testshared.KatrinaSlice))
	page := []fixturePage{{"https://a.example/", []string{"Some text of a page that copies nothing at all."}}}
	crawl := fixtureCrawl(t, page)
	other := filepath.Join(t.TempDir(), "other.warc.gz")
	if err := os.Rename(fixtureCrawl(t, page), other); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		wiki, web []string
		want      string
	}{
		{[]string{wiki, other}, []string{crawl}, "--wiki " + other + " is not a MediaWiki dump (it reads as warc)"},
		{[]string{wiki}, []string{crawl, wiki}, "is given to both --wiki and --web"},
		{[]string{wiki}, []string{crawl, filepath.Join("..", "..", "testdata", "sample", "simplewiki-sample.xml")}, "is a MediaWiki dump: give it to --wiki"},
	} {
		o := testOptions(t, tt.wiki, tt.web)
		err := o.plan(t.Context())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("plan(--wiki %v --web %v) = %v, want %q", tt.wiki, tt.web, err, tt.want)
		}
	}
}
