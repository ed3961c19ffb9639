package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/testshared"
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
		{"threshold", func(o *Options) { o.Threshold = 1 }, "--threshold must be between 0 and 1 (exclusive), got 1"},
		{"recall NaN", func(o *Options) { o.Recall = math.NaN() }, "--recall must be between 0 and 1 (exclusive), got NaN"},
		{"shingles", func(o *Options) { o.MinShingles = 700 }, "--min_shingles 700 and --max_shingles 600 keep no sentence: a sentence is kept when min < shingles < max"},
		// A sentence is kept when min < shingles < max: the check used
		// to be 0 < min ≤ max, which accepted 75 and 75 (no sentence
		// kept) and refused 0 and 2 (the sentences of one shingle).
		{"no shingle window", func(o *Options) { o.MinShingles, o.MaxShingles = 75, 75 }, "--min_shingles 75 and --max_shingles 75 keep no sentence: a sentence is kept when min < shingles < max"},
		{"min_shingles 0", func(o *Options) { o.MinShingles, o.MaxShingles = 0, 2 }, ""},
		{"min_jaccard", func(o *Options) { o.MinJaccard = math.NaN() }, "--min_jaccard must be between 0 and 1, got NaN"},
		{"passage", func(o *Options) { o.MinPassage = 0 }, "--min_passage must be between 1 and 1073741824, got 0"},
		{"bucket pairs", func(o *Options) { o.MaxBucketPairs = 0 }, "--max_bucket_pairs must be between 1 and 10000000, got 0"},
		{"output shards", func(o *Options) { o.OutputShards = 0 }, "--output_shards must be between 1 and 99999, got 0"},
		{"output shards huge", func(o *Options) { o.OutputShards = 100000 }, "--output_shards must be between 1 and 99999, got 100000"},
		{"shards huge", func(o *Options) { o.Shards = 10_000_000 }, "--shards must be between 1 and 65536, or 0 for the runner's default, got 10000000"},
		{"shards 2e9", func(o *Options) { o.Shards = 2_000_000_000 }, "--shards must be between 1 and 65536, or 0 for the runner's default, got 2000000000"},
		{"shards negative", func(o *Options) { o.Shards = -1 }, "--shards must be between 1 and 65536, or 0 for the runner's default, got -1"},
		{"dofn workers", func(o *Options) { o.DofnWorkers = 1 << 20 }, "--dofn_workers must be between 0 and 1024 (0: the runner's default), got 1048576"},
		{"max page bytes", func(o *Options) { o.MaxPageBytes = 1 << 40 }, "--max_page_bytes must be between 1 and 1073741824, got 1099511627776"},
		{"split bytes", func(o *Options) { o.SplitBytes = 1 }, "--split_bytes must be 0 (read every file whole) or at least 4096, got 1"},
		{"top", func(o *Options) { o.Top = 1 << 30 }, "--top must be between 1 and 100000, got 1073741824"},
		{"bands alone", func(o *Options) { o.Bands = 5 }, "give both --bands and --rows, or neither, got --bands 5 --rows 0"},
		{"negative rows", func(o *Options) { o.Bands, o.Rows = 5, -1 }, "--bands and --rows must be at least 0 (0: chosen from --threshold), got 5 and -1"},
		{"bins", func(o *Options) { o.Bands, o.Rows = 100, 100 }, "--bands × --rows must be at most 4096, got 100 × 100"},
		{"run id newline", func(o *Options) { o.RunID = "x\ny" }, `--run_id "x\ny" must be a plain directory name: it holds a control character`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := valid()
			tt.change(&o)
			err := o.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
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
	emptyGz, junkGz := filepath.Join(t.TempDir(), "empty.warc.gz"), filepath.Join(t.TempDir(), "junk.warc.gz")
	for name, content := range map[string]string{emptyGz: "", junkGz: "\x00\x01\x02\xff\xfe binary"} {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(content))
		zw.Close()
		if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
		{[]string{wiki}, []string{crawl, emptyGz}, "--web " + emptyGz + " is named as a WARC file but does not start with a WARC record: it is empty, or not WARC (its content would be read as a MediaWiki dump)"},
		{[]string{wiki}, []string{crawl, junkGz}, junkGz + " is not UTF-8 text: a NUL byte at offset 0 of its first KB"},
	} {
		o := testOptions(t, tt.wiki, tt.web)
		err := o.plan(t.Context())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("plan(--wiki %v --web %v) = %v, want %q", tt.wiki, tt.web, err, tt.want)
		}
	}
}

// TestBandingByHand refuses --threshold or --recall beside --bands and
// --rows, which they would not change, and accepts each alone.
func TestBandingByHand(t *testing.T) {
	for _, tt := range []struct {
		set  []string
		want string
	}{
		{[]string{"bands", "rows", "threshold"}, "--bands and --rows set the banding by hand: --threshold does not apply"},
		{[]string{"bands", "rows", "recall", "threshold"}, "--bands and --rows set the banding by hand: --threshold, --recall do not apply"},
		{[]string{"bands", "rows"}, ""},
		{[]string{"threshold", "recall"}, ""},
	} {
		o := DefaultOptions()
		o.Wiki, o.Web, o.Output = []string{"w.xml"}, []string{"c.warc.gz"}, "out"
		o.Set = map[string]bool{}
		for _, name := range tt.set {
			o.Set[name] = true
		}
		if o.Set["bands"] {
			o.Bands, o.Rows = 10, 10
		}
		err := o.Validate()
		if got := fmt.Sprint(err); tt.want == "" && err != nil || tt.want != "" && got != tt.want {
			t.Errorf("Validate(given %v) = %v, want %q", tt.set, err, tt.want)
		}
	}
}

// TestDataflowLocalPaths refuses local paths with --runner=dataflow at
// launch, naming the flag, and accepts gs:// URLs and local paths on the
// embedded runner.
func TestDataflowLocalPaths(t *testing.T) {
	gs := map[string]string{"wiki": "gs://b/w.xml.bz2", "web": "gs://b/c.warc.gz", "output": "gs://b/out"}
	if err := refuseLocalPaths("dataflow", gs); err != nil {
		t.Errorf("gs:// paths: %v", err)
	}
	local := map[string]string{"wiki": "gs://b/w.xml.bz2", "web": "gs://b/c.warc.gz,crawl/x.warc.gz", "output": "gs://b/out"}
	want := "--web crawl/x.warc.gz is a local path, but with --runner=dataflow Dataflow's workers cannot read it: use gs:// URLs"
	if err := refuseLocalPaths("DataflowRunner", local); fmt.Sprint(err) != want {
		t.Errorf("a local --web: %v, want %q", err, want)
	}
	if err := refuseLocalPaths("", local); err != nil {
		t.Errorf("the embedded runner: %v", err)
	}
}
