package main

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/warc"
	"github.com/neardup/neardup/testkit/sentencetest"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/reuse"
)

// fixturePage is a web page of the fixture crawl: its URL and the
// sentences of its main content.
type fixturePage struct {
	url   string
	paras []string
}

// fixtureCrawl writes a gzip-per-record WARC of pages, each wrapped in a
// site's navigation and footer, and returns its path.
func fixtureCrawl(t testing.TB, pages []fixturePage) string {
	t.Helper()
	var b bytes.Buffer
	w := warc.NewWriter(&b, true)
	for i, p := range pages {
		var body strings.Builder
		body.WriteString(`<!doctype html><html lang="en"><head><title>` + html.EscapeString(p.url) + `</title></head><body>`)
		body.WriteString(`<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About us</a></nav><main><article>`)
		for _, para := range p.paras {
			body.WriteString("<p>" + html.EscapeString(para) + "</p>\n")
		}
		body.WriteString(`</article></main><footer>© 2026 Example Media. <a href="/privacy">Privacy</a></footer></body></html>`)
		block := warc.HTTPResponse(200, []warc.Field{{Name: "Content-Type", Value: "text/html; charset=utf-8"}}, []byte(body.String()))
		_, err := w.Write(warc.Record{Type: "response", Block: block, Fields: []warc.Field{
			{Name: "WARC-Target-URI", Value: p.url},
			{Name: "WARC-Date", Value: "2026-11-24T00:00:00Z"},
			{Name: "WARC-Record-ID", Value: fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", i)},
			{Name: "Content-Type", Value: "application/http; msgtype=response"},
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "crawl.warc.gz")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// articleSentences returns the in-window sentences of the dump's pages by
// page id, in order, and the ids of the pages with at least n of them,
// sorted.
func articleSentences(t testing.TB, dump string, n int) (map[int64][]string, []int64) {
	t.Helper()
	byPage := map[int64][]string{}
	for _, s := range sentencetest.InWindow(t, dump) {
		if s.Context == 0 { // prose
			byPage[s.PageID] = append(byPage[s.PageID], s.Text)
		}
	}
	var ids []int64
	for id, sents := range byPage {
		if len(sents) >= n {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return byPage, ids
}

// TestReuseFixture runs the pipeline on the committed slice of Katrina.xml
// and a crawl written here: a page copying four consecutive sentences of
// an article, the same page crawled twice, a page copying two sentences
// of another article into text of its own, and a page that copies
// nothing. It needs nothing from ../shared.
func TestReuseFixture(t *testing.T) {
	wiki := filepath.Join("..", "..", filepath.FromSlash(testshared.KatrinaSlice))
	byPage, ids := articleSentences(t, wiki, 8)
	if len(ids) < 2 {
		t.Fatalf("%d pages of the slice have 8 in-window prose sentences, want 2", len(ids))
	}
	p, q := ids[0], ids[1]
	own := "This paragraph was written for the fixture and talks about the weather of a small town that no article of the dump mentions at all."
	pages := []fixturePage{
		{"https://copy.example/katrina", byPage[p][2:6]},
		{"https://copy.example/katrina", byPage[p][2:6]}, // crawled again
		{"https://www.Mixed.example:8080/page", []string{own, byPage[q][0], byPage[q][1], own}},
		{"https://none.example/", []string{own}},
	}
	files := run(t, testOptions(t, []string{wiki}, []string{fixtureCrawl(t, pages)}))
	got := cases(t, files)
	type found struct {
		url     string
		page    int64
		kind    reuse.Kind
		matched int
	}
	var have []found
	for _, c := range got {
		n := 0
		for _, ps := range c.Passages {
			n += len(ps.Matches)
		}
		have = append(have, found{c.URL, c.Article.PageID, c.Kind, n})
	}
	want := []found{
		{"https://copy.example/katrina", p, reuse.Content, 4},
		{"https://copy.example/katrina", p, reuse.Content, 4},
		{"https://www.Mixed.example:8080/page", q, reuse.Content, 2},
	}
	sortFound := func(x, y found) int { return strings.Compare(fmt.Sprint(x), fmt.Sprint(y)) }
	slices.SortFunc(have, sortFound)
	slices.SortFunc(want, sortFound)
	if !slices.Equal(have, want) {
		t.Errorf("cases %+v\nwant %+v", have, want)
	}
	for _, c := range got {
		if c.Web.Lang != "en" || c.Web.Corpus != "crawl" || c.Article.Wiki != "katrina" {
			t.Errorf("case of %s: web lang %q, corpus %q, article's wiki %q; want en, crawl, katrina", c.URL, c.Web.Lang, c.Web.Corpus, c.Article.Wiki)
		}
		if c.URL == "https://www.Mixed.example:8080/page" && (c.Host != "mixed.example" || c.SharePage >= 1 || c.ShareArticle >= 0.5) {
			t.Errorf("case of %s: host %q, share of page %v, of article %v; want mixed.example, < 1, < 0.5", c.URL, c.Host, c.SharePage, c.ShareArticle)
		}
	}
	counts, summary := summaryOf(t, files)
	if counts.Reuse.Cases != 3 || counts.Reuse.WebPages != 3 || counts.Reuse.Articles != 2 || counts.Web.HTMLPages != 4 || counts.DeadLetters != 0 {
		t.Errorf("counts: reuse %+v, %d HTML pages, %d dead letters; want 3 cases, 3 pages, 2 articles, 4 HTML pages, 0 dead letters",
			counts.Reuse, counts.Web.HTMLPages, counts.DeadLetters)
	}
	if summary.Totals.HostsRead != 3 || summary.Totals.HostsWithReuse != 2 {
		t.Errorf("summary totals %+v: want 3 hosts read, 2 with reuse", summary.Totals)
	}
	var console bytes.Buffer
	if err := writeResults(&console, "RUN", files["summary.json"]); err != nil {
		t.Fatal(err)
	}
	wantConsole := "(4 HTML pages, 0 WET conversions of 4 WARC records); 0 dead letters\n" +
		"reuse: 3 cases (3 content, 0 structure) in 3 passages, between 3 web pages and 2 articles\n" +
		"results in RUN: reuse-*.jsonl, summary.json, dead_letter-*.jsonl, manifest.json\n"
	if !strings.HasSuffix(console.String(), wantConsole) {
		t.Errorf("console:\n%s\nwant it to end with\n%s", console.String(), wantConsole)
	}
}

// TestDeterministic runs the fixture with one shard and with several: the
// reuse lines (in whichever file of reuse-*.jsonl), the dead letters and
// the summary's counts and reuse section must be byte-identical.
func TestDeterministic(t *testing.T) {
	wiki := filepath.Join("..", "..", filepath.FromSlash(testshared.KatrinaSlice))
	byPage, ids := articleSentences(t, wiki, 6)
	var pages []fixturePage
	for i, id := range ids[:min(len(ids), 6)] {
		pages = append(pages, fixturePage{fmt.Sprintf("https://site%d.example/a", i%3), byPage[id][i%3 : i%3+3]})
	}
	crawl := fixtureCrawl(t, pages)
	var outs []map[string][]byte
	for _, shards := range [][2]int{{1, 1}, {5, 3}} {
		o := testOptions(t, []string{wiki}, []string{crawl})
		o.Shards, o.OutputShards = shards[0], shards[1]
		outs = append(outs, run(t, o))
	}
	lines := func(files map[string][]byte, prefix string) []byte {
		var names []string
		for name := range files {
			if strings.HasPrefix(name, prefix) {
				names = append(names, name)
			}
		}
		var all [][]byte
		for _, name := range names {
			all = append(all, bytes.SplitAfter(files[name], []byte("\n"))...)
		}
		slices.SortFunc(all, bytes.Compare)
		return bytes.Join(all, nil)
	}
	one, many := lines(outs[0], "reuse-"), lines(outs[1], "reuse-")
	if len(one) == 0 || !bytes.Equal(one, many) {
		t.Errorf("reuse lines differ between 1 and 5 shards (or are empty):\n%s\n---\n%s", one, many)
	}
	if !bytes.Equal(lines(outs[0], "dead_letter"), lines(outs[1], "dead_letter")) {
		t.Error("dead letters differ between 1 and 5 shards")
	}
	c1, s1 := summaryOf(t, outs[0])
	c2, s2 := summaryOf(t, outs[1])
	if fmt.Sprint(c1) != fmt.Sprint(c2) || fmt.Sprint(s1) != fmt.Sprint(s2) {
		t.Errorf("summaries differ between 1 and 5 shards:\n%+v\n%+v\n%+v\n%+v", c1, s1, c2, s2)
	}
}

// TestDumpTwice reads the dump twice, under two names (a page read again
// with the same revision, as two dump dates of an unchanged page give):
// the cases are those of one reading, byte for byte.
func TestDumpTwice(t *testing.T) {
	wiki := filepath.Join("..", "..", filepath.FromSlash(testshared.KatrinaSlice))
	b, err := os.ReadFile(wiki)
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(t.TempDir(), "katrina-again.xml")
	if err := os.WriteFile(again, b, 0o644); err != nil {
		t.Fatal(err)
	}
	byPage, ids := articleSentences(t, wiki, 4)
	crawl := fixtureCrawl(t, []fixturePage{{"https://copy.example/", byPage[ids[0]][:4]}})
	once := run(t, testOptions(t, []string{wiki}, []string{crawl}))
	twice := run(t, testOptions(t, []string{wiki, again}, []string{crawl}))
	name := "reuse-00000-of-00001.jsonl"
	if len(once[name]) == 0 || !bytes.Equal(once[name], twice[name]) {
		t.Errorf("cases of the dump read once:\n%s\nand twice:\n%s", once[name], twice[name])
	}
	if c, _ := summaryOf(t, twice); c.PagesDuplicate == 0 {
		t.Errorf("no duplicate page counted: %+v", c)
	}
}
