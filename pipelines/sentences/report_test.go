package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/testkit/browser"
	"github.com/neardup/neardup/transforms/passage"
	htmlreport "github.com/neardup/neardup/transforms/report"
	"github.com/neardup/neardup/transforms/summary"
)

// maxReportBytes is the most report.html may weigh, whatever the run.
const maxReportBytes = 300_000

// TestReport runs the pipeline on the committed English sample and, where
// ../shared/data is, on the truncated Greek Wikipedia dump (with dead
// letters), and opens each run's report.html in a real headless Chromium:
// what the page shows must be what summary.json says, and the page must
// load nothing.
func TestReport(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		shared      bool
		passageText bool
	}{
		{"sample", "../../testdata/sample/simplewiki-sample.xml", false, false},
		{"elwiki", "xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz", true, false},
		{"ukwiki", "xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz", true, false},
		{"katrina-slice", katrinaSlice, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.input
			if tc.shared {
				in = needShared(t, tc.input)
			}
			ctx := browser.New(t)
			o := testOptions(t, t.TempDir(), in)
			o.PassageText = tc.passageText
			files := run(t, o)
			page := files["report.html"]
			if len(page) == 0 || len(page) > maxReportBytes {
				t.Fatalf("report.html has %d bytes, want 1 to %d", len(page), maxReportBytes)
			}
			t.Logf("report.html: %d bytes", len(page))
			var doc summary.Document
			if err := json.Unmarshal(files["summary.json"], &doc); err != nil {
				t.Fatal(err)
			}
			var wikis []struct{ Base string }
			if err := json.Unmarshal(doc.Wikis, &wikis); err != nil {
				t.Fatal(err)
			}

			path := filepath.Join(o.RunDir(), "report.html")
			browser.Run(t, ctx, "opening report.html", chromedp.Navigate(browser.FileURL(path)), chromedp.WaitVisible("#examples", chromedp.ByQuery))
			var title string
			browser.Eval(t, ctx, `document.title`, &title)
			if title != "neardup report: "+o.RunID {
				t.Errorf("title %q", title)
			}
			checkKindTable(t, ctx, doc.Counts)
			checkSizeBars(t, ctx, doc.Counts)
			checkCharts(t, ctx)
			if doc.Counts.Clusters > 0 {
				checkExamples(t, ctx, doc.Counts, o.Examples)
			}
			checkDeadLetters(t, ctx, doc.Counts)
			checkPassages(t, ctx, doc.Counts.Passages, readPassages(t, files), tc.passageText)
			checkNoRequests(t, ctx, wikis)
			shots := browser.Screenshot(t, ctx, t.TempDir(), "report-"+tc.name+".png")
			for _, sec := range []string{"funnel", "kinds", "sizes", "cohesion", "banding", "pairs", "passages", "examples", "dead"} {
				sectionShot(t, ctx, filepath.Dir(shots), fmt.Sprintf("report-%s-%s.png", tc.name, sec), "#"+sec)
			}
		})
	}
}

// number parses a count as the page writes it (1,234).
func number(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	if _, err := fmt.Sscan(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), &n); err != nil {
		t.Fatalf("count %q: %v", s, err)
	}
	return n
}

// checkKindTable checks that the kinds table shows summary.json's clusters
// and sentences of every category, as the page's text.
func checkKindTable(t *testing.T, ctx context.Context, c counters.Counts) {
	t.Helper()
	var rows [][]string
	browser.Eval(t, ctx, `[...document.querySelectorAll("#kinds tr[data-kind]")].map(r => [r.dataset.kind, r.cells[1].textContent, r.cells[3].textContent])`, &rows)
	shown := map[string]bool{}
	for _, r := range rows {
		kind := r[0]
		shown[kind] = true
		if kind == "not_similar" {
			continue
		}
		want := c.Categories[kind]
		if got := (counters.Category{Clusters: number(t, r[1]), Sentences: number(t, r[2])}); got != want {
			t.Errorf("kinds table: %s shows %d clusters of %d sentences, summary.json %d of %d", kind, got.Clusters, got.Sentences, want.Clusters, want.Sentences)
		}
	}
	for kind := range c.Categories {
		if !shown[kind] {
			t.Errorf("kinds table: no row for %s", kind)
		}
	}
	if len(c.Categories) == 0 {
		t.Error("summary.json has no categories: the table proves nothing")
	}
}

// checkSizeBars checks that the size histogram has one bar per size bin of
// summary.json's histogram, with its bin and count.
func checkSizeBars(t *testing.T, ctx context.Context, c counters.Counts) {
	t.Helper()
	var bars [][]string
	browser.Eval(t, ctx, `[...document.querySelectorAll("#sizes svg rect[data-bin]")].map(r => [r.dataset.bin, r.dataset.clusters, String(r.getBBox().height)])`, &bars)
	var want []string
	for _, b := range htmlreport.SizeBins(c.Histogram()) {
		bin := fmt.Sprint(b.Lo)
		if b.Hi > b.Lo {
			bin = fmt.Sprintf("%d–%d", b.Lo, b.Hi)
		}
		want = append(want, fmt.Sprintf("%s:%d", bin, b.Clusters))
	}
	var got []string
	for _, b := range bars {
		got = append(got, b[0]+":"+b[1])
		if b[2] == "0" {
			t.Errorf("size bar %s has no height", b[0])
		}
	}
	if !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("size bars %v, want %v", got, want)
	}
}

