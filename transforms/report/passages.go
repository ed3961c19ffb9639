package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/passage"
	"github.com/neardup/neardup/transforms/sentence"
)

// Limits of the passages section.
const (
	// MaxPassagePairs is how many document pairs the section lists, the
	// most covered first; the example passages are of the first of them.
	MaxPassagePairs = 20
	// maxPassageExamples is how many passages the section shows with their
	// texts: the longest passage of each of the first pairs.
	maxPassageExamples = 6
	// maxPassageRows is how many matched pairs of an example are shown.
	maxPassageRows = 12
	// passageTextRunes is the most runes of a text of an example.
	passageTextRunes = 240
	// passagesBudget is the bytes of the example passages, all together;
	// passagePairsBudget those of the rows of the pairs.
	passagesBudget     = 20_000
	passagePairsBudget = 10_000
	// passageRowBytes is a matched pair's row besides its texts;
	// passageHeadBytes an example's or a pair's row's besides its titles
	// and links.
	passageRowBytes  = 140
	passageHeadBytes = 500
)

// PassageSample is what the passages section shows beyond summary.json's
// counts: the document pairs that passages cover most, with their passages'
// mean similarity, and an example passage of the first of them with its
// matched pairs and their texts (read from the verified edges and the
// sentence records, not from passages-*.jsonl, which holds them only with
// --passage_text). The zero PassageSample is empty.
type PassageSample struct {
	Pairs []SampledPair `json:"pairs,omitempty"`
}

// SampledPair is a document pair of the section.
type SampledPair struct {
	passage.DocPair
	// SumJaccard is the sum over the pair's passages of their matched
	// pairs times their mean similarity.
	SumJaccard float64 `json:"sum_jaccard"`
	Lines      int64   `json:"lines"` // passage lines of the pair read
	// Example is the pair's longest passage (the first of equal ones) if
	// the pair is one of the first maxPassageExamples.
	Example *passage.Line `json:"example,omitempty"`
}

// Coverage is the share of the pair's shorter document inside its
// passages: the larger of the two shares, since a passage spans about as
// many sentences of each document.
func Coverage(p passage.DocPair) float64 { return max(p.ShareA, p.ShareB) }

// lessCoverage orders document pairs by coverage, then matched sentences,
// then (reversed) by ids, so that top.Largest keeps the most covered.
func lessCoverage(x, y passage.DocPair) bool {
	return compareCoverage(x, y) > 0
}

