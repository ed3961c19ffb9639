package categorize

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
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

	subs           []Change // each substantive replacement, as phrases
	facts          []Fact   // each substantive replacement, typed, with its slot
	slots          []int    // reference token index of each substantive hunk
	fill           string   // the replacing values, keyed by slot
	titleChanged   bool     // a replaced token is a page-title word
	subjectChanged bool     // a word of the reference's subject is replaced
	numbersOnly    bool     // every replaced fact is a number, date or quantity
	claims         bool     // a quantity or a negation is replaced
	mechanisms     []string // what decided beyond the token rules (Evidence.Mechanisms)

	sided        []sidedHunk // the hunks that replaced no value, for Compare's one-sided facts
	usedA, usedB []int       // the loose numbers of A and B matched as replaced
}

// comparePair aligns the reference text a with text b and classifies the
// pair.
func (c *group) comparePair(a, b *text) pair {
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
	case b.fragment != "" && !unterminatedCopy(a, b, removedN+addedN):
		p.kind, p.rule = Other, otherFragment
		return p
	case (removedN == 0) != (addedN == 0) && float64(min(wordsA, wordsB)) < ContainedMaxRatio*float64(max(wordsA, wordsB)) &&
		runOn(a.toks, b.toks, hunks):
		p.kind, p.rule = Other, otherContained
		return p
	case float64(removedN+addedN) > OtherMinChangedShare*float64(wordsA+wordsB):
		if sub, ok := refilled(a.toks, b.toks, hunks, rems, adds); ok {
			p.kind, p.rule = Template, frameRefilled
			p.subs = append(p.subs, sub)
			return p
		}
		p.kind, p.rule = Other, otherLowOverlap
		return p
	}

	subject := subjectRun(a.toks)
	var loose []looseNumber
	for k, h := range hunks {
		rem, add := rems[k], adds[k]
		if len(rem)+len(add) == 0 {
			switch {
			case sameKey(a.toks, b.toks, h):
				if !strings.EqualFold(a.toks[h.A0].Text, b.toks[h.B0].Text) {
					p.raiseFlavor(flavorWordForms) // Boumediene, Boumédiène; nine, 9
				}
			case words(a.toks[h.A0:h.A1])+words(b.toks[h.B0:h.B1]) > 0:
				p.raiseFlavor(flavorWordOrder)
			}
			continue
		}
		rem, add = dropVariants(a.toks, rem, b.toks, add)
		if m, ok := c.sameEntity(a, rem, b, add); ok {
			p.raiseFlavor(flavorWordForms) // one article under two names: Côte d'Ivoire, Ivory Coast
			p.mechanisms = append(p.mechanisms, m)
			continue
		}
		rem, add = c.dropForms(&p, a, rem, b, add, h)
		if len(rem)+len(add) == 0 {
			p.raiseFlavor(flavorWordForms)
			continue
		}
		if m, ok := c.titlesCrossed(a, rem, b, add); ok {
			p.raiseFlavor(flavorWordForms)
			p.mechanisms = append(p.mechanisms, m)
			continue
		}
		// A fact disagrees only when replaced by another: a number or date
		// by a number, a date or a phrase without one ("19 hours", "less
		// than a day"), a name by a name, a quantity by another quantity
		// ("most", "nearly all"), or a statement by its negation.
		numeric := (hasNumber(a.toks, rem) && hasNumber(b.toks, add) ||
			numberForWords(a.toks, rem, b.toks, add)) && !sameDuration(a.toks, rem, b.toks, add)
		claim := quantityConflict(a.toks, rem, b.toks, add) || negationConflict(a.toks, rem, b.toks, add) || contrasted(a.toks, rem, b.toks, add)
		named := hasKind(a.toks, rem, KindName, KindTitle) && hasKind(b.toks, add, KindName, KindTitle)
		if (numeric || named || claim) && !inSlot(a.toks, rem, b.toks, add) {
			numeric, named, claim = false, false, false // a clause rewritten, not a value replaced
		}
		if !numeric && !named && !claim {
			p.raiseFlavor(editFlavor(a.toks, rem, b.toks, add))
			loose = appendLooseNumbers(loose, k, a.toks, rem, b.toks, add)
			p.sided = append(p.sided, sidedHunk{hunk: h, rem: rem, add: add})
			continue
		}
		p.addSlot(h.A0, factType(numeric, named, a.toks, rem, b.toks, add), a.toks, rem, b.toks, add)
		p.claims = p.claims || claim && !numeric && !named
		p.titleChanged = p.titleChanged || hasKind(a.toks, rem, KindTitle) || hasKind(b.toks, add, KindTitle)
		if named {
			p.subjectChanged = p.subjectChanged || slices.ContainsFunc(rem, func(i int) bool { return subject.contains(i) })
			p.numbersOnly = false
		}
	}
	p.matchLooseNumbers(loose, hunks, a.toks, b.toks)
	p.kind = CopyEdit
	if len(p.slots) > 0 {
		p.kind = substantive
	}
	return p
}

