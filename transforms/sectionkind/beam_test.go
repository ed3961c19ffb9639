package sectionkind_test

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/sectionkind"
)

// TestMain runs the package's pipeline tests on ptest's runner, Prism
// unless --runner says otherwise.
func TestMain(m *testing.M) { ptest.Main(m) }

func init() {
	register.Function2x1(describeTable)
	register.Emitter1[string]()
}

// describeTable emits a line per learned heading of an encoded table, or
// "empty".
func describeTable(b []byte, emit func(string)) error {
	t := new(sectionkind.Table)
	if err := t.UnmarshalBinary(b); err != nil {
		return err
	}
	if t.Len() == 0 {
		emit("empty")
	}
	for _, h := range t.Headings() {
		emit(describe(h))
	}
	return nil
}

func describe(h sectionkind.Heading) string {
	return fmt.Sprintf("%s %q: %d of %d lines, %d pages", h.Wiki, h.Heading, h.Citations, h.Lines, h.Pages)
}

// readDump returns the pages of a dump (up to its cut, for a truncated
// one) and its site.
func readDump(t testing.TB, path string) ([]document.Page, document.Site) {
	t.Helper()
	site, err := dump.ReadSite(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := dump.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	r := dump.NewReader(rc, path, dump.Options{})
	var pages []document.Page
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) || errors.Is(err, dump.ErrTruncated) {
			return pages, site
		}
		var pe *dump.PageError
		if errors.As(err, &pe) {
			continue
		}
		if err != nil {
			t.Fatalf("reading %s: %v", path, err)
		}
		p.Wiki = site.Wiki
		pages = append(pages, p)
	}
}

// learnSerial cleans the pages and learns their table without Beam.
func learnSerial(t testing.TB, pages []document.Page, site document.Site) *sectionkind.Table {
	table, _ := learnSerialEntries(t, pages, site)
	return table
}

// learnSerialEntries is learnSerial, with the summed entries of every
// heading.
func learnSerialEntries(t testing.TB, pages []document.Page, site document.Site) (*sectionkind.Table, []sectionkind.Entry) {
	t.Helper()
	cleaner := clean.Cleaner{Sites: clean.NewSites([]document.Site{site})}
	var c sectionkind.Counter
	citation := categorize.IsCitation
	for _, p := range pages {
		cp, err := cleaner.Clean(p)
		if err != nil {
			t.Fatalf("cleaning page %d: %v", p.ID, err)
		}
		for _, e := range sectionkind.Summarize(cp, citation) {
			c.Add(e)
		}
	}
	entries := c.Take()
	return sectionkind.Build(entries), entries
}

// TestLearnPipeline learns, on Prism, the Greek heading "Προτεινόμενη
// βιβλιογραφία" (suggested bibliography), which the cleaner's list of
// reference headings does not name, from three pages of the Greek
// Wikipedia (testdata/README.md), and nothing else: not the lists of the
// translations of Einstein's works, on one page only, nor any prose
// section. The pipeline learns what the serial loop does.
func TestLearnPipeline(t *testing.T) {
	pages, site := readDump(t, filepath.Join("testdata", "elwiki-bibliography.xml"))
	want := []any{`elwiki "προτεινόμενη βιβλιογραφία": 8 of 8 lines, 3 pages`}

	var serial []any
	for _, h := range learnSerial(t, pages, site).Headings() {
		serial = append(serial, describe(h))
	}
	if fmt.Sprint(serial) != fmt.Sprint(want) {
		t.Fatalf("serial: learned %v, want %v", serial, want)
	}
	for _, workers := range []int{1, 3} {
		p, s := beam.NewPipelineWithRoot()
		cleaned := clean.Pages(s, beam.CreateList(s, pages), clean.Config{Sites: []document.Site{site}, Workers: workers})
		table, counts := sectionkind.Learn(s, cleaned, categorize.IsCitation, sectionkind.Config{Shards: workers, Workers: workers})
		passert.Count(s, table, "tables", 1)
		passert.Equals(s, beam.ParDo(s, describeTable, table), want...)
		passert.Equals(s, counts, counters.Counts{ReferenceSections: 1})
		if err := ptest.Run(p); err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
	}
}

