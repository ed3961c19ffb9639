package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"math"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/summary"
)

// Limits that keep the page small whatever the run's size and texts.
const (
	maxMembersShown    = 8       // members of an example cluster
	minMembersShown    = 2       // members of an example cluster, whatever the budget
	maxTextRunes       = 300     // of a member's text
	examplesBudget     = 140_000 // bytes of the members' rows of all examples
	minTextBytes       = 160     // of a member's text, whatever the budget
	memberRowBytes     = 150     // of a member's row besides its title, link, section and text
	maxPairsShown      = 20      // rows of the top article pairs
	pairsBudget        = 30_000  // bytes of their rows
	pairRowBytes       = 120     // of a pair's row besides its titles and links
	maxInputsShown     = 20      // input files in the header
	maxWikisShown      = 20      // wikis in the header
	maxProblemsShown   = 2       // problems of a wiki in the header
	maxReasonsShown    = 20      // kinds of dead-letter reasons
	maxTitleRunes      = 100     // of a title shown (its link is whole)
	maxSectionRunes    = 60      // of a section's heading
	maxDetailRunes     = 200     // of a dead letter's reason, a file or a wiki's problem shown
	maxMechanismsShown = 4       // of an example's evidence mechanisms
)

// Info is what the page says of the run that summary.json does not.
type Info struct {
	RunID   string
	Commit  string
	Started time.Time // when the run was submitted; zero if unknown
	Inputs  []document.Input
}

// Page is everything report.html shows, ready for Render.
type Page struct {
	Info       Info
	Version    string
	InputsMore int // inputs not listed
	Wikis      []Wiki
	WikisMore  int
	Params     []Param
	ParamsJSON string

	Funnel []FunnelRow

	Kinds            []KindRow
	KindsTotal       KindRow
	PaperSource      string
	PaperTotal       int64
	PaperNotSimilar  int64
	PaperNotSimShare float64

	SizeBins   []SizeBin
	SizeChart  template.HTML
	SizeFacts  []SizeFactRow
	Largest    int64
	Legend     []LegendItem
	JaccardSVG template.HTML
	EditSVG    template.HTML
	MinJaccard float64
	MaxEdit    float64

	Curve CurveView

	Pairs      []PairRow
	PairsMore  int
	Passages   PassagesView
	ManyWikis  bool
	Examples   []KindExamples
	SampleSize int
	SampleSeed uint64

	Dead            []DeadRow
	DeadMore        int   // reasons not listed
	DeadMoreLetters int64 // their dead letters
	DeadLetters     int64 // summary.json's count
}

// Wiki is a wiki of the run.
type Wiki struct {
	Name, Lang, Base string
	BaseURL          string // Base if it is a link
	Problems         []string
	ProblemsMore     int
}

// Param is a main parameter of the run, as a line of the header.
type Param struct{ Name, Value string }

// FunnelRow is a stage of the funnel, its count and what it set aside.
type FunnelRow struct {
	Stage string
	Count int64
	Width template.CSS // the bar's width, on a log scale
	Notes []string
}

// KindRow is a row of the kinds table.
type KindRow struct {
	Name, Label, Color          string
	Clusters, Sentences         int64
	ClusterShare, SentenceShare float64
	Paper                       int64 // clusters of the papers' sample
	PaperShare                  float64
	HasPaper                    bool
}

// SizeFactRow compares a paper's statement on cluster sizes with the run.
type SizeFactRow struct {
	sizeFact
	RunSmall, RunLarge float64
}

// LegendItem is a kind's colour.
type LegendItem struct{ Label, Color string }

// CurveView is the collision curve.
type CurveView struct {
	Formula     string
	Bands, Rows int
	Functions   int
	Scheme      string
	Threshold   float64
	Recall      float64
	AtThreshold float64
	SVG         template.HTML
	// Banded is false for the schemes that band no signature (simhash,
	// exact), which Description explains instead.
	Banded      bool
	Description string
}

