package dump

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/testkit/testshared"
)

// sharedData returns the directory of the project's real test data, or
// skips the test when it is missing.
func sharedData(t testing.TB) string {
	t.Helper()
	return testshared.Path(t, "data")
}

// readFile reads a real file through Open.
func readFile(t testing.TB, path string, opt Options) outcome {
	t.Helper()
	rc, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	return readAll(t, NewReader(rc, filepath.Base(path), opt))
}

// pageKey is what the real-data tests check of a page.
type pageKey struct {
	Offset int64
	Title  string
	ID     int64
	RevID  int64
	NS     int
}

func keyOf(p document.Page) pageKey { return pageKey{p.Offset, p.Title, p.ID, p.RevID, p.NS} }

// The expected values were checked against an independent reading of each
// file: every raw <page>...</page> span parsed alone by Python's
// xml.etree (expat) after replacing invalid UTF-8.
var realFiles = []struct {
	path      string
	pages     int
	dead      int
	redirects int
	first     pageKey
	last      pageKey
	truncated int64 // offset of the TruncatedError, or -1 for io.EOF
}{
	{"wikiduper/Katrina.xml", 93, 0, 47,
		pageKey{2374, "Timeline of Hurricane Katrina", 2615904, 550523753, 0},
		pageKey{1043367, "Hurricane Katrina warning", 37468328, 520136278, 0}, -1},
	{"gensim-wiki/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2", 206, 0, 100,
		pageKey{2917, "AccessibleComputing", 10, 631144794, 0},
		pageKey{5988611, "Algorithm", 775, 717822654, 0}, -1},
	{"gensim-wiki/enwiki-table-markup.xml.bz2", 5, 0, 0,
		pageKey{255, "Constructive vote of no confidence", 217916, 807605030, 0},
		pageKey{237774, "Brahui language", 4702, 817542197, 0}, -1},
	{"gensim-wiki/bgwiki-latest-pages-articles-shortened.xml.bz2", 3, 0, 0, // UTF-16LE with BOM
		pageKey{2707, "Григориански календар", 558, 7862180, 0},
		pageKey{34403, "Уикипедия:Разговори/Архив/2005/октомври-ноември-декември", 560, 6885350, 4}, -1},
	{"dbpedia-minidumps/enwiki-minidump.xml.bz2", 27, 0, 2,
		pageKey{2850, "? (film)", 33653136, 1020153604, 0},
		pageKey{1480510, "Vehicle registration plates of China", 885283, 1056106514, 0}, -1},
	{"dbpedia-minidumps/dewiki-minidump.xml.bz2", 2, 0, 0,
		pageKey{2850, "Arthur Schopenhauer", 182, 215649691, 0},
		pageKey{81558, "Berlin", 2552494, 215513012, 0}, -1},
	{"dbpedia-minidumps/frwiki-minidump.xml.bz2", 3, 0, 0,
		pageKey{2850, "Antoine Meillet", 3, 178616178, 0},
		pageKey{72790, "Berlin", 7221, 185374317, 0}, -1},
	{"wikipedia2vec/enwiki-pages-articles-sample.xml.bz2", 3, 0, 1,
		pageKey{2603, "AccessibleComputing", 10, 631144794, 0},
		pageKey{29257, "Accessibility", 302109, 626601064, 0}, -1},
	{"dumpster-dive/tinywiki-latest-pages-articles.xml", 8, 0, 0,
		pageKey{990, "Hello", 1, 29433, 0},
		pageKey{10336, "Bodmin", 1, 29523433, 0}, -1},
	{"dumpster-dive/smallwiki-latest-pages-articles.xml", 2004, 0, 195,
		pageKey{2301, "Suoku puslopa", 1, 29433, 0},
		pageKey{3683501, "Bangkoka masu ātrais transports", 3332, 32129, 0}, -1},
	{"wikiclean-pages/article-stubs.xml.bz2", 5, 0, 0, // bare fragments, no revisions
		pageKey{2, "Article1", 1, 0, 0},
		pageKey{310, "Article5", 5, 0, 0}, -1},
	{"wikimedia-dumps-testfiles/pages-articles-sample1.xml.bz2", 8, 0, 0,
		pageKey{2303, "MediaWiki:Aboutsite/bn", 1, 1, 8},
		pageKey{73740, "Q223557", 4329, 5997, 0}, -1},
	{"wikimedia-dumps-testfiles/pages-articles-sample2.xml-p4351p4380.bz2", 2, 0, 0,
		pageKey{2303, "Property:P155", 4366, 9326, 122},
		pageKey{57924, "Property:P172", 4367, 9327, 122}, -1},
	{"wikimedia-dumps-testfiles/pages-articles-sample3.xml-p4446p4600.bz2", 1, 0, 0,
		pageKey{2303, "Q12", 4450, 9409, 0},
		pageKey{2303, "Q12", 4450, 9409, 0}, -1},
	{"wikimedia-dumps-testfiles/pages-articles-sample4.xml.bz2", 4, 0, 1,
		pageKey{2303, "P18", 5331, 6685, 120},
		pageKey{39527, "Property:P27", 5344, 9304, 122}, -1},
	// Empty split files: a header whose <mediawiki> is never closed.
	{"wikimedia-dumps-testfiles/pages-articles-sample4.xml-p4606p5340.bz2", 0, 0, 0, pageKey{}, pageKey{}, 2301},
	{"wikimedia-dumps-testfiles/pages-articles-sample4.xml-p5341p5345.bz2", 0, 0, 0, pageKey{}, pageKey{}, 2301},
	// Cut after 100,000 lines: the last page is incomplete.
	{"xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz", 933, 0, 26,
		pageKey{2953, "Βικιπαίδεια:Upload log", 1, 3101087, 4},
		pageKey{15415410, "17 Μαρτίου", 1488, 9842612, 0}, 15427095},
	{"xztextfilter-wiki-truncated/jawiki-truncated-100k.xml.xz", 238, 0, 27,
		pageKey{2755, "Wikipedia:アップロードログ/2004年4月", 1, 80312331, 4},
		pageKey{10226897, "Help:目次", 452, 92281957, 12}, 10231949},
	{"xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz", 532, 0, 16,
		pageKey{3013, "Esperanto", 2, 7186485, 0},
		pageKey{13570883, "1701", 1218, 28407859, 0}, 13582586},
	{"xztextfilter-wiki-truncated/viwiki-truncated-100k.xml.xz", 970, 0, 154,
		pageKey{2666, "Alexandre De Rhodes", 1, 25321654, 0},
		pageKey{15181201, "Tiệp", 2092, 68687584, 0}, 15181905},
	// Corrupt on purpose: 201 "<page>" tags, 200 "</page>", no </mediawiki>.
	{"zxmeng-wikidump/wikidump.part.xml.bz2", 154, 47, 94,
		pageKey{2402, "AccessibleComputing", 10, 381202555, 0},
		pageKey{4786344, "Albania/History", 755, 179567678, 0}, 4787091},
}

