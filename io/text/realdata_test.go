package text

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/testkit/testshared"
)

// TestDolmaFiles reads the three Dolma samples of ../shared/data: every
// line is a document, with its id, URL (in "metadata") and, for the CCNet
// ones, language and title; Dolma keeps documents whose text is empty,
// which are counted and not kept.
func TestDolmaFiles(t *testing.T) {
	tests := []struct {
		file               string
		docs, empty        int64
		first, last        page
		lang               string
		titledFromMetadata bool
	}{
		{
			file: "dolma-CC-MAIN-20190717121559-20190717143559-00140.jsonl.gz", docs: 697, empty: 27,
			first: page{1, "blj5uzvcoa4iybpd5o6kom5nir6ngmoj", "16thfleet.wikidot.com/chatter:anewhome"},
			last:  page{697, "ackyutbeief5hezd5jcqjrsjop2vnqia", "zh-min-nan.wikipedia.org/wiki/Th%C3%B3-l%C5%ABn:Nointel_(Val-d%27Oise)"},
		},
		{
			file: "dolma-cc_en_head-0091.jsonl.gz", docs: 10, lang: "en", titledFromMetadata: true,
			first: page{1, "http://100kinvesting.com/2016/11/28/first-teleconference-calls-invoice-factoring/", "http://100kinvesting.com/2016/11/28/first-teleconference-calls-invoice-factoring/"},
			last:  page{10, "http://artsemersonblog.org/2018/09/04/from-russia-with-translation/", "http://artsemersonblog.org/2018/09/04/from-russia-with-translation/"},
		},
		{
			file: "dolma-cc_en_head-0174.jsonl.gz", docs: 10, lang: "en", titledFromMetadata: true,
			first: page{1, "http://archives2.getty.edu:8082/xtf/view?docId=ead/2002.M.13/2002.M.13.xml", "http://archives2.getty.edu:8082/xtf/view?docId=ead/2002.M.13/2002.M.13.xml"},
			last:  page{10, "http://cempaka-tourist.blogspot.com/2017/07/aborigines-in-australia-longer-than.html", "http://cempaka-tourist.blogspot.com/2017/07/aborigines-in-australia-longer-than.html"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			file := testshared.Data(t, filepath.Join("commoncrawl-text", tt.file))
			format, err := Detect(t.Context(), file)
			if err != nil || format != JSONL {
				t.Fatalf("Detect = %v, %v; want jsonl", format, err)
			}
			sources, err := Plan(t.Context(), []string{file}, nil)
			if err != nil {
				t.Fatal(err)
			}
			src := sources[0]
			if want := tt.file[:len(tt.file)-len(".jsonl.gz")]; src.Corpus != want {
				t.Errorf("corpus %q, want %q", src.Corpus, want)
			}
			d := drainFile(t, src, 0)
			want := counters.Counts{FilesRead: 1, PagesRead: tt.docs, PagesKept: tt.docs - tt.empty, PagesEmpty: tt.empty}
			if !reflect.DeepEqual(d.counts, want) || len(d.dead) != 0 {
				t.Fatalf("counts %+v and dead letters %+v, want %+v and none", d.counts, d.dead, want)
			}
			n := len(d.pages)
			if first, last := pageOf(d.pages[0]), pageOf(d.pages[n-1]); first != tt.first || last != tt.last {
				t.Errorf("first and last documents %+v, %+v; want %+v, %+v", first, last, tt.first, tt.last)
			}
			seen := map[int64]bool{}
			for _, p := range d.pages {
				if p.URL == "" || p.Lang != tt.lang || p.Wiki != src.Corpus || !p.Plain || p.RevID != 0 || seen[p.ID] || p.ID < 1 || p.ID > tt.docs {
					t.Fatalf("document %+v", pageOf(p))
				}
				seen[p.ID] = true
				if titled := p.Title != p.Name; titled != tt.titledFromMetadata {
					t.Errorf("line %d: title %q, id %q", p.ID, p.Title, p.Name)
				}
			}
		})
	}
}

// page is what TestDolmaFiles checks of a document.
type page struct {
	line      int64
	name, url string
}

func pageOf(p document.Page) page { return page{p.ID, p.Name, p.URL} }

// TestDolmaTruncated reads the first half of a real Dolma file: its
// complete lines are the whole file's first documents, then the cut line
// and the truncation are dead letters.
func TestDolmaTruncated(t *testing.T) {
	file := testshared.Data(t, "commoncrawl-text/dolma-CC-MAIN-20190717121559-20190717143559-00140.jsonl.gz")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	whole := drainFile(t, Source{File: file, Corpus: "c"}, 0)
	cut := writeFile(t, t.TempDir(), "half.jsonl.gz", data[:len(data)/2])
	d := drainFile(t, Source{File: cut, Corpus: "c"}, 0)
	n := len(d.pages)
	if n < 100 || n >= len(whole.pages) {
		t.Fatalf("%d documents of the first half, %d of the whole", n, len(whole.pages))
	}
	for i, p := range d.pages {
		want := whole.pages[i]
		want.File = cut
		if !reflect.DeepEqual(p, want) {
			t.Fatalf("document %d differs from the whole file's", i)
		}
	}
	line := d.counts.PagesRead // the cut line is the last read
	if len(d.dead) != 2 || d.dead[0].Line != line || d.dead[0].Reason != "truncated: document cut: decompressing: unexpected EOF" ||
		d.dead[1].Reason != "truncated: decompressing: unexpected EOF" || d.dead[0].Offset != d.dead[1].Offset || d.dead[0].Offset <= d.pages[n-1].Offset {
		t.Errorf("dead letters %+v, want the cut line %d's and the file's", d.dead, line)
	}
	if d.counts.FilesTruncated != 1 || d.counts.PagesFailed != 1 || d.counts.DeadLetters != 2 {
		t.Errorf("counts %+v", d.counts)
	}
}