// PairRow is a row of the top article pairs.
type PairRow struct {
	Rank           int
	WikiA, WikiB   string
	TitleA, TitleB string
	URLA, URLB     string
	PageA, PageB   int64
	Clusters       int64
}

// KindExamples are the sampled clusters of a kind.
type KindExamples struct {
	Name, Label, Color string
	Clusters           int64
	Examples           []ExampleView
}

// ExampleView is an example cluster.
type ExampleView struct {
	ID                  string
	Size, Pages         int
	MinJaccard, MaxEdit float64
	Rule, Reason        string
	Mechanisms          []string // what decided beyond the token rules (categorize.Evidence.Mechanisms)
	Members             []MemberView
	More                int // members not shown
}

// MemberView is a member of an example cluster.
type MemberView struct {
	Wiki, Title, URL string
	Section, Context string
	Segments         []categorize.Segment
	Cut              bool // the text was cut
}

// DeadRow is a kind of dead-letter reason.
type DeadRow struct {
	Kind   string
	Count  int64
	File   string
	Offset int64
	Title  string
	Reason string
}

// summaryDoc is what the page reads of summary.json.
type summaryDoc struct {
	Version    string          `json:"version"`
	Parameters json.RawMessage `json:"parameters"`
	Curve      struct {
		Formula   string `json:"formula"`
		Bands     int    `json:"bands"`
		Rows      int    `json:"rows"`
		Functions int    `json:"hash_functions"`
		Points    []struct {
			Similarity  float64 `json:"similarity"`
			Probability float64 `json:"probability"`
		} `json:"points"`
	} `json:"collision_curve"`
	Wikis []struct {
		Wiki     string   `json:"wiki"`
		Lang     string   `json:"lang"`
		Base     string   `json:"base"`
		Problems []string `json:"problems"`
	} `json:"wikis"`
	Counts   counters.Counts     `json:"counts"`
	TopPairs []summary.PairCount `json:"top_article_pairs"`
}

// parameters are the parameters the page shows.
type parameters struct {
	Namespaces    []int   `json:"namespaces"`
	ShingleLength int     `json:"shingle_length"`
	MinShingles   int     `json:"min_shingles"`
	MaxShingles   int     `json:"max_shingles"`
	FoldCase      bool    `json:"fold_case"`
	CollapseSpace bool    `json:"collapse_space"`
	Scheme        string  `json:"scheme"`
	Threshold     float64 `json:"threshold"`
	Recall        float64 `json:"recall"`
	Seed          uint64  `json:"seed"`
	Simhash       struct {
		Features     string `json:"features"`
		Bits         int    `json:"bits"`
		Permutations int    `json:"permutations"`
		Window       int    `json:"window"`
		MaxHamming   int    `json:"max_hamming"`
	} `json:"simhash"`
	MinJaccard  float64 `json:"min_jaccard"`
	MaxEdit     float64 `json:"max_edit"`
	MaxMembers  int     `json:"max_members"`
	MinPassage  int     `json:"min_passage"`
	MinCoverage float64 `json:"min_coverage"`
	PassageGap  int     `json:"passage_gap"`
	PassageText bool    `json:"passage_text"`
}

