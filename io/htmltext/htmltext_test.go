package htmltext

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// article is a page with the usual boilerplate around two paragraphs.
const article = `<!DOCTYPE html><html lang="en"><head><title>A Town</title>
<script>var x = "<p>not text</p>";</script><style>p { color: red }</style></head>
<body>
<header><a href="/">Home</a> <a href="/news">News</a></header>
<nav><ul><li><a href="/a">About us</a></li><li><a href="/b">Contact the team</a></li></ul></nav>
<div class="breadcrumb"><a href="/">Home</a> &gt; <a href="/towns">Towns</a> &gt; A town</div>
<article>
<h1>A Town</h1>
<p>The town was founded in 1850 by settlers from the coast, who built a church and a school there.</p>
<p>It has a population of 2,431 people, most of whom work in the mills along the river and in the farms of the valley.</p>
</article>
<aside class="sidebar"><h3>Popular</h3><ul><li><a href="/x">Another town you may like</a></li></ul></aside>
<div id="comments"><p>Great!</p></div>
<footer><p>Copyright 2024 Example Press. All rights reserved.</p><a href="/privacy">Privacy policy</a></footer>
<form><select><option>Choose a town</option></select><button>Subscribe now</button></form>
</body></html>`

func TestExtractArticle(t *testing.T) {
	p, err := Extract([]byte(article), "text/html; charset=utf-8", "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"The town was founded in 1850 by settlers from the coast, who built a church and a school there.",
		"It has a population of 2,431 people, most of whom work in the mills along the river and in the farms of the valley.",
	}
	if !slices.Equal(p.Paragraphs, want) {
		t.Errorf("Paragraphs:\n%q\nwant\n%q", p.Paragraphs, want)
	}
	if p.Title != "A Town" || p.Lang != "en" || p.Charset != "utf-8" || p.CharsetSource != "header" || p.Repaired {
		t.Errorf("page %+v", p)
	}
}

func TestExtractDropsBoilerplate(t *testing.T) {
	p, err := ExtractWith([]byte(article), "", "", Options{Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(p.Paragraphs, "\n")
	for _, s := range []string{"not text", "color", "About us", "Towns", "Another town", "Great!",
		"Copyright", "Privacy", "Choose a town", "Subscribe"} {
		if strings.Contains(text, s) {
			t.Errorf("kept %q", s)
		}
	}
	fates := map[string]string{}
	for _, b := range p.Blocks {
		fates[b.Text] = b.Fate
	}
	for text, fate := range map[string]string{
		"About us":                  fateNav,
		"Home > Towns > A town":     fateNav,
		"Another town you may like": fateAside,
		"Privacy policy":            fateAside,
		"Great!":                    fateAside,
		"Copyright 2024 Example Press. All rights reserved.": fateAside,
	} {
		if fates[text] != fate {
			t.Errorf("fate of %q = %q, want %q", text, fates[text], fate)
		}
	}
}

func TestCharset(t *testing.T) {
	latin1 := []byte("<p>Caf\xe9 cr\xe8me br\xfbl\xe9e</p>")
	utf8Page := []byte("<p>Café crème brûlée</p>")
	many := strings.Repeat("<p>Café crème brûlée, a dessert of the French cuisine.</p>", 40)
	for _, tc := range []struct {
		name        string
		body        []byte
		contentType string
		charset     string
		source      string
		repaired    bool
		want        string // in the decoded text
	}{
		{"header", latin1, "text/html; charset=ISO-8859-1", "windows-1252", "header", false, "Café crème"},
		{"header utf-8", utf8Page, "text/html; charset=utf-8", "utf-8", "header", false, "Café crème"},
		{"meta", append([]byte(`<meta charset="windows-1252">`), latin1...), "text/html", "windows-1252", "meta", false, "Café"},
		{"meta http-equiv", append([]byte(`<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">`), latin1...), "", "windows-1252", "meta", false, "Café"},
		{"header wins over meta", append([]byte(`<meta charset="windows-1252">`), utf8Page...), "text/html; charset=utf-8", "utf-8", "header", false, "Café"},
		{"bom utf-8", append([]byte("\xef\xbb\xbf"), utf8Page...), "text/html; charset=windows-1252", "utf-8", "bom", false, "Café"},
		{"bom utf-16le", utf16le("\ufeff<p>Café crème</p>"), "", "utf-16le", "bom", false, "Café"},
		{"sniffed utf-8", utf8Page, "text/html", "utf-8", "sniffed", false, "Café"},
		{"sniffed windows-1252", latin1, "", "windows-1252", "sniffed", false, "Café"},
		{"unknown label", utf8Page, "text/html; charset=x-no-such", "utf-8", "sniffed", false, "Café"},
		{"repaired", []byte(many + "<p>caf\xe9</p>"), "text/html; charset=utf-8", "utf-8", "header", true, "caf\ufffd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := decode(tc.body, tc.contentType, DefaultMaxRepaired)
			if err != nil {
				t.Fatal(err)
			}
			if d.charset != tc.charset || d.source != tc.source || d.repaired != tc.repaired {
				t.Errorf("got %s (%s) repaired %v, want %s (%s) repaired %v", d.charset, d.source, d.repaired,
					tc.charset, tc.source, tc.repaired)
			}
			if !strings.Contains(d.text, tc.want) {
				t.Errorf("text %q lacks %q", d.text, tc.want)
			}
		})
	}
}

func utf16le(s string) []byte {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}

func TestCharsetError(t *testing.T) {
	body := []byte(strings.Repeat("<p>Caf\xe9 cr\xe8me br\xfbl\xe9e</p>", 20))
	_, err := Extract(body, "text/html; charset=utf-8", "")
	var ce *CharsetError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a *CharsetError", err)
	}
	if ce.Charset != "utf-8" || ce.Source != "header" || ce.Bad != 80 {
		t.Errorf("error %+v", ce)
	}
}