// TestLearnNothing: no page gives exactly one empty table.
func TestLearnNothing(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	table, counts := sectionkind.Learn(s, beam.CreateList(s, []clean.Page{}), categorize.IsCitation, sectionkind.Config{})
	passert.Equals(s, beam.ParDo(s, describeTable, table), "empty")
	passert.Empty(s, counts)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
}

// realDumps are the non-English dumps of ../shared/data, and what must and
// must not be learned from each: headings of bibliographies that the
// cleaner's list does not name, and prose headings. The DBpedia minidumps
// of de and fr say they are enwiki.
var realDumps = []struct {
	path       string
	learned    []string // folded headings that must be learned
	notLearned []string // prose headings that must not be
}{
	{"xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz",
		[]string{"προτεινόμενη βιβλιογραφία", "επιπλέον βιβλιογραφία"},
		[]string{"ιστορία", "γεννήσεις", "θάνατοι", "οικονομία", "δείτε επίσης"}},
	{"xztextfilter-wiki-truncated/jawiki-truncated-100k.xml.xz",
		nil,
		[]string{"歴史", "概要", "サッカー", "作品", "関連項目"}},
	{"xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz",
		[]string{"джерела та література"},
		[]string{"історія", "народились", "померли", "геополітична ситуація", "художники франції", "драматургія"}},
	{"xztextfilter-wiki-truncated/viwiki-truncated-100k.xml.xz",
		[]string{"thư mục", "nguồn tham khảo"},
		[]string{"lịch sử", "sinh", "mất", "kinh tế", "xem thêm"}},
	{"gensim-wiki/bgwiki-latest-pages-articles-shortened.xml.bz2", nil, []string{"вижте също"}},
	{"dbpedia-minidumps/dewiki-minidump.xml.bz2", nil, nil},
	{"dbpedia-minidumps/frwiki-minidump.xml.bz2", nil, []string{"démographie", "culture"}},
	{"dumpster-dive/smallwiki-latest-pages-articles.xml", nil,
		[]string{"viesture", "daudzatmejeiba", "literaruo darbeiba", "škiras"}},
}

// TestRealDumps learns the headings of the non-English dumps in
// ../shared/data, logs them per wiki, and checks that clear bibliographies
// are learned and clear prose is not.
func TestRealDumps(t *testing.T) {
	for _, d := range realDumps {
		t.Run(filepath.Base(d.path), func(t *testing.T) {
			pages, site := readDump(t, testshared.Data(t, d.path))
			table, entries := learnSerialEntries(t, pages, site)
			var lines, near []string
			for _, h := range table.Headings() {
				lines = append(lines, describe(h))
			}
			for _, e := range entries {
				s := e.Stats
				if !s.Learned() && s.Citations >= sectionkind.MinCitations && float64(s.Citations) >= 0.3*float64(s.Lines) {
					near = append(near, fmt.Sprintf("%q: %d of %d lines, %d pages", e.Heading, s.Citations, s.Lines, len(s.Pages)))
				}
			}
			t.Logf("%s (%s, %d pages): %d headings learned\n%s\nnot learned, with at least 30%% citation lines:\n%s",
				d.path, site.Wiki, len(pages), table.Len(), strings.Join(lines, "\n"), strings.Join(near, "\n"))
			for _, h := range d.learned {
				if !table.IsReference(site.Wiki, h) {
					t.Errorf("%q not learned", h)
				}
			}
			for _, h := range d.notLearned {
				if table.IsReference(site.Wiki, h) {
					t.Errorf("prose heading %q learned", h)
				}
			}
		})
	}
}