// compareCoverage orders the most covered pair first.
func compareCoverage(x, y passage.DocPair) int {
	return cmp.Or(cmp.Compare(Coverage(y), Coverage(x)), cmp.Compare(y.Matched, x.Matched),
		cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
}

// NewPassageSample returns the sample of the top pairs, most covered
// first, none of them read yet.
func NewPassageSample(top []passage.DocPair) PassageSample {
	top = slices.Clone(top)
	slices.SortFunc(top, compareCoverage)
	s := PassageSample{}
	for _, p := range top[:min(len(top), MaxPassagePairs)] {
		s.Pairs = append(s.Pairs, SampledPair{DocPair: p})
	}
	return s
}

// AddLine adds a line of passages-*.jsonl to the sample if it is of one of
// its pairs.
func (s *PassageSample) AddLine(js []byte) error {
	var l passage.Line
	if err := json.Unmarshal(js, &l); err != nil {
		return fmt.Errorf("report: passage line: %w", err)
	}
	i := s.pair(l.A.ID, l.B.ID)
	if i < 0 {
		return nil
	}
	p := &s.Pairs[i]
	p.Lines++
	p.SumJaccard += l.MeanJaccard * float64(l.Matched)
	if i < maxPassageExamples && (p.Example == nil || compareExamplePassages(l, *p.Example) < 0) {
		l.Matches = nil
		p.Example = &l
	}
	return nil
}

// pair is the index of the pair of documents a and b, or -1.
func (s *PassageSample) pair(a, b string) int {
	for i, p := range s.Pairs {
		if p.A == a && p.B == b {
			return i
		}
	}
	return -1
}

// compareExamplePassages orders the longest passage first, then by its
// place in document a.
func compareExamplePassages(x, y passage.Line) int {
	return cmp.Or(cmp.Compare(y.Matched, x.Matched), cmp.Compare(x.A.First, y.A.First), cmp.Compare(x.B.First, y.B.First))
}

// Merge adds o, a sample of the same pairs, to s.
func (s *PassageSample) Merge(o PassageSample) {
	if len(s.Pairs) == 0 {
		s.Pairs = slices.Clone(o.Pairs)
		return
	}
	for _, q := range o.Pairs {
		i := s.pair(q.A, q.B)
		if i < 0 {
			s.Pairs = append(s.Pairs, q)
			continue
		}
		p := &s.Pairs[i]
		p.Lines += q.Lines
		p.SumJaccard += q.SumJaccard
		if q.Example != nil && (p.Example == nil || compareExamplePassages(*q.Example, *p.Example) < 0) {
			p.Example = q.Example
		}
	}
	slices.SortFunc(s.Pairs, func(x, y SampledPair) int { return compareCoverage(x.DocPair, y.DocPair) })
}

// MeanJaccard is the mean similarity of the pair's matched sentence pairs.
func (p SampledPair) MeanJaccard() float64 {
	if p.Matched == 0 {
		return 0
	}
	return p.SumJaccard / float64(p.Matched)
}

// exampleDocs are the internal documents of an example passage, from its
// documents' wiki names (wikis is the run's, sorted, as sentence.Doc
// indexes them), page and revision ids.
func exampleDocs(l passage.Line, wikis []string) (a, b sentence.Doc, err error) {
	doc := func(d passage.Document) (sentence.Doc, error) {
		i := sort.SearchStrings(wikis, d.Wiki)
		if i == len(wikis) || wikis[i] != d.Wiki {
			return 0, fmt.Errorf("report: passage document %s: wiki %q is not one of the run's", d.ID, d.Wiki)
		}
		return sentence.NewDoc(i, d.PageID, d.RevID)
	}
	if a, err = doc(l.A); err != nil {
		return 0, 0, err
	}
	b, err = doc(l.B)
	return a, b, err
}

// A Match is a verified edge inside an example passage: its ordinals in
// both documents and its similarity.
type Match struct {
	A, B     int
	Jaccard  float64
	IDA, IDB uint64 // the sentences' ids (sentence.ID)
}

// Align returns the longest chain of matches that goes forward in both
// documents (the passage's matched pairs: the verification may also link a
// sentence of the passage to a second one, which the chain leaves out),
// the first in document a's order when chains are equally long.
func Align(ms []Match) []Match {
	ms = slices.Clone(ms)
	slices.SortFunc(ms, func(x, y Match) int { return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(y.B, x.B)) })
	// Longest strictly increasing run of B (patience sorting): with equal
	// A sorted by B descending, a chain takes at most one match of each A.
	var tails []int // index in ms of the least last match of a chain of each length
	prev := make([]int, len(ms))
	for i, m := range ms {
		k := sort.Search(len(tails), func(j int) bool { return ms[tails[j]].B >= m.B })
		prev[i] = -1
		if k > 0 {
			prev[i] = tails[k-1]
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	if len(tails) == 0 {
		return nil
	}
	out := make([]Match, len(tails))
	for i, j := len(tails)-1, tails[len(tails)-1]; i >= 0; i, j = i-1, prev[j] {
		out[i] = ms[j]
	}
	return out
}

// PassageData is what the passages section is made of besides
// summary.json: the sample, its examples' matches and their texts by
// sentence id.
type PassageData struct {
	Sample  PassageSample
	Matches []ExampleMatch
	Texts   map[uint64]string
}

// PassagesView is the passages section.
type PassagesView struct {
	On       bool    // the run looked for passages (--min_passage above 0)
	Text     bool    // --passage_text
	Min, Gap int     // --min_passage, --passage_gap
	Coverage float64 // --min_coverage
	Counts   counters.Passages
	Chart    template.HTML
	Lengths  []LengthRow
	Pairs    []PassagePairRow
	Examples []PassageExampleView
}

// LengthRow is a bar of the passage length histogram.
type LengthRow struct {
	Lo, Hi   int64
	Passages int64
}

// PassagePairRow is a row of the document pairs passages cover most.
type PassagePairRow struct {
	Rank           int
	WikiA, WikiB   string
	TitleA, TitleB string
	URLA, URLB     string
	Passages       int64
	Matched        int64
	ShareA, ShareB float64
	Coverage       float64
	MeanJaccard    float64
	Example        bool // the section shows one of its passages
}

// PassageExampleView is an example passage with its matched pairs side
// by side.
type PassageExampleView struct {
	Rank                         int // of its pair
	WikiA, WikiB                 string
	TitleA, TitleB               string
	URLA, URLB                   string
	FirstA, LastA, FirstB, LastB int
	Matched                      int
	MeanJaccard                  float64
	Rows                         []PassageRowView
	More                         int // matched pairs not shown
}

// PassageRowView is a matched pair of an example: both sentences, the
// words that differ marked.
type PassageRowView struct {
	A, B       int // ordinals
	Jaccard    float64
	SegA, SegB []categorize.Segment
	CutA, CutB bool
	Missing    bool // a text was not found (shown as its ordinal alone)
}

// wikiOf is the wiki of a document id wiki:page_id:rev_id.
func wikiOf(id string) string {
	for range 2 {
		if i := strings.LastIndexByte(id, ':'); i >= 0 {
			id = id[:i]
		}
	}
	return id
}

// passagesView builds the section from summary.json's counts and the
// collected data.
func passagesView(c counters.Passages, params parameters, d PassageData, bases map[string]string) PassagesView {
	v := PassagesView{On: params.MinPassage > 0, Text: params.PassageText, Min: params.MinPassage, Gap: params.PassageGap, Coverage: params.MinCoverage, Counts: c}
	if !v.On {
		return v
	}
	v.Lengths = lengthBins(c.Lengths)
	v.Chart = lengthChart(v.Lengths)
	byPair := map[int][]Match{}
	for _, m := range d.Matches {
		byPair[m.Pair] = append(byPair[m.Pair], Match{A: m.A, B: m.B, Jaccard: m.Jaccard, IDA: m.IDA, IDB: m.IDB})
	}
	examples, pairsBudget := 0, passagePairsBudget
	for i, p := range d.Sample.Pairs {
		wa, wb := wikiOf(p.A), wikiOf(p.B)
		r := PassagePairRow{Rank: i + 1, WikiA: wa, WikiB: wb,
			TitleA: clip(p.TitleA, maxTitleRunes), TitleB: clip(p.TitleB, maxTitleRunes),
			URLA: ArticleURL(bases[wa], p.TitleA), URLB: ArticleURL(bases[wb], p.TitleB),
			Passages: p.Passages, Matched: p.Matched, ShareA: p.ShareA, ShareB: p.ShareB,
			Coverage: Coverage(p.DocPair), MeanJaccard: p.MeanJaccard(), Example: p.Example != nil}
		if pairsBudget -= passageHeadBytes + headBytes(r.TitleA, r.TitleB, r.URLA, r.URLB); pairsBudget < 0 {
			break
		}
		v.Pairs = append(v.Pairs, r)
		if p.Example != nil && examples < maxPassageExamples {
			examples++
		}
	}
	budget := passagesBudget
	for i := range v.Pairs {
		p := d.Sample.Pairs[i]
		if p.Example == nil || examples == 0 {
			v.Pairs[i].Example = false
			continue
		}
		r := v.Pairs[i]
		l := p.Example
		e := PassageExampleView{Rank: r.Rank, WikiA: r.WikiA, WikiB: r.WikiB, TitleA: r.TitleA, TitleB: r.TitleB, URLA: r.URLA, URLB: r.URLB,
			FirstA: l.A.First, LastA: l.A.Last, FirstB: l.B.First, LastB: l.B.Last, Matched: l.Matched, MeanJaccard: l.MeanJaccard}
		chain := Align(byPair[i])
		chain = chain[:min(len(chain), maxPassageRows)]
		// Each example left may take an equal part of what is left.
		share := budget/examples - passageHeadBytes - headBytes(r.TitleA, r.TitleB, r.URLA, r.URLB)
		spent := budget/examples - share
		examples--
		for j, m := range chain {
			if j >= 2 && share < passageRowBytes+2*minTextBytes {
				break
			}
			row := passageRow(m, d.Texts, max(share/(len(chain)-j)-passageRowBytes, 2*minTextBytes))
			cost := passageRowBytes + segmentsLen(row.SegA) + segmentsLen(row.SegB)
			share, spent = share-cost, spent+cost
			e.Rows = append(e.Rows, row)
		}
		budget -= spent
		e.More = max(l.Matched-len(e.Rows), 0)
		v.Examples = append(v.Examples, e)
	}
	return v
}

// headBytes is what two titles and their links take on the page.
func headBytes(titleA, titleB, urlA, urlB string) int {
	return escapedLen(titleA) + escapedLen(titleB) + len(urlA) + len(urlB)
}

// passageRow is a matched pair with its texts cut to size bytes in all.
func passageRow(m Match, texts map[uint64]string, size int) PassageRowView {
	r := PassageRowView{A: m.A, B: m.B, Jaccard: m.Jaccard}
	ta, okA := texts[m.IDA]
	tb, okB := texts[m.IDB]
	if !okA || !okB {
		r.Missing = true
		return r
	}
	sa, sb := categorize.Segments(ta, tb)
	r.SegA, r.CutA = cutSegments(sa, passageTextRunes, size/2)
	r.SegB, r.CutB = cutSegments(sb, passageTextRunes, size/2)
	return r
}

// lengthBins are the bars of the passage length histogram: a bar for each
// length up to ExactSizes, then one per power of two, as the cluster
// sizes'.
func lengthBins(lengths map[int64]int64) []LengthRow {
	var out []LengthRow
	for _, n := range slices.Sorted(maps.Keys(lengths)) {
		k := lengths[n]
		if k <= 0 {
			continue
		}
		lo, hi := SizeBinOf(n)
		if len(out) > 0 && out[len(out)-1].Lo == lo {
			out[len(out)-1].Passages += k
			continue
		}
		out = append(out, LengthRow{Lo: lo, Hi: hi, Passages: k})
	}
	return out
}