// checkCharts checks that the cohesion charts have bars and the collision
// curve its line, drawn from the formula, and its points.
func checkCharts(t *testing.T, ctx context.Context) {
	t.Helper()
	var n []int
	browser.Eval(t, ctx, `[
		document.querySelectorAll("#cohesion svg").length,
		document.querySelectorAll("#cohesion svg g[data-bin] rect").length,
		document.querySelector("#banding svg polyline").points.numberOfItems,
		document.querySelectorAll("#banding svg circle").length]`, &n)
	if n[0] != 2 || n[1] == 0 || n[2] != 201 || n[3] != 11 {
		t.Errorf("%d cohesion charts with %d bars, a curve of %d points and %d marked points; want 2, some, 201 and 11", n[0], n[1], n[2], n[3])
	}
}

// checkExamples checks the example clusters: as many per kind as sampled,
// and marks on every example whose members' texts differ but in spacing,
// none on the others.
func checkExamples(t *testing.T, ctx context.Context, c counters.Counts, perKind int) {
	t.Helper()
	var examples []struct {
		Kind  string
		Texts []string
		Marks int
	}
	browser.Eval(t, ctx, `[...document.querySelectorAll("article.example")].map(a => ({
		kind: a.dataset.kind,
		texts: [...a.querySelectorAll("td.text")].map(td => td.textContent),
		marks: a.querySelectorAll("td.text mark").length}))`, &examples)
	byKind := map[string]int{}
	marked := 0
	for _, e := range examples {
		byKind[e.Kind]++
		// Marks are on tokens: texts that differ only in spacing have none.
		differ := slices.ContainsFunc(e.Texts, func(s string) bool { return noSpace(s) != noSpace(e.Texts[0]) })
		if differ != (e.Marks > 0) {
			t.Errorf("%s example with texts %q has %d marks", e.Kind, e.Texts, e.Marks)
		}
		if e.Marks > 0 {
			marked++
		}
	}
	for kind, k := range c.Categories {
		if want := min(int(k.Clusters), perKind); byKind[kind] != want {
			t.Errorf("%d %s examples, want %d", byKind[kind], kind, want)
		}
	}
	if marked == 0 {
		t.Errorf("no example has marks: %d examples of kinds %v", len(examples), slices.Sorted(maps.Keys(byKind)))
	}
}

// noSpace is s without its white space.
func noSpace(s string) string { return strings.Join(strings.Fields(s), "") }

// checkDeadLetters checks that the dead letters by reason add up to
// summary.json's count.
func checkDeadLetters(t *testing.T, ctx context.Context, c counters.Counts) {
	t.Helper()
	var counts []string
	browser.Eval(t, ctx, `[...document.querySelectorAll("#dead td[data-count]")].map(td => td.textContent)`, &counts)
	var sum int64
	for _, s := range counts {
		sum += number(t, s)
	}
	if sum != c.DeadLetters {
		t.Errorf("dead letters by reason add up to %d, summary.json says %d", sum, c.DeadLetters)
	}
}

// checkNoRequests checks that the page fetched nothing and can fetch
// nothing: no element has a src, no stylesheet is linked, and every link
// goes to a section of the page or to an article of one of the run's
// wikis.
func checkNoRequests(t *testing.T, ctx context.Context, wikis []struct{ Base string }) {
	t.Helper()
	var got struct {
		Resources int
		Sources   []string
		Links     []string
		Styles    int
	}
	browser.Eval(t, ctx, `({
		resources: performance.getEntriesByType("resource").length,
		sources: [...document.querySelectorAll("[src], [srcset], [data], [poster], link[href], object, embed, iframe")].map(e => e.outerHTML.slice(0, 120)),
		links: [...document.querySelectorAll("[href]")].map(e => e.getAttribute("href")),
		styles: [...document.styleSheets].filter(s => s.href).length})`, &got)
	if got.Resources != 0 || len(got.Sources) != 0 || got.Styles != 0 {
		t.Errorf("the page fetched %d resources; elements that load: %q; linked stylesheets: %d", got.Resources, got.Sources, got.Styles)
	}
	var prefixes []string
	for _, w := range wikis {
		if u := htmlreport.ArticleURL(w.Base, "X"); u != "" {
			prefixes = append(prefixes, strings.TrimSuffix(u, "X"))
		}
	}
	articles := 0
	for _, href := range got.Links {
		switch {
		case strings.HasPrefix(href, "#"):
		case slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(href, p) }):
			articles++
		default:
			t.Errorf("link to %q: not a section of the page nor an article of the run's wikis %q", href, prefixes)
		}
	}
	if articles == 0 {
		t.Error("no link to an article")
	}
}

