package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/passage"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/summary"
)

// testWiki is a wiki of a test summary.
type testWiki struct {
	Wiki     string   `json:"wiki"`
	Lang     string   `json:"lang"`
	Base     string   `json:"base,omitempty"`
	Problems []string `json:"problems,omitempty"`
}

// summaryJSON is a summary.json of the default parameters with the given
// counts, pairs and wikis, as summary.Write writes it.
func summaryJSON(t testing.TB, c counters.Counts, pairs []summary.PairCount, wikis []testWiki, inputs ...string) []byte {
	t.Helper()
	params, err := json.Marshal(map[string]any{
		"input": inputs, "namespaces": []int{0}, "shingle_length": 12, "min_shingles": 75, "max_shingles": 600,
		"fold_case": true, "collapse_space": true, "scheme": "oph", "threshold": 0.8, "recall": 0.99, "max_bands": 20,
		"bands": 20, "rows": 7, "seed": 1, "min_jaccard": 0.5, "max_edit": 0.25, "top_pairs": 20, "max_members": 1000, "min_passage": 3, "passage_gap": 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	type point struct {
		Similarity  float64 `json:"similarity"`
		Probability float64 `json:"probability"`
	}
	var points []point
	for i := range 11 {
		s := 0.5 + float64(i)*0.05
		points = append(points, point{s, math.Round(collision(s, 20, 7)*1e6) / 1e6})
	}
	curve, err := json.Marshal(map[string]any{"formula": "1-(1-s^rows)^bands", "bands": 20, "rows": 7, "hash_functions": 2, "points": points})
	if err != nil {
		t.Fatal(err)
	}
	w, err := json.Marshal(wikis)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(summary.Document{Version: "v9.9.9", Parameters: params, CollisionCurve: curve, Wikis: w,
		Counts: c, TopArticlePairs: pairs}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const (
	thamesRiver = "It was named after the River Thames in 1850."
	thamesriver = "It was named after the river Thames in 1850."
	emmental    = "The municipality is located in the Emmental on the border with the canton of Lucerne."
)

// smallRun is a run of two clusters, an identical one and a copy edit, and
// a dead letter.
func smallRun(t testing.TB) (Info, []byte, Stats) {
	identical := testCluster("enwiki:1:10:0", categorize.Identical, 3, 1, 0, emmental)
	copyEdit := testCluster("enwiki:2:20:0", categorize.CopyEdit, 2, 0.78, 0.02, thamesRiver, thamesriver)
	copyEdit.Members[1].Title, copyEdit.Members[1].Section = "Thames (disambiguation)", "History"
	st := NewStats(DefaultExamples, 1)
	for i, c := range []categorize.Cluster{identical, copyEdit} {
		if err := st.AddRecord(record(t, uint64(i), c)); err != nil {
			t.Fatal(err)
		}
	}
	st.AddDeadLetter(document.DeadLetter{File: "/d/enwiki.xml", Offset: 1234, PageID: 7, Title: "Cut", Reason: "truncated: page cut: unexpected EOF"})

	var c counters.Counts
	c.FilesRead, c.DeadLetters, c.FilesTruncated, c.PagesFailed = 1, 1, 0, 1
	c.PagesRead, c.PagesKept, c.Redirects, c.PagesSkippedNamespace = 40, 30, 4, 5
	c.Sentences, c.SentencesInWindow, c.SentencesTooShort = 300, 250, 50
	c.DebrisLines = 7
	c.CandidateEdges, c.EdgesVerified, c.EdgesRejected = 9, 3, 6
	c.Clusters, c.SentencesInClusters, c.LargestCluster = 2, 5, 3
	c.AddCategory(categorize.Identical, 1, 3)
	c.AddCategory(categorize.CopyEdit, 1, 2)
	c.AddClusterSize(2, 1)
	c.AddClusterSize(3, 1)
	pairs := []summary.PairCount{{WikiA: "enwiki", PageA: 1, WikiB: "enwiki", PageB: 2, TitleA: "Page 1", TitleB: "Thames (disambiguation)", Clusters: 2}}
	doc := summaryJSON(t, c, pairs, []testWiki{{Wiki: "enwiki", Lang: "en", Base: "https://en.wikipedia.org/wiki/Main_Page"}}, "/d/enwiki.xml")
	info := Info{RunID: "run-1", Commit: "abc1234", Started: time.Date(2026, 3, 1, 12, 30, 5, 0, time.UTC),
		Inputs: []document.Input{{Path: "/d/enwiki.xml", Bytes: 123456}}}
	return info, doc, st
}

func TestNewPage(t *testing.T) {
	info, doc, st := smallRun(t)
	p, err := NewPage(info, doc, st, PassageData{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<title>neardup report: run-1</title>`,
		`<dd>v9.9.9 (commit <code>abc1234</code>)</dd>`,
		`<time datetime="2026-03-01T12:30:05Z">2026-03-01 12:30:05 UTC</time>`,
		`<li><code>/d/enwiki.xml</code> <span class="muted">123.5 kB</span></li>`,
		`<dt>banding</dt><dd>oph: 20 bands × 7 rows, chosen for recall 0.99 at Jaccard 0.8</dd>`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if p.Version != "v9.9.9" || p.Info.RunID != "run-1" || len(p.Wikis) != 1 || p.Wikis[0].BaseURL != "https://en.wikipedia.org/wiki/Main_Page" {
		t.Errorf("header: version %q, run %q, wikis %+v", p.Version, p.Info.RunID, p.Wikis)
	}

	var funnel []string
	for _, r := range p.Funnel {
		funnel = append(funnel, fmt.Sprintf("%s %d %s [%s]", r.Stage, r.Count, r.Width, strings.Join(r.Notes, "; ")))
	}
	wantFunnel := []string{
		"pages read 40 width:65.1% [5 in other namespaces; 4 redirects; 1 failed (a dead letter)]",
		"pages kept 30 width:60.2% []",
		"sentences 300 width:100.0% [7 lines of navigation and list debris dropped in cleaning]",
		"sentences in the window 250 width:96.8% [50 too short]",
		"candidate pairs 9 width:40.3% []",
		"verified edges 3 width:24.3% [6 rejected as not similar]",
		"clusters 2 width:19.2% [5 sentences in them; 3 in the largest]",
	}
	// The bars are log(1+n)/log(1+300).
	if !slices.Equal(funnel, wantFunnel) {
		t.Errorf("funnel:\n%s\nwant\n%s", strings.Join(funnel, "\n"), strings.Join(wantFunnel, "\n"))
	}

	var kinds []string
	for _, k := range p.Kinds {
		kinds = append(kinds, fmt.Sprintf("%s %d %.4f %d %.4f %d %.4f", k.Name, k.Clusters, k.ClusterShare, k.Sentences, k.SentenceShare, k.Paper, k.PaperShare))
	}
	wantKinds := []string{
		"identical 1 0.5000 3 0.6000 455 0.5522",
		"copy_edit 1 0.5000 2 0.4000 214 0.2597",
		"factual_drift 0 0.0000 0 0.0000 65 0.0789",
		"template 0 0.0000 0 0.0000 52 0.0631",
		"reference 0 0.0000 0 0.0000 23 0.0279",
		"other 0 0.0000 0 0.0000 12 0.0146",
	}
	if !slices.Equal(kinds, wantKinds) {
		t.Errorf("kinds:\n%s\nwant\n%s", strings.Join(kinds, "\n"), strings.Join(wantKinds, "\n"))
	}
	if p.KindsTotal.Clusters != 2 || p.KindsTotal.Sentences != 5 || p.PaperTotal != 824 || p.PaperNotSimilar != 3 {
		t.Errorf("totals %+v, paper %d (%d not similar)", p.KindsTotal, p.PaperTotal, p.PaperNotSimilar)
	}
	var paperSum int64 = paperNotSimilar
	for _, n := range paperKinds {
		paperSum += n
	}
	if paperSum != paperKindsTotal {
		t.Errorf("the paper's counts add up to %d, not its %d clusters", paperSum, paperKindsTotal)
	}

	if want := []SizeBin{{2, 2, 1, 2}, {3, 3, 1, 3}}; !slices.Equal(p.SizeBins, want) {
		t.Errorf("size bins %v, want %v", p.SizeBins, want)
	}
	if len(p.SizeFacts) != 2 || p.SizeFacts[0].RunSmall != 1 || p.SizeFacts[0].RunLarge != 0 {
		t.Errorf("size facts %+v", p.SizeFacts)
	}
	if p.Curve.Bands != 20 || p.Curve.Rows != 7 || math.Abs(p.Curve.AtThreshold-0.99097) > 1e-5 || p.Curve.Threshold != 0.8 {
		t.Errorf("curve %+v", p.Curve)
	}
	if len(p.Pairs) != 1 || p.Pairs[0].URLB != "https://en.wikipedia.org/wiki/Thames_%28disambiguation%29" {
		t.Errorf("pairs %+v", p.Pairs)
	}
	if len(p.Dead) != 1 || p.Dead[0].Kind != "truncated: page cut" || p.Dead[0].Count != 1 || p.Dead[0].Offset != 1234 {
		t.Errorf("dead letters %+v", p.Dead)
	}

	if len(p.Examples) != 2 || p.Examples[0].Name != categorize.Identical || p.Examples[1].Name != categorize.CopyEdit {
		t.Fatalf("examples of %d kinds: %+v", len(p.Examples), p.Examples)
	}
	ident := p.Examples[0].Examples[0]
	if ident.ID != "enwiki:1:10:0" || len(ident.Members) != 3 || ident.More != 0 || ident.Reason != "because enwiki:1:10:0" {
		t.Errorf("identical example %+v", ident)
	}
	for _, m := range ident.Members {
		if len(m.Segments) != 1 || m.Segments[0].Changed || m.Segments[0].Text != emmental {
			t.Errorf("identical member %s: segments %+v, want the text unmarked", m.Title, m.Segments)
		}
	}
	ce := p.Examples[1].Examples[0]
	want := []categorize.Segment{{Text: "It was named after the "}, {Text: "river", Changed: true}, {Text: " Thames in 1850."}}
	if got := ce.Members[1].Segments; !slices.Equal(got, want) {
		t.Errorf("copy edit's second member: %+v, want %+v", got, want)
	}
	want[1].Text = "River"
	if got := ce.Members[0].Segments; !slices.Equal(got, want) {
		t.Errorf("copy edit's first member: %+v, want %+v", got, want)
	}
	if m := ce.Members[1]; m.URL != "https://en.wikipedia.org/wiki/Thames_%28disambiguation%29" || m.Section != "History" {
		t.Errorf("copy edit's second member: %+v", m)
	}
}

func TestFormat(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{formatInt(0), "0"}, {formatInt(999), "999"}, {formatInt(1000), "1,000"}, {formatInt(-1234567), "-1,234,567"},
		{formatShort(0), "0"}, {formatShort(0.5), "0.5"}, {formatShort(1.0 / 32), "0.031"}, {formatShort(7), "7"},
		{formatShort(120), "120"}, {formatShort(1500), "1.5k"}, {formatShort(20000), "20k"}, {formatShort(3e6), "3M"},
		{readableURL("https://el.wikipedia.org/wiki/%CE%A0%CF%8D%CE%BB%CE%B7:%CE%9A%CF%8D%CF%81%CE%B9%CE%B1"), "https://el.wikipedia.org/wiki/Πύλη:Κύρια"},
		{readableURL("https://x.org/100%"), "https://x.org/100%"}, {readableURL("https://x.org/%FF"), "https://x.org/%FF"},
		{formatBytes(512), "512 bytes"}, {formatBytes(2473896), "2.5 MB"}, {formatBytes(1 << 30), "1.1 GB"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// TestMemberSegments checks the marks of each member: what it changes from
// the first member, and on the first member what any other changes or
// lacks.
func TestMemberSegments(t *testing.T) {
	seg := func(text string, changed bool) categorize.Segment {
		return categorize.Segment{Text: text, Changed: changed}
	}
	for _, tt := range []struct {
		texts []string
		want  [][]categorize.Segment
	}{
		{[]string{"Same text."}, [][]categorize.Segment{{seg("Same text.", false)}}},
		{[]string{"Same text.", "Same text."}, [][]categorize.Segment{{seg("Same text.", false)}, {seg("Same text.", false)}}},
		{ // a member that only drops a word: the mark is on the first
			[]string{"The river rises in the high Alps.", "The river rises in the Alps."},
			[][]categorize.Segment{
				{seg("The river rises in the ", false), seg("high", true), seg(" Alps.", false)},
				{seg("The river rises in the Alps.", false)},
			},
		},
		{ // two members changing different words of the first
			[]string{"Bulgaria had 7 million people in 1913.", "Bulgaria had 4.5 million people in 1913.", "Bulgaria had 7 million people in 1912."},
			[][]categorize.Segment{
				{seg("Bulgaria had ", false), seg("7", true), seg(" million people in ", false), seg("1913", true), seg(".", false)},
				{seg("Bulgaria had ", false), seg("4.5", true), seg(" million people in 1913.", false)},
				{seg("Bulgaria had 7 million people in ", false), seg("1912", true), seg(".", false)},
			},
		},
	} {
		var members []sentence.View
		for _, text := range tt.texts {
			members = append(members, sentence.View{Text: text})
		}
		got := memberSegments(members)
		for i := range tt.want {
			if !slices.Equal(got[i], tt.want[i]) {
				t.Errorf("%q: member %d: %+v, want %+v", tt.texts, i, got[i], tt.want[i])
			}
		}
	}
}

// TestExampleLimits checks that a cluster of many members shows 8 and
// counts the rest, and that long texts are cut.
func TestExampleLimits(t *testing.T) {
	long := strings.Repeat("Αθήνα είναι η πρωτεύουσα. ", 40) // 1,040 runes
	c := testCluster("elwiki:1:1:0", categorize.Identical, 1500, 1, 0, long)
	c.MembersOmitted, c.Members = 500, c.Members[:1000]
	line, err := c.MarshalLine()
	if err != nil {
		t.Fatal(err)
	}
	v, err := exampleView(Example{ID: c.ID, Line: line}, map[string]string{"enwiki": "https://en.wikipedia.org/wiki/Main_Page"}, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Members) != maxMembersShown || v.More != 1500-maxMembersShown {
		t.Errorf("%d members shown, %d more; want %d and %d", len(v.Members), v.More, maxMembersShown, 1500-maxMembersShown)
	}
	for _, m := range v.Members {
		if !m.Cut || len(m.Segments) != 1 || m.Segments[0].Text != string([]rune(long)[:maxTextRunes]) {
			t.Fatalf("member %s: cut %v, %d segments, want the first %d runes", m.Title, m.Cut, len(m.Segments), maxTextRunes)
		}
	}

	// A small budget cuts by bytes, marks included, and keeps whole runes.
	segs := []categorize.Segment{{Text: "ab "}, {Text: "ΑΒΓ", Changed: true}, {Text: " <c>"}}
	for _, tt := range []struct {
		size int
		want []categorize.Segment
		cut  bool
	}{
		{100, segs, false},
		{3 + 6 + markBytes + len(" &lt;c&gt;"), segs, false},
		{3 + 6 + markBytes + len(" &lt;c&gt;") - 1, []categorize.Segment{{Text: "ab "}, {Text: "ΑΒΓ", Changed: true}, {Text: " <c"}}, true},
		{3 + 4 + markBytes, []categorize.Segment{{Text: "ab "}, {Text: "ΑΒ", Changed: true}}, true},
		{3, []categorize.Segment{{Text: "ab "}}, true},
	} {
		got, cut := cutSegments(segs, 100, tt.size)
		if !slices.Equal(got, tt.want) || cut != tt.cut {
			t.Errorf("cutSegments(size %d) = %+v, %v; want %+v, %v", tt.size, got, cut, tt.want, tt.cut)
		}
	}
}

// TestRenderEscapes renders a run whose titles, texts, sections and reasons
// hold markup, and whose wiki's base is a script URL: none of it may reach
// the page as markup, and the page may link only to its own sections and to
// the wiki's articles.
func TestRenderEscapes(t *testing.T) {
	const evil = `<script>alert("x")</script><img src=x onerror=alert(1)>`
	c := testCluster("enwiki:1:1:0", categorize.FactualDrift, 2, 0.7, 0.1, "Bulgaria had 7 million people "+evil+".", "Bulgaria had 4.5 million people "+evil+".")
	c.Members[0].Title, c.Members[1].Section = "Evil "+evil, "Sec "+evil
	c.Members[1].Wiki = "badwiki"
	c.Evidence.Reason = "reason " + evil
	st := NewStats(3, 1)
	if err := st.AddRecord(record(t, 1, c)); err != nil {
		t.Fatal(err)
	}
	st.AddDeadLetter(document.DeadLetter{File: "x.xml", Title: evil, Reason: "bad title " + evil})
	var counts counters.Counts
	counts.AddCategory(categorize.FactualDrift, 1, 2)
	counts.AddClusterSize(2, 1)
	pairs := []summary.PairCount{{WikiA: "enwiki", PageA: 1, WikiB: "badwiki", PageB: 2, TitleA: evil, TitleB: evil, Clusters: 1}}
	doc := summaryJSON(t, counts, pairs, []testWiki{
		{Wiki: "enwiki", Lang: "en", Base: "https://en.wikipedia.org/wiki/Main_Page", Problems: []string{"problem " + evil}},
		{Wiki: "badwiki", Lang: "xx", Base: "javascript:alert(1)//wiki/Main_Page"},
	}, "in<put>.xml")
	p, err := NewPage(Info{RunID: "run " + evil, Inputs: []document.Input{{Path: "in<put>.xml", Bytes: 1}}}, doc, st, PassageData{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<script", "<img", "<put>"} {
		if strings.Contains(strings.ToLower(page), bad) {
			i := strings.Index(strings.ToLower(page), bad)
			t.Errorf("the page holds %q: …%s…", bad, page[max(i-80, 0):min(i+80, len(page))])
		}
	}
	if n := strings.Count(page, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"); n < 8 {
		t.Errorf("the escaped script appears %d times, want it in every title, text, section, reason and problem", n)
	}
	for _, m := range regexp.MustCompile(`(?i)\b(href|src)="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if m[1] != "href" || !strings.HasPrefix(m[2], "#") && !strings.HasPrefix(m[2], "https://en.wikipedia.org/wiki/") {
			t.Errorf("the page has %s=%q", m[1], m[2])
		}
	}
	if !strings.Contains(page, `<a href="https://en.wikipedia.org/wiki/Evil_%3Cscript%3Ealert%28%22x%22%29%3C/script%3E%3Cimg_src=x_onerror=alert%281%29%3E">`) {
		t.Error("the evil title's article link is missing or escaped otherwise")
	}
}

// TestPageSizeBound renders a run of 100,000 clusters of every kind whose
// texts and titles are long, non-ASCII and changed every other word, with
// the most of everything else the page lists: the page must stay under
// 300 KB, with the default number of examples and with the most.
func TestPageSizeBound(t *testing.T) {
	title := strings.Repeat("Δήμος Ανατολικής Μάνης και Λακωνίας ", 7) // 252 bytes
	words := strings.Fields(strings.Repeat("Ο ποταμός πηγάζει από τα βουνά της Πίνδου και εκβάλλει στο Ιόνιο πέλαγος. ", 9))
	alt := slices.Clone(words)
	for i := 0; i < len(alt); i += 2 {
		alt[i] = "日本語"
	}
	texts := []string{strings.Join(words, " "), strings.Join(alt, " ")}
	lines := map[string][]byte{}
	for _, k := range kinds {
		c := testCluster("elwiki:1:1:0", k.Name, 40, 0.6, 0.2, texts...)
		for i := range c.Members {
			c.Members[i].Wiki, c.Members[i].Title, c.Members[i].Section = "elwiki", fmt.Sprintf("%s %d", title, i), title
		}
		line, err := c.MarshalLine()
		if err != nil {
			t.Fatal(err)
		}
		lines[k.Name] = line
	}

	for _, examples := range []int{DefaultExamples, MaxExamples} {
		st := NewStats(examples, 1)
		var counts counters.Counts
		for i := range 100_000 {
			k := kinds[i%len(kinds)].Name
			size := 2 + i%50_000
			st.AddCluster(categorize.Digest{ID: fmt.Sprintf("elwiki:%d:%d:%d", i, i, i%9), Category: k, Size: size,
				MinJaccard: float64(i%1000) / 1000, MaxEdit: float64(i%997) / 997}, lines[k])
			counts.AddCategory(k, 1, int64(size))
			counts.AddClusterSize(int64(size), 1)
		}
		for i := range 300 {
			st.AddDeadLetter(document.DeadLetter{File: strings.Repeat("/very/long/path", 20) + fmt.Sprint(i), Title: title,
				Reason: fmt.Sprintf("reason %c%s: %s", 'a'+i%26, strings.Repeat("x", i%40), title)})
		}
		var pairs []summary.PairCount
		for i := range 1000 {
			pairs = append(pairs, summary.PairCount{WikiA: "elwiki", PageA: int64(i), WikiB: "elwiki", PageB: int64(i + 1), TitleA: title, TitleB: title, Clusters: 1000 - int64(i)})
		}
		var wikis []testWiki
		var inputs []document.Input
		for i := range 300 {
			wikis = append(wikis, testWiki{Wiki: fmt.Sprintf("wiki%d", i), Lang: "el", Base: "https://el.wikipedia.org/wiki/Main_Page",
				Problems: slices.Repeat([]string{"a problem of " + title}, 10)})
			inputs = append(inputs, document.Input{Path: fmt.Sprintf("/dumps/wiki%d-20240101-pages-articles-multistream.xml.bz2", i), Bytes: 1 << 30})
		}
		wikis = append(wikis, testWiki{Wiki: "elwiki", Lang: "el", Base: "https://el.wikipedia.org/wiki/Main_Page"})
		paths := make([]string, len(inputs))
		for i, in := range inputs {
			paths[i] = in.Path
		}
		// The most passages the page shows, each of the longest, with the
		// longest texts.
		var pd PassageData
		pd.Texts = map[uint64]string{}
		text := strings.Repeat("Ελληνικό κείμενο <&> ", 40)
		for i := range MaxPassagePairs + 10 {
			counts.Passages.AddPassage(int64(3 + i*7919%100_000))
			if i >= MaxPassagePairs {
				continue
			}
			a, b := fmt.Sprintf("elwiki:%d:%d", i, i), fmt.Sprintf("elwiki:%d:%d", i+1000, i+1000)
			sp := SampledPair{DocPair: passage.DocPair{A: a, TitleA: title, B: b, TitleB: title, Passages: 1, Matched: 1000, ShareA: 1, ShareB: 1},
				SumJaccard: 900, Example: &passage.Line{A: passage.Document{ID: a, Title: title, Last: 999}, B: passage.Document{ID: b, Title: title, Last: 999}, Matched: 1000}}
			pd.Sample.Pairs = append(pd.Sample.Pairs, sp)
			for j := range 1000 {
				ida, idb := uint64(i*1_000_000+j), uint64(i*1_000_000+500_000+j)
				pd.Matches = append(pd.Matches, ExampleMatch{Pair: i, A: j, B: j, IDA: ida, IDB: idb, Jaccard: 0.9})
				pd.Texts[ida], pd.Texts[idb] = text, strings.ToUpper(text)
			}
		}
		doc := summaryJSON(t, counts, pairs, wikis, paths...)
		p, err := NewPage(Info{RunID: "big", Inputs: inputs}, doc, st, pd)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := Render(&b, p); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d examples of each kind: %d bytes, %d size bins, %d example clusters", examples, b.Len(), len(p.SizeBins), len(kinds)*examples)

		if b.Len() > 300_000 {
			t.Errorf("%d examples of each kind: the page has %d bytes, more than 300 KB", examples, b.Len())
		}
		if got := strings.Count(b.String(), "<article class=\"example\""); got != len(kinds)*examples {
			t.Errorf("%d example clusters on the page, want %d", got, len(kinds)*examples)
		}
		if !strings.Contains(b.String(), "<mark>") {
			t.Error("no change is marked")
		}
		// Titles this long leave room for fewer pairs, and so examples.
		if got := strings.Count(b.String(), `<article class="passage"`); got < 1 || got > maxPassageExamples {
			t.Errorf("%d example passages on the page, want 1 to %d", got, maxPassageExamples)
		}
	}
}

// TestRenderEmptyRun renders a run that found nothing, and one whose
// examples are turned off: every section says so instead of drawing.
func TestRenderEmptyRun(t *testing.T) {
	var c counters.Counts
	c.PagesRead, c.PagesKept, c.Sentences = 3, 3, 10
	doc := summaryJSON(t, c, nil, []testWiki{{Wiki: "xxwiki", Lang: "xx"}})
	for _, examples := range []int{DefaultExamples, 0} {
		p, err := NewPage(Info{RunID: "empty"}, doc, NewStats(examples, 1), PassageData{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := Render(&b, p); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		for _, want := range []string{
			`<p class="empty">No clusters.</p>`,
			`<p class="empty">No pair of articles shares a cluster.</p>`,
			`<p class="empty">No dead letters: every page and file was read.</p>`,
			`<span class="muted">no &lt;base&gt;: no article links</span>`,
			`<polyline class="curve"`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("examples %d: the page lacks %s", examples, want)
			}
		}
		if strings.Contains(page, "<article") || strings.Contains(page, "<time") {
			t.Errorf("examples %d: the page shows an example or a start time", examples)
		}
		if off := strings.Contains(page, "No examples: <code>--report_examples</code> is 0."); off != (examples == 0) {
			t.Errorf("examples %d: says examples are off: %v", examples, off)
		}
	}
}

// TestRenderIsolatesDirection renders titles holding a right-to-left
// override (U+202E): each is isolated in a <bdi>, so the reversal stays
// inside it and does not spill into the cell or the titles after it.
func TestRenderIsolatesDirection(t *testing.T) {
	const rlo = "Evil\u202eesrever"
	c := testCluster("enwiki:1:1:0", categorize.FactualDrift, 2, 0.7, 0.1, "Bulgaria had 7 million people.", "Bulgaria had 4.5 million people.")
	c.Members[0].Title, c.Members[1].Section = rlo, "Sec "+rlo
	st := NewStats(3, 1)
	if err := st.AddRecord(record(t, 1, c)); err != nil {
		t.Fatal(err)
	}
	var counts counters.Counts
	counts.AddCategory(categorize.FactualDrift, 1, 2)
	counts.AddClusterSize(2, 1)
	pairs := []summary.PairCount{{WikiA: "enwiki", PageA: 1, WikiB: "enwiki", PageB: 2, TitleA: rlo, TitleB: "After", Clusters: 1}}
	doc := summaryJSON(t, counts, pairs, []testWiki{{Wiki: "enwiki", Lang: "en", Base: "https://en.wikipedia.org/wiki/Main_Page"}}, "in.xml")
	p, err := NewPage(Info{RunID: "run", Inputs: []document.Input{{Path: "in.xml", Bytes: 1}}}, doc, st, PassageData{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n, isolated := strings.Count(page, "\u202e"), strings.Count(page, "<bdi>"+rlo+"</bdi>")+strings.Count(page, "<bdi>Sec "+rlo+"</bdi>"); n == 0 || n != isolated {
		t.Errorf("%d right-to-left overrides, %d of them isolated in a <bdi>", n, isolated)
	}
	if !strings.Contains(page, `<td class="text" dir="auto">`) {
		t.Error("the examples' texts have no dir=auto")
	}
}

// TestExampleMechanisms checks that an example shows what decided its
// kind, and at most maxMechanismsShown of it.
func TestExampleMechanisms(t *testing.T) {
	c := testCluster("elwiki:1:1:0", categorize.CopyEdit, 2, 1, 0, "1978 - Ένα Boeing 747 συντρίβεται.")
	c.Evidence.Mechanisms = []string{`subject: each text names the other's page, "1 Ιανουαρίου" and "1978"`, "a", "b", "c", "d"}
	line, err := c.MarshalLine()
	if err != nil {
		t.Fatal(err)
	}
	v, err := exampleView(Example{ID: c.ID, Line: line}, nil, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	want := c.Evidence.Mechanisms[:maxMechanismsShown]
	if !slices.Equal(v.Mechanisms, want) {
		t.Errorf("mechanisms %q, want %q", v.Mechanisms, want)
	}
}