// NewPage builds the page of a run from its summary.json, Stats and
// PassageData.
func NewPage(info Info, summaryJSON []byte, st Stats, passages PassageData) (Page, error) {
	var doc summaryDoc
	if err := json.Unmarshal(summaryJSON, &doc); err != nil {
		return Page{}, fmt.Errorf("report: reading summary.json: %w", err)
	}
	var params parameters
	if err := json.Unmarshal(doc.Parameters, &params); err != nil {
		return Page{}, fmt.Errorf("report: reading summary.json's parameters: %w", err)
	}
	c := doc.Counts
	p := Page{Info: info, Version: doc.Version, MinJaccard: params.MinJaccard, MaxEdit: params.MaxEdit,
		SampleSize: st.Examples, SampleSeed: st.Seed, DeadLetters: c.DeadLetters, Largest: c.LargestCluster,
		PaperSource: paperKindsSource, PaperTotal: paperKindsTotal, PaperNotSimilar: paperNotSimilar,
		PaperNotSimShare: share(paperNotSimilar, paperKindsTotal)}
	if len(info.Inputs) > maxInputsShown {
		p.Info.Inputs, p.InputsMore = info.Inputs[:maxInputsShown], len(info.Inputs)-maxInputsShown
	}
	p.Wikis, p.WikisMore = wikiViews(doc)
	p.Params = mainParams(params, doc.Curve.Bands, doc.Curve.Rows)
	var err error
	if p.ParamsJSON, err = paramsJSON(doc.Parameters); err != nil {
		return Page{}, err
	}
	p.Funnel = funnel(c)
	p.Kinds, p.KindsTotal = kindRows(c.Categories)
	hist := c.Histogram()
	p.SizeBins = SizeBins(hist)
	p.SizeChart = sizeChart(p.SizeBins)
	for _, f := range sizeFacts {
		small, large := sizeShares(hist, f.Limit)
		p.SizeFacts = append(p.SizeFacts, SizeFactRow{sizeFact: f, RunSmall: small, RunLarge: large})
	}
	names := kindNames(c.Categories, st.Kinds)
	for _, n := range names {
		p.Legend = append(p.Legend, LegendItem{Label: kindLabel(n), Color: kindColor(n)})
	}
	p.JaccardSVG = cohesionChart(st.Kinds, names, func(k KindStats) Histogram { return k.MinJaccard },
		"lowest Jaccard similarity of a cluster's edges", "--min_jaccard", params.MinJaccard)
	p.EditSVG = cohesionChart(st.Kinds, names, func(k KindStats) Histogram { return k.MaxEdit },
		"largest edit distance of a cluster's edges (fraction of the longer sentence)", "--max_edit", params.MaxEdit)
	p.Curve = curveView(doc, params)
	bases := map[string]string{}
	for _, w := range doc.Wikis {
		bases[w.Wiki] = w.Base
	}
	p.ManyWikis = len(doc.Wikis) > 1
	p.Pairs, p.PairsMore = pairRows(doc.TopPairs, bases)
	p.Passages = passagesView(c.Passages, params, passages, bases)
	if p.Examples, err = examples(st, names, c, bases); err != nil {
		return Page{}, err
	}
	p.Dead, p.DeadMore, p.DeadMoreLetters = deadRows(st.Dead)
	return p, nil
}

// wikiViews lists the first wikis of the run, and says how many more.
func wikiViews(doc summaryDoc) (views []Wiki, more int) {
	for _, w := range doc.Wikis {
		if len(views) == maxWikisShown {
			more++
			continue
		}
		v := Wiki{Name: w.Wiki, Lang: w.Lang, Base: clip(readableURL(w.Base), maxDetailRunes)}
		if ArticleURL(w.Base, "x") != "" {
			v.BaseURL = w.Base
		}
		for i, pr := range w.Problems {
			if i == maxProblemsShown {
				v.ProblemsMore = len(w.Problems) - i
				break
			}
			v.Problems = append(v.Problems, clip(pr, maxDetailRunes))
		}
		views = append(views, v)
	}
	return views, more
}

// curveView is the collision curve of summary.json, with the threshold.
func curveView(doc summaryDoc, params parameters) CurveView {
	cv := doc.Curve
	v := CurveView{Formula: cv.Formula, Bands: cv.Bands, Rows: cv.Rows, Functions: cv.Functions,
		Scheme: params.Scheme, Threshold: params.Threshold, Recall: params.Recall,
		AtThreshold: collision(params.Threshold, cv.Bands, cv.Rows)}
	points := make([][2]float64, len(cv.Points))
	for i, pt := range cv.Points {
		points[i] = [2]float64{pt.Similarity, pt.Probability}
	}
	v.Banded = cv.Bands > 0
	if !v.Banded {
		v.Description, v.AtThreshold = schemeDescription(params), 0
		v.SVG = pointsChart(points, params)
		return v
	}
	v.SVG = curveChart(cv.Formula == curveFormula, cv.Bands, cv.Rows, points, params.Threshold)
	return v
}

