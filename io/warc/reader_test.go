package warc

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/text"
)

// corpusCounts are the counts of a read of the fixture corpus.
var corpusCounts = counters.Counts{FilesRead: 1, PagesRead: 4, PagesKept: 3, PagesEmpty: 1,
	Web: counters.Web{Records: 9, Responses: 5, HTMLPages: 3, Conversions: 1, OtherRecords: 3, NotHTML: 1, NotOK: 1, NoContent: 1}}

// TestCorpus reads the fixture corpus, gzip per record and uncompressed:
// its documents, with their offsets as ids, and the counts of its records.
func TestCorpus(t *testing.T) {
	for _, compress := range []bool{true, false} {
		t.Run(fmt.Sprint("gzip=", compress), func(t *testing.T) {
			data, offsets := writeCorpus(t, corpusRecords(), compress)
			src := Source{File: "c.warc", Corpus: "c", Members: compress}
			res := readBytes(t, data, src, ReadOptions{})
			want := []document.Page{
				{File: "c.warc", Wiki: "c", Offset: offsets[2], ID: offsets[2], Title: "Page A", Plain: true,
					Name: "<urn:uuid:https://a.example/>", URL: "https://a.example/",
					Text: paraA1 + "\n\n" + paraA2 + "\n\n" + paraA3},
				{File: "c.warc", Wiki: "c", Offset: offsets[6], ID: offsets[6], Title: "Page B", Plain: true,
					Name: "<urn:uuid:https://b.example/>", URL: "https://b.example/",
					Text: "Bravo paragraph. The quick brown fox jumps over the lazy dog near the river bank today."},
				{File: "c.warc", Wiki: "c", Offset: offsets[7], ID: offsets[7], Title: "https://c.example/", Plain: true,
					Name: "<urn:uuid:c>", URL: "https://c.example/", Lang: "en",
					Text: "Charlie line one\n\nsecond line lower\n\nThird."},
			}
			if !reflect.DeepEqual(res.pages, want) {
				t.Errorf("pages\n%+v\nwant\n%+v", res.pages, want)
			}
			if len(res.dead) > 0 {
				t.Errorf("dead letters %+v", res.dead)
			}
			c := res.counts
			c.Web.HTMLBytes, c.Web.TextBytes, c.Web.CharsetSniffed = 0, 0, 0
			if !reflect.DeepEqual(c, corpusCounts) {
				t.Errorf("counts %+v, want %+v", c, corpusCounts)
			}
			// One paragraph per extracted block.
			if got := text.AppendParagraphs(nil, res.pages[0].Text); len(got) != 3 {
				t.Errorf("paragraphs %q, want 3", got)
			}
		})
	}
}

// TestTruncation cuts the fixture corpus at every byte: the records read
// are exactly the complete ones before the cut, and a cut inside a record
// is one truncation dead letter at that record's offset.
func TestTruncation(t *testing.T) {
	for _, compress := range []bool{true, false} {
		t.Run(fmt.Sprint("gzip=", compress), func(t *testing.T) {
			data, offsets := writeCorpus(t, corpusRecords(), compress)
			whole := readBytes(t, data, Source{File: "c", Members: compress}, ReadOptions{})
			ends := append(offsets[1:], int64(len(data)))
			for n := 0; n <= len(data); n++ {
				res := readBytes(t, data[:n], Source{File: "c", Members: compress}, ReadOptions{})
				var want []document.Page
				var wantDead []document.DeadLetter
				for i, off := range offsets {
					end := ends[i]
					if !compress {
						end -= 4 // the CRLF CRLF after the block
					}
					switch {
					case end <= int64(n):
						for _, p := range whole.pages {
							if p.Offset == off {
								want = append(want, p)
							}
						}
					case off < int64(n):
						wantDead = append(wantDead, document.DeadLetter{File: "c", Offset: off})
					}
				}
				for i := range res.dead {
					res.dead[i].Reason = ""
				}
				if !reflect.DeepEqual(res.pages, want) || !reflect.DeepEqual(res.dead, wantDead) {
					t.Fatalf("cut at %d: pages %d, dead %+v; want %d, %+v", n, len(res.pages), res.dead, len(want), wantDead)
				}
				if res.counts.FilesTruncated != int64(len(wantDead)) {
					t.Fatalf("cut at %d: %d files truncated", n, res.counts.FilesTruncated)
				}
			}
		})
	}
}

// TestSplits reads the fixture corpus in splits of many sizes: their union
// is the whole file's read.
func TestSplits(t *testing.T) {
	for _, compress := range []bool{true, false} {
		t.Run(fmt.Sprint("gzip=", compress), func(t *testing.T) {
			data, _ := writeCorpus(t, corpusRecords(), compress)
			checkSplits(t, data, Source{File: "c", Size: int64(len(data)), Corpus: "c", Members: compress, Aligned: true})
		})
	}
}

// checkSplits checks that the splits of src of many sizes read what src
// read whole reads.
func checkSplits(t *testing.T, data []byte, src Source) {
	t.Helper()
	whole := readBytes(t, data, src, ReadOptions{})
	sizes := []int64{1, 2, 3, 7, 100, 333, 1000, 4096, 10007, int64(len(data)) / 2, int64(len(data)) - 1}
	for _, n := range sizes {
		if n <= 0 || int64(len(data))/n > 3000 { // too many splits to read quickly
			continue
		}
		srcs := cutEvery(src, n)
		got := readSplits(t, data, srcs, ReadOptions{})
		if !reflect.DeepEqual(got.pages, whole.pages) || !reflect.DeepEqual(got.dead, whole.dead) {
			t.Errorf("splits of %d bytes: %d pages, %d dead letters; whole: %d, %d", n, len(got.pages), len(got.dead), len(whole.pages), len(whole.dead))
		}
		if got.counts.Web != whole.counts.Web || got.counts.FilesRead != 1 {
			t.Errorf("splits of %d bytes: counts %+v, whole %+v", n, got.counts, whole.counts)
		}
	}
}