// MaxSlotWords is the most content words (not function words) either side
// of a hunk may hold for it to replace one value by another; a longer hunk
// rewrites a clause, and what it adds or drops is not a contradiction.
// Hunks that replace a number by a number may hold MaxNumberSlotWords.
const (
	MaxSlotWords       = 4
	MaxNumberSlotWords = 6
)

// inSlot reports whether a hunk is short enough to replace one value by
// another (MaxSlotWords).
func inSlot(a []Token, rem []int, b []Token, add []int) bool {
	limit := MaxSlotWords
	if hasNumber(a, rem) && hasNumber(b, add) {
		limit = MaxNumberSlotWords
	}
	return contentWords(a, rem) <= limit && contentWords(b, add) <= limit
}

// contentWords counts the tokens toks[idx] that are not function words.
func contentWords(toks []Token, idx []int) int {
	n := 0
	for _, i := range idx {
		if !functionWords[toks[i].key()] {
			n++
		}
	}
	return n
}

// addSlot records a substantive hunk of type typ at reference token slot,
// removing the tokens rem of a and adding add of b.
func (p *pair) addSlot(slot int, typ string, a []Token, rem []int, b []Token, add []int) {
	from, to := pick(a, rem), pick(b, add)
	p.facts = append(p.facts, Fact{Type: typ, Slot: slot, Context: slotContext(a, slot), From: phrase(from), To: phrase(to)})
	kind := KindWord
	for _, t := range slices.Concat(from, to) {
		if t.Kind.rank() > kind.rank() {
			kind = t.Kind
		}
	}
	p.slots = append(p.slots, slot)
	p.subs = append(p.subs, Change{Kind: kind, From: phrase(from), To: phrase(to)})
	p.fill += fmt.Sprintf("%d=%s;", slot, strings.Join(keys(to), " "))
}