// schemeDescription says how a scheme that bands no signature finds its
// candidates.
func schemeDescription(p parameters) string {
	switch p.Scheme {
	case "simhash":
		h := p.Simhash
		return fmt.Sprintf("Each sentence has a %d-bit random-hyperplane signature of its %s. The signatures are sorted in %d orders, "+
			"each by another permutation of their bits, and each is compared with the next %d of every order: a pair whose signatures "+
			"differ in at most %d bits is a candidate. Two vectors of cosine similarity s differ in each bit with probability acos(s)/π; "+
			"the curve is the chance that they differ in at most %d bits, an upper bound on their chance of being compared, as the window "+
			"may not bring them together.", h.Bits, h.Features, h.Permutations, h.Window-1, h.MaxHamming, h.MaxHamming)
	case "exact":
		return fmt.Sprintf("Every pair of sentences whose shingle sets have Jaccard similarity at least %v is a candidate, found by a "+
			"prefix-filtering join (recall 1 by construction), with the pairs below it that its filters let through.", p.Threshold)
	}
	return ""
}

// pairRows lists the first of the top article pairs, as many as fit in
// pairsBudget, and says how many more there are.
func pairRows(pairs []summary.PairCount, bases map[string]string) (rows []PairRow, more int) {
	budget := pairsBudget
	for i, tp := range pairs {
		r := PairRow{Rank: i + 1, WikiA: tp.WikiA, WikiB: tp.WikiB,
			TitleA: clip(tp.TitleA, maxTitleRunes), TitleB: clip(tp.TitleB, maxTitleRunes),
			URLA: ArticleURL(bases[tp.WikiA], tp.TitleA), URLB: ArticleURL(bases[tp.WikiB], tp.TitleB),
			PageA: tp.PageA, PageB: tp.PageB, Clusters: tp.Clusters}
		budget -= pairRowBytes + escapedLen(r.TitleA) + escapedLen(r.TitleB) + len(r.URLA) + len(r.URLB)
		if i == maxPairsShown || budget < 0 {
			return rows, len(pairs) - i
		}
		rows = append(rows, r)
	}
	return rows, 0
}

// examples decodes the sampled clusters of each kind, which share
// examplesBudget.
func examples(st Stats, names []string, c counters.Counts, bases map[string]string) ([]KindExamples, error) {
	sampled := 0
	for _, k := range st.Kinds {
		sampled += len(k.Sample)
	}
	var out []KindExamples
	for _, n := range names {
		k := st.Kinds[n]
		if len(k.Sample) == 0 {
			continue
		}
		ke := KindExamples{Name: n, Label: kindLabel(n), Color: kindColor(n), Clusters: c.Categories[n].Clusters}
		for _, e := range k.Sample {
			ev, err := exampleView(e, bases, examplesBudget/sampled)
			if err != nil {
				return nil, err
			}
			ke.Examples = append(ke.Examples, ev)
		}
		out = append(out, ke)
	}
	return out, nil
}

// paramsJSON is the parameters as the page lists them: indented, and
// without the input files, which the header lists.
func paramsJSON(raw json.RawMessage) (string, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return "", fmt.Errorf("report: reading summary.json's parameters: %w", err)
	}
	delete(m, "input")
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return "", fmt.Errorf("report: encoding parameters: %w", err)
	}
	return string(b), nil
}

// curveFormula is the collision probability summary.json states, which the
// page draws (collision).
const curveFormula = "1-(1-s^rows)^bands"

