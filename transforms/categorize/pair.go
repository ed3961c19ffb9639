package categorize

import (
	"fmt"
	"slices"
	"strings"
)

// substantive is the kind of a pair whose texts replace a number, date,
// name or title word; the cluster decides whether that is a template or
// factual drift.
const substantive = "substantive"

// Copy-edit flavours, from the least to the most intrusive. A pair's
// flavour is that of its most intrusive hunk.
const (
	flavorPunctOrCase   = "punctuation_or_case"
	flavorWordOrder     = "word_order"
	flavorWordForms     = "word_forms"
	flavorFunctionWords = "function_words"
	flavorInserted      = "text_inserted"
	flavorWords         = "minor_word_changes"
)

var flavorOrder = []string{flavorPunctOrCase, flavorWordOrder, flavorWordForms, flavorFunctionWords, flavorInserted, flavorWords}

var flavorText = map[string]string{
	flavorPunctOrCase:   "punctuation or case",
	flavorWordOrder:     "word order",
	flavorWordForms:     "word forms, spellings, acronyms or number formats",
	flavorFunctionWords: "function words",
	flavorInserted:      "inserted or deleted words",
	flavorWords:         "a few replaced words",
}

// Rules of pairs that are "other".
const (
	otherFragment   = "fragment"
	otherContained  = "contained"
	otherLowOverlap = "low_overlap"
)

// pair is the comparison of the reference text with another distinct text.
type pair struct {
	other   *text
	kind    string // CopyEdit, Other or substantive
	rule    string // copy-edit flavour or other rule
	changes []Change

	subs           []Change // changes of the substantive hunks
	slots          []int    // reference token index of each substantive hunk
	fill           string   // the replacing values, keyed by slot
	titleChanged   bool     // a replaced token is a page-title word
	subjectChanged bool     // the reference's first name is replaced
	numbersOnly    bool     // every replaced fact is a number or date
}

// comparePair aligns the reference text a with text b and classifies the
// pair.
func comparePair(a, b *text) pair {
	p := pair{other: b, numbersOnly: true, rule: flavorPunctOrCase}
	hunks := diff(a.toks, b.toks)
	for _, h := range hunks {
		p.changes = appendChanges(p.changes, a.toks[h.A0:h.A1], b.toks[h.B0:h.B1])
	}
	// The words really removed and added by each hunk, moves excepted.
	moves := newMoves(a.toks, b.toks, hunks)
	rems, adds := make([][]int, len(hunks)), make([][]int, len(hunks))
	removedN, addedN := 0, 0
	for k, h := range hunks {
		rems[k] = moves.removed(a.toks, h.A0, h.A1)
		adds[k] = moves.added(b.toks, h.B0, h.B1)
		removedN += len(rems[k])
		addedN += len(adds[k])
	}
	wordsA, wordsB := words(a.toks), words(b.toks)
	switch {
	case b.fragment != "":
		p.kind, p.rule = Other, otherFragment
		return p
	case (removedN == 0) != (addedN == 0) && float64(min(wordsA, wordsB)) < ContainedMaxRatio*float64(max(wordsA, wordsB)):
		p.kind, p.rule = Other, otherContained
		return p
	case float64(removedN+addedN) > OtherMinChangedShare*float64(wordsA+wordsB):
		p.kind, p.rule = Other, otherLowOverlap
		return p
	}

	subject := firstName(a.toks)
	for k, h := range hunks {
		rem, add := rems[k], adds[k]
		if len(rem)+len(add) == 0 {
			if words(a.toks[h.A0:h.A1])+words(b.toks[h.B0:h.B1]) > 0 && !caseOnly(a.toks, b.toks, h) {
				p.raiseFlavor(flavorWordOrder)
			}
			continue
		}
		rem, add = dropVariants(a.toks, rem, b.toks, add)
		if len(rem)+len(add) == 0 {
			p.raiseFlavor(flavorWordForms)
			continue
		}
		// A fact disagrees only when replaced by one of its kind: a number
		// or date by a number or date, a name by a name.
		numeric := hasKind(a.toks, rem, KindNumber, KindDate) && hasKind(b.toks, add, KindNumber, KindDate)
		named := hasKind(a.toks, rem, KindName, KindTitle) && hasKind(b.toks, add, KindName, KindTitle)
		if !numeric && !named {
			p.raiseFlavor(editFlavor(a.toks, rem, b.toks, add))
			continue
		}
		p.slots = append(p.slots, h.A0)
		p.subs = appendChanges(p.subs, pick(a.toks, rem), pick(b.toks, add))
		p.fill += fmt.Sprintf("%d=%s;", h.A0, strings.Join(keys(pick(b.toks, add)), " "))
		if named {
			p.titleChanged = p.titleChanged || hasKind(a.toks, rem, KindTitle) || hasKind(b.toks, add, KindTitle)
			p.subjectChanged = p.subjectChanged || slices.Contains(rem, subject)
			p.numbersOnly = false
		}
	}
	p.kind = CopyEdit
	if len(p.slots) > 0 {
		p.kind = substantive
	}
	return p
}

