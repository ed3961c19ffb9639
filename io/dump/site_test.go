package dump

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/document"
)

const armenianSiteinfo = `<siteinfo>
    <sitename>Վիքիպեդիա</sitename>
    <dbname>hywiki</dbname>
    <base>https://hy.wikipedia.org/wiki/%D4%B3%D5%AC%D5%AD%D5%A1%D5%BE%D5%B8%D6%80_%D5%A7%D5%BB</base>
    <case>first-letter</case>
    <namespaces>
      <namespace key="-2" case="first-letter">Մեդիա</namespace>
      <namespace key="0" case="first-letter" />
      <namespace key="6" case="first-letter">Պատկեր</namespace>
      <namespace key="14" case="first-letter">Կատեգորիա</namespace>
    </namespaces>
  </siteinfo>`

func TestParseSite(t *testing.T) {
	tests := []struct {
		name, file, lang, siteinfo string
		want                       document.Site
	}{{
		name: "armenian", file: "dumps/hywiki-20251101-pages-articles.xml.bz2", lang: "hy", siteinfo: armenianSiteinfo,
		want: document.Site{Wiki: "hywiki", DBName: "hywiki", Lang: "hy", Base: "https://hy.wikipedia.org/wiki/%D4%B3%D5%AC%D5%AD%D5%A1%D5%BE%D5%B8%D6%80_%D5%A7%D5%BB",
			Namespaces: []document.Namespace{{Key: -2, Name: "Մեդիա"}, {Key: 0, Name: ""}, {Key: 6, Name: "Պատկեր"}, {Key: 14, Name: "Կատեգորիա"}}},
	}, {
		name: "language from base when the root has none", file: "x.xml", siteinfo: armenianSiteinfo,
		want: document.Site{Wiki: "hywiki", DBName: "hywiki", Lang: "hy", Base: "https://hy.wikipedia.org/wiki/%D4%B3%D5%AC%D5%AD%D5%A1%D5%BE%D5%B8%D6%80_%D5%A7%D5%BB",
			Namespaces: []document.Namespace{{Key: -2, Name: "Մեդիա"}, {Key: 0, Name: ""}, {Key: 6, Name: "Պատկեր"}, {Key: 14, Name: "Կատեգորիա"}}},
	}, {
		name: "bare pages: wiki and language from the file name", file: "/data/dewiki-20130602-id1.xml",
		want: document.Site{Wiki: "dewiki", Lang: "de", Problems: []string{"dewiki-20130602-id1.xml: no <siteinfo>: canonical namespace names used"}},
	}, {
		name: "bare pages of no known wiki", file: "gs://b/Katrina.xml",
		want: document.Site{Wiki: "Katrina", Problems: []string{"Katrina.xml: no <siteinfo>: canonical namespace names used"}},
	}, {
		name: "malformed siteinfo", file: "frwiki-x.xml", lang: "fr", siteinfo: `<siteinfo><dbname>frwiki</dbname><namespaces><namespace key="6">Fichier</namespaces></siteinfo>`,
		want: document.Site{Wiki: "frwiki", Lang: "fr", Problems: []string{
			"frwiki-x.xml: malformed <siteinfo> (XML syntax error on line 1: element <namespace> closed by </namespaces>): canonical namespace names used"}},
	}, {
		name: "malformed key and unusable dbname", file: "a.xml", lang: "EN", siteinfo: `<siteinfo><dbname>en wiki:1</dbname><namespaces><namespace key="x">Bad</namespace><namespace key="14">Category</namespace></namespaces></siteinfo>`,
		want: document.Site{Wiki: "a", DBName: "en wiki:1", Lang: "en", Namespaces: []document.Namespace{{Key: 14, Name: "Category"}}, Problems: []string{
			`a.xml: unusable <dbname> "en wiki:1": the wiki is named after the file`, `a.xml: namespace with a malformed key "x" ignored`}},
	}, {
		name: "file named like a dump of another wiki", file: "gs://b/dewiki-20250101-pages-articles.xml.bz2", lang: "en", siteinfo: `<siteinfo><dbname>enwiki</dbname><namespaces><namespace key="14">Category</namespace></namespaces></siteinfo>`,
		want: document.Site{Wiki: "enwiki", DBName: "enwiki", Lang: "en", Namespaces: []document.Namespace{{Key: 14, Name: "Category"}}, Problems: []string{
			"dewiki-20250101-pages-articles.xml.bz2 is named like a dump of dewiki but its <dbname> is enwiki"}},
	}, {
		name: "file not named like a dump", file: "dewiki-minidump.xml.bz2", lang: "en", siteinfo: `<siteinfo><dbname>enwiki</dbname><namespaces><namespace key="14">Category</namespace></namespaces></siteinfo>`,
		want: document.Site{Wiki: "enwiki", DBName: "enwiki", Lang: "en", Namespaces: []document.Namespace{{Key: 14, Name: "Category"}}},
	}, {
		name: "no dbname: the wiki is named after the file", file: "enwiki-20260601-pages-articles.xml", lang: "en", siteinfo: `<siteinfo><namespaces><namespace key="14">Category</namespace></namespaces></siteinfo>`,
		want: document.Site{Wiki: "enwiki", Lang: "en", Namespaces: []document.Namespace{{Key: 14, Name: "Category"}}},
	}, {
		name: "no namespaces", file: "w.xml", siteinfo: `<siteinfo><dbname>commonswiki</dbname></siteinfo>`,
		want: document.Site{Wiki: "commonswiki", DBName: "commonswiki", Problems: []string{"w.xml: no <namespaces> in <siteinfo>: canonical namespace names used"}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var si []byte
			if tt.siteinfo != "" {
				si = []byte(tt.siteinfo)
			}
			got := ParseSite(tt.file, tt.lang, si)
			if !sameSite(got, tt.want) {
				t.Errorf("ParseSite =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func sameSite(a, b document.Site) bool {
	return a.Wiki == b.Wiki && a.DBName == b.DBName && a.Lang == b.Lang && a.Base == b.Base &&
		slices.Equal(a.Namespaces, b.Namespaces) && slices.Equal(a.Problems, b.Problems)
}

func TestReaderHeaderThenPages(t *testing.T) {
	doc := `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="hy">` + armenianSiteinfo +
		`<page><title>Ա</title><ns>0</ns><id>7</id><revision><id>70</id><text>Բ։</text></revision></page></mediawiki>`
	r := NewReader(strings.NewReader(doc), "hy.xml", Options{})
	lang, si, err := r.Header()
	if err != nil || lang != "hy" || !strings.Contains(string(si), "<dbname>hywiki</dbname>") {
		t.Fatalf("Header = %q, %q, %v", lang, si, err)
	}
	p, err := r.Next()
	if err != nil || p.ID != 7 || p.RevID != 70 || p.Text != "Բ։" {
		t.Fatalf("Next after Header = %+v, %v", p, err)
	}
}

func TestReadSiteOfTheSample(t *testing.T) {
	s, err := ReadSite(context.Background(), filepath.Join("..", "..", "testdata", "sample", "simplewiki-sample.xml"))
	if err != nil {
		t.Fatal(err)
	}
	want := document.Site{Wiki: "samplewiki", DBName: "samplewiki", Lang: "en", Base: "https://sample.invalid/wiki/Main_Page",
		Namespaces: []document.Namespace{{Key: 0, Name: ""}, {Key: 1, Name: "Talk"}, {Key: 2, Name: "User"}, {Key: 3, Name: "User talk"}, {Key: 10, Name: "Template"}, {Key: 14, Name: "Category"}}}
	if !sameSite(s, want) {
		t.Errorf("ReadSite = %+v, want %+v", s, want)
	}
	if _, err := ReadSite(context.Background(), "testdata/no-such-file.xml"); err == nil {
		t.Error("ReadSite of a missing file: no error")
	}
}

// TestReadSiteOfRealDumps reads the header of compressed dumps of several
// languages.
func TestReadSiteOfRealDumps(t *testing.T) {
	dir := sharedData(t)
	tests := []struct {
		file, wiki, lang, file6, category string
		problems                          int
	}{
		{"xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz", "elwiki", "el", "Αρχείο", "Κατηγορία", 0},
		{"xztextfilter-wiki-truncated/viwiki-truncated-100k.xml.xz", "viwiki", "vi", "Tập tin", "Thể loại", 0},
		{"gensim-wiki/bgwiki-latest-pages-articles-shortened.xml.bz2", "bgwiki", "bg", "Файл", "Категория", 0},
		{"wikiclean-pages/knwiki-20180614-id1.xml", "knwiki", "kn", "ಚಿತ್ರ", "ವರ್ಗ", 0},
		{"dumpster-dive/smallwiki-latest-pages-articles.xml", "ltgwiki", "ltg", "Fails", "Kategoreja", 1}, // named smallwiki
	}
	for _, tt := range tests {
		s, err := ReadSite(context.Background(), filepath.Join(dir, tt.file))
		if err != nil {
			t.Fatal(err)
		}
		n := s.Names()
		if s.Wiki != tt.wiki || s.Lang != tt.lang || !slices.Equal(n[6], []string{tt.file6}) || !slices.Equal(n[14], []string{tt.category}) || len(s.Problems) != tt.problems {
			t.Errorf("%s: %s %s %v %v %v", tt.file, s.Wiki, s.Lang, n[6], n[14], s.Problems)
		}
	}
}

func TestAttribute(t *testing.T) {
	tests := []struct{ tag, name, want string }{
		{`<mediawiki xmlns="x" xml:lang="de" version="0.10"`, "xml:lang", "de"},
		{`<mediawiki xml:lang = 'fr'`, "xml:lang", "fr"},
		{`<mediawiki notxml:lang="fr"`, "xml:lang", ""},
		{`<mediawiki xml:lang="unterminated`, "xml:lang", ""},
		{`<mediawiki>`, "xml:lang", ""},
	}
	for _, tt := range tests {
		if got := attribute([]byte(tt.tag), tt.name); got != tt.want {
			t.Errorf("attribute(%q) = %q, want %q", tt.tag, got, tt.want)
		}
	}
}