// checkPassages checks the passages section: its counts and length bars
// are summary.json's, and each example passage shows both documents'
// texts of its matched pairs; with --passage_text (lines hold the texts),
// each row's two texts must begin as the line's match of the same
// ordinals (the page cuts long texts).
func checkPassages(t *testing.T, ctx context.Context, c counters.Passages, lines []passage.Line, withText bool) {
	t.Helper()
	var counts []string
	browser.Eval(t, ctx, `[...document.querySelectorAll("#passages table.passage-counts td[data-count]")].map(td => td.dataset.count)`, &counts)
	want := []string{fmt.Sprint(c.DocumentPairs), fmt.Sprint(c.PairsWithPassages), fmt.Sprint(c.Passages), fmt.Sprint(c.SentencePairs), fmt.Sprint(c.LargestPassage)}
	if !slices.Equal(counts, want) {
		t.Errorf("passage counts %v, summary.json %v", counts, want)
	}
	var bars []string
	browser.Eval(t, ctx, `[...document.querySelectorAll("#passages svg rect[data-bin]")].map(r => r.dataset.bin + ":" + r.dataset.passages)`, &bars)
	var wantBars []string
	var total int64
	for _, n := range slices.Sorted(maps.Keys(c.Lengths)) {
		lo, hi := htmlreport.SizeBinOf(n)
		bin := fmt.Sprint(lo)
		if hi > lo {
			bin = fmt.Sprintf("%d–%d", lo, hi)
		}
		if k := len(wantBars); k > 0 && strings.HasPrefix(wantBars[k-1], bin+":") {
			var prev int64
			fmt.Sscan(strings.TrimPrefix(wantBars[k-1], bin+":"), &prev)
			wantBars[k-1] = fmt.Sprintf("%s:%d", bin, prev+c.Lengths[n])
		} else {
			wantBars = append(wantBars, fmt.Sprintf("%s:%d", bin, c.Lengths[n]))
		}
		total += c.Lengths[n]
	}
	if !slices.Equal(bars, wantBars) || total != c.Passages {
		t.Errorf("passage length bars %v, summary.json's histogram %v (%d passages of %d)", bars, wantBars, total, c.Passages)
	}
	type row struct {
		A, B         int
		TextA, TextB string
	}
	var examples []struct {
		Titles []string
		Rows   []row
	}
	browser.Eval(t, ctx, `[...document.querySelectorAll("#passages article.passage")].map(a => ({
		titles: [...a.querySelectorAll("thead bdi")].map(b => b.textContent),
		rows: [...a.querySelectorAll("tbody tr")].map(r => ({a: +r.cells[0].textContent, textA: r.cells[1].textContent.replace(/…$/, ""),
			b: +r.cells[2].textContent, textB: r.cells[3].textContent.replace(/…$/, "")}))}))`, &examples)
	if c.Passages > 0 && len(examples) == 0 {
		t.Fatal("passages but no example passage on the page")
	}
	texts := map[[2]string]string{} // by title and ordinal, from the lines' matches
	for _, l := range lines {
		for _, m := range l.Matches {
			texts[[2]string{l.A.Title, fmt.Sprint(m.A)}] = m.TextA
			texts[[2]string{l.B.Title, fmt.Sprint(m.B)}] = m.TextB
		}
	}
	for i, e := range examples {
		if len(e.Rows) == 0 || len(e.Titles) < 4 {
			t.Errorf("example passage %d: %d rows, titles %v", i+1, len(e.Rows), e.Titles)
			continue
		}
		for _, r := range e.Rows {
			if r.TextA == "" || r.TextB == "" {
				t.Errorf("example passage %d (%s ↔ %s): pair %d ↔ %d lacks a text: %q, %q", i+1, e.Titles[0], e.Titles[2], r.A, r.B, r.TextA, r.TextB)
				continue
			}
			if !withText {
				continue
			}
			wa, wb := texts[[2]string{e.Titles[0], fmt.Sprint(r.A)}], texts[[2]string{e.Titles[2], fmt.Sprint(r.B)}]
			if wa == "" || wb == "" || !strings.HasPrefix(wa, r.TextA) || !strings.HasPrefix(wb, r.TextB) {
				t.Errorf("example passage %d: pair %d ↔ %d shows %q ↔ %q; passages-*.jsonl has %q ↔ %q", i+1, r.A, r.B, r.TextA, r.TextB, wa, wb)
			}
		}
	}
}

// sectionShot saves a PNG of the element sel as name in dir, or in
// $SCREENSHOTS when it is set, as browser.Screenshot does.
func sectionShot(t *testing.T, ctx context.Context, dir, name, sel string) {
	t.Helper()
	if d := os.Getenv("SCREENSHOTS"); d != "" {
		dir = d
	}
	var png []byte
	browser.Run(t, ctx, "taking a screenshot of "+sel, chromedp.Screenshot(sel, &png, chromedp.ByQuery))
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
