package dump

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
)

// readOnce runs the read DoFn over one file as a runner would for one
// bundle, and returns everything it emitted.
func readOnce(t *testing.T, fn *readFn, file string) ([]document.Page, []document.DeadLetter, []counters.Counts) {
	t.Helper()
	var pages []document.Page
	var dead []document.DeadLetter
	var counts []counters.Counts
	emitPage := func(p document.Page) { pages = append(pages, p) }
	emitDead := func(d document.DeadLetter) { dead = append(dead, d) }
	emitCounts := func(c counters.Counts) { counts = append(counts, c) }
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
func readSplits(t *testing.T, src Source, splitBytes int64) ([]document.Page, []document.DeadLetter, counters.Counts) {
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

// planSite plans file as the pipeline does: Plan, then ReadSite for the
// namespaces of its header.
func planSite(t *testing.T, file string) Source {
	t.Helper()
	srcs, err := Plan(t.Context(), []string{file})
	if err != nil {
		t.Fatal(err)
	}
	site, err := ReadSite(t.Context(), file)
	if err != nil {
		t.Fatal(err)
	}
	srcs[0].Wiki, srcs[0].Namespaces = site.Wiki, site.Namespaces
	return srcs[0]
}

// TestOldSchemaSplitsLikeWhole reads an export of schema 0.3 (pages without
// <ns>) whole and in byte ranges: every range derives the namespaces of
// its pages from the header's names, as the first does.
func TestOldSchemaSplitsLikeWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.3/" version="0.3" xml:lang="de">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <namespaces>
      <namespace key="0" />
      <namespace key="1">Diskussion</namespace>
      <namespace key="2">Benutzer</namespace>
      <namespace key="4">Wikipedia</namespace>
      <namespace key="14">Kategorie</namespace>
    </namespaces>
  </siteinfo>
`)
	prefixes := []string{"", "Diskussion:", "Benutzer:", "Wikipedia:", "Kategorie:", "kategorie:", "Unbekannt:"}
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&b, "  <page>\n    <title>%sSeite %d</title>\n    <id>%d</id>\n    <revision>\n      <id>%d</id>\n"+
			"      <text xml:space=\"preserve\">%s</text>\n    </revision>\n  </page>\n",
			prefixes[i%len(prefixes)], i, i, 1000+i, strings.Repeat("Text. ", 20+i%13))
	}
	b.WriteString("</mediawiki>\n")
	file := writeTemp(t, "dewiki-20050101-pages.xml", []byte(b.String()))
	src := planSite(t, file)
	if !src.Splittable || len(src.Namespaces) != 5 {
		t.Fatalf("planned %+v: want a splittable file with the header's 5 namespaces", src)
	}
	whole, _, _ := readSplits(t, src, 0)
	ns := map[int]int{}
	for _, p := range whole {
		ns[p.NS]++
	}
	if len(whole) != 200 || !reflect.DeepEqual(ns, map[int]int{0: 56, 1: 29, 2: 29, 4: 29, 14: 57}) {
		t.Fatalf("whole file: %d pages, by namespace %v", len(whole), ns)
	}
	for _, size := range []int64{src.Size / 3, 4999, 1024} {
		pages, dead, _ := readSplits(t, src, size)
		if !reflect.DeepEqual(pages, whole) || len(dead) != 0 {
			t.Errorf("ranges of %d bytes give other pages (%d, %d dead letters) than the whole file", size, len(pages), len(dead))
		}
	}
	// Kept pages (namespace 0) are the same too.
	fn := func(split int64) int {
		pages, _, c := readSplitsKeeping(t, src, split, []int{0})
		if c.PagesKept != int64(len(pages)) {
			t.Fatalf("kept %d, emitted %d", c.PagesKept, len(pages))
		}
		return len(pages)
	}
	if a, b := fn(0), fn(1024); a != b || a != 56 {
		t.Errorf("kept %d pages whole, %d in ranges; want 56", a, b)
	}
}

// readSplitsKeeping reads every initial split of src with its own tracker,
// as parallel workers would, keeping the pages of namespaces (all if nil),
// and returns what they emitted, in split order.
func readSplitsKeeping(t *testing.T, src Source, splitBytes int64, namespaces []int) ([]document.Page, []document.DeadLetter, counters.Counts) {
	t.Helper()
	fn := &readFn{ReadOptions: ReadOptions{SplitBytes: splitBytes, Namespaces: namespaces}}
	var pages []document.Page
	var dead []document.DeadLetter
	var total counters.Counts
	for _, rest := range fn.SplitRestriction(src, fn.CreateInitialRestriction(src)) {
		rt := fn.CreateTracker(rest)
		emitPage := func(p document.Page) { pages = append(pages, p) }
		emitDead := func(d document.DeadLetter) { dead = append(dead, d) }
		emitCounts := func(c counters.Counts) { total.Merge(c) }
		fn.StartBundle(t.Context(), emitPage, emitDead, emitCounts)
		if err := fn.ProcessElement(t.Context(), rt, src, emitPage, emitDead, emitCounts); err != nil {
			t.Fatalf("range %v: %v", rest, err)
		}
		if !rt.IsDone() {
			t.Fatalf("range %v not done", rest)
		}
		fn.FinishBundle(t.Context(), emitPage, emitDead, emitCounts)
	}
	return pages, dead, total
}

// TestFilesThatAreNotDumps: a file with data but nothing of a dump (no
// <page>, no <mediawiki>, no <siteinfo>) is one dead letter, counted in
// files_not_dumps, whether read whole or in ranges; an empty file, or a dump
// with a header and no pages, is not.
func TestFilesThatAreNotDumps(t *testing.T) {
	dump := mwOpen + page(1, "One", "text") + mwClose
	var utf16LE []byte
	for _, u := range utf16.Encode([]rune(dump)) {
		utf16LE = append(utf16LE, byte(u), byte(u>>8))
	}
	readme := strings.Repeat("This directory holds the dumps. Give them to the pipeline with --input.\n", 200)
	tests := []struct {
		name string
		data []byte
		head string // the first bytes the dead letter shows; "" for no dead letter
	}{
		{"README", []byte(readme), "This directory holds the dumps. "},
		{"pages.jsonl.gz", gzipMembers(t, []byte(`{"title": "One", "text": "a <b>bold</b> page"}`+"\n")), `{"title": "One", "text": "a <b>b`},
		{"utf16-no-bom.xml", utf16LE, string(utf16LE[:32])},
		{"spaces-then-junk.xml", []byte("\n\n   \tjunk"), "junk"},
		{"empty.xml", nil, ""},
		{"spaces.xml", []byte(" \n\t\n"), ""},
		{"root-no-pages.xml", []byte(mwOpen + "<siteinfo><sitename>W</sitename></siteinfo>\n" + mwClose), ""},
		{"siteinfo-only.xml", []byte("<siteinfo><sitename>W</sitename></siteinfo>\n"), ""},
		{"fragments.xml", []byte(page(1, "One", "text")), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := writeTemp(t, tt.name, tt.data)
			src := planSite(t, file)
			for _, split := range []int64{0, 100, 1000} {
				pages, dead, c := readSplits(t, src, split)
				if tt.head == "" {
					if len(dead) != 0 || c.FilesNotDumps != 0 {
						t.Errorf("split %d: dead letters %+v, counts %+v: want none", split, dead, c)
					}
					continue
				}
				want := []document.DeadLetter{{File: file, Reason: fmt.Sprintf(
					"no pages found: %s does not look like a MediaWiki XML dump (first bytes: %q)", file, tt.head)}}
				if len(pages) != 0 || !reflect.DeepEqual(dead, want) || c.FilesNotDumps != 1 || c.DeadLetters != 1 || c.FilesRead != 1 {
					t.Errorf("split %d: %d pages, dead letters %+v, counts %+v; want the dead letter %+v", split, len(pages), dead, c, want[0])
				}
			}
		})
	}
}