func TestLangAndTitle(t *testing.T) {
	for _, tc := range []struct {
		page, header, lang, title string
	}{
		{`<html lang="EN_us"><title> A  title </title>`, "de", "en-us", "A title"},
		{`<html><meta http-equiv="content-language" content="fr">`, "de", "fr", ""},
		{`<html>`, "de-CH, en", "de-ch", ""},
		{`<html lang="{{lang}}"><meta property="og:title" content="Open Graph">`, "", "", "Open Graph"},
	} {
		p, err := Extract([]byte(tc.page), "", tc.header)
		if err != nil {
			t.Fatal(err)
		}
		if p.Lang != tc.lang || p.Title != tc.title {
			t.Errorf("%s: lang %q title %q, want %q %q", tc.page, p.Lang, p.Title, tc.lang, tc.title)
		}
	}
}

func TestBlocks(t *testing.T) {
	for _, tc := range []struct {
		page string
		want []string
	}{
		{"<p>one <b>two</b>three</p><p>four</p>", []string{"one twothree", "four"}},
		{"<div>one<br>two<br><br>three</div>", []string{"one two", "three"}},
		{"<ul><li>one<li>two</ul>", []string{"one", "two"}},
		{"<table><tr><td>a<td>b<tr><td>c</table>", []string{"a", "b", "c"}},
		{"<p>x<script>y</script>z</p>", []string{"xz"}},
		{"<p>a<span hidden>b</span>c<span style='display: none'>d</span></p>", []string{"ac"}},
		{"<p>a <svg><title>t</title><text>s</text></svg> b</p>", []string{"a b"}},
		{"<p>a&amp;b &nbsp; c</p>", []string{"a&b c"}},
	} {
		var got []string
		for _, b := range scan(tc.page).blocks {
			got = append(got, b.Text)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.page, got, tc.want)
		}
	}
}

func TestFeatures(t *testing.T) {
	b := scan(`<p>one two <a href="x">three four</a></p>`).blocks[0]
	if b.Words != 4 || b.AnchorWords != 2 || b.LinkDensity != 0.5 || b.TextDensity != 4 {
		t.Errorf("%+v", b)
	}
	long := strings.Repeat("word ", 40) // 200 columns: 2 full lines of 16 words
	if n, td := textDensity(long); n != 40 || td != 16 {
		t.Errorf("textDensity = %d, %v; want 40, 16", n, td)
	}
	if n := countWords("日本語のテキスト abc ..."); n != 9 {
		t.Errorf("countWords = %d, want 9", n)
	}
}

func TestClassHints(t *testing.T) {
	for v, want := range map[string]flags{
		"main-nav":            inNav,
		"mainNavigation":      inNav,
		"site-footer":         inAside,
		"no-sidebar content":  0,
		"canvas":              0,
		"entry-content":       0,
		"ads":                 inAside,
		"loads":               0,
		"breadcrumbs wrapper": inNav,
	} {
		if got := classHints([]byte(v)); got != want {
			t.Errorf("classHints(%q) = %b, want %b", v, got, want)
		}
	}
}

func TestTrimHeaderFooter(t *testing.T) {
	isMain := func(p string) bool { return strings.HasPrefix(p, "main") }
	for _, tc := range []struct {
		paras       []string
		first, last int
	}{
		{[]string{"menu", "title", "main 1", "x", "main 2", "copyright"}, 2, 5},
		{[]string{"main 1"}, 0, 1},
		{[]string{"menu", "footer"}, 2, 2},
		{nil, 0, 0},
	} {
		first, last := trimHeaderFooter(tc.paras, isMain)
		if first != tc.first || last != tc.last {
			t.Errorf("%q: [%d, %d), want [%d, %d)", tc.paras, first, last, tc.first, tc.last)
		}
	}
}