// TestSplitsCDXJ cuts the fixture at the offsets a CDXJ index lists.
func TestSplitsCDXJ(t *testing.T) {
	data, offsets := writeCorpus(t, corpusRecords(), true)
	var index bytes.Buffer
	for _, i := range []int{2, 3, 4, 6, 8} { // the responses, as Common Crawl indexes them
		fmt.Fprintf(&index, "com,example)/ 20240101000000 {\"url\": \"u\", \"offset\": \"%d\", \"length\": \"9\", \"filename\": \"crawl-data/x/c.warc.gz\"}\n", offsets[i])
	}
	fmt.Fprintf(&index, "com,example)/ 20240101000000 {\"offset\": \"1\", \"filename\": \"other.warc.gz\"}\n")
	dir := t.TempDir()
	writeFile(t, dir+"/c.warc.gz", data)
	writeFile(t, dir+"/c.cdxj", index.Bytes())
	got, err := IndexOffsets(t.Context(), dir+"/c.cdxj", dir+"/c.warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{offsets[2], offsets[3], offsets[4], offsets[6], offsets[8]}; !reflect.DeepEqual(got, want) {
		t.Fatalf("offsets %v, want %v", got, want)
	}
	whole := readBytes(t, data, Source{File: "c", Members: true}, ReadOptions{})
	for _, n := range []int64{1, 500, 1500} {
		srcs, err := Plan(t.Context(), []string{dir + "/c.warc.gz"}, n, map[string]string{dir + "/c.warc.gz": dir + "/c.cdxj"})
		if err != nil {
			t.Fatal(err)
		}
		for i := range srcs {
			srcs[i].File = "c"
			if !srcs[i].Aligned || !srcs[i].Members {
				t.Fatalf("split %+v not aligned gzip members", srcs[i])
			}
		}
		res := readSplits(t, data, srcs, ReadOptions{})
		for i := range res.pages {
			res.pages[i].Wiki = ""
		}
		if !reflect.DeepEqual(res.pages, whole.pages) || res.counts.Web != whole.counts.Web {
			t.Errorf("%d splits of %d bytes: %d pages, want %d", len(srcs), n, len(res.pages), len(whole.pages))
		}
		if n == 1 && len(srcs) != 6 {
			t.Errorf("%d splits, want 6 (0 and the 5 offsets)", len(srcs))
		}
	}
}

// TestClassicCDX reads the offsets of a classic CDX index.
func TestClassicCDX(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/x.cdx", []byte(" CDX N b a m s k r M S V g\n"+
		"com,a)/ 2012 http://a/ text/html 200 K - - 10 350 x.warc.gz\n"+
		"com,b)/ 2012 http://b/ text/html 200 K - - 10 120 x.warc.gz\n"+
		"com,c)/ 2012 http://c/ text/html 200 K - - 10 99 y.warc.gz\n"))
	got, err := IndexOffsets(t.Context(), dir+"/x.cdx", "gs://b/x.warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{120, 350}; !reflect.DeepEqual(got, want) {
		t.Errorf("offsets %v, want %v", got, want)
	}
	writeFile(t, dir+"/bad.cdx", []byte("no json here\n"))
	if _, err := IndexOffsets(t.Context(), dir+"/bad.cdx", "x"); err == nil || !strings.Contains(err.Error(), "bad.cdx line 1") {
		t.Errorf("error %v, want one naming bad.cdx line 1", err)
	}
}

// TestPlan plans gzip-per-record, single-stream gzip and uncompressed
// files.
func TestPlan(t *testing.T) {
	dir := t.TempDir()
	members, _ := writeCorpus(t, corpusRecords(), true)
	plain, _ := writeCorpus(t, corpusRecords(), false)
	writeFile(t, dir+"/m.warc.gz", members)
	writeFile(t, dir+"/s.warc.gz", gz(plain))
	writeFile(t, dir+"/p.warc", plain)
	srcs, err := Plan(t.Context(), []string{dir + "/m.warc.gz", dir + "/s.warc.gz", dir + "/p.warc"}, 1000, nil)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, s := range srcs {
		count[s.Corpus]++
		if s.Corpus == "m" && !s.Members || s.Corpus != "m" && s.Members {
			t.Errorf("%+v: wrong Members", s)
		}
	}
	if want := (map[string]int{"m": (len(members) + 999) / 1000, "s": 1, "p": (len(plain) + 999) / 1000}); !reflect.DeepEqual(count, want) {
		t.Errorf("splits by corpus %v, want %v", count, want)
	}
	// Every plan reads the same documents.
	var want []string
	for _, s := range srcs {
		r, err := Open(t.Context(), s, ReadOptions{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var c counters.Counts
		if err := Drain(r, s, &c, func(p document.Page) { want = append(want, p.Wiki+" "+p.Title) }, func(d document.DeadLetter) { t.Errorf("dead letter %+v", d) }); err != nil {
			t.Fatal(err)
		}
		r.Close()
	}
	if len(want) != 9 {
		t.Errorf("%d documents, want 9: %q", len(want), want)
	}
	if _, err := Plan(t.Context(), []string{dir + "/p.warc", dir + "/p.warc.gz"}, 0, nil); err == nil {
		// p.warc.gz does not exist, but the corpus clash is found first.
		t.Error("no error for two files of corpus p")
	}
}
