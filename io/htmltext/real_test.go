package htmltext_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/neardup/neardup/io/htmltext"
	"github.com/neardup/neardup/io/htmltext/internal/warcpages"
	"github.com/neardup/neardup/testkit/testshared"
	"golang.org/x/text/language"
)

// htmlPages returns the HTML responses of the shared WARC file name, or
// skips the test without ../shared.
func htmlPages(tb testing.TB, name string) []warcpages.Page {
	tb.Helper()
	pages, err := warcpages.Read(testshared.Data(tb, "commoncrawl-warc/"+name))
	if err != nil {
		tb.Fatal(err)
	}
	return pages
}

func TestRealPages(t *testing.T) {
	for _, tc := range []struct {
		file, url string
		kept      []string // sentences that must be in the paragraphs
		dropped   []string // navigation strings that must not
	}{
		{
			file: "ukwa-wikipedia-main-page-2012.warc.gz", url: "http://en.wikipedia.org/wiki/Main_Page",
			kept: []string{
				"Nick Drake (1948–1974) was an English singer-songwriter and musician, best known for his sombre guitar-based songs.",
				"The cruise ship Costa Concordia runs aground and capsizes off the coast of Tuscany, with at least eleven fatalities.",
				"The Emperor shrimp (Periclimenes imperator) is a species of shrimp with a wide distribution across the Indo-Pacific.",
			},
			dropped: []string{"Log in / create account", "Privacy policy", "Printable version", "Recent changes",
				"More featured articles", "Text is available under the Creative Commons", "Deutsch"},
		},
		{
			file: "whirlwind.warc.gz", url: "https://an.wikipedia.org/wiki/Escopete",
			kept: []string{
				"A suya población ye de 84 habitants (2007), en una superficie de 19,01 km² y una densidat de población de 4,42 hab/km².",
				"Escopete ye citato en as Relaciones Topográficas de los pueblos de Espanya, feitas por Felipe II de Castiella en 1578.",
			},
			dropped: []string{"Ir al contenido", "Menú principal", "Wikimedia Commons", "Politica de privacidat",
				"modificar o codigo", "Descargar como PDF", "Zaguera edición"},
		},
		{
			file: "dolma-sample-0000.warc.gz", url: "https://soldaini.net/",
			kept: []string{
				"Senior applied research scientist at the Allen Institute for AI in the Semantic Scholar and OLMo teams.",
				"OLMo is a state of the art model designed to accelerate the science of LMs.",
			},
			dropped: []string{"Bluesky @soldaini.net", "Google Scholar", "This website is licensed under CC BY 4.0"},
		},
		{
			file: "dolma-sample-0000.warc.gz", url: "https://www.cs.washington.edu/people/faculty/weld",
			kept: []string{
				"Daniel S. Weld is Professor Emeritus at the Paul G. Allen School of Computer Science & Engineering",
				"He co-founded Netbot Incorporated, creator of Jango Shopping Search (acquired by Excite)",
			},
			dropped: []string{"Skip to main content", "Connect With #UWAllen", "Drupal Login", "Copyright ©"},
		},
		{
			file: "dolma-sample-0000.warc.gz", url: "https://maria-antoniak.github.io/2023/07/04/notes-on-mastodon.html",
			kept: []string{
				"Your server matters a lot! Your server admin decides on moderation rules and enforcement and they can read your private messages.",
			},
			dropped: []string{"Maria Antoniak Home"},
		},
		{
			file: "dolma-sample-0001.warc.gz", url: "https://commoncrawl.org/faq",
			kept: []string{
				"We obey the Crawl-delay parameter for robots.txt.",
			},
			dropped: []string{"Privacy Policy", "Terms of Use Privacy"},
		},
	} {
		t.Run(tc.url, func(t *testing.T) {
			var page *warcpages.Page
			for _, r := range htmlPages(t, tc.file) {
				if r.URL == tc.url {
					page = &r
					break
				}
			}
			if page == nil {
				t.Fatalf("%s not in %s", tc.url, tc.file)
			}
			p, err := htmltext.Extract(page.Body, page.ContentType, page.ContentLanguage)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Join(p.Paragraphs, "\n")
			for _, s := range tc.kept {
				if !strings.Contains(text, s) {
					t.Errorf("lost %q", s)
				}
			}
			for _, s := range tc.dropped {
				if strings.Contains(text, s) {
					t.Errorf("kept %q", s)
				}
			}
		})
	}
}

