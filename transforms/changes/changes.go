// Package changes finds the facts that changed in a page between two dump
// dates.
//
// The clusters of the pipeline are contradictions between the sentences of
// one input. A page read in an earlier dump (the baseline) and again in the
// current one is another source of them: the same sentence, edited between
// the two dates, may give another number, date or name. Compare aligns the
// sentences of the page's two revisions, first those whose text did not
// change (a diff over the sequence of sentences, Align), then, between two
// such sentences, the old and new sentences that are versions of each
// other (the verification of package verify: shingle Jaccard similarity or
// edit distance), best pair first. Each pair is compared by
// categorize.Compare; the pairs whose facts differ are the changes, typed
// by what happened to each fact: replaced by another value, added or
// removed (types.go).
//
// The logic here is pure; beam.go wraps it in the pipeline's stage, which
// brings the two revisions of each page together in batches keyed by a
// shard of the page.
package changes

import (
	"cmp"
	"hash/fnv"
	"io"
	"slices"

	"strings"

	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/verify"
)

// Sentence is one sentence of a revision.
type Sentence struct {
	Ordinal int    // position in the page, from 0
	Section string // nearest heading above it, "" in the lead
	Context string // prose, list or reference
	Text    string
}

// Revision is one revision of a page and its sentences in document order.
type Revision struct {
	Wiki      string
	PageID    int64
	RevID     int64
	Title     string
	Sentences []Sentence
}

// Side is one version of a changed sentence, as changes-*.jsonl shows it.
type Side struct {
	ID       string `json:"id"` // wiki:page_id:rev_id:ordinal
	RevID    int64  `json:"rev_id"`
	Sentence int    `json:"sentence"` // ordinal in its revision
	Section  string `json:"section"`
	Text     string `json:"text"`
}

// Fact is a value that changed: what stood in the slot of the old sentence
// and what stands there in the new one (categorize.Fact without its
// member indices, which are always the old and the new sentence here).
type Fact struct {
	Change  string `json:"change"`  // replaced, added or removed (categorize.Change*)
	Type    string `json:"type"`    // number, date, name, quantity, negation or contrast
	Slot    int    `json:"slot"`    // index of the slot's first token in the old sentence
	Context string `json:"context"` // words of the old sentence before the slot
	From    string `json:"from"`
	To      string `json:"to"`
}

// Change is a sentence whose facts changed between the two revisions: a
// line of changes-*.jsonl.
type Change struct {
	Wiki   string `json:"wiki"`
	PageID int64  `json:"page_id"`
	Title  string `json:"title"` // the page's title in the new revision
	// Type is what happened to the sentence's facts (Type*): replaced if a
	// value was replaced, else added, removed, or added_removed for both.
	Type    string              `json:"type"`
	Old     Side                `json:"old"`
	New     Side                `json:"new"`
	Facts   []Fact              `json:"facts"`
	Changes []categorize.Change `json:"changes"` // the aligned token changes
	// Mechanisms says what decided beyond the token rules, as
	// "mechanism: detail" (categorize.Comparison.Mechanisms, and the
	// values set aside as moved to a neighbouring sentence: MechanismMoved).
	Mechanisms []string `json:"mechanisms,omitempty"`
}

// MechanismMoved names the values of a pair that one side gives and a
// sentence next to the other side's states: moved there, not added or
// removed ("moved: Latin").
const MechanismMoved = "moved"

// Counts are what comparing revisions counted. For the pages compared,
// every old sentence is unchanged, paired or removed, and every new one
// unchanged, paired or added; every pair is moved, a copy edit, other or a
// change, and every change is of one type.
type Counts struct {
	SentencesBefore    int64 // sentences of the old revisions
	SentencesAfter     int64 // sentences of the new revisions
	SentencesUnchanged int64 // matched by the diff: the same text in both
	SentencesRemoved   int64 // old sentences paired with none
	SentencesAdded     int64 // new sentences paired with none
	PairsCompared      int64 // old and new sentences paired by similarity
	PairsMoved         int64 // pairs of the same text, moved across others
	PairsCopyEdit      int64 // pairs in which no fact changed
	PairsOther         int64 // pairs too different to be one statement (categorize: other)
	Changes            int64 // pairs in which a fact changed: the lines written
	// ChangesReplaced, ChangesAdded, ChangesRemoved and
	// ChangesAddedRemoved count the changes by Change.Type.
	ChangesReplaced, ChangesAdded, ChangesRemoved, ChangesAddedRemoved int64
	// ComparisonsSkipped counts the candidate pairs of an old and a new
	// sentence, both left unpaired, that were never compared because the
	// page was over the bounds of Config or of maxCandidates (and, for an
	// old sentence the MaxVisits bound kept out of the index, its pairs
	// with every new sentence not near its place).
	ComparisonsSkipped int64
}

