package passageeval

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Found is a passage a run found (a line of passages-*.jsonl): its two
// documents and the ordinals of its first and last matched sentences in
// each.
type Found struct {
	A, B         string
	SpanA, SpanB Span
	Matched      int
}

// Pair is the document pair of f.
func (f Found) Pair() Pair { return PairOf(f.A, f.B) }

// oriented returns f's spans in the source and in the target of a plant on
// its document pair.
func (f Found) oriented(p Plant) (source, target Span) {
	if f.A == p.Source {
		return f.SpanA, f.SpanB
	}
	return f.SpanB, f.SpanA
}

// Hit reports whether f is a passage of the plant p: on its document pair,
// and overlapping its span by at least half of the longer of the two
// (Span.Matches) in the source and in the target alike.
func Hit(f Found, p Plant) bool {
	if f.Pair() != PairOf(p.Source, p.Target) {
		return false
	}
	source, target := f.oriented(p)
	return source.Matches(p.SourceSpan) && target.Matches(p.TargetSpan)
}

// Score counts, for one kind of copy, the plants and the passages found on
// their document pairs.
type Score struct {
	Planted int // copies planted
	Found   int // passages found on their document pairs
	Hits    int // plants some passage hits (each passage hits at most one, each plant counts once)
}

// Precision is the share of the passages found that hit a plant; 1 if
// none was found.
func (s Score) Precision() float64 { return ratio(s.Hits, s.Found) }

// Recall is the share of the plants that a passage hits; 1 if there are
// none.
func (s Score) Recall() float64 { return ratio(s.Hits, s.Planted) }

// F1 is the harmonic mean of precision and recall.
func (s Score) F1() float64 {
	p, r := s.Precision(), s.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 1
	}
	return float64(n) / float64(d)
}

// Add returns the sum of two scores.
func (s Score) Add(t Score) Score {
	return Score{Planted: s.Planted + t.Planted, Found: s.Found + t.Found, Hits: s.Hits + t.Hits}
}

// Report is the evaluation of one run's passages against the plants.
type Report struct {
	Kinds [len(Kinds)]Score
	// Missed are the plants no passage hits.
	Missed []Plant
	// Extra are the passages found on planted document pairs that hit no
	// plant (a second passage of one plant, or one in the wrong place),
	// with the plant of their pair.
	Extra []Miss
	// Unplanted are the passages found on document pairs that hold no
	// plant and no passage before planting: they count against the
	// precision of all kinds together (All), of none alone.
	Unplanted []Found
	// Added is how many passages were found between the target of an
	// Added copy and the page of the sentence put in its middle: a true
	// copy of one sentence (a passage when it is a large enough share of
	// one of the two, --min_coverage), not scored.
	Added int
	// Natural is how many passages were found on document pairs that
	// shared passages before planting: not counted.
	Natural int
}

// Miss is a found passage that hits no plant, and the plant of its pair.
type Miss struct {
	Found Found
	Plant Plant
}

// All is the score of every kind together, the unplanted passages counted
// as found.
func (r Report) All() Score {
	var s Score
	for _, k := range r.Kinds {
		s = s.Add(k)
	}
	s.Found += len(r.Unplanted)
	return s
}

// Light is the score of the exact and lightly edited copies together.
func (r Report) Light() Score {
	var s Score
	for _, k := range Kinds {
		if k.Light() {
			s = s.Add(r.Kinds[k])
		}
	}
	return s
}

// Evaluate scores found passages against the plants. A passage on a
// document pair of natural (pairs that share passages before planting) is
// left out; one on a planted pair counts as found for the plant's kind and
// hits the plant if Hit says so and no other passage hit it before (the
// passages taken in order of their pair and spans); any other is
// unplanted. Every plant must be on a pair of its own.
func Evaluate(plants []Plant, found []Found, natural map[Pair]bool) (Report, error) {
	var r Report
	byPair := map[Pair]int{}
	for i, p := range plants {
		pair := PairOf(p.Source, p.Target)
		if _, dup := byPair[pair]; dup {
			return Report{}, fmt.Errorf("passageeval: two plants on the document pair %s, %s", pair[0], pair[1])
		}
		if natural[pair] {
			return Report{}, fmt.Errorf("passageeval: a plant on the document pair %s, %s, which shared passages before", pair[0], pair[1])
		}
		byPair[pair] = i
		r.Kinds[p.Kind].Planted++
	}
	found = slices.Clone(found)
	slices.SortFunc(found, compareFound)
	added := map[Pair]bool{}
	for _, p := range plants {
		if p.Extra != "" {
			added[PairOf(p.Target, p.Extra)] = true
		}
	}
	hit := make([]bool, len(plants))
	for _, f := range found {
		if natural[f.Pair()] {
			r.Natural++
			continue
		}
		if added[f.Pair()] {
			r.Added++
			continue
		}
		i, ok := byPair[f.Pair()]
		if !ok {
			r.Unplanted = append(r.Unplanted, f)
			continue
		}
		s := &r.Kinds[plants[i].Kind]
		s.Found++
		if !hit[i] && Hit(f, plants[i]) {
			hit[i] = true
			s.Hits++
			continue
		}
		r.Extra = append(r.Extra, Miss{Found: f, Plant: plants[i]})
	}
	for i, p := range plants {
		if !hit[i] {
			r.Missed = append(r.Missed, p)
		}
	}
	return r, nil
}

// compareFound orders passages by document pair, then by their spans.
func compareFound(x, y Found) int {
	px, py := x.Pair(), y.Pair()
	return cmp.Or(cmp.Compare(px[0], py[0]), cmp.Compare(px[1], py[1]),
		cmp.Compare(x.SpanA.First, y.SpanA.First), cmp.Compare(x.SpanB.First, y.SpanB.First),
		cmp.Compare(x.SpanA.Last, y.SpanA.Last), cmp.Compare(x.SpanB.Last, y.SpanB.Last))
}

// Table is r as a Markdown table: a row per kind, then the light kinds
// together and every kind together.
func (r Report) Table() string {
	var b strings.Builder
	b.WriteString("| kind | planted | found | hits | precision | recall | F1 |\n|---|---|---|---|---|---|---|\n")
	row := func(name string, s Score) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.3f | %.3f | %.3f |\n", name, s.Planted, s.Found, s.Hits, s.Precision(), s.Recall(), s.F1())
	}
	for _, k := range Kinds {
		row(k.String(), r.Kinds[k])
	}
	row("exact and light", r.Light())
	row(fmt.Sprintf("all (+%d unplanted)", len(r.Unplanted)), r.All())
	return b.String()
}