// mainParams are the header's lines on the parameters.
func mainParams(p parameters, bands, rows int) []Param {
	ns := make([]string, len(p.Namespaces))
	for i, n := range p.Namespaces {
		ns[i] = fmt.Sprint(n)
	}
	namespaces := strings.Join(ns, ", ")
	if len(ns) == 0 {
		namespaces = "all"
	}
	banding := fmt.Sprintf("%s: %d bands × %d rows", p.Scheme, bands, rows)
	switch p.Scheme {
	case "weissman":
	case "simhash":
		h := p.Simhash
		banding = fmt.Sprintf("simhash: %d bits of %s, %d permutations, window %d, Hamming distance ≤ %d", h.Bits, h.Features, h.Permutations, h.Window, h.MaxHamming)
	case "exact":
		banding = fmt.Sprintf("exact: prefix-filtering join at Jaccard %v", p.Threshold)
	default:
		banding += fmt.Sprintf(", chosen for recall %v at Jaccard %v", p.Recall, p.Threshold)
	}
	norm := []string{}
	if p.FoldCase {
		norm = append(norm, "case folded")
	}
	if p.CollapseSpace {
		norm = append(norm, "white space collapsed")
	}
	shingles := fmt.Sprintf("%d characters; sentences of %d < n < %d shingles", p.ShingleLength, p.MinShingles, p.MaxShingles)
	if len(norm) > 0 {
		shingles += "; " + strings.Join(norm, ", ")
	}
	members := "all"
	if p.MaxMembers > 0 {
		members = fmt.Sprint(p.MaxMembers)
	}
	return []Param{
		{"namespaces", namespaces},
		{"shingles", shingles},
		{"banding", banding},
		{"verification", fmt.Sprintf("Jaccard ≥ %v or edit distance ≤ %v of the longer sentence", p.MinJaccard, p.MaxEdit)},
		{"seed", fmt.Sprint(p.Seed)},
		{"members per cluster line", members},
	}
}

// funnel returns the stages from pages to clusters.
func funnel(c counters.Counts) []FunnelRow {
	// note says n of something, in the singular when n is 1 (one: what
	// reads after "1 ", many: after any other number).
	note := func(n int64, one, many string) []string {
		switch n {
		case 0:
			return nil
		case 1:
			return []string{"1 " + one}
		}
		return []string{fmt.Sprintf("%s %s", formatInt(n), many)}
	}
	rows := []FunnelRow{
		{Stage: "pages read", Count: c.PagesRead, Notes: slices.Concat(
			note(c.PagesSkippedNamespace, "in another namespace", "in other namespaces"), note(c.Redirects, "redirect", "redirects"),
			note(c.PagesDuplicate, "duplicate of a revision already read", "duplicates of a revision already read"),
			note(c.PagesEmpty, "empty text", "empty texts"), note(c.PagesFailed, "failed (a dead letter)", "failed (dead letters)"))},
		{Stage: "pages kept", Count: c.PagesKept},
		{Stage: "sentences", Count: c.Sentences, Notes: slices.Concat(
			note(c.SentencesCut, "past a page's limit, not counted", "past a page's limit, not counted"),
			note(c.DebrisLines, "line of navigation and list debris dropped in cleaning", "lines of navigation and list debris dropped in cleaning"))},
		{Stage: "sentences in the window", Count: c.SentencesInWindow, Notes: slices.Concat(
			note(c.SentencesTooShort, "too short", "too short"), note(c.SentencesTooLong, "too long", "too long"))},
		{Stage: "candidate pairs", Count: c.CandidateEdges, Notes: note(c.Buckets, "distinct band key", "distinct band keys")},
		{Stage: "verified edges", Count: c.EdgesVerified, Notes: note(c.EdgesRejected, "rejected as not similar", "rejected as not similar")},
		{Stage: "clusters", Count: c.Clusters, Notes: slices.Concat(
			note(c.SentencesInClusters, "sentence in them", "sentences in them"), note(c.LargestCluster, "in the largest", "in the largest"))},
	}
	var top int64 = 1
	for _, r := range rows {
		top = max(top, r.Count)
	}
	for i := range rows {
		rows[i].Width = template.CSS(fmt.Sprintf("width:%.1f%%", 100*logShare(rows[i].Count, top)))
	}
	return rows
}