func TestRealFiles(t *testing.T) {
	dir := sharedData(t)
	for _, tt := range realFiles {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			if strings.HasSuffix(tt.path, ".xz") {
				t.Parallel() // xz decoding dominates the package's test time
			}
			res := readFile(t, filepath.Join(dir, tt.path), Options{})
			redirects := 0
			for _, p := range res.pages {
				if p.Redirect != "" {
					redirects++
				}
				if !utf8.ValidString(p.Text) || !utf8.ValidString(p.Title) {
					t.Errorf("page %q: invalid UTF-8", p.Title)
				}
			}
			if len(res.pages) != tt.pages || len(res.dead) != tt.dead || redirects != tt.redirects {
				t.Errorf("pages %d, dead %d, redirects %d; want %d, %d, %d",
					len(res.pages), len(res.dead), redirects, tt.pages, tt.dead, tt.redirects)
			}
			if len(res.pages) > 0 {
				if got := keyOf(res.pages[0]); got != tt.first {
					t.Errorf("first page %+v, want %+v", got, tt.first)
				}
				if got := keyOf(res.pages[len(res.pages)-1]); got != tt.last {
					t.Errorf("last page %+v, want %+v", got, tt.last)
				}
			}
			var te *TruncatedError
			switch {
			case tt.truncated < 0 && res.end != io.EOF:
				t.Errorf("end = %v, want io.EOF", res.end)
			case tt.truncated >= 0 && !errors.As(res.end, &te):
				t.Errorf("end = %v, want truncation at %d", res.end, tt.truncated)
			case tt.truncated >= 0 && te.Offset != tt.truncated:
				t.Errorf("truncated at %d, want %d", te.Offset, tt.truncated)
			}
		})
	}
}