// TestDirectoryRefusedAtPlanning: a directory named like a dump is refused
// before any work, with an error naming it.
func TestDirectoryRefusedAtPlanning(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x.xml.bz2")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Plan(t.Context(), []string{dir})
	if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("Plan(%s) = %v, want an error saying it is a directory", dir, err)
	}
}

// TestSectionsSplitLikeWhole reads a file whose pages hold CDATA sections
// and comments with page tags in them, whole and in byte ranges cut
// everywhere: no range reads a phantom page out of them.
func TestSectionsSplitLikeWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString(mwOpen)
	for i := 1; i <= 30; i++ {
		phantom := fmt.Sprintf("</page>\n  <page><title>Phantom %d</title><ns>0</ns><id>%d</id><revision><id>%d</id><text>boo</text></revision></page>\n  ", i, 900+i, 9000+i)
		text := "before " + strings.Repeat("x", i*7)
		switch i % 3 {
		case 0:
			text += "<![CDATA[" + phantom + "]]>"
		case 1:
			text += "<!--" + phantom + "-->"
		}
		b.WriteString(page(i, fmt.Sprintf("P%d", i), text+" after"))
	}
	b.WriteString(mwClose)
	file := writeTemp(t, "sections.xml", []byte(b.String()))
	src := planSite(t, file)
	whole, wholeDead, wholeCounts := readSplits(t, src, 0)
	if len(whole) != 30 || len(wholeDead) != 0 {
		t.Fatalf("whole: %q, dead %+v", titles(whole), wholeDead)
	}
	for size := int64(37); size < 700; size += 41 {
		pages, dead, c := readSplits(t, src, size)
		if !reflect.DeepEqual(titles(pages), titles(whole)) || len(dead) != 0 || !reflect.DeepEqual(c, wholeCounts) {
			t.Errorf("ranges of %d: %q, dead %+v", size, titles(pages), dead)
		}
	}
}

