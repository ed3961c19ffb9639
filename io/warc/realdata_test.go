package warc

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/testshared"
)

// realFiles are the shared WARC samples, what they hold and one page of
// each: every record read, none dead-lettered.
var realFiles = []struct {
	name    string
	types   map[string]int // records by WARC-Type
	docs    int64          // documents read (PagesRead)
	notHTML int64
	offset  int64 // of a known page
	url     string
	title   string // a part of its title
}{
	{"whirlwind.warc.gz", map[string]int{"warcinfo": 1, "request": 1, "response": 1, "metadata": 1}, 1, 0,
		1023, "https://an.wikipedia.org/wiki/Escopete", "Escopete - Biquipedia"},
	{"whirlwind.warc.wet.gz", map[string]int{"warcinfo": 1, "conversion": 1}, 1, 0,
		466, "https://an.wikipedia.org/wiki/Escopete", "https://an.wikipedia.org/wiki/Escopete"},
	{"whirlwind.warc.wat.gz", map[string]int{"warcinfo": 1, "metadata": 1}, 0, 0, 0, "", ""},
	{"dolma-sample-0000.warc.gz", map[string]int{"warcinfo": 1, "request": 22, "response": 22, "metadata": 1, "resource": 2}, 22, 0,
		24881, "https://soldaini.net/", "Luca Soldaini"},
	{"dolma-sample-0001.warc.gz", map[string]int{"warcinfo": 1, "request": 15, "response": 15, "metadata": 1, "resource": 2}, 15, 0,
		856, "https://creativecommons.org/", "Creative Commons"},
	{"resiliparse-warcfile.warc.gz", map[string]int{"warcinfo": 1, "request": 17, "response": 16, "metadata": 16}, 16, 0,
		12685, "http://01spb.ru/company/", "О компании"},
	{"ukwa-wikipedia-main-page-2012.warc.gz", map[string]int{"warcinfo": 1, "request": 77, "response": 70, "resource": 3}, 1, 69,
		173141, "http://en.wikipedia.org/wiki/Main_Page", "Wikipedia, the free encyclopedia"},
}

// TestRealFiles reads the shared samples, planned as Plan plans them
// (gzip per record): their records by type, their documents, no dead
// letter, and a known page.
func TestRealFiles(t *testing.T) {
	for _, tt := range realFiles {
		t.Run(tt.name, func(t *testing.T) {
			file := testshared.Data(t, "commoncrawl-warc/"+tt.name)
			srcs, err := Plan(t.Context(), []string{file}, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(srcs) != 1 || !srcs[0].Members {
				t.Fatalf("plan %+v, want one source of gzip members", srcs)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			recs, err := readRecords(data, srcs[0], ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			types := map[string]int{}
			for _, r := range recs {
				typ, _, _ := strings.Cut(r, "@")
				types[typ]++
			}
			if !reflect.DeepEqual(types, tt.types) {
				t.Errorf("records %v, want %v", types, tt.types)
			}
			res := readBytes(t, data, srcs[0], ReadOptions{})
			c := res.counts
			if c.PagesRead != tt.docs || c.Web.NotHTML != tt.notHTML || c.DeadLetters != 0 || len(res.dead) != 0 ||
				c.PagesKept+c.PagesEmpty != c.PagesRead || c.Web.Records != int64(len(recs)) {
				t.Errorf("counts %+v, want %d documents, %d not HTML, no dead letter", c, tt.docs, tt.notHTML)
			}
			if tt.url == "" {
				return
			}
			for _, p := range res.pages {
				if p.Offset == tt.offset {
					if p.URL != tt.url || !strings.Contains(p.Title, tt.title) || p.Wiki != srcs[0].Corpus || p.ID != p.Offset {
						t.Errorf("page at %d: %q %q %q", p.Offset, p.URL, p.Title, p.Wiki)
					}
					return
				}
			}
			t.Errorf("no page at offset %d", tt.offset)
		})
	}
}

// TestRealSplits reads a real file in splits, as gzip members and
// decompressed (uncompressed), and by the offsets of a CDXJ index of its
// responses: every way reads what the whole file's read reads.
func TestRealSplits(t *testing.T) {
	file := testshared.Data(t, "commoncrawl-warc/dolma-sample-0000.warc.gz")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("gzip", func(t *testing.T) {
		checkSplits(t, data, Source{File: "d", Size: int64(len(data)), Members: true, Aligned: true})
	})
	t.Run("plain", func(t *testing.T) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		plain, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		checkSplits(t, plain, Source{File: "d", Size: int64(len(plain)), Aligned: true})
	})
	t.Run("cdxj", func(t *testing.T) {
		whole := readBytes(t, data, Source{File: "d", Members: true}, ReadOptions{})
		var index bytes.Buffer
		for _, p := range whole.pages {
			fmt.Fprintf(&index, "x)/ 2024 {\"offset\": \"%d\", \"filename\": \"dolma-sample-0000.warc.gz\"}\n", p.Offset)
		}
		dir := t.TempDir()
		writeFile(t, dir+"/i.cdxj", index.Bytes())
		for _, n := range []int64{1, 10000, 50000} {
			srcs, err := Plan(t.Context(), []string{file}, n, map[string]string{file: dir + "/i.cdxj"})
			if err != nil {
				t.Fatal(err)
			}
			for i := range srcs {
				srcs[i].File, srcs[i].Corpus = "d", ""
			}
			got := readSplits(t, data, srcs, ReadOptions{})
			if !reflect.DeepEqual(got.pages, whole.pages) || got.counts.Web != whole.counts.Web {
				t.Errorf("%d splits of %d bytes: %d pages, want %d", len(srcs), n, len(got.pages), len(whole.pages))
			}
		}
	})
}

// BenchmarkRead reads a real WARC file whole: records framed, HTTP parsed,
// main content extracted (MB/s of the compressed file).
func BenchmarkRead(b *testing.B) {
	file := testshared.Data(b, "commoncrawl-warc/dolma-sample-0001.warc.gz")
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	src := Source{File: file, Members: true}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if r := readBytes(b, data, src, ReadOptions{}); len(r.pages) == 0 {
			b.Fatal("no page")
		}
	}
}

// BenchmarkRecords frames the records of a real WARC file, decompressing
// its gzip members, without making documents (MB/s of the compressed
// file).
func BenchmarkRecords(b *testing.B) {
	file := testshared.Data(b, "commoncrawl-warc/dolma-sample-0001.warc.gz")
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	src := Source{File: file, Members: true}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := readRecords(data, src, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
