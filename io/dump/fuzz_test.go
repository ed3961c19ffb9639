package dump

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// fuzzSeeds returns small real pages and documents: the testdata fixtures,
// a few small real files when the shared data is there, and edge cases.
func fuzzSeeds(f *testing.F) [][]byte {
	seeds := [][]byte{
		[]byte(mwOpen + page(1, "One", "a &amp; b &#233;") + mwClose),
		[]byte(page(2, "Two", "x") + "junk <pag" + page(3, "Three", "y")),
		[]byte(mwOpen + "<page><title>T</title><id>1</id><redirect title=\"R\" /><revision><id>2</id><text><![CDATA[c]]><!--d--></text></revision></page>"),
		[]byte("<page>\r\n<title>\xff</title><id>1</id>\x01</page></mediawiki>"),
		encodeUTF16(mwOpen+page(4, "Four", "z")+mwClose, false),
	}
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "*.xml"))
	dir := filepath.Join("..", "..", "..", "shared", "data")
	real := []string{"wikiclean-pages/plwiki-test.xml", "wikiclean-pages/enwiki-20120104-id1718.xml"}
	for _, name := range real {
		fixtures = append(fixtures, filepath.Join(dir, name))
	}
	for _, name := range fixtures {
		if data, err := os.ReadFile(name); err == nil {
			seeds = append(seeds, data)
		}
	}
	return seeds
}

// FuzzReader checks that the Reader never panics or loops, that offsets
// only grow, that records come in stream order, that returned text is valid
// UTF-8 and that terminal errors stay.
func FuzzReader(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s, uint16(0))
		f.Add(s, uint16(200))
	}
	f.Fuzz(func(t *testing.T, data []byte, maxPage uint16) {
		r := NewReader(bytes.NewReader(data), "fuzz", Options{MaxPageBytes: int(maxPage)})
		lastOffset, lastRecord := int64(0), int64(-1)
		for calls := 0; ; calls++ {
			if calls > len(data)+2 {
				t.Fatalf("more than %d calls to Next", calls)
			}
			p, err := r.Next()
			if r.Offset() < lastOffset {
				t.Fatalf("Offset went back from %d to %d", lastOffset, r.Offset())
			}
			lastOffset = r.Offset()
			var pe *PageError
			record := int64(-1)
			switch {
			case err == nil:
				record = p.Offset
				if !utf8.ValidString(p.Title) || !utf8.ValidString(p.Text) || !utf8.ValidString(p.Redirect) {
					t.Fatalf("invalid UTF-8 in %+v", p)
				}
			case errors.As(err, &pe):
				record = pe.DeadLetter.Offset
				if !utf8.ValidString(pe.DeadLetter.Title) {
					t.Fatalf("invalid UTF-8 in dead letter %+v", pe.DeadLetter)
				}
			default:
				if _, again := r.Next(); again != err {
					t.Fatalf("Next after %v returned %v", err, again)
				}
				return
			}
			if record <= lastRecord || record >= r.Offset() {
				t.Fatalf("record at %d after one at %d, reader at %d", record, lastRecord, r.Offset())
			}
			lastRecord = record
		}
	})
}

// FuzzParsers checks that whenever the fast parser takes a page,
// encoding/xml accepts it too and finds the same fields.
func FuzzParsers(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		if i := bytes.Index(s, []byte("<page")); i >= 0 {
			if j := bytes.Index(s[i:], []byte("</page>")); j >= 0 {
				f.Add(s[i : i+j+len("</page>")])
			}
		}
	}
	f.Add([]byte(`<page><title>a]]&gt;</title><id>1</id><revision><id>2</id><text a='x' b="&#x10FFFF;">t&apos;</text></revision></page>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		checkParsersAgree(t, page)
	})
}

// FuzzSite checks that reading a header never panics, that Header leaves
// the pages to Next (the same pages as a Reader that never called it), and
// that ParseSite always names the wiki with a name fit for ids.
func FuzzSite(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Add([]byte(`<mediawiki xml:lang="hy">` + armenianSiteinfo + page(1, "A", "b") + mwClose))
	f.Add([]byte(`<mediawiki xml:lang='x'><siteinfo><dbname>a:b</dbname><namespaces><namespace key="q">Z</namespace></namespaces></siteinfo>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data), "fuzz", Options{MaxPageBytes: 1 << 16})
		lang, siteinfo, err := r.Header()
		if err != nil {
			t.Fatalf("Header of an in-memory stream: %v", err)
		}
		s := ParseSite("dir/fuzz-1.xml", lang, siteinfo)
		if !validWikiName(s.Wiki) {
			t.Fatalf("wiki name %q", s.Wiki)
		}
		plain := NewReader(bytes.NewReader(data), "fuzz", Options{MaxPageBytes: 1 << 16})
		for range len(data) + 2 {
			p1, err1 := r.Next()
			p2, err2 := plain.Next()
			if p1 != p2 || (err1 == nil) != (err2 == nil) {
				t.Fatalf("after Header: %+v, %v; without: %+v, %v", p1, err1, p2, err2)
			}
			if err1 != nil && !errors.As(err1, new(*PageError)) {
				return
			}
		}
	})
}