// Limits of the work of one page.
const (
	// DefaultMaxCells bounds the alignment of a page's sentences (Align):
	// 4 M table cells and element visits.
	DefaultMaxCells = 1 << 22
	// DefaultMaxGapPairs is the most sentence pairs of one group (a gap,
	// or the sentences left unpaired page-wide) compared all against all;
	// a larger group compares the candidates of an index of its shingles
	// (index.go).
	DefaultMaxGapPairs = 4096
	// DefaultMaxPairs bounds the sentence pairs compared in one page: 1 M,
	// a second or two, forty times the 25,000 that the indexes compare
	// on a page of 5,000 sentences all rewritten and reordered.
	DefaultMaxPairs = 1 << 20
	// window is how many new sentences on each side of its place an old
	// sentence of a large gap is compared with.
	window = 16
)

// Config says what two versions of a sentence are.
type Config struct {
	ShingleLength int
	Norm          shingle.Normalization
	Thresholds    verify.Thresholds
	// MaxCells, MaxGapPairs, MaxPairs and MaxVisits bound the work of a
	// page (0: DefaultMaxCells, DefaultMaxGapPairs, DefaultMaxPairs,
	// DefaultMaxVisits).
	MaxCells, MaxGapPairs, MaxPairs, MaxVisits int
}

// Comparer compares revisions, reusing its buffers. It is not safe for
// concurrent use; make one per worker.
type Comparer struct {
	// Knowledge is what the run learned from its dumps (the names of one
	// article), with which two versions of a sentence are compared
	// (categorize.CompareWith); the zero Knowledge knows nothing.
	Knowledge categorize.Knowledge

	cfg     Config
	checker *verify.Checker
}

// NewComparer returns a Comparer for cfg.
func NewComparer(cfg Config) *Comparer {
	if cfg.MaxCells <= 0 {
		cfg.MaxCells = DefaultMaxCells
	}
	if cfg.MaxGapPairs <= 0 {
		cfg.MaxGapPairs = DefaultMaxGapPairs
	}
	if cfg.MaxPairs <= 0 {
		cfg.MaxPairs = DefaultMaxPairs
	}
	if cfg.MaxVisits <= 0 {
		cfg.MaxVisits = DefaultMaxVisits
	}
	return &Comparer{cfg: cfg, checker: verify.NewChecker(cfg.ShingleLength, cfg.Norm, cfg.Thresholds)}
}

// Compare returns the sentences of the page whose facts changed from
// revision old to revision cur, in the order of the new revision, and what
// it counted.
func (c *Comparer) Compare(old, cur Revision) ([]Change, Counts) {
	counts := Counts{SentencesBefore: int64(len(old.Sentences)), SentencesAfter: int64(len(cur.Sentences))}
	pairs, unchanged, skipped := c.align(old, cur)
	counts.SentencesUnchanged = int64(len(unchanged))
	counts.ComparisonsSkipped = int64(skipped)
	counts.PairsCompared = int64(len(pairs))
	counts.SentencesRemoved = counts.SentencesBefore - counts.SentencesUnchanged - counts.PairsCompared
	counts.SentencesAdded = counts.SentencesAfter - counts.SentencesUnchanged - counts.PairsCompared
	partners := newPartners(len(old.Sentences), len(cur.Sentences), unchanged, pairs)
	var out []Change
	for _, p := range pairs {
		a, b := old.Sentences[p.Old], cur.Sentences[p.New]
		ma, mb := partners.joined(old, cur, p)
		cr := categorize.CompareWith(ma, mb, c.Knowledge)
		switch cr.Kind {
		case categorize.Identical:
			counts.PairsMoved++
			continue
		case categorize.Other:
			counts.PairsOther++
			continue
		}
		facts, moved := partners.keepFacts(cr.Facts, old.Sentences, cur.Sentences, p)
		if len(facts) == 0 {
			counts.PairsCopyEdit++
			continue
		}
		ch := change(old, cur, a, b, cr, facts)
		for _, v := range moved {
			ch.Mechanisms = append(ch.Mechanisms, MechanismMoved+": "+v)
		}
		counts.count(ch.Type)
		out = append(out, ch)
	}
	slices.SortFunc(out, func(x, y Change) int { return cmp.Compare(x.New.Sentence, y.New.Sentence) })
	return out, counts
}

