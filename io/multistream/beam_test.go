package multistream

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
)

// dumpFiles writes a multistream file of the raw pages, perStream a
// stream, and its index, as Write makes them, to a directory of their own,
// and returns their Source and the index's lines.
func dumpFiles(t testing.TB, raw [][]byte, perStream int) (Source, []string) {
	t.Helper()
	var file, index bytes.Buffer
	if err := Write(&file, &index, raw, []byte(header), []byte(footer), perStream); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := Source{
		File:  filepath.Join(dir, "xxwiki-20250101-pages-articles-multistream.xml.bz2"),
		Index: filepath.Join(dir, "xxwiki-20250101-pages-articles-multistream-index.txt"),
		Size:  int64(file.Len()),
		Wiki:  "xxwiki",
	}
	if err := os.WriteFile(src.File, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	writeIndex(t, src, strings.SplitAfter(index.String(), "\n"))
	return src, strings.SplitAfter(index.String(), "\n")
}

// writeIndex writes the lines as src's index, in plain text.
func writeIndex(t testing.TB, src Source, lines []string) {
	t.Helper()
	if err := os.WriteFile(src.Index, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// got is what a readFn emitted.
type got struct {
	pages  []document.Page
	dead   []document.DeadLetter
	counts counters.Counts
}

// process runs the readFn over the whole of src, as one restriction,
// passing each page to onPage (and keeping it if keep).
func process(t testing.TB, f *readFn, src Source, keep bool, onPage func(document.Page)) (got, error) {
	t.Helper()
	rest := f.CreateInitialRestriction(src)
	rt := f.CreateTracker(rest)
	var g got
	f.StartBundle(context.Background(), nil, nil, nil)
	err := f.ProcessElement(context.Background(), rt, src, func(p document.Page) {
		if onPage != nil {
			onPage(p)
		}
		if keep {
			g.pages = append(g.pages, p)
		}
	}, func(d document.DeadLetter) { g.dead = append(g.dead, d) }, nil)
	g.counts = f.counts
	if err == nil && !rt.IsDone() {
		t.Errorf("restriction %v not done: %v", rest, rt.GetRestriction())
	}
	return g, err
}

var _ = sdf.NewLockRTracker(offsetrange.NewTracker(offsetrange.Restriction{}))

func TestReadFnReadsAllPages(t *testing.T) {
	var raw [][]byte
	for i := 1; i <= 25; i++ {
		raw = append(raw, []byte(page(i, fmt.Sprintf("P%d", i), fmt.Sprintf("Text %d.", i))))
	}
	src, _ := dumpFiles(t, raw, 4)
	for i, budget := range []int64{0, 1, 200, 0} { // the default, every stream over its share, some; one worker
		f := &readFn{bufferBytes: budget}
		if i == 3 {
			f.Workers = 1
		}
		g, err := process(t, f, src, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.pages) != 25 || len(g.dead) != 0 || g.counts.PagesRead != 25 || g.counts.PagesKept != 25 {
			t.Fatalf("budget %d: %d pages, %d dead letters, counts %+v", budget, len(g.pages), len(g.dead), g.counts)
		}
		// The progress counters: every page, and every byte of the file.
		if pages, bytes := f.meter.Counted(); pages != 25 || bytes != src.Size {
			t.Errorf("budget %d: progress counted %d pages and %d bytes, want 25 and %d", budget, pages, bytes, src.Size)
		}
		for i, p := range g.pages {
			if p.ID != int64(i+1) || p.Wiki != "xxwiki" || p.Text != fmt.Sprintf("Text %d.", i+1) {
				t.Fatalf("budget %d: page %d is %d %q of %q", budget, i, p.ID, p.Text, p.Wiki)
			}
		}
	}
}

// TestReadFnBoundsMemoryByBytes reads a stream of 40 pages of 4 MB (the
// issue's was 120 pages of 50 MB, 6.4 GB of RSS) with a buffer budget of
// 8 MB: the heap must stay within a few pages, not grow by the stream's
// 160 MB. A page over MaxPageBytes, in the same stream, is a dead letter.
func TestReadFnBoundsMemoryByBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("compresses 160 MB")
	}
	const pageSize, pages, budget = 4 << 20, 40, 8 << 20
	var raw [][]byte
	for i := 1; i <= pages; i++ {
		text := strings.Repeat(fmt.Sprintf("Page %d, a sentence of its own. ", i), pageSize/32)
		raw = append(raw, []byte(page(i, fmt.Sprintf("P%d", i), text)))
	}
	huge := strings.Repeat("Too long. ", (pageSize+pageSize/2)/10)
	raw = append(raw, []byte(page(pages+1, "Huge", huge)))
	src, _ := dumpFiles(t, raw, len(raw)) // all in one stream
	raw, huge = nil, ""

	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	f := &readFn{bufferBytes: budget, ReadOptions: dump.ReadOptions{MaxPageBytes: pageSize + pageSize/4}}
	// Collect often, so that the heap in use is about the live heap.
	defer debug.SetGCPercent(debug.SetGCPercent(20))
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak uint64
	var mu sync.Mutex
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			mu.Lock()
			peak = max(peak, m.HeapInuse)
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	n := 0
	g, err := process(t, f, src, false, func(p document.Page) {
		if len(p.Text) != pageSize/32*len(fmt.Sprintf("Page %d, a sentence of its own. ", p.ID)) {
			t.Errorf("page %d of %d bytes", p.ID, len(p.Text))
		}
		n++
	})
	close(stop)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if n != pages || g.counts.PagesRead != pages+1 || g.counts.PagesFailed != 1 {
		t.Errorf("%d pages emitted, counts %+v; want %d and one failed", n, g.counts, pages)
	}
	if len(g.dead) != 1 || !strings.Contains(g.dead[0].Reason, "in the bzip2 stream at byte") || g.dead[0].PageID != pages+1 && g.dead[0].Title != "Huge" {
		t.Errorf("dead letters %+v, want the page over MaxPageBytes", g.dead)
	}
	grew := int64(peak) - int64(before.HeapInuse)
	t.Logf("%d pages of %d MB in one stream, budget %d MB: heap peak +%.1f MB", pages, pageSize>>20, budget>>20, float64(grew)/(1<<20))
	// The budget, the page crossing each worker's share, the page being
	// emitted and its reader's buffer, and three decompressors of 5 MB.
	if limit := int64(budget + 6*pageSize + 16<<20); grew > limit {
		t.Errorf("the heap grew by %d MB reading one stream of %d MB of pages with a budget of %d MB; want at most %d MB",
			grew>>20, pages*pageSize>>20, budget>>20, limit>>20)
	}
}

// TestIndexMustDescribeTheFile checks that an index that does not describe
// its file fails the read with an error naming both, instead of giving no
// page, or dead letters, and success.
func TestIndexMustDescribeTheFile(t *testing.T) {
	var raw [][]byte
	for i := 1; i <= 12; i++ {
		raw = append(raw, []byte(page(i, fmt.Sprintf("P%d", i), fmt.Sprintf("Text %d.", i))))
	}
	shift := func(lines []string, by func(i int, offset int64) int64) []string {
		var out []string
		for i, l := range lines {
			if l == "" {
				continue
			}
			off, rest, _ := strings.Cut(l, ":")
			var o int64
			fmt.Sscan(off, &o)
			out = append(out, fmt.Sprintf("%d:%s", by(i, o), rest))
		}
		return out
	}
	tests := []struct {
		name  string
		index func(src Source, lines []string) []string
		file  func(b []byte) []byte
		want  string
	}{
		{name: "empty", index: func(Source, []string) []string { return nil }, want: "lists no page"},
		{name: "blank lines", index: func(Source, []string) []string { return []string{"\n", "\n"} }, want: "lists no page"},
		{name: "shifted offsets", want: "no bzip2 stream starts at byte",
			index: func(_ Source, lines []string) []string {
				return shift(lines, func(_ int, o int64) int64 { return o + 7 })
			}},
		{name: "offset past the end", want: "past the end of the file",
			index: func(src Source, lines []string) []string {
				return append(slices.Clone(lines), fmt.Sprintf("%d:99:Beyond\n", src.Size+100))
			}},
		{name: "offset at the end", want: "past the end of the file",
			index: func(src Source, lines []string) []string {
				return append(slices.Clone(lines), fmt.Sprintf("%d:99:Beyond\n", src.Size))
			}},
		{name: "no header stream", want: "where the header stream must be",
			index: func(_ Source, lines []string) []string {
				return shift(lines, func(i int, o int64) int64 {
					if i < 4 {
						return 0
					}
					return o
				})
			}},
		{name: "header not bzip2", want: "no bzip2 stream starts at byte 0",
			file: func(b []byte) []byte { b[1] = 'X'; return b }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, lines := dumpFiles(t, raw, 4)
			if tt.index != nil {
				writeIndex(t, src, tt.index(src, lines))
			}
			if tt.file != nil {
				b, err := os.ReadFile(src.File)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(src.File, tt.file(b), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			g, err := process(t, &readFn{}, src, true, nil)
			if err == nil {
				t.Fatalf("no error; %d pages, %d dead letters", len(g.pages), len(g.dead))
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) || !strings.Contains(msg, src.Index) || !strings.Contains(msg, src.File) {
				t.Errorf("error %q; want it to say %q and name the index and the file", msg, tt.want)
			}
		})
	}
	t.Run("the index as written", func(t *testing.T) {
		src, _ := dumpFiles(t, raw, 4)
		g, err := process(t, &readFn{}, src, true, nil)
		if err != nil || len(g.pages) != len(raw) {
			t.Fatalf("%d pages, error %v", len(g.pages), err)
		}
	})
}

func TestCheckStreams(t *testing.T) {
	ok := []Stream{{Offset: 10, Pages: 2}, {Offset: 20, Pages: 1}}
	if err := checkStreams(ok, 30); err != nil {
		t.Errorf("%v: %v", ok, err)
	}
	for _, bad := range [][]Stream{nil, {{Offset: 0}}, {{Offset: 10}, {Offset: 10}}, {{Offset: 20}, {Offset: 10}}, {{Offset: 10}, {Offset: 30}}} {
		if err := checkStreams(bad, 30); err == nil {
			t.Errorf("%v in a file of 30 bytes: no error", bad)
		}
	}
}

// TestReadFnDeadLettersAPageOverMaxPageBytes: a page over MaxPageBytes is
// skipped and dead-lettered, whether its stream is buffered or read again
// while emitted, and the pages around it are read.
func TestReadFnDeadLettersAPageOverMaxPageBytes(t *testing.T) {
	var raw [][]byte
	for i := 1; i <= 9; i++ {
		text := fmt.Sprintf("Text %d.", i)
		if i == 5 {
			text = strings.Repeat("Long. ", 2000)
		}
		raw = append(raw, []byte(page(i, fmt.Sprintf("P%d", i), text)))
	}
	src, _ := dumpFiles(t, raw, 3)
	for _, budget := range []int64{0, 1} {
		g, err := process(t, &readFn{ReadOptions: dump.ReadOptions{MaxPageBytes: 4096}, bufferBytes: budget}, src, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.pages) != 8 || g.counts.PagesRead != 9 || g.counts.PagesFailed != 1 {
			t.Errorf("budget %d: %d pages, counts %+v; want 8 and one failed", budget, len(g.pages), g.counts)
		}
		if len(g.dead) != 1 || !strings.Contains(g.dead[0].Reason, "in the bzip2 stream at byte") {
			t.Errorf("budget %d: dead letters %+v; want one for the long page", budget, g.dead)
		}
	}
}
