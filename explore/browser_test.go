package main

import (
	"context"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/chromedp/chromedp"
	"github.com/neardup/neardup/explore/internal/index"
	"github.com/neardup/neardup/explore/internal/store"
	"github.com/neardup/neardup/explore/internal/testrun"
	"github.com/neardup/neardup/testkit/browser"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/sentence"
	"golang.org/x/text/unicode/norm"
)

// loadRun loads a run as the command does, for the tests to know what its
// pages must show.
func loadRun(t *testing.T, dir string) *index.Run {
	t.Helper()
	st, err := store.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := index.Load(t.Context(), st, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestBrowser drives a headless Chromium through the explorer of the
// sample run: it chooses a kind in the filter form and submits it, sorts
// by id through the form's select, opens a cluster and one of its
// articles by their links, checking what each page shows, and takes
// screenshots (SCREENSHOTS=DIR keeps them).
func TestBrowser(t *testing.T) {
	dir := testrun.Sample(t)
	r := loadRun(t, dir)
	// The most informative kind the sample holds: it has drift or, since
	// issue 30's subject rules, templates on pages about different subjects.
	kind := categorize.FactualDrift
	for _, k := range []string{categorize.FactualDrift, categorize.Template, categorize.CopyEdit} {
		if r.Filter(index.Query{Kinds: []string{k}}, 0, 1).Matches > 0 {
			kind = k
			break
		}
	}
	url, _ := start(t, "--run", dir)
	ctx := browser.New(t)
	shots := t.TempDir()
	open(t, ctx, url, "table.clusters")
	browser.Screenshot(t, ctx, shots, "explore-list.png")
	var checked []string

	act(t, ctx, `document.querySelector('input[name="kind"][value="`+kind+`"]').click()`)
	waitFor(t, ctx, `location.search === "?kind=`+kind+`"`, "#matches")
	checkRows(t, ctx, r, []string{kind}, r.Filter(index.Query{Kinds: []string{kind}}, 0, 50))
	screenshot(t, ctx, shots, "explore-list-"+kind+".png", "#matches")

	// A second kind: both are kept, in the form's order, and the rows are
	// of either.
	two := []string{kind, categorize.Identical}
	if kind == categorize.Identical {
		two[1] = categorize.Reference
	}
	order := func(k string) int {
		return slices.IndexFunc(r.Kinds(), func(c index.KindCount) bool { return c.Kind == k })
	}
	slices.SortFunc(two, func(a, b string) int { return order(a) - order(b) })
	act(t, ctx, `document.querySelector('input[name="kind"][value="`+other(two, kind)+`"]').click()`)
	waitFor(t, ctx, `location.search === "?kind=`+two[0]+`&kind=`+two[1]+`"`, "#matches")
	checkRows(t, ctx, r, two, r.Filter(index.Query{Kinds: two}, 0, 50))
	browser.Eval(t, ctx, `[...document.querySelectorAll('input[name="kind"]:checked')].map(c => c.value)`, &checked)
	if !slices.Equal(checked, two) {
		t.Errorf("checked kinds %q, want %q", checked, two)
	}
	screenshot(t, ctx, shots, "explore-list-two-kinds.png", "#matches")
	act(t, ctx, `document.querySelector('input[name="kind"][value="`+other(two, kind)+`"]').click()`)
	waitFor(t, ctx, `location.search === "?kind=`+kind+`"`, "#matches")

	act(t, ctx, `const s = document.querySelector('select[name="sort"]'); s.value = "id"; s.dispatchEvent(new Event("change"))`)
	waitFor(t, ctx, `location.search === "?kind=`+kind+`&sort=id"`, "#matches")
	checkRows(t, ctx, r, []string{kind}, r.Filter(index.Query{Kinds: []string{kind}, ByID: true}, 0, 50))

	var path string
	act(t, ctx, `document.querySelector("table.clusters tbody tr td.id a").click()`)
	waitFor(t, ctx, `location.pathname.startsWith("/cluster/")`, "ol.members")
	browser.Eval(t, ctx, `decodeURIComponent(location.pathname)`, &path)
	id := strings.TrimPrefix(path, "/cluster/")
	checkMarks(t, ctx, r, id)
	screenshot(t, ctx, shots, "explore-cluster.png", "ol.members")

	var title string
	browser.Eval(t, ctx, `document.querySelector("p.articles a").textContent`, &title)
	act(t, ctx, `document.querySelector("p.articles a").click()`)
	waitFor(t, ctx, `location.pathname.startsWith("/article/")`, "#matches")
	browser.Eval(t, ctx, `decodeURIComponent(location.pathname)`, &path)
	wiki, pageID, _ := strings.Cut(strings.TrimPrefix(path, "/article/"), "/")
	page, err := strconv.ParseInt(pageID, 10, 64)
	if err != nil {
		t.Fatalf("article path %s: %v", path, err)
	}
	a, ok := r.FindArticle(wiki, page)
	if !ok || r.Article(a).Title != title {
		t.Fatalf("article %s is not %q", path, title)
	}
	checkRows(t, ctx, r, nil, r.Filter(index.Query{Article: &a}, 0, 50))
	screenshot(t, ctx, shots, "explore-article.png", "#matches")
}

// TestBrowserGreek takes screenshots of the explorer of a Greek run: the
// list, and a copy_edit cluster with its marks.
func TestBrowserGreek(t *testing.T) {
	dir := testrun.Greek(t)
	r := loadRun(t, dir)
	url, _ := start(t, "--run", dir)
	ctx := browser.New(t)
	shots := t.TempDir()
	open(t, ctx, url, "table.clusters")
	checkRows(t, ctx, r, nil, r.Filter(index.Query{}, 0, 50))
	browser.Screenshot(t, ctx, shots, "explore-elwiki-list.png")
	p := r.Filter(index.Query{Kinds: []string{categorize.CopyEdit}}, 0, 1)
	if len(p.Clusters) == 0 {
		t.Fatal("no copy_edit cluster in the Greek run")
	}
	id := r.Entry(p.Clusters[0]).ID
	open(t, ctx, url+"cluster/"+id, "ol.members")
	checkMarks(t, ctx, r, id)
	browser.Screenshot(t, ctx, shots, "explore-elwiki-cluster.png")

	// A title typed in capitals without its accents (as Greek capitals are
	// written) finds what the title as written finds.
	title, plain := accentedTitle(r)
	if title == "" {
		t.Fatal("no article title with an accent in the Greek run")
	}
	want := r.Filter(index.Query{Title: title}, 0, 50)
	if want.Matches == 0 || r.Filter(index.Query{Title: plain}, 0, 50).Matches != want.Matches {
		t.Errorf("title %q finds %d clusters, %q finds %d", title, want.Matches, plain, r.Filter(index.Query{Title: plain}, 0, 50).Matches)
	}
	open(t, ctx, url+"?title="+neturl.QueryEscape(plain), "#matches")
	checkRows(t, ctx, r, nil, want)
	browser.Screenshot(t, ctx, shots, "explore-elwiki-title-without-accents.png")

	// Words of a sentence typed in capitals without accents, in the
	// form's sentence field, find the clusters with a member that holds
	// them.
	r.WaitTexts(t.Context())
	words, typed := sentenceWords(t, r)
	open(t, ctx, url, "table.clusters")
	act(t, ctx, `document.querySelector('input[name="text"]').value = `+strconv.Quote(typed)+`; document.querySelector("form.filters").requestSubmit()`)
	waitFor(t, ctx, `new URLSearchParams(location.search).get("text") === `+strconv.Quote(typed), "#matches")
	found := r.Filter(index.Query{Text: typed}, 0, 50)
	if found.Matches == 0 || r.Filter(index.Query{Text: words}, 0, 50).Matches != found.Matches {
		t.Errorf("sentence %q finds %d clusters, %q finds %d", typed, found.Matches, words, r.Filter(index.Query{Text: words}, 0, 50).Matches)
	}
	for _, i := range found.Clusters {
		c, err := r.ReadCluster(t.Context(), i)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(c.Members, func(m sentence.View) bool { return strings.Contains(m.Text, words) }) {
			t.Errorf("cluster %s has no member with %q", c.ID, words)
		}
	}
	checkRows(t, ctx, r, nil, found)
	screenshot(t, ctx, shots, "explore-elwiki-sentence-search.png", "#matches")

	// The page's export link downloads the clusters of its filter, every
	// page of them: their lines of clusters-*.jsonl.
	// (Fetched by the test: the page's policy lets no script of its own
	// connect anywhere.)
	var href string
	browser.Eval(t, ctx, `document.querySelector('a.export[href*="jsonl"]').href`, &href)
	resp, err := http.Get(href)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment;") {
		t.Fatalf("export %s: status %d, %s (%v)", href, resp.StatusCode, resp.Header.Get("Content-Disposition"), err)
	}
	lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
	all := r.Filter(index.Query{Text: typed}, 0, r.Len())
	if len(lines) != all.Matches {
		t.Fatalf("the export has %d lines, want %d", len(lines), all.Matches)
	}
	for k, i := range all.Clusters {
		line, err := r.ReadLine(t.Context(), i)
		if err != nil {
			t.Fatal(err)
		}
		if lines[k] != string(line) {
			t.Errorf("export line %d is not cluster %s's line", k, r.Entry(i).ID)
		}
	}
}

// sentenceWords returns three words of the first member of the first
// cluster of r, from its second word, holding an accented letter, and
// those words in capitals without their accents.
func sentenceWords(t *testing.T, r *index.Run) (words, plain string) {
	for _, i := range r.Filter(index.Query{}, 0, r.Len()).Clusters {
		c, err := r.ReadCluster(t.Context(), i)
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(c.Members[0].Text)
		if len(f) < 5 {
			continue
		}
		w := strings.Join(f[1:4], " ")
		if p := stripAccents(w); !strings.EqualFold(p, w) {
			return w, strings.ToUpper(p)
		}
	}
	t.Fatal("no sentence with an accent in the run")
	return "", ""
}

// stripAccents removes the combining marks of s's decomposition.
func stripAccents(s string) string {
	return norm.NFC.String(strings.Map(func(c rune) rune {
		if unicode.Is(unicode.Mn, c) {
			return -1
		}
		return c
	}, norm.NFD.String(s)))
}

// accentedTitle returns the first article title of r holding an accented
// letter, and that title in capitals without its accents.
func accentedTitle(r *index.Run) (title, plain string) {
	for i := range r.Articles() {
		t := r.Article(i).Title
		d := norm.NFD.String(t)
		p := strings.ToUpper(strings.Map(func(c rune) rune {
			if unicode.Is(unicode.Mn, c) {
				return -1
			}
			return c
		}, d))
		if len(d) != len(t) && !strings.ContainsAny(t, "_") {
			return t, p
		}
	}
	return "", ""
}

// open navigates to url and waits for selector.
func open(t *testing.T, ctx context.Context, url, selector string) {
	t.Helper()
	browser.Run(t, ctx, "opening "+url, chromedp.Navigate(url), chromedp.WaitVisible(selector, chromedp.ByQuery))
}

// act runs a script in the page as a person's click would, after the
// evaluation returns: a navigation it starts must not cut the evaluation.
func act(t *testing.T, ctx context.Context, script string) {
	t.Helper()
	var ok bool
	browser.Eval(t, ctx, "setTimeout(() => { "+script+" }); true", &ok)
}

// waitFor waits until a page for which expr is true has loaded and holds
// selector. The evaluations that a navigation interrupts are tried again.
func waitFor(t *testing.T, ctx context.Context, expr, selector string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var ok bool
		err := chromedp.Run(ctx, chromedp.Evaluate(`(`+expr+`) && document.readyState === "complete" && document.querySelector(`+
			strconv.Quote(selector)+`) !== null`, &ok))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("browser: waiting for %s: %v", expr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// screenshot takes a screenshot of the page a click led to. It opens the
// page's URL again first: the browser's driver paints only pages it
// navigated to itself.
func screenshot(t *testing.T, ctx context.Context, dir, name, selector string) {
	t.Helper()
	var here string
	browser.Eval(t, ctx, "location.href", &here)
	open(t, ctx, here, selector)
	browser.Screenshot(t, ctx, dir, name)
}

// other returns the kind of two that is not k.
func other(two []string, k string) string {
	if two[0] == k {
		return two[1]
	}
	return two[0]
}

// checkRows checks that the page lists the clusters of want, in its
// order, each of one of kinds if any are given, and counts its matches.
func checkRows(t *testing.T, ctx context.Context, r *index.Run, kinds []string, want index.Page) {
	t.Helper()
	var shown, ids []string
	var matches string
	browser.Eval(t, ctx, `[...document.querySelectorAll("table.clusters tbody tr")].map(tr => tr.dataset.kind)`, &shown)
	browser.Eval(t, ctx, `[...document.querySelectorAll("table.clusters tbody tr td.id a")].map(a => a.textContent)`, &ids)
	browser.Eval(t, ctx, `document.getElementById("matches").textContent`, &matches)
	var wantIDs []string
	for _, i := range want.Clusters {
		wantIDs = append(wantIDs, r.Entry(i).ID)
	}
	if matches != strconv.Itoa(want.Matches) || !slices.Equal(ids, wantIDs) {
		t.Errorf("the page counts %s matches and shows %q; want %d and %q", matches, ids, want.Matches, wantIDs)
	}
	for _, k := range shown {
		if len(kinds) > 0 && !slices.Contains(kinds, k) {
			t.Errorf("a row of kind %s among %q", k, kinds)
		}
	}
	// Each row shows its first member's sentence, or its start.
	var sentences []string
	browser.Eval(t, ctx, `[...document.querySelectorAll("table.clusters tbody tr td.titles")].map(td => td.querySelector(".sentence")?.textContent ?? "")`, &sentences)
	for k, i := range want.Clusters[:min(len(want.Clusters), len(sentences))] {
		c, err := r.ReadCluster(t.Context(), i)
		if err != nil {
			t.Fatal(err)
		}
		if s := strings.TrimSuffix(sentences[k], "…"); s == "" || !strings.HasPrefix(c.Members[0].Text, s) {
			t.Errorf("cluster %s shows the sentence %q, not the start of %q", c.ID, sentences[k], c.Members[0].Text)
		}
	}
}

// checkMarks checks that the cluster's page shows each member's text, its
// changed words marked: in a member but the first, as many marks as
// categorize.Segments finds changes against the first; in the first, some
// if any member differs.
func checkMarks(t *testing.T, ctx context.Context, r *index.Run, id string) {
	t.Helper()
	i, ok := r.Find(id)
	if !ok {
		t.Fatalf("no cluster %s", id)
	}
	c, err := r.ReadCluster(t.Context(), i)
	if err != nil {
		t.Fatal(err)
	}
	var marks []int
	var texts []string
	browser.Eval(t, ctx, `[...document.querySelectorAll("ol.members li")].map(li => li.querySelectorAll("mark").length)`, &marks)
	browser.Eval(t, ctx, `[...document.querySelectorAll("ol.members li .text")].map(d => d.textContent)`, &texts)
	if len(marks) != len(c.Members) || len(texts) != len(c.Members) {
		t.Fatalf("cluster %s: %d members shown, %d in the cluster", id, len(marks), len(c.Members))
	}
	differ := false
	for j, m := range c.Members {
		if texts[j] != m.Text {
			t.Errorf("member %d shows %q, want %q", j, texts[j], m.Text)
		}
		if j == 0 {
			continue
		}
		_, segs := categorize.Segments(c.Members[0].Text, m.Text)
		want := 0
		for _, s := range segs {
			if s.Changed {
				want++
			}
		}
		differ = differ || want > 0
		if marks[j] != want {
			t.Errorf("member %d has %d marks, want %d", j, marks[j], want)
		}
	}
	if differ != (marks[0] > 0) || !differ {
		t.Errorf("cluster %s: marks %v", id, marks)
	}
}

// TestBrowserPassages drives the document pairs of a Ukrainian run with
// --passage_text: from the header's link to the list, sorted by matched
// sentences through the form's select, filtered by a title typed in
// capitals, then a pair opened by its link, whose passage must show each
// matched pair side by side with its changed words marked; and a pair of
// the run without texts, whose rows come from the clusters.
func TestBrowserPassages(t *testing.T) {
	dir := testrun.Ukrainian(t, "--passage_text")
	r := loadRun(t, dir)
	url, _ := start(t, "--run", dir)
	ctx := browser.New(t)
	shots := shotDir(t)
	open(t, ctx, url, "table.clusters")
	act(t, ctx, `document.querySelector("header.run a.pairs-link").click()`)
	waitFor(t, ctx, `location.pathname === "/pairs"`, "table.pairs")
	checkPairs(t, ctx, r, r.FilterPairs(index.PairQuery{}, 0, 50))
	browser.Screenshot(t, ctx, shots, "explore-ukwiki-pairs.png")

	act(t, ctx, `const s = document.querySelector('select[name="sort"]'); s.value = "matched"; s.dispatchEvent(new Event("change"))`)
	waitFor(t, ctx, `location.search === "?sort=matched"`, "#matches")
	checkPairs(t, ctx, r, r.FilterPairs(index.PairQuery{Sort: "matched"}, 0, 50))

	first, ok := pairWithChanges(t, r)
	if !ok {
		t.Fatal("no passage of the Ukrainian run has a sentence changed")
	}
	typed := strings.ToUpper(first.B.Title)
	act(t, ctx, `document.querySelector('input[name="title"]').value = `+strconv.Quote(typed)+`; document.querySelector("form.filters").requestSubmit()`)
	waitFor(t, ctx, `new URLSearchParams(location.search).get("title") === `+strconv.Quote(typed), "#matches")
	want := r.FilterPairs(index.PairQuery{Title: typed, Sort: "matched"}, 0, 50)
	if want.Matches == 0 || !slices.Contains(want.Clusters, first.Index) {
		t.Fatalf("title %q finds %d pairs, not pair %d", typed, want.Matches, first.Index)
	}
	checkPairs(t, ctx, r, want)
	screenshot(t, ctx, shots, "explore-ukwiki-pairs-title.png", "#matches")

	act(t, ctx, `document.querySelector('table.pairs tbody tr[data-a="`+first.A.ID+`"][data-b="`+first.B.ID+`"] td.doc a').click()`)
	waitFor(t, ctx, `location.pathname.startsWith("/pair/")`, "table.aligned")
	checkAligned(t, ctx, r, first.Passages[0], false)
	screenshot(t, ctx, shots, "explore-ukwiki-passage.png", "table.aligned")
	if len(first.Passages) > 1 {
		act(t, ctx, `document.querySelectorAll("table.passages tbody tr td a")[1].click()`)
		waitFor(t, ctx, `location.search === "?passage=1"`, "table.aligned")
		checkAligned(t, ctx, r, first.Passages[1], false)
	}

	plainDir := testrun.Ukrainian(t)
	plain := loadRun(t, plainDir)
	purl, _ := start(t, "--run", plainDir)
	open(t, ctx, purl+"pairs", "table.pairs")
	act(t, ctx, `document.querySelector("table.pairs tbody tr td.doc a").click()`)
	waitFor(t, ctx, `location.pathname.startsWith("/pair/")`, "table.aligned")
	var path string
	browser.Eval(t, ctx, `decodeURIComponent(location.pathname)`, &path)
	a, b, _ := strings.Cut(strings.TrimPrefix(path, "/pair/"), "/")
	i, ok := plain.FindPair(a, b)
	if !ok {
		t.Fatalf("no pair at %s", path)
	}
	checkAligned(t, ctx, plain, plain.Pair(i).Passages[0], true)
	screenshot(t, ctx, shots, "explore-ukwiki-passage-from-clusters.png", "table.aligned")
}

// pairWithChanges returns the first pair, by matched sentences, whose
// first passage has a sentence pair that differs.
func pairWithChanges(t *testing.T, r *index.Run) (index.DocPair, bool) {
	for _, i := range r.FilterPairs(index.PairQuery{Sort: "matched"}, 0, r.PairCount()).Clusters {
		p := r.Pair(i)
		text, err := r.PassageText(t.Context(), p.Passages[0])
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range text.Rows {
			if row.TextA != row.TextB {
				return p, true
			}
		}
	}
	return index.DocPair{}, false
}

// shotDir is where a test's screenshots go: SCREENSHOTS if set, else a
// temporary directory.
func shotDir(t *testing.T) string {
	if d := os.Getenv("SCREENSHOTS"); d != "" {
		return d
	}
	return t.TempDir()
}

// checkPairs checks that the page lists the document pairs of want, in
// its order, and counts its matches.
func checkPairs(t *testing.T, ctx context.Context, r *index.Run, want index.Page) {
	t.Helper()
	var shown []string
	var matches string
	browser.Eval(t, ctx, `[...document.querySelectorAll("table.pairs tbody tr")].map(tr => tr.dataset.a + " " + tr.dataset.b)`, &shown)
	browser.Eval(t, ctx, `document.getElementById("matches").textContent`, &matches)
	var wantPairs []string
	for _, i := range want.Clusters {
		p := r.Pair(i)
		wantPairs = append(wantPairs, p.A.ID+" "+p.B.ID)
	}
	if matches != strconv.Itoa(want.Matches) || !slices.Equal(shown, wantPairs) {
		t.Errorf("the page counts %s pairs and shows %q; want %d and %q", matches, shown, want.Matches, wantPairs)
	}
}

// checkAligned checks that the page shows passage i side by side: each
// row's two sentences, as PassageText gives them, with as many marks on
// each side as categorize.Segments finds changes; fromClusters says
// whether the page must say that the texts come from the clusters.
func checkAligned(t *testing.T, ctx context.Context, r *index.Run, i int, fromClusters bool) {
	t.Helper()
	text, err := r.PassageText(t.Context(), i)
	if err != nil {
		t.Fatal(err)
	}
	if text.FromClusters != fromClusters || len(text.Rows) == 0 {
		t.Fatalf("passage %d: %d rows, from the clusters %v", i, len(text.Rows), text.FromClusters)
	}
	var rows []struct {
		A, B           string
		MarksA, MarksB int
	}
	browser.Eval(t, ctx, `[...document.querySelectorAll("table.aligned tr.match")].map(tr => ({A: tr.querySelector("td.a").textContent,
		B: tr.querySelector("td.b").textContent, MarksA: tr.querySelectorAll("td.a mark").length, MarksB: tr.querySelectorAll("td.b mark").length}))`, &rows)
	if len(rows) != len(text.Rows) {
		t.Fatalf("passage %d: %d rows shown, want %d", i, len(rows), len(text.Rows))
	}
	marked := 0
	for k, want := range text.Rows {
		sa, sb := categorize.Segments(want.TextA, want.TextB)
		if rows[k].A != want.TextA || rows[k].B != want.TextB || rows[k].MarksA != changed(sa) || rows[k].MarksB != changed(sb) {
			t.Errorf("passage %d row %d: shows %+v; want %q and %q with %d and %d marks", i, k, rows[k], want.TextA, want.TextB, changed(sa), changed(sb))
		}
		marked += rows[k].MarksB
	}
	var note string
	browser.Eval(t, ctx, `document.getElementById("text-source").textContent`, &note)
	if strings.Contains(note, "carry no texts") != fromClusters {
		t.Errorf("passage %d: the page says %q", i, note)
	}
	t.Logf("passage %d: %d rows, %d marked words in b", i, len(rows), marked)
}

// changed counts the changed segments.
func changed(segs []categorize.Segment) int {
	n := 0
	for _, s := range segs {
		if s.Changed {
			n++
		}
	}
	return n
}