// Pairs returns the pairs of an old and a new sentence, by their indices in
// the revisions, that Compare compares: the versions of one sentence whose
// texts differ, in the order of the new sentences.
func (c *Comparer) Pairs(old, cur Revision) []Match {
	pairs, _, _ := c.align(old, cur)
	return pairs
}

// align aligns the sentences of two revisions: it returns the pairs of
// versions whose texts differ, the sentences the diff matched unchanged,
// and how many comparisons the bounds skipped.
func (c *Comparer) align(old, cur Revision) (pairs, unchanged []Match, skipped int) {
	unchanged = Align(hashes(old.Sentences), hashes(cur.Sentences), c.cfg.MaxCells)
	pairs, skipped = c.pairs(old.Sentences, cur.Sentences, gaps(unchanged, len(old.Sentences), len(cur.Sentences)))
	return pairs, unchanged, skipped
}

// hashes returns the 64-bit FNV-1a hash of each sentence's text, white
// space normalised.
func hashes(ss []Sentence) []uint64 {
	out := make([]uint64, len(ss))
	h := fnv.New64a()
	for i, s := range ss {
		h.Reset()
		for k, w := range strings.Fields(s.Text) {
			if k > 0 {
				h.Write([]byte{' '})
			}
			io.WriteString(h, w)
		}
		out[i] = h.Sum64()
	}
	return out
}

// pairs pairs the old and new sentences that are versions of each other,
// best first (highest Jaccard similarity, then least edit distance, then
// position), each sentence at most once: first inside each gap between the
// diff's matches, then, page-wide, the sentences still unpaired (a
// sentence moved across others and edited, or a gap the diff anchored
// wrongly). It returns the pairs in the order of the new sentences and how
// many comparisons of the sentences left unpaired the bounds skipped.
func (c *Comparer) pairs(old, cur []Sentence, gs []gap) ([]Match, int) {
	var out []Match
	budget, visits := c.cfg.MaxPairs, c.cfg.MaxVisits
	sets := newSentenceSets(c.cfg, len(old), len(cur))
	for _, g := range gs {
		ms, compared, _ := c.pairGroup(old, cur, span(g.old0, g.old1), span(g.new0, g.new1), sets, budget, &visits)
		budget -= compared
		out = append(out, ms...)
	}
	pairedOld, pairedNew := map[int]bool{}, map[int]bool{}
	for _, m := range out {
		pairedOld[m.Old], pairedNew[m.New] = true, true
	}
	var restOld, restNew []int
	for _, g := range gs {
		restOld = appendUnpaired(restOld, g.old0, g.old1, pairedOld)
		restNew = appendUnpaired(restNew, g.new0, g.new1, pairedNew)
	}
	ms, _, skipped := c.pairGroup(old, cur, restOld, restNew, sets, budget, &visits)
	out = append(out, ms...)
	slices.SortFunc(out, func(x, y Match) int { return cmp.Compare(x.New, y.New) })
	return out, skipped
}

// span returns the indices lo, lo+1, …, hi-1.
func span(lo, hi int) []int {
	out := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

// appendUnpaired appends the indices of lo…hi-1 not in paired to dst.
func appendUnpaired(dst []int, lo, hi int, paired map[int]bool) []int {
	for i := lo; i < hi; i++ {
		if !paired[i] {
			dst = append(dst, i)
		}
	}
	return dst
}

// member is a sentence as categorize compares it.
func member(r Revision, s Sentence) categorize.Member {
	return categorize.Member{Wiki: r.Wiki, Title: r.Title, Section: s.Section, Context: s.Context, Text: s.Text}
}

// change is the record of a pair whose facts differ.
func change(old, cur Revision, a, b Sentence, c categorize.Comparison, kept []categorize.Fact) Change {
	facts := make([]Fact, len(kept))
	for i, f := range kept {
		facts[i] = Fact{Change: f.Change, Type: f.Type, Slot: f.Slot, Context: f.Context, From: f.From, To: f.To}
	}
	return Change{
		Wiki: cur.Wiki, PageID: cur.PageID, Title: cur.Title, Type: changeType(facts),
		Old:   side(old, a),
		New:   side(cur, b),
		Facts: facts, Changes: c.Changes,
		Mechanisms: slices.Clone(c.Mechanisms),
	}
}

func side(r Revision, s Sentence) Side {
	return Side{ID: sentence.FormatKey(r.Wiki, r.PageID, r.RevID, s.Ordinal), RevID: r.RevID, Sentence: s.Ordinal, Section: s.Section, Text: s.Text}
}
