package webcorpus

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/sentence"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// built is the default corpus, built once for the tests that read it.
var built struct {
	once   sync.Once
	corpus Corpus
	err    error
}

func defaultCorpus(t *testing.T) (Config, Corpus) {
	t.Helper()
	cfg := DefaultConfig(testshared.Path(t, "data"))
	built.once.Do(func() { built.corpus, built.err = Build(cfg) })
	if built.err != nil {
		t.Fatal(built.err)
	}
	return cfg, built.corpus
}

// TestDeterministic builds a small corpus (the three small dumps) twice
// with one seed and once with another: the default corpus takes seconds.
func TestDeterministic(t *testing.T) {
	cfg := DefaultConfig(testshared.Path(t, "data"))
	cfg.Sources = []Source{cfg.Sources[0], cfg.Sources[1], cfg.Sources[3]}
	cfg.Verbatim, cfg.Edited, cfg.Structure, cfg.Shuffled, cfg.Real = 4, 4, 0, 2, 2
	build := func(seed uint64) []byte {
		cfg.Seed = seed
		c, err := Build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return c.WARC
	}
	one := build(1)
	if !bytes.Equal(one, build(1)) {
		t.Error("two builds with one seed differ")
	}
	if bytes.Equal(one, build(2)) {
		t.Error("seeds 1 and 2 give the same corpus")
	}
}

func TestPages(t *testing.T) {
	cfg, c := defaultCorpus(t)
	count := map[string]int{}
	nonEnglish, content := 0, 0
	for _, l := range c.Labels {
		count[l.Page]++
		if l.Page != PageReal && l.Page != PageShuffled && l.Page != PageStructure {
			content++
			if l.Lang != "en" {
				nonEnglish++
			}
		}
	}
	want := map[string]int{PageVerbatim: cfg.Verbatim, PageEdited: cfg.Edited, PageTwoArticles: cfg.TwoArticles,
		PageSameArticle: 2 * cfg.SameArticle, PageStructure: cfg.Structure, PageShuffled: cfg.Shuffled}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%d %s pages, want %d", count[k], k, n)
		}
	}
	if count[PageReal] < cfg.Real/2 {
		t.Errorf("%d real pages, want about %d", count[PageReal], cfg.Real)
	}
	if 3*nonEnglish < content {
		t.Errorf("%d of %d content pages are not English, want a third", nonEnglish, content)
	}
	t.Logf("pages: %v", count)
}

// record is a response record of the corpus.
type record struct {
	url  string
	body []byte
}

func records(t *testing.T, c Corpus) []record {
	t.Helper()
	var out []record
	ps, err := readHostsFrom(bytes.NewReader(c.WARC))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		out = append(out, record{p.URL, p.Body})
	}
	if len(out) != len(c.Labels) {
		t.Fatalf("%d HTML responses in the WARC, %d labels", len(out), len(c.Labels))
	}
	for i, r := range out {
		if r.url != c.Labels[i].URL {
			t.Fatalf("record %d is %s, its label %s", i, r.url, c.Labels[i].URL)
		}
	}
	return out
}

// pageText returns the texts of a page's <p> elements and its lang.
func pageText(t *testing.T, body []byte) ([]string, string) {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if find(doc, atom.Body) == nil || find(doc, atom.Title) == nil {
		t.Error("page without <body> or <title>")
	}
	var paras []string
	walk(doc, func(n *html.Node) {
		if n.DataAtom == atom.P {
			paras = append(paras, textOf(n))
		}
	})
	lang := ""
	if root := find(doc, atom.Html); root != nil {
		for _, a := range root.Attr {
			if a.Key == "lang" {
				lang = a.Val
			}
		}
	}
	return paras, lang
}