func TestRealRedirectAndText(t *testing.T) {
	dir := sharedData(t)
	res := readFile(t, filepath.Join(dir, "wikipedia2vec/enwiki-pages-articles-sample.xml.bz2"), Options{})
	if len(res.pages) != 3 {
		t.Fatalf("%d pages", len(res.pages))
	}
	p := res.pages[0]
	if p.Redirect != "Computer accessibility" || !strings.HasPrefix(p.Text, "#REDIRECT [[Computer accessibility]]") {
		t.Errorf("redirect %q, text %q", p.Redirect, p.Text)
	}
	// Text lengths in runes, as counted by the independent reading.
	if n0, n2 := utf8.RuneCountInString(p.Text), utf8.RuneCountInString(res.pages[2].Text); n0 != 69 || n2 != 51960 {
		t.Errorf("texts of %d and %d runes, want 69 and 51960", n0, n2)
	}
}

// TestZxmengDeadLetters checks the dead letters of the corrupt file against
// what reading it shows: junk after </siteinfo> is skipped, 45 bad pages
// are broken inside (cut entities, mangled tags), and one page is cut by the
// next "<page>", whose own remainder is malformed and has lost its id and
// title.
func TestZxmengDeadLetters(t *testing.T) {
	dir := sharedData(t)
	res := readFile(t, filepath.Join(dir, "zxmeng-wikidump/wikidump.part.xml.bz2"), Options{})
	if len(res.dead) != 47 {
		t.Fatalf("%d dead letters, want 47", len(res.dead))
	}
	want := map[int]document.DeadLetter{
		0: {File: "wikidump.part.xml.bz2", Offset: 3193, PageID: 12, Title: "Anarchism",
			Reason: "malformed XML: XML syntax error on line 54: invalid character entity &gtadical (no semicolon)"},
		8: {File: "wikidump.part.xml.bz2", Offset: 824315, PageID: 316,
			Reason: "malformed XML: XML syntax error on line 2: invalid characters between </formatign and >"},
		16: {File: "wikidump.part.xml.bz2", Offset: 1580462, PageID: 589, Title: "Ashmore And Cartier Islands",
			Reason: "page not closed before the next <page>"},
		17: {File: "wikidump.part.xml.bz2", Offset: 1580562,
			Reason: "malformed XML: XML syntax error on line 18: element <title> closed by </page>"},
		46: {File: "wikidump.part.xml.bz2", Offset: 4715090, PageID: 752, Title: "Art",
			Reason: "malformed XML: XML syntax error on line 14: invalid characters between </usernamr and >"},
	}
	for i, w := range want {
		if res.dead[i] != w {
			t.Errorf("dead letter %d:\n got %+v\nwant %+v", i, res.dead[i], w)
		}
	}
	withID := 0
	for _, d := range res.dead {
		if d.PageID != 0 {
			withID++
		}
	}
	if withID != 46 {
		t.Errorf("%d dead letters with a page id, want 46", withID)
	}
}