// logShare is log(1+n)/log(1+top): a bar's length on a log scale.
func logShare(n, top int64) float64 {
	if n <= 0 || top <= 0 {
		return 0
	}
	return math.Log1p(float64(n)) / math.Log1p(float64(top))
}

// kindNames lists the categories of the counts and the stats: the known
// ones in the page's order, then any other by name.
func kindNames(counts map[string]counters.Category, stats map[string]KindStats) []string {
	seen := map[string]bool{}
	for n := range counts {
		seen[n] = true
	}
	for n := range stats {
		seen[n] = true
	}
	var out []string
	for _, k := range kinds {
		if seen[k.Name] {
			out = append(out, k.Name)
			delete(seen, k.Name)
		}
	}
	return append(out, slices.Sorted(maps.Keys(seen))...)
}

// kindRows returns the kinds table: every known kind, then any other, and
// the totals.
func kindRows(counts map[string]counters.Category) ([]KindRow, KindRow) {
	var total counters.Category
	for _, c := range counts {
		total.Clusters += c.Clusters
		total.Sentences += c.Sentences
	}
	names := make([]string, 0, len(kinds))
	for _, k := range kinds {
		names = append(names, k.Name)
	}
	for _, n := range slices.Sorted(maps.Keys(counts)) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	var rows []KindRow
	for _, n := range names {
		c := counts[n]
		paper, ok := paperKinds[n]
		rows = append(rows, KindRow{Name: n, Label: kindLabel(n), Color: kindColor(n),
			Clusters: c.Clusters, Sentences: c.Sentences,
			ClusterShare: share(c.Clusters, total.Clusters), SentenceShare: share(c.Sentences, total.Sentences),
			Paper: paper, PaperShare: share(paper, paperKindsTotal), HasPaper: ok})
	}
	sum := KindRow{Label: "all", Clusters: total.Clusters, Sentences: total.Sentences,
		ClusterShare: share(total.Clusters, total.Clusters), SentenceShare: share(total.Sentences, total.Sentences),
		Paper: paperKindsTotal, PaperShare: 1, HasPaper: true}
	return rows, sum
}

// exampleView decodes a sampled cluster and marks each member's changes
// from the first member. The members shown, and their texts, are cut to
// fit in budget bytes.
func exampleView(e Example, bases map[string]string, budget int) (ExampleView, error) {
	var c categorize.Cluster
	if err := json.Unmarshal(e.Line, &c); err != nil {
		return ExampleView{}, fmt.Errorf("report: example cluster %s: %w", e.ID, err)
	}
	v := ExampleView{ID: c.ID, Size: c.Size, Pages: c.Pages, MinJaccard: c.Cohesion.MinJaccard, MaxEdit: c.Cohesion.MaxEdit,
		Rule: c.Evidence.Rule, Reason: clip(c.Evidence.Reason, maxDetailRunes)}
	for _, m := range c.Evidence.Mechanisms[:min(len(c.Evidence.Mechanisms), maxMechanismsShown)] {
		v.Mechanisms = append(v.Mechanisms, clip(m, maxDetailRunes))
	}
	shown := c.Members[:min(len(c.Members), maxMembersShown)]
	segs := memberSegments(shown)
	for i, m := range shown {
		mv := MemberView{Wiki: m.Wiki, Title: clip(m.Title, maxTitleRunes), URL: ArticleURL(bases[m.Wiki], m.Title),
			Section: clip(m.Section, maxSectionRunes), Context: m.Context}
		fixed := memberRowBytes + escapedLen(mv.Title) + len(mv.URL) + escapedLen(mv.Section) + escapedLen(mv.Wiki)
		if i >= minMembersShown && budget < fixed+minTextBytes {
			break
		}
		// Each member left may take an equal part of what is left.
		share := budget/(len(shown)-i) - fixed
		mv.Segments, mv.Cut = cutSegments(segs[i], maxTextRunes, max(share, minTextBytes))
		budget -= fixed + segmentsLen(mv.Segments)
		v.Members = append(v.Members, mv)
	}
	v.More = max(c.Size-len(v.Members), 0)
	return v, nil
}