// TestDrainRedirects checks that Filter.Redirects emits the redirect pages
// of the kept namespaces, stamped, and counts
// exactly what a read without it counts.
func TestDrainRedirects(t *testing.T) {
	const in = `<mediawiki><page><title>Ivory Coast</title><ns>0</ns><id>1</id><revision><id>11</id><text>The [[Ivory Coast]] is a country.</text></revision></page>
<page><title>Côte d'Ivoire</title><ns>0</ns><id>2</id><redirect title="Ivory Coast" /><revision><id>12</id><text>#REDIRECT [[Ivory Coast]]</text></revision></page>
<page><title>Help:Redirect</title><ns>12</ns><id>3</id><redirect title="Help:Contents" /><revision><id>13</id><text>#REDIRECT [[Help:Contents]]</text></revision></page>
</mediawiki>`
	read := func(f Filter) ([]document.Page, counters.Counts) {
		var pages []document.Page
		var c counters.Counts
		r := NewReader(strings.NewReader(in), "f.xml", Options{})
		err := Drain(r, "f.xml", f, func(int64) bool { return true }, &c, func(p document.Page) { pages = append(pages, p) }, func(document.DeadLetter) {})
		if err != nil {
			t.Fatal(err)
		}
		return pages, c
	}
	plain, want := read(Filter{Namespaces: []int{0}, Wiki: "enwiki"})
	pages, got := read(Filter{Namespaces: []int{0}, Wiki: "enwiki", Redirects: true})
	if !reflect.DeepEqual(got, want) || want.Redirects != 1 || want.PagesKept != 1 || want.PagesSkippedNamespace != 1 {
		t.Errorf("counts with redirects %+v, without %+v; want 1 kept, 1 redirect, 1 skipped in both", got, want)
	}
	if len(plain) != 1 || len(pages) != 2 {
		t.Fatalf("%d pages without redirects, %d with; want 1 and 2", len(plain), len(pages))
	}
	if r := pages[1]; r.Title != "Côte d'Ivoire" || r.Redirect != "Ivory Coast" || r.Wiki != "enwiki" || r.Text != "#REDIRECT [[Ivory Coast]]" || r.RevID != 12 {
		t.Errorf("redirect page %+v", r)
	}
	if !reflect.DeepEqual(pages[0], plain[0]) {
		t.Errorf("the article read with redirects %+v, without %+v", pages[0], plain[0])
	}
}