func TestWikicleanFragments(t *testing.T) {
	dir := sharedData(t)
	tests := []struct {
		file  string
		title string
		id    int64
		revID int64
	}{
		{"brwiki-test.xml", "Skiantoù an Ditour hag al Levraouegoù", 1180, 1345743},
		{"cawiki-test.xml", "Aikido", 20, 10375367},
		{"dewiki-20130602-id1.xml", "Alan Smithee", 1, 115887164},
		{"dewiki-20130602-id111.xml", "Ampere", 111, 118550998},
		{"dewiki-20130602-id5.xml", "Ang Lee", 5, 117964509},
		{"dewiki-20130602-id81.xml", "Anime", 81, 118720961},
		{"dewiki-20130602-id89.xml", "The Visitors", 89, 117401207},
		{"elwiki-test.xml", "Αθλητισμός", 20, 3756342},
		{"enwiki-20120104-id12.xml", "Anarchism", 12, 469305320},
		{"enwiki-20120104-id1718.xml", "Ambrosiaster", 1718, 429617686},
		{"enwiki-20120104-id290.xml", "A", 290, 468893156},
		{"enwiki-20120104-id303.xml", "Alabama", 303, 469374360},
		{"enwiki-20120104-id39.xml", "Albedo", 39, 466581374},
		{"enwiki-20120104-id586.xml", "ASCII", 586, 468335443},
		{"enwiki-20120104-id655.xml", "Abacus", 655, 469300300},
		{"eowiki-test.xml", "Aŭgusteno de Hipono", 4, 4743480},
		{"eswiki-test.xml", "Demografía de Andorra", 17, 60521300},
		{"frwiki-20121230-id3.xml", "Antoine Meillet", 3, 85972862},
		{"glwiki-test.xml", "Cambados", 3534, 2689672},
		{"itwiki-test.xml", "Antropologia", 3, 54689295},
		{"knwiki-20180614-id1.xml", "ಶಿವಮೊಗ್ಗ", 802, 829476},
		{"nlwiki-test.xml", "Alan Turing", 8, 33545310},
		{"plwiki-test.xml", "Aleksandr Borodin", 379, 31268017},
		{"ptwiki-test.xml", "Astronomia", 220, 33088353},
		{"ruwiki-test.xml", "Литва", 7, 50940663},
		{"simplewiki-20161220-id6.xml", "Art", 6, 5508105},
		{"ukwiki-test.xml", "Атом", 584, 11275966},
		{"zhwiki-20150423-id13.xml", "数学", 13, 33491796},
	}
	for _, tt := range tests {
		res := readFile(t, filepath.Join(dir, "wikiclean-pages", tt.file), Options{})
		if len(res.pages) != 1 || len(res.dead) != 0 || res.end != io.EOF {
			t.Errorf("%s: %d pages, %d dead, end %v; want 1 page and io.EOF", tt.file, len(res.pages), len(res.dead), res.end)
			continue
		}
		p := res.pages[0]
		if p.Title != tt.title || p.ID != tt.id || p.RevID != tt.revID || p.NS != 0 || p.Text == "" {
			t.Errorf("%s: got %q %d %d ns %d, want %q %d %d", tt.file, p.Title, p.ID, p.RevID, p.NS, tt.title, tt.id, tt.revID)
		}
	}
}

// TestFastParserOnRealPages checks, page by page on clean real dumps, that
// the fast parser takes nearly every page and then agrees with
// encoding/xml.
func TestFastParserOnRealPages(t *testing.T) {
	dir := sharedData(t)
	for _, tt := range []struct {
		name        string
		total, fast int
	}{
		{"wikiduper/Katrina.xml", 93, 93},
		{"dumpster-dive/smallwiki-latest-pages-articles.xml", 2004, 2004},
		{"dumpster-dive/tinywiki-latest-pages-articles.xml", 8, 6}, // 2 pages hold raw XML comments
		{"gensim-wiki/enwiki-table-markup.xml.bz2", 5, 5},
		{"zxmeng-wikidump/wikidump.part.xml.bz2", 201, 154}, // the 154 good pages
	} {
		name := tt.name
		rc, err := Open(context.Background(), filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		r := NewReader(rc, name, Options{})
		total, fast := 0, 0
		for {
			_, err := r.Next()
			var pe *PageError
			if err != nil && !errors.As(err, &pe) {
				break
			}
			if pe != nil && r.overflow {
				continue
			}
			total++
			if checkParsersAgree(t, r.record) {
				fast++
			}
		}
		rc.Close()
		if total != tt.total || fast != tt.fast {
			t.Errorf("%s: fast parser took %d of %d pages, want %d of %d", name, fast, total, tt.fast, tt.total)
		}
	}
}

// checkParsersAgree parses page with both parsers and reports whether the
// fast one took it; if it did, encoding/xml must give the same result.
func checkParsersAgree(t testing.TB, page []byte) bool {
	t.Helper()
	if !utf8.Valid(page) {
		return false
	}
	var fb, xb builder
	var fp fastParser
	if !fp.parse(page, &fb) {
		return false
	}
	fastFields, fastErr := fb.result()
	if err := parseXML(page, &xb); err != nil {
		t.Fatalf("fast parser took a page encoding/xml rejects (%v):\n%q", err, page)
	}
	xmlFields, xmlErr := xb.result()
	if fastFields != xmlFields || errString(fastErr) != errString(xmlErr) {
		t.Fatalf("parsers disagree on\n%q\nfast: %+v %v\n xml: %+v %v", page, fastFields, fastErr, xmlFields, xmlErr)
	}
	return true
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