// memberSegments splits each member's text into what it shares with the
// first member and what it changes (categorize.Segments); the first
// member's changed parts are those that some other member changes or
// lacks, so that a member that only drops words shows where.
func memberSegments(members []sentence.View) [][]categorize.Segment {
	out := make([][]categorize.Segment, len(members))
	if len(members) == 0 {
		return out
	}
	first := members[0].Text
	changed := make([]bool, len(first)) // by byte of the first text
	for i, m := range members[1:] {
		sa, sb := categorize.Segments(first, m.Text)
		out[i+1] = sb
		at := 0
		for _, s := range sa {
			if s.Changed {
				for j := at; j < at+len(s.Text); j++ {
					changed[j] = true
				}
			}
			at += len(s.Text)
		}
	}
	for i := 0; i < len(first); {
		j := i
		for j < len(first) && changed[j] == changed[i] {
			j++
		}
		out[0] = append(out[0], categorize.Segment{Text: first[i:j], Changed: changed[i]})
		i = j
	}
	return out
}

// segmentsLen is the length of segments escaped and marked.
func segmentsLen(segs []categorize.Segment) int {
	n := 0
	for _, s := range segs {
		n += escapedLen(s.Text)
		if s.Changed {
			n += markBytes
		}
	}
	return n
}

// markBytes is what marking a segment adds to the page.
const markBytes = len("<mark></mark>")

// cutSegments keeps the segments' text up to n runes and size bytes of
// escaped and marked HTML, and says whether it cut.
func cutSegments(segs []categorize.Segment, n, size int) ([]categorize.Segment, bool) {
	var out []categorize.Segment
	for _, s := range segs {
		cost := escapedLen(s.Text)
		reserve := 0
		if s.Changed {
			reserve = markBytes
		}
		if r := utf8.RuneCountInString(s.Text); r <= n && cost+reserve <= size {
			out = append(out, s)
			n, size = n-r, size-cost-reserve
			continue
		}
		var b strings.Builder
		for _, r := range s.Text {
			c := escapedLen(string(r))
			if n == 0 || c > size-reserve {
				break
			}
			b.WriteRune(r)
			n, size = n-1, size-c
		}
		if b.Len() > 0 {
			out = append(out, categorize.Segment{Text: b.String(), Changed: s.Changed})
		}
		return out, true
	}
	return out, false
}

// readableURL is u with its percent-escapes decoded, for showing; u itself
// if they do not decode to UTF-8.
func readableURL(u string) string {
	r, err := url.PathUnescape(u)
	if err != nil || !utf8.ValidString(r) {
		return u
	}
	return r
}

// clipStart keeps the last n runes of s (a path's end says most), with an
// ellipsis if it cut.
func clipStart(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

// escapedLen is the length of s escaped as HTML text.
func escapedLen(s string) int { return len(template.HTMLEscapeString(s)) }

// clip keeps the first n runes of s, with an ellipsis if it cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// deadRows lists the dead letters by kind of reason, most first, and how
// many kinds and letters are left out.
func deadRows(dead map[string]DeadReasons) (rows []DeadRow, more int, moreLetters int64) {
	for kind, r := range dead {
		rows = append(rows, DeadRow{Kind: kind, Count: r.Count, File: clipStart(r.First.File, maxDetailRunes), Offset: r.First.Offset,
			Title: clip(r.First.Title, maxTitleRunes), Reason: clip(r.First.Reason, maxDetailRunes)})
	}
	slices.SortFunc(rows, func(a, b DeadRow) int { return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Kind, b.Kind)) })
	if len(rows) > maxReasonsShown {
		for _, r := range rows[maxReasonsShown:] {
			moreLetters += r.Count
		}
		more = len(rows) - maxReasonsShown
		rows = rows[:maxReasonsShown]
	}
	return rows, more, moreLetters
}
