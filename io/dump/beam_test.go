package dump

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/tally"
)

// readOnce runs the read DoFn over one file as a runner would for one
// bundle, and returns everything it emitted.
func readOnce(t *testing.T, fn *readFn, file string) ([]Page, []DeadLetter, []tally.Counts) {
	t.Helper()
	var pages []Page
	var dead []DeadLetter
	var counts []tally.Counts
	emitPage := func(p Page) { pages = append(pages, p) }
	emitDead := func(d DeadLetter) { dead = append(dead, d) }
	emitCounts := func(c tally.Counts) { counts = append(counts, c) }
	ctx := context.Background()
	srcs, err := Plan(ctx, []string{file})
	if err != nil {
		t.Fatal(err)
	}
	rt := fn.CreateTracker(fn.CreateInitialRestriction(srcs[0]))
	fn.StartBundle(ctx, emitPage, emitDead, emitCounts)
	if err := fn.ProcessElement(ctx, rt, srcs[0], emitPage, emitDead, emitCounts); err != nil {
		t.Fatal(err)
	}
	if !rt.IsDone() {
		t.Error("the restriction was not finished")
	}
	fn.FinishBundle(ctx, emitPage, emitDead, emitCounts)
	return pages, dead, counts
}

// TestReadIsRetrySafe re-processes the same bundle with the same DoFn
// instance, as Dataflow and Flink do after a failure: the outputs must be
// identical and the counts must not accumulate across attempts.
func TestReadIsRetrySafe(t *testing.T) {
	files := []string{junkDump(t)}
	if f, ok := optionalShared("zxmeng-wikidump/wikidump.part.xml.bz2"); ok {
		files = append(files, f) // a real corrupt export, when ../shared is there
	}
	for _, file := range files {
		fn := &readFn{ReadOptions: ReadOptions{Namespaces: []int{0}}}
		p1, d1, c1 := readOnce(t, fn, file)
		p2, d2, c2 := readOnce(t, fn, file)
		if len(p1) == 0 || len(d1) == 0 {
			t.Fatalf("%s: read %d pages and %d dead letters: the test proves nothing", file, len(p1), len(d1))
		}
		if !reflect.DeepEqual(p1, p2) || !reflect.DeepEqual(d1, d2) || !reflect.DeepEqual(c1, c2) {
			t.Errorf("%s: a retried bundle emitted different elements or counts", file)
		}
	}
}

// optionalShared returns the path of rel under ../shared/data and whether
// it exists; tests that also run on committed fixtures read it when it is.
func optionalShared(rel string) (string, bool) {
	path := filepath.Join("..", "..", "..", "shared", "data", rel)
	_, err := os.Stat(path)
	return path, err == nil
}

// junkDump writes a dump of 40 pages, every seventh malformed, with junk
// between them, and returns its path.
func junkDump(t *testing.T) string {
	t.Helper()
	junk := filepath.Join(t.TempDir(), "junk.xml")
	var b strings.Builder
	b.WriteString("<mediawiki>\n")
	for i := 1; i <= 40; i++ {
		if i%7 == 0 {
			fmt.Fprintf(&b, "<page><title>Bad %d</title><ns>0</ns><id>%d</id><revision><text>unclosed <b></text></revision></page>\n", i, i)
			continue
		}
		fmt.Fprintf(&b, "<page><title>P%d</title><ns>0</ns><id>%d</id><revision><id>%d</id><text>%s</text></revision></page>\nstray junk\n", i, i, 100+i, strings.Repeat("text ", i*20))
	}
	b.WriteString("</mediawiki>\n")
	if err := os.WriteFile(junk, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return junk
}

// readSplits reads every initial split of src with its own tracker, as
// parallel workers would, keeping every namespace, and returns what they
// emitted, in split order.
func readSplits(t *testing.T, src Source, splitBytes int64) ([]Page, []DeadLetter, tally.Counts) {
	t.Helper()
	return readSplitsKeeping(t, src, splitBytes, nil)
}

// TestSplitReadingEqualsWholeReading reads plain files in byte ranges of
// several sizes and checks that the ranges together yield exactly the pages,
// dead letters and counts of one sequential read.
func TestSplitReadingEqualsWholeReading(t *testing.T) {
	junk := junkDump(t)
	files := []string{junk, filepath.Join("..", "..", "testdata", "katrina", "katrina-slice.xml"),
		filepath.Join("..", "..", "testdata", "sample", "simplewiki-sample.xml")}
	for _, rel := range []string{"wikiduper/Katrina.xml", "dumpster-dive/tinywiki-latest-pages-articles.xml"} {
		if f, ok := optionalShared(rel); ok {
			files = append(files, f)
		}
	}
	srcs, err := Plan(t.Context(), files)
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range srcs {
		if !src.Splittable {
			t.Fatalf("%s: want a splittable plain file", src.File)
		}
		wantPages, wantDead, wantCounts := readSplits(t, src, 0)
		if len(wantPages) == 0 {
			t.Fatalf("%s: no pages", src.File)
		}
		sizes := []int64{src.Size / 3, 100_000, 16 << 10}
		if src.File == junk {
			sizes = append(sizes, 997, 4999) // every range boundary falls inside pages and junk
		}
		for _, size := range sizes {
			pages, dead, counts := readSplits(t, src, size)
			if !reflect.DeepEqual(pages, wantPages) || !reflect.DeepEqual(dead, wantDead) {
				t.Errorf("%s in ranges of %d: %d pages %d dead, want %d and %d", filepath.Base(src.File), size,
					len(pages), len(dead), len(wantPages), len(wantDead))
			}
			if !reflect.DeepEqual(counts, wantCounts) {
				t.Errorf("%s in ranges of %d: counts %+v, want %+v", filepath.Base(src.File), size, counts, wantCounts)
			}
		}
	}
}

func TestPlan(t *testing.T) {
	dir := t.TempDir()
	truncated := filepath.Join(dir, "cut.xml")
	if err := os.WriteFile(truncated, []byte("<mediawiki><page><title>A</title></page>"), 0o644); err != nil {
		t.Fatal(err)
	}
	fragments := filepath.Join(dir, "fragments.xml")
	if err := os.WriteFile(fragments, []byte("<page><title>A</title></page>"), 0o644); err != nil {
		t.Fatal(err)
	}
	data := sharedData(t)
	tests := []struct {
		file       string
		splittable bool
	}{
		{filepath.Join(data, "wikiduper", "Katrina.xml"), true},
		{fragments, true},
		{truncated, false},
		{filepath.Join(data, "zxmeng-wikidump", "wikidump.part.xml.bz2"), false},
		{filepath.Join(data, "xztextfilter-wiki-truncated", "elwiki-truncated-100k.xml.xz"), false},
	}
	for _, tt := range tests {
		srcs, err := Plan(t.Context(), []string{tt.file})
		if err != nil {
			t.Fatal(err)
		}
		info, _ := os.Stat(tt.file)
		if srcs[0].Splittable != tt.splittable || srcs[0].Size != info.Size() {
			t.Errorf("Plan(%s) = %+v, want splittable %v, size %d", filepath.Base(tt.file), srcs[0], tt.splittable, info.Size())
		}
	}
}
