package passageeval

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/tokenspan"
	"github.com/neardup/neardup/testkit/corpus"
)

// SplitFunc returns the sentences of the page doc as the pipeline splits
// them when its wikitext is text.
type SplitFunc func(doc, text string) ([]corpus.Sentence, error)

// Pair is an unordered document pair, its documents in order.
type Pair [2]string

// PairOf returns the pair of documents a and b.
func PairOf(a, b string) Pair {
	if b < a {
		a, b = b, a
	}
	return Pair{a, b}
}

// Planner plants copies of paragraphs of pages into others.
type Planner struct {
	Config Config
	Rand   *rand.Rand
	Split  SplitFunc
	// Shared are, by document, the ordinals of the sentences that another
	// page already holds (those of the clusters of a run on the pages as
	// they are): they are never copied, so that no third page shares a
	// planted copy.
	Shared map[string]map[int]bool
	// Related are the document pairs that already share a sentence: no
	// copy is planted between them.
	Related map[Pair]bool
}

// Planting is what Plan planted.
type Planting struct {
	Plants []Plant
	// Texts are the new wikitexts of the pages planted into, by document.
	Texts map[string]string
	// Short are the plants of each kind that could not be made (no
	// paragraph, edit, target or place left): fewer than asked for.
	Short map[Kind]int
}

// planState is the state of one Plan: what the plants so far have used.
type planState struct {
	*Planner
	pages  []Page
	byDoc  map[string]int
	editor editor
	// window says which sentences are inside the length window, by page
	// index and ordinal.
	window [][]bool
	// used marks the sentences copied or added, by page index.
	used map[int]map[int]bool
	// runs are the ordinals (as they were) of the paragraphs copied from
	// each page, by page index; at the ordinal, as it was, before which a
	// copy was planted into each target.
	runs map[int][]Span
	at   map[int]int
	// pairs are the document pairs that a plant joins (its source and
	// target, and the target and the page of an added sentence).
	pairs  map[Pair]bool
	failed map[int]int // places not found, by target page index
	out    Planting
}

// Plan plants perKind copies of each kind among pages (one corpus: pages
// of one language), taking the kinds in turn so that a shortage of pages
// falls on all of them alike.
func (p *Planner) Plan(pages []Page, perKind int) (Planting, error) {
	if p.Config.MinSentences < 3 || p.Config.MaxSentences < p.Config.MinSentences {
		return Planting{}, fmt.Errorf("passageeval: paragraphs of %d to %d sentences; at least 3", p.Config.MinSentences, p.Config.MaxSentences)
	}
	st := &planState{
		Planner: p, pages: pages, byDoc: map[string]int{}, used: map[int]map[int]bool{},
		runs: map[int][]Span{}, at: map[int]int{}, pairs: map[Pair]bool{}, failed: map[int]int{},
		out: Planting{Texts: map[string]string{}, Short: map[Kind]int{}},
	}
	for i, pg := range pages {
		if _, dup := st.byDoc[pg.Doc]; dup {
			return Planting{}, fmt.Errorf("passageeval: document %s given twice", pg.Doc)
		}
		st.byDoc[pg.Doc] = i
	}
	st.editor = editor{rng: p.Rand, vocab: vocabulary(pages), lang: language(pages)}
	st.window = make([][]bool, len(pages))
	for i, pg := range pages {
		st.window[i] = make([]bool, len(pg.Sentences))
		for j, s := range pg.Sentences {
			st.window[i][j] = p.Config.Window.Holds(s.Text)
		}
	}
	for range perKind {
		for _, k := range Kinds {
			ok, err := st.plant(k)
			if err != nil {
				return Planting{}, err
			}
			if !ok {
				st.out.Short[k]++
			}
		}
	}
	st.finish()
	return st.out, nil
}