func TestLabelsMatchPages(t *testing.T) {
	cfg, c := defaultCorpus(t)
	arts := articles(t, cfg)
	urls := map[string]bool{}
	for i, r := range records(t, c) {
		l := c.Labels[i]
		if urls[l.URL] {
			t.Errorf("two pages at %s", l.URL)
		}
		urls[l.URL] = true
		paras, lang := pageText(t, r.body)
		text := strings.Join(paras, " ")
		if l.Page != PageReal && lang != l.Lang {
			t.Errorf("%s: <html lang=%q>, label %q", l.URL, lang, l.Lang)
		}
		for _, ru := range l.Reuses {
			a := arts[fmt.Sprintf("%s:%d", ru.Article.Wiki, ru.Article.PageID)]
			if a == nil {
				t.Fatalf("%s: article %v not in the sources", l.URL, ru.Article)
			}
			for _, cp := range ru.Copied {
				if got := a.Sentences[cp.Ordinal].Text; got != cp.Text {
					t.Errorf("%s: sentence %d of %q is %q, label %q", l.URL, cp.Ordinal, a.Title, got, cp.Text)
				}
				if cp.Page != "" && !strings.Contains(text, strings.Join(strings.Fields(cp.Page), " ")) {
					t.Errorf("%s: copied sentence not on the page: %q", l.URL, cp.Page)
				}
				if ru.Kind == Content && cp.Page != "" && cp.Jaccard < MinEditedJaccard {
					t.Errorf("%s: edited sentence at Jaccard %.2f: %q", l.URL, cp.Jaccard, cp.Page)
				}
			}
			if ru.Kind == Structure {
				checkEntities(t, l.URL, text, ru.Entities)
			}
		}
	}
}

// checkEntities checks that no entity of the article is a word of text.
func checkEntities(t *testing.T, url, text string, entities []string) {
	t.Helper()
	if len(entities) == 0 {
		t.Errorf("%s: a structure page without entities", url)
	}
	for _, e := range entities {
		if regexp.MustCompile(`(^|[^\p{L}])` + regexp.QuoteMeta(e) + `($|[^\p{L}])`).MatchString(text) {
			t.Errorf("%s: the article's name %q is on the structure page", url, e)
		}
	}
}

// TestNegativesShareNoSentence checks every sentence of every negative
// page's paragraphs against every sentence of the sources.
func TestNegativesShareNoSentence(t *testing.T) {
	cfg, c := defaultCorpus(t)
	ix := newIndex()
	var owner []string
	for i, r := range records(t, c) {
		if !c.Labels[i].Negative() {
			continue
		}
		paras, _ := pageText(t, r.body)
		for _, p := range paras {
			for _, sp := range sentence.Split(p) {
				if s := p[sp.Start:sp.End]; utf8.RuneCountInString(s) >= minChecked {
					ix.add(s)
					owner = append(owner, c.Labels[i].URL)
				}
			}
		}
	}
	if len(owner) == 0 {
		t.Fatal("no negative sentence")
	}
	for _, a := range articles(t, cfg) {
		for _, s := range a.Sentences {
			ix.scan(s.Text, NearDuplicate, func(q int, j float64) {
				t.Errorf("%s: a sentence matches %q of %s:%d at %.2f", owner[q], s.Text, a.Wiki, a.PageID, j)
			})
		}
	}
}

// sourceArticles are the default sources' articles, read once.
var sourceArticles struct {
	once sync.Once
	arts map[string]*Article
	err  error
}

// articles reads the sources' articles, by wiki:page_id.
func articles(t *testing.T, cfg Config) map[string]*Article {
	t.Helper()
	sourceArticles.once.Do(func() { sourceArticles.arts, sourceArticles.err = readArticles(cfg) })
	if sourceArticles.err != nil {
		t.Fatal(sourceArticles.err)
	}
	return sourceArticles.arts
}

func readArticles(cfg Config) (map[string]*Article, error) {
	out := map[string]*Article{}
	for _, src := range cfg.Sources {
		arts, err := readSource(context.Background(), cfg.DataDir, src)
		if err != nil {
			return nil, err
		}
		for i := range arts {
			out[fmt.Sprintf("%s:%d", arts[i].Wiki, arts[i].PageID)] = &arts[i]
		}
	}
	return out, nil
}