var sharedWARCs = []string{"dolma-sample-0000.warc.gz", "dolma-sample-0001.warc.gz",
	"resiliparse-warcfile.warc.gz", "ukwa-wikipedia-main-page-2012.warc.gz", "whirlwind.warc.gz"}

// TestAllPages checks every shared HTML page: decoded without error, valid
// UTF-8 out, and most with content.
func TestAllPages(t *testing.T) {
	pages, empty := 0, 0
	for _, name := range sharedWARCs {
		for _, r := range htmlPages(t, name) {
			p, err := htmltext.Extract(r.Body, r.ContentType, r.ContentLanguage)
			if err != nil {
				t.Errorf("%s: %v", r.URL, err)
				continue
			}
			pages++
			if len(p.Paragraphs) == 0 {
				empty++
			}
			for _, s := range append(p.Paragraphs, p.Title, p.Lang) {
				if !utf8.ValidString(s) {
					t.Errorf("%s: invalid UTF-8 %q", r.URL, s)
				}
			}
		}
	}
	if empty*4 > pages {
		t.Errorf("%d of %d pages empty", empty, pages)
	}
}

func BenchmarkExtract(b *testing.B) {
	var pages []warcpages.Page
	size := 0
	for _, name := range sharedWARCs {
		for _, r := range htmlPages(b, name) {
			pages = append(pages, r)
			size += len(r.Body)
		}
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		for _, r := range pages {
			if _, err := htmltext.Extract(r.Body, r.ContentType, r.ContentLanguage); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// page returns the HTML page of the shared WARC file name at url.
func page(t *testing.T, name, url string) warcpages.Page {
	t.Helper()
	for _, r := range htmlPages(t, name) {
		if r.URL == url {
			return r
		}
	}
	t.Fatalf("%s not in %s", url, name)
	return warcpages.Page{}
}

// TestRealLang checks that a page's Lang is a valid BCP 47 tag or "", on
// every shared page, and on 041696.com, which declares its charset as its
// language (<meta http-equiv="Content-Language" content="UTF-8">).
func TestRealLang(t *testing.T) {
	r := page(t, "resiliparse-warcfile.warc.gz", "http://041696.com/15477/list_6_4.html")
	p, err := htmltext.Extract(r.Body, r.ContentType, r.ContentLanguage)
	if err != nil {
		t.Fatal(err)
	}
	if p.Lang != "" || p.Charset != "gbk" || p.Title != "香港最快开奖现场直84期_主页" {
		t.Errorf("041696.com: lang %q charset %q title %q", p.Lang, p.Charset, p.Title)
	}
	for _, name := range sharedWARCs {
		for _, r := range htmlPages(t, name) {
			p, err := htmltext.Extract(r.Body, r.ContentType, r.ContentLanguage)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := language.Parse(p.Lang); p.Lang != "" && err != nil {
				t.Errorf("%s: lang %q: %v", r.URL, p.Lang, err)
			}
		}
	}
}

// TestRealMojibakeTitle pins the title of the first page of the resiliparse
// sample, 003338.cn. Its garbled start is the page's own, not a decoding
// error: the payload is valid UTF-8, declared so by <meta charset="utf-8">
// at byte 78 (the HTTP header has no charset), and the title's first part
// is written as numeric character references (&#x5a62;&#x866b;&#x5e8a;…)
// of text that a generator had decoded from UTF-8 as GBK, some bytes lost
// as "?" ("澳洲28是不是…" once); its second part, literal UTF-8, is right.
// Browsers show the same title.
func TestRealMojibakeTitle(t *testing.T) {
	r := page(t, "resiliparse-warcfile.warc.gz", "http://003338.cn/l41/481397.html")
	if !utf8.Valid(r.Body) {
		t.Fatal("payload not UTF-8")
	}
	p, err := htmltext.Extract(r.Body, r.ContentType, r.ContentLanguage)
	if err != nil {
		t.Fatal(err)
	}
	const title = "婢虫床28鏄?笉鏄??瑙勭殑_我国卫生与健康领域有了“基本法”"
	if p.Title != title || p.Charset != "utf-8" || p.CharsetSource != "meta" || p.Repaired {
		t.Errorf("title %q charset %q (%s) repaired %v", p.Title, p.Charset, p.CharsetSource, p.Repaired)
	}
}