// raiseFlavor keeps the more intrusive of the pair's flavour and f.
func (p *pair) raiseFlavor(f string) {
	if slices.Index(flavorOrder, f) > slices.Index(flavorOrder, p.rule) {
		p.rule = f
	}
}

// editFlavor classifies a hunk without substantive replacement.
func editFlavor(a []Token, rem []int, b []Token, add []int) string {
	allFunction := true
	for _, i := range rem {
		allFunction = allFunction && functionWords[a[i].key()]
	}
	for _, i := range add {
		allFunction = allFunction && functionWords[b[i].key()]
	}
	switch {
	case allFunction:
		return flavorFunctionWords
	case len(rem) == 0 || len(add) == 0:
		return flavorInserted
	}
	return flavorWords
}

// moves finds tokens deleted in one place and inserted in another (or
// changed only in case): they are word order, not content.
type moves struct {
	budget       map[string]int // moved occurrences per key
	usedA, usedB map[string]int
}

func newMoves(a, b []Token, hunks []hunk) *moves {
	removed, added := map[string]int{}, map[string]int{}
	for _, h := range hunks {
		for _, t := range a[h.A0:h.A1] {
			if t.Kind != KindPunct {
				removed[t.key()]++
			}
		}
		for _, t := range b[h.B0:h.B1] {
			if t.Kind != KindPunct {
				added[t.key()]++
			}
		}
	}
	m := &moves{budget: map[string]int{}, usedA: map[string]int{}, usedB: map[string]int{}}
	for k, n := range removed {
		if a := min(n, added[k]); a > 0 {
			m.budget[k] = a
		}
	}
	return m
}

// removed returns the indices in [i, j) of a's words that are really
// removed (not moved), consuming the move budget in order.
func (m *moves) removed(a []Token, i, j int) []int { return m.take(a, i, j, m.usedA) }

// added is removed for b's inserted words.
func (m *moves) added(b []Token, i, j int) []int { return m.take(b, i, j, m.usedB) }

func (m *moves) take(toks []Token, i, j int, used map[string]int) []int {
	var out []int
	for k := i; k < j; k++ {
		t := toks[k]
		if t.Kind == KindPunct {
			continue
		}
		if key := t.key(); used[key] < m.budget[key] {
			used[key]++
			continue
		}
		out = append(out, k)
	}
	return out
}

// caseOnly reports whether h replaces one token by the same in another case.
func caseOnly(a, b []Token, h hunk) bool {
	return h.A1-h.A0 == 1 && h.B1-h.B0 == 1 && a[h.A0].key() == b[h.B0].key()
}

// words counts the tokens that are not punctuation.
func words(toks []Token) int {
	n := 0
	for _, t := range toks {
		if t.Kind != KindPunct {
			n++
		}
	}
	return n
}

// firstName returns the index of the first name or title token, the
// sentence's likely subject, or -1.
func firstName(toks []Token) int {
	for i, t := range toks {
		if t.Kind == KindName || t.Kind == KindTitle {
			return i
		}
	}
	return -1
}

// hasKind reports whether a token of toks at one of idx has one of kinds.
func hasKind(toks []Token, idx []int, kinds ...TokenKind) bool {
	for _, i := range idx {
		if slices.Contains(kinds, toks[i].Kind) {
			return true
		}
	}
	return false
}

func pick(toks []Token, idx []int) []Token {
	out := make([]Token, len(idx))
	for j, i := range idx {
		out[j] = toks[i]
	}
	return out
}

