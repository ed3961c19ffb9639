package wikitext

import (
	"bytes"
	"compress/bzip2"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/neardup/neardup/testkit/testshared"
	"github.com/ulikunitz/xz"
)

// dumpFile is what a test reads of a dump: the namespace names of its
// <siteinfo> (empty if it has none) and its main-namespace pages.
type dumpFile struct {
	namespaces map[int][]string
	pages      []wikiPage
}

// readDump reads a plain, .bz2 or .xz XML dump. A dump cut short (the
// truncated samples) ends at the last complete page.
func readDump(tb testing.TB, path string) dumpFile {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	var r io.Reader = f
	switch filepath.Ext(path) {
	case ".bz2":
		r = bzip2.NewReader(f)
	case ".xz":
		if r, err = xz.NewReader(f); err != nil {
			tb.Fatalf("xz %s: %v", path, err)
		}
	}
	data, err := io.ReadAll(r)
	if err != nil {
		tb.Logf("%s: read up to %d bytes: %v", path, len(data), err)
	}
	return decodeDump(tb, xml.NewDecoder(bytes.NewReader(fromUTF16(data))))
}

// fromUTF16 transcodes data to UTF-8 if it starts with a UTF-16LE byte
// order mark (as the bgwiki sample does).
func fromUTF16(data []byte) []byte {
	if len(data) < 2 || data[0] != 0xff || data[1] != 0xfe {
		return data
	}
	units := make([]uint16, (len(data)-2)/2)
	for i := range units {
		units[i] = uint16(data[2+2*i]) | uint16(data[3+2*i])<<8
	}
	return []byte(string(utf16.Decode(units)))
}

func decodeDump(tb testing.TB, d *xml.Decoder) dumpFile {
	tb.Helper()
	dump := dumpFile{namespaces: map[int][]string{}}
	var title string
	ns := 0
	for {
		tok, err := d.Token()
		if err != nil {
			if err != io.EOF {
				tb.Logf("dump ends: %v", err)
			}
			return dump
		}
		start, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		var s string
		switch start.Name.Local {
		case "namespace", "title", "ns", "text":
			if err := d.DecodeElement(&s, &start); err != nil {
				tb.Logf("dump ends: %v", err)
				return dump
			}
		case "page":
			ns = 0
			continue
		default:
			continue
		}
		switch start.Name.Local {
		case "namespace":
			for _, a := range start.Attr {
				if k, err := strconv.Atoi(a.Value); a.Name.Local == "key" && err == nil && s != "" {
					dump.namespaces[k] = append(dump.namespaces[k], s)
				}
			}
		case "title":
			title = s
		case "ns":
			ns, _ = strconv.Atoi(strings.TrimSpace(s))
		case "text":
			if ns == 0 {
				dump.pages = append(dump.pages, wikiPage{title: title, text: s})
			}
		}
	}
}

// langOf returns the language code of a dump file named like
// "elwiki-truncated-100k.xml.xz".
func langOf(path string) string {
	lang, _, _ := strings.Cut(filepath.Base(path), "wiki")
	return lang
}

// TestSiteRealDumps cleans the main-namespace pages of non-English dumps
// with a Site built from each dump's own <siteinfo> (or from its language
// alone when it has none) and checks that no namespace-prefixed link text
// survives.
func TestSiteRealDumps(t *testing.T) {
	dir := testshared.Path(t, "data")
	var files []string
	for _, pattern := range []string{
		"xztextfilter-wiki-truncated/*wiki-truncated-100k.xml.xz",
		"wikiclean-pages/*wiki-*.xml",
		"gensim-wiki/bgwiki-*.bz2",
		"dbpedia-minidumps/dewiki-minidump.xml.bz2",
		"dbpedia-minidumps/frwiki-minidump.xml.bz2",
	} {
		m, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 30 {
		t.Fatalf("found %d dumps, want at least 30", len(files))
	}
	for _, file := range files {
		lang := langOf(file)
		if lang == "en" || lang == "simple" {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			dump := readDump(t, file)
			if len(dump.pages) == 0 {
				t.Fatal("no pages")
			}
			site := NewSite(lang, dump.namespaces)
			banned := bannedPrefixes(dump.namespaces)
			var c Cleaner
			c.SetSite(site)
			paragraphs := 0
			for _, p := range dump.pages {
				for _, para := range c.Clean(p.text) {
					paragraphs++
					for _, b := range banned {
						if strings.Contains(para.Text, b) && !literalPrefix[p.title+" "+b] {
							t.Errorf("%s: %q survives in %q", p.title, b, para.Text)
						}
					}
				}
			}
			t.Logf("%d pages, %d paragraphs, namespaces %v", len(dump.pages), paragraphs, banned)
		})
	}
}

// literalPrefix lists the pages (title, space, banned text) where the
// banned text is plain text of the source, not a link: the cleaner rightly
// keeps it.
var literalPrefix = map[string]bool{
	// A <ref> body holding a local file URL written "ファイル:///C:/...".
	"秋田県 ファイル:": true,
	// The sample has a pre-processed line "|File:Flag of Belarus (...).svg|".
	"Білорусь File:": true,
}

// bannedPrefixes returns the texts that must not appear in cleaned
// paragraphs: the local names of namespaces -2, 6 and 14 followed by a
// colon, "thumb|", and the canonical "Category:", "File:" and "Image:".
func bannedPrefixes(namespaces map[int][]string) []string {
	banned := []string{"thumb|", "Category:", "File:", "Image:"}
	for _, key := range []int{NamespaceMedia, NamespaceFile, NamespaceCategory} {
		for _, name := range namespaces[key] {
			banned = append(banned, name+":")
		}
	}
	return banned
}

func TestDecodeDumpSiteinfo(t *testing.T) {
	const in = `<mediawiki><siteinfo><namespaces>
<namespace key="-2" case="first-letter">Մեդիա</namespace>
<namespace key="0" case="first-letter" />
<namespace key="6" case="first-letter">Պատկեր</namespace>
<namespace key="14" case="first-letter">Կատեգորիա</namespace>
</namespaces></siteinfo>
<page><title>Ա</title><ns>0</ns><revision><text>x [[Կատեգորիա:Բ]]</text></revision></page>
<page><title>Կաղապար:Գ</title><ns>10</ns><revision><text>y</text></revision></page>
</mediawiki>`
	dump := decodeDump(t, xml.NewDecoder(strings.NewReader(in)))
	if got := dump.namespaces[14]; len(got) != 1 || got[0] != "Կատեգորիա" {
		t.Errorf("namespace 14 = %q", got)
	}
	if len(dump.namespaces[0]) != 0 || len(dump.pages) != 1 || dump.pages[0].title != "Ա" {
		t.Errorf("got %+v", dump)
	}
}