// vocabulary returns the words of four letters or more of the pages'
// sentences, in lower case, sorted and unique.
func vocabulary(pages []Page) []string {
	seen := map[string]bool{}
	for _, pg := range pages {
		for _, s := range pg.Sentences {
			for _, w := range tokenspan.Words(s.Text) {
				if word := s.Text[w.Start:w.End]; utf8.RuneCountInString(word) >= 4 {
					seen[strings.ToLower(word)] = true
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for w := range seen {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

// language is the language of the pages: the first one's.
func language(pages []Page) string {
	if len(pages) == 0 {
		return ""
	}
	return pages[0].Lang
}

// plant makes one plant of kind k; false if none could be made.
func (st *planState) plant(k Kind) (bool, error) {
	for range st.Config.Tries {
		src, run, ok := st.chooseRun()
		if !ok {
			return false, nil
		}
		copied := st.texts(src, run)
		planted, extra, ok := st.editCopy(k, src, copied)
		if !ok {
			continue
		}
		tgt, ok := st.chooseTarget(src, extra)
		if !ok {
			continue // every page left shares something with this one
		}
		text, at, err := st.place(tgt, planted)
		if err != nil {
			return false, err
		}
		if at < 0 {
			st.failed[tgt]++
			continue
		}
		st.record(k, src, run, tgt, extra, text, at, copied, planted)
		return true, nil
	}
	return false, nil
}

// texts returns the texts of a run of a page's sentences.
func (st *planState) texts(page int, run Span) []string {
	var out []string
	for _, s := range st.pages[page].Sentences[run.First : run.Last+1] {
		out = append(out, s.Text)
	}
	return out
}

// usable reports whether sentence i of page may be copied or added: in
// prose, inside the length window, and neither shared with another page
// nor used by a plant.
func (st *planState) usable(page, i int) bool {
	s := st.pages[page].Sentences[i]
	return s.Prose && st.window[page][i] && !st.Shared[st.pages[page].Doc][i] && !st.used[page][i]
}

// candidateRuns returns the runs of usable sentences of one paragraph, of
// at least MinSentences, of every page, in page and ordinal order. A run
// never spans the place where a copy was planted into its page.
func (st *planState) candidateRuns() [][2]int {
	var out [][2]int // page index, ordinal of the run's first sentence; the run's end is found again
	for p, pg := range st.pages {
		for i := 0; i < len(pg.Sentences); {
			j := st.runEnd(p, i)
			if j-i >= st.Config.MinSentences {
				out = append(out, [2]int{p, i})
			}
			i = max(j, i+1)
		}
	}
	return out
}

// runEnd returns the end (exclusive) of the run of usable sentences of one
// paragraph that starts at ordinal i of page p; i itself if it is not
// usable.
func (st *planState) runEnd(p, i int) int {
	ss := st.pages[p].Sentences
	at, planted := st.at[p]
	j := i
	for j < len(ss) && st.usable(p, j) && ss[j].Para == ss[i].Para && !(planted && j > i && j == at) {
		j++
	}
	return j
}

// chooseRun draws a paragraph to copy: a run of usable sentences, then a
// length and a start in it.
func (st *planState) chooseRun() (int, Span, bool) {
	runs := st.candidateRuns()
	if len(runs) == 0 {
		return 0, Span{}, false
	}
	r := runs[st.Rand.IntN(len(runs))]
	p, first := r[0], r[1]
	avail := st.runEnd(p, first) - first
	n := min(st.Config.MinSentences+st.Rand.IntN(st.Config.MaxSentences-st.Config.MinSentences+1), avail)
	first += st.Rand.IntN(avail - n + 1)
	return p, Span{first, first + n - 1}, true
}

// ref is a sentence of a page: its page index and ordinal.
type ref struct{ page, ordinal int }

// none is the ref of no sentence.
var none = ref{-1, -1}

// editCopy returns the sentences to plant for a copy of kind k of the
// sentences copied from page src, and the sentence an Added copy takes
// (none for other kinds). ok is false if the edits put a sentence of an
// exact or lightly edited copy out of the window, or no edit applies.
func (st *planState) editCopy(k Kind, src int, copied []string) (planted []string, extra ref, ok bool) {
	extra = none
	switch k {
	case Exact:
		planted = slices.Clone(copied)
	case Reworded:
		for _, s := range copied {
			edited, ok := st.editor.reword(s)
			if !ok {
				return nil, none, false
			}
			planted = append(planted, edited)
		}
	case Dropped:
		drop := 1 + st.Rand.IntN(len(copied)-2)
		planted = slices.Concat(copied[:drop], copied[drop+1:])
	case Added:
		if extra, ok = st.chooseExtra(src); !ok {
			return nil, none, false
		}
		at := 1 + st.Rand.IntN(len(copied)-1)
		planted = slices.Concat(copied[:at], []string{st.pages[extra.page].Sentences[extra.ordinal].Text}, copied[at:])
	case Heavy:
		for i, s := range copied {
			if i%2 == 0 {
				planted = append(planted, st.editor.paraphrase(s))
			}
		}
		return planted, extra, true
	}
	for _, s := range planted {
		if !st.Config.Window.Holds(s) {
			return nil, none, false
		}
	}
	return planted, extra, true
}

// chooseExtra draws a usable sentence of a page other than src for an
// Added copy; the page is checked against the target in chooseTarget.
func (st *planState) chooseExtra(src int) (ref, bool) {
	for range st.Config.Tries {
		p := st.Rand.IntN(len(st.pages))
		ss := st.pages[p].Sentences
		if p == src || len(ss) == 0 {
			continue
		}
		if i := st.Rand.IntN(len(ss)); st.usable(p, i) {
			return ref{p, i}, true
		}
	}
	return none, false
}

// chooseTarget draws a page to plant into: one that no plant has planted
// into, other than the source, and that shares nothing with it (nor with
// the page of an added sentence), by nature or by another plant.
func (st *planState) chooseTarget(src int, extra ref) (int, bool) {
	var ok []int
	for t := range st.pages {
		if st.eligible(t, src, extra) {
			ok = append(ok, t)
		}
	}
	if len(ok) == 0 {
		return 0, false
	}
	return ok[st.Rand.IntN(len(ok))], true
}

// eligible reports whether page t may take a copy from src (with a
// sentence of extra's page).
func (st *planState) eligible(t, src int, extra ref) bool {
	_, planted := st.at[t]
	if planted || t == src || st.failed[t] >= 3 || len(st.pages[t].Sentences) == 0 || !st.free(t, src) {
		return false
	}
	return extra == none || (extra.page != t && st.free(t, extra.page))
}

// free reports whether pages a and b share nothing, by nature or by plant.
func (st *planState) free(a, b int) bool {
	pair := PairOf(st.pages[a].Doc, st.pages[b].Doc)
	return !st.Related[pair] && !st.pairs[pair]
}

// place inserts planted into page t at one of its paragraph boundaries,
// tried in a random order, where the page splits into its own sentences
// with planted whole between two of them (Inserted), and not inside a
// paragraph copied from it. It returns the new wikitext and the ordinal,
// among the page's sentences as they were, before which the copy went;
// -1 if no place of those tried holds it.
func (st *planState) place(t int, planted []string) (string, int, error) {
	pg := st.pages[t]
	bounds := Boundaries(pg.Text)
	st.Rand.Shuffle(len(bounds), func(i, j int) { bounds[i], bounds[j] = bounds[j], bounds[i] })
	for _, b := range bounds[:min(len(bounds), st.Config.Tries)] {
		text := Insert(pg.Text, b, planted)
		got, err := st.Split(pg.Doc, text)
		if err != nil {
			return "", 0, fmt.Errorf("passageeval: splitting %s: %w", pg.Doc, err)
		}
		at := Inserted(pg.Sentences, got, planted)
		if at >= 0 && !slices.ContainsFunc(st.runs[t], func(r Span) bool { return r.First < at && at <= r.Last }) {
			return text, at, nil
		}
	}
	return "", -1, nil
}

// record keeps a plant and marks what it used.
func (st *planState) record(k Kind, src int, run Span, tgt int, extra ref, text string, at int, copied, planted []string) {
	mark := func(p, i int) {
		if st.used[p] == nil {
			st.used[p] = map[int]bool{}
		}
		st.used[p][i] = true
	}
	for i := run.First; i <= run.Last; i++ {
		mark(src, i)
	}
	st.runs[src] = append(st.runs[src], run)
	st.at[tgt] = at
	st.pairs[PairOf(st.pages[src].Doc, st.pages[tgt].Doc)] = true
	if extra != none {
		mark(extra.page, extra.ordinal)
		st.pairs[PairOf(st.pages[extra.page].Doc, st.pages[tgt].Doc)] = true
	}
	st.out.Texts[st.pages[tgt].Doc] = text
	st.out.Plants = append(st.out.Plants, Plant{
		Kind: k, Source: st.pages[src].Doc, Target: st.pages[tgt].Doc,
		SourceSpan: run, TargetSpan: Span{at, at + len(planted) - 1},
		Copied: copied, Planted: planted,
	})
	if extra != none {
		st.out.Plants[len(st.out.Plants)-1].Extra = st.pages[extra.page].Doc
	}
}

// finish shifts the source spans past the copies planted into their
// pages before them: the spans are then those of the pages as planted.
func (st *planState) finish() {
	for i := range st.out.Plants {
		pl := &st.out.Plants[i]
		src := st.byDoc[pl.Source]
		if at, ok := st.at[src]; ok && at <= pl.SourceSpan.First {
			n := st.planted(src)
			pl.SourceSpan.First += n
			pl.SourceSpan.Last += n
		}
	}
}

// planted is how many sentences were planted into page p.
func (st *planState) planted(p int) int {
	doc := st.pages[p].Doc
	for _, pl := range st.out.Plants {
		if pl.Target == doc {
			return len(pl.Planted)
		}
	}
	return 0
}