// decideSubstantive decides whether the substantive pairs of a cluster are
// templates or factual drift, with the rule and reason.
func decideSubstantive(pairs []pair) (kind, rule, reason string) {
	var subs []Change
	slots := map[int]bool{}
	fills := map[string]bool{}
	title, subject, numbersOnly := false, false, true
	for _, p := range pairs {
		if p.kind != substantive {
			continue
		}
		subs = append(subs, p.subs...)
		for _, s := range p.slots {
			slots[s] = true
		}
		fills[p.fill] = true
		title = title || p.titleChanged
		subject = subject || p.subjectChanged
		numbersOnly = numbersOnly && p.numbersOnly
	}
	if len(subs) == 0 {
		return "", "", ""
	}
	switch {
	case title:
		return Template, "title_tokens_differ", "the replaced tokens are words of the members' own page titles: " + examples(subs, KindTitle)
	case subject:
		return Template, "subject_differs", "the same sentence frame is said of different subjects: " + examples(subs, "")
	case len(slots) >= TemplateMinSlots:
		return Template, "many_slots", fmt.Sprintf("the same sentence frame is filled with different values in %s: %s", places(len(slots)), examples(subs, ""))
	case len(fills)+1 >= TemplateMinVariants:
		return Template, "many_variants", fmt.Sprintf("%d texts fill the same sentence frame with different values: %s", len(fills)+1, examples(subs, ""))
	case numbersOnly:
		return FactualDrift, "numbers_differ", fmt.Sprintf("the same statement gives different numbers or dates in %s: %s", places(len(slots)), examples(subs, ""))
	}
	return FactualDrift, "entities_differ", fmt.Sprintf("the same statement gives different names, numbers or dates in %s: %s", places(len(slots)), examples(subs, ""))
}

// examples formats up to three replacements (of kind k, or any substantive
// kind if k is empty) as "from → to".
func examples(changes []Change, k TokenKind) string {
	var out []string
	for _, c := range changes {
		if c.From == "" || c.To == "" || (k != "" && c.Kind != k) || (k == "" && !c.Kind.substantive()) {
			continue
		}
		if e := c.From + " → " + c.To; !slices.Contains(out, e) {
			out = append(out, e)
		}
		if len(out) == 3 {
			break
		}
	}
	return strings.Join(out, ", ")
}

// copyEditRule is the most intrusive flavour among the copy-edit pairs.
func copyEditRule(pairs []pair) string {
	rule := flavorPunctOrCase
	for _, p := range pairs {
		if p.kind == CopyEdit && slices.Index(flavorOrder, p.rule) > slices.Index(flavorOrder, rule) {
			rule = p.rule
		}
	}
	return rule
}

func copyEditReason(pairs []pair) string {
	reason := "the texts differ only in " + flavorText[copyEditRule(pairs)] + ", and no number, date or name is replaced"
	var shown []string
	for _, p := range pairs {
		if p.kind != CopyEdit {
			continue
		}
		for _, c := range p.changes {
			if c.Kind != KindPunct && len(shown) < 3 {
				shown = append(shown, formatChange(c))
			}
		}
	}
	if len(shown) == 0 {
		return reason
	}
	return reason + " (" + strings.Join(shown, ", ") + ")"
}

// formatChange writes a replacement as "a" → "b", an insertion as +"b" and
// a deletion as -"a".
func formatChange(c Change) string {
	switch {
	case c.From == "":
		return fmt.Sprintf("+%q", c.To)
	case c.To == "":
		return fmt.Sprintf("-%q", c.From)
	}
	return fmt.Sprintf("%q → %q", c.From, c.To)
}

// places writes "1 place" or "n places".
func places(n int) string {
	if n == 1 {
		return "1 place"
	}
	return fmt.Sprintf("%d places", n)
}

// otherRule is the rule of the first pair that is "other".
func otherRule(pairs []pair) string {
	for _, p := range pairs {
		if p.kind == Other {
			return p.rule
		}
	}
	return otherLowOverlap
}

func otherReason(pairs []pair) string {
	switch otherRule(pairs) {
	case otherFragment:
		for _, p := range pairs {
			if p.rule == otherFragment {
				return fmt.Sprintf("a text is a piece of a sentence (%s: %q)", p.other.fragment, ellipsis(p.other.norm, 60))
			}
		}
	case otherContained:
		return fmt.Sprintf("one text is contained in another more than %.2g times its length", 1/ContainedMaxRatio)
	}
	return fmt.Sprintf("more than %.0f%% of the words differ: the texts are alike in form only", 100*OtherMinChangedShare)
}
