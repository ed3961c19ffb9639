package htmltext

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/testshared"
	"github.com/neardup/neardup/io/htmltext/internal/crawl"
)

// htmlPages returns the HTML responses of the shared WARC file name, or
// skips the test without ../shared.
func htmlPages(tb testing.TB, name string) []crawl.Response {
	tb.Helper()
	resps, err := crawl.Read(testshared.Data(tb, "commoncrawl-warc/"+name))
	if err != nil {
		tb.Fatal(err)
	}
	var pages []crawl.Response
	for _, r := range resps {
		if r.IsHTML() {
			pages = append(pages, r)
		}
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
			var page *crawl.Response
			for _, r := range htmlPages(t, tc.file) {
				if r.URL == tc.url {
					page = &r
					break
				}
			}
			if page == nil {
				t.Fatalf("%s not in %s", tc.url, tc.file)
			}
			p, err := Extract(page.Body, page.ContentType, page.ContentLanguage)
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
			p, err := Extract(r.Body, r.ContentType, r.ContentLanguage)
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
	var pages []crawl.Response
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
			if _, err := Extract(r.Body, r.ContentType, r.ContentLanguage); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func FuzzExtract(f *testing.F) {
	f.Add([]byte(article), "text/html; charset=utf-8", "en")
	f.Add([]byte("<p>Caf\xe9 cr\xe8me</p>"), "", "")
	f.Add([]byte("\xff\xfe<\x00p\x00>\x00"), "text/html", "")
	f.Add([]byte(`<meta charset="shift_jis"><div class="nav"><a>x</a></div><br><br><table><td>y`), "text/html; charset=bogus", "de_DE")
	f.Add([]byte("<svg><p>a</svg><select><option>b<p>c"), "", "")
	f.Fuzz(func(t *testing.T, body []byte, contentType, contentLanguage string) {
		p, err := ExtractWith(body, contentType, contentLanguage, Options{Explain: true})
		if err != nil {
			if _, ok := err.(*CharsetError); !ok {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		for _, s := range append(p.Paragraphs, p.Title, p.Lang, p.Charset) {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
		}
	})
}