// phrase joins the words of toks with spaces.
func phrase(toks []Token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

// looseNumber is a number or date that a hunk removes from the reference (a)
// or adds to the other text (b) with nothing of its kind in its place.
type looseNumber struct {
	hunk    int
	idx     int // index in a's or b's tokens
	removed bool
}

// appendLooseNumbers appends the numbers and dates of a hunk that was not
// found substantive.
func appendLooseNumbers(dst []looseNumber, hunk int, a []Token, rem []int, b []Token, add []int) []looseNumber {
	for _, i := range rem {
		if isNumber(a[i]) {
			dst = append(dst, looseNumber{hunk: hunk, idx: i, removed: true})
		}
	}
	for _, j := range add {
		if isNumber(b[j]) {
			dst = append(dst, looseNumber{hunk: hunk, idx: j})
		}
	}
	return dst
}

// matchLooseNumbers finds a number removed in one hunk and another added in
// another hunk in the same frame, a word or sign next to each of them being
// the same ("By 6:00 pm" and "by 7:00 p.m.", "the 13 casinos" and "the 11
// casinos"): the alignment split a replaced value, which disagrees as much
// as a value replaced in place.
func (p *pair) matchLooseNumbers(loose []looseNumber, hunks []hunk, a, b []Token) {
	used := map[int]bool{}
	for _, x := range loose {
		if !x.removed {
			continue
		}
		for k, y := range loose {
			if y.removed || used[k] || y.hunk == x.hunk {
				continue
			}
			if a[x.idx].Kind != b[y.idx].Kind || isVariant(a[x.idx], b[y.idx]) || !sameFrame(a, x.idx, b, y.idx) {
				continue
			}
			used[k] = true
			p.usedA, p.usedB = append(p.usedA, x.idx), append(p.usedB, y.idx)
			p.addSlot(hunks[x.hunk].A0, factType(true, false, a, []int{x.idx}, b, []int{y.idx}), a, []int{x.idx}, b, []int{y.idx})
			break
		}
	}
}

// sameFrame reports whether a[i] and b[j] have the same token before or
// after them, that token being a word or a sign that binds a number (":",
// "$", "%", "/") rather than a comma or a bracket.
func sameFrame(a []Token, i int, b []Token, j int) bool {
	binds := func(t Token) bool { return t.Kind != KindPunct || strings.ContainsAny(t.Text, ":$£€/%") }
	if i > 0 && j > 0 && a[i-1].key() == b[j-1].key() && binds(a[i-1]) {
		return true
	}
	return i+1 < len(a) && j+1 < len(b) && a[i+1].key() == b[j+1].key() && binds(a[i+1])
}

// numberForWords reports whether a hunk replaces a number or date by words
// without one, or words by a number ("13 casinos" and "several casinos",
// "19 hours" and "less than a day"): a figure given in one text is not
// given in the other, which says something else instead. Words holding a
// name say who, not how many, and so are not a figure's replacement.
func numberForWords(a []Token, rem []int, b []Token, add []int) bool {
	numA, numB := hasNumber(a, rem), hasNumber(b, add)
	if numA == numB {
		return false
	}
	toks, idx := b, add
	if numB {
		toks, idx = a, rem
	}
	return words(pick(toks, idx)) > 0 && !hasKind(toks, idx, KindName, KindTitle)
}

// quantityConflict reports whether both sides of a hunk state a quantity
// and the quantities differ in class ("most" and "nearly all", "about
// 7,000" and "over 7,000").
func quantityConflict(a []Token, rem []int, b []Token, add []int) bool {
	qa, qb := quantities(a, rem), quantities(b, add)
	return len(qa) > 0 && len(qb) > 0 && !slices.Equal(qa, qb)
}

// quantities returns the sorted quantity classes of the tokens toks[idx]: a
// modifier followed by a number or a quantifier ("nearly" in "nearly all"),
// or a quantifier.
func quantities(toks []Token, idx []int) []string {
	var out []string
	for _, i := range idx {
		k := toks[i].key()
		class, ok := quantityModifiers[k]
		if !ok || !quantityFollows(toks, i+1) {
			class, ok = quantityClass[k]
		}
		if ok && !slices.Contains(out, class) {
			out = append(out, class)
		}
	}
	slices.Sort(out)
	return out
}

// quantityFollows reports whether toks[i] (the word "than" skipped) is a
// number or a quantifier.
func quantityFollows(toks []Token, i int) bool {
	if i < len(toks) && toks[i].key() == "than" {
		i++
	}
	if i >= len(toks) {
		return false
	}
	_, quantifier := quantityClass[toks[i].key()]
	return quantifier || isNumber(toks[i])
}

// negationConflict reports whether one side of a hunk denies what the other
// states: the sides hold different numbers of negations ("not", "never",
// "without", "-n't"). A negation inserted or deleted alone counts; one
// inside an inserted or deleted clause states a new fact, not a contrary
// one.
func negationConflict(a []Token, rem []int, b []Token, add []int) bool {
	na, nb := countNegations(a, rem), countNegations(b, add)
	if na == nb {
		return false
	}
	if len(rem) > 0 && len(add) > 0 {
		return true
	}
	toks, idx := pick(a, rem), pick(b, add)
	for _, t := range slices.Concat(toks, idx) {
		if !functionWords[t.key()] && !isNegation(t) {
			return false
		}
	}
	return true
}

func countNegations(toks []Token, idx []int) int {
	n := 0
	for _, i := range idx {
		if isNegation(toks[i]) && !restrictedNegation(toks, i) {
			n++
		}
	}
	return n
}

func isNegation(t Token) bool {
	k := t.key()
	return negations[k] || strings.HasSuffix(k, "n't") || strings.HasSuffix(k, "n’t")
}

// runOn reports whether the longer of two texts, one contained in the
// other, is two sentences run together: where its extra words meet the
// shared ones, a sentence starts (a capitalised word after ".", "!" or "?",
// or a capitalised function word after a word, its period lost). The
// shorter text is then a sentence cut from the longer by the splitter,
// not an edit of it.
func runOn(a, b []Token, hunks []hunk) bool {
	for _, h := range hunks {
		long, i0, i1 := a, h.A0, h.A1
		if h.B1-h.B0 > h.A1-h.A0 {
			long, i0, i1 = b, h.B0, h.B1
		}
		if sentenceStartsAt(long, i0) || sentenceStartsAt(long, i1) {
			return true
		}
	}
	return false
}

// sentenceStartsAt reports whether a sentence starts at toks[i], inside the
// text.
func sentenceStartsAt(toks []Token, i int) bool {
	if i <= 0 || i >= len(toks) {
		return false
	}
	first, _ := utf8.DecodeRuneInString(toks[i].Text)
	if !unicode.IsUpper(first) {
		return false
	}
	prev := toks[i-1]
	if prev.Text == "." || prev.Text == "!" || prev.Text == "?" {
		return i < 2 || !isInitial(toks[i-2]) && !titleAbbreviations[toks[i-2].key()]
	}
	return prev.Kind != KindPunct && functionWords[toks[i].key()]
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

// sameKey reports whether h replaces one token by another with the same
// key: the same in another case or another form (Tokenize's equivalences).
func sameKey(a, b []Token, h hunk) bool {
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

// span is a range [start, end) of token indices.
type span struct{ start, end int }

func (s span) contains(i int) bool { return s.start <= i && i < s.end }

// subjectRun returns the first name of the sentence, its likely subject:
// the first run of name or title tokens, with "&" and "of" inside it
// ("Samsung Fire & Marine Insurance", "University of Bern"). It is empty if
// there is no name.
func subjectRun(toks []Token) span {
	isName := func(i int) bool { return i < len(toks) && (toks[i].Kind == KindName || toks[i].Kind == KindTitle) }
	start := slices.IndexFunc(toks, func(t Token) bool { return t.Kind == KindName || t.Kind == KindTitle })
	if start < 0 {
		return span{}
	}
	end := start + 1
	for {
		switch {
		case isName(end):
			end++
		case end+1 < len(toks) && (toks[end].Text == "&" || toks[end].Text == "of") && isName(end+1):
			end += 2
		default:
			return span{start, end}
		}
	}
}

// isNumber reports whether t is a number or a date, or a page-title word
// written in figures (the year of "Hurricane Katrina (1981)").
func isNumber(t Token) bool {
	if t.Kind == KindNumber || t.Kind == KindDate {
		return true
	}
	first, _ := utf8.DecodeRuneInString(t.Text)
	return t.Kind == KindTitle && isDigit(first)
}

// hasNumber reports whether a token of toks at one of idx is a number.
func hasNumber(toks []Token, idx []int) bool {
	return slices.ContainsFunc(idx, func(i int) bool { return isNumber(toks[i]) })
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
// templates or factual drift, with the rule and reason. listEntries says
// that every member is an item of a list: items of one list are different
// entries, each filling the frame for its own subject.
func decideSubstantive(pairs []pair, listEntries, oneSubject bool, dated string) (kind, rule, reason string) {
	var subs []Change
	slots := map[int]bool{}
	fills := map[string]bool{}
	title, subject, numbersOnly, claims := false, false, true, false
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
		claims = claims || p.claims
	}
	if len(subs) == 0 {
		return "", "", ""
	}
	switch {
	case title:
		return Template, "title_tokens_differ", "the replaced tokens are words of the members' own page titles: " + examples(subs, KindTitle)
	case subject:
		return Template, "subject_differs", "the same sentence frame is said of different subjects: " + examples(subs, "")
	case listEntries:
		return Template, "list_entries", "the texts are entries of a list, each filling the same frame with its own values: " + examples(subs, "")
	case len(slots) >= TemplateMinSlots:
		return Template, "many_slots", fmt.Sprintf("the same sentence frame is filled with different values in %s: %s", places(len(slots)), examples(subs, ""))
	case len(fills)+1 >= TemplateMinVariants:
		return Template, "many_variants", fmt.Sprintf("%d texts fill the same sentence frame with different values: %s", len(fills)+1, examples(subs, ""))
	case dated != "":
		return Template, "own_dates", "each statement holds for its own date: " + dated
	case !oneSubject:
		return Template, "different_subjects", "the same sentence frame is said on pages about different subjects, each with its own values: " + examples(subs, "")
	case numbersOnly && claims:
		return FactualDrift, "quantities_differ", fmt.Sprintf("the same statement gives different numbers, quantities or negations in %s: %s", places(len(slots)), examples(subs, ""))
	case numbersOnly:
		return FactualDrift, "numbers_differ", fmt.Sprintf("the same statement gives different numbers or dates in %s: %s", places(len(slots)), examples(subs, ""))
	}
	return FactualDrift, "entities_differ", fmt.Sprintf("the same statement gives different names, numbers or dates in %s: %s", places(len(slots)), examples(subs, ""))
}

// examples formats up to three substantive replacements (those holding a
// token of kind k, or all if k is empty) as "from → to", or "+to" and
// "-from" for a side left empty.
func examples(subs []Change, k TokenKind) string {
	var out []string
	for _, c := range subs {
		if k != "" && c.Kind != k {
			continue
		}
		e := c.From + " → " + c.To
		switch {
		case c.From == "":
			e = "+" + c.To
		case c.To == "":
			e = "-" + c.From
		}
		if !slices.Contains(out, e) {
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