func TestMainTest(t *testing.T) {
	en, _ := stopwords().lookup("en")
	isMain := mainTest(en, true, DefaultHeaderMinTokens, DefaultHeaderMinStopwords)
	for p, want := range map[string]bool{
		"It was built in 1850 by the town council.":                true,
		"It was built in 1850 by the town council":                 false, // no punctuation
		"Home About Contact Products Services Blog Careers Press.": false, // no stopwords
		"Short one.": false,
	} {
		if got := isMain(p); got != want {
			t.Errorf("isMain(%q) = %v", p, got)
		}
	}
	cjk := mainTest(stopLang{}, false, DefaultHeaderMinTokens, DefaultHeaderMinStopwords)
	if !cjk("我国卫生与健康领域有了基本法，这是一部重要的法律。") || cjk("首页 新闻 关于我们") {
		t.Error("CJK fallback")
	}
}

func TestMergeShort(t *testing.T) {
	long1 := "This is a long paragraph of text with more than fifteen words in it, so it stays alone."
	long2 := "Another long paragraph of text that has more than fifteen words in it and stays alone too."
	for _, tc := range []struct {
		paras, want []string
	}{
		{[]string{long1, "A short one.", long2}, []string{long1 + " A short one.", long2}},
		{[]string{long1, "A heading", long2}, []string{long1, "A heading " + long2}},
		{[]string{"Title", "Byline here", long1}, []string{"Title Byline here " + long1}},
		{[]string{long1, "short end"}, []string{long1 + " short end"}},
		{[]string{"only short"}, []string{"only short"}},
		{nil, nil},
	} {
		if got := mergeShort(tc.paras, DefaultMergeMinTokens); !slices.Equal(got, tc.want) {
			t.Errorf("mergeShort(%q) =\n%q\nwant\n%q", tc.paras, got, tc.want)
		}
	}
}

func TestPostProcessUnmerged(t *testing.T) {
	p, err := Extract([]byte("<p>Page not found.</p>"), "", "")
	if err != nil || len(p.Paragraphs) != 0 {
		t.Errorf("%q, %v", p.Paragraphs, err)
	}
}

func TestGuessLang(t *testing.T) {
	tab := stopwords()
	for text, want := range map[string]string{
		"Der Hund ist in den Garten gelaufen und hat sich mit der Katze gestritten.":    "de",
		"Le chien est allé dans le jardin et il a joué avec les enfants de la voisine.": "fr",
		"Собака побежала в сад, и там она играла с детьми, которые были очень рады.":    "ru",
	} {
		l, ok := tab.guessLang([]string{text})
		if !ok || l.tag != want {
			t.Errorf("guessLang(%q) = %v %v, want %s", text, l.tag, ok, want)
		}
	}
	if l, ok := tab.guessLang([]string{"首页 新闻 关于我们"}); ok {
		t.Errorf("guessed %s for Chinese", l.tag)
	}
}

func TestDeepAndLarge(t *testing.T) {
	var b strings.Builder
	for range 100000 {
		b.WriteString("<div><span>")
	}
	b.WriteString("<p>The deepest paragraph of the page, which has a great many words in it, is here.</p>")
	for range 100000 {
		b.WriteString("</b></i>")
	}
	start := time.Now()
	p, err := Extract([]byte(b.String()), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Paragraphs) != 1 {
		t.Errorf("paragraphs %q", p.Paragraphs)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestValidUTF8(t *testing.T) {
	p, err := Extract([]byte("<title>\xff</title><p>a\x00b \xfe\xfe</p>"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(p.Paragraphs, p.Title) {
		if !utf8.ValidString(s) {
			t.Errorf("invalid UTF-8 %q", s)
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

func TestLangNotATag(t *testing.T) {
	for _, tc := range []struct{ html, header, want string }{
		{`<meta http-equiv="Content-Language" content="UTF-8"><p>x</p>`, "de", "de"},
		{`<html lang="utf-8"><meta http-equiv="content-language" content="fr_FR"><p>x</p>`, "", "fr-fr"},
		{`<html lang="iso-8859-1"><p>x</p>`, "gb2312", ""},
		{`<html lang="EN-us"><p>x</p>`, "", "en-us"},
	} {
		p, err := Extract([]byte(tc.html), "text/html", tc.header)
		if err != nil || p.Lang != tc.want {
			t.Errorf("%s (%s): lang %q, want %q (%v)", tc.html, tc.header, p.Lang, tc.want, err)
		}
	}
}
