package categorize

import (
	"slices"
	"strings"
)

// Types of the facts that two versions of a statement can disagree on.
const (
	FactNumber   = "number"   // a count, measure or other figure
	FactDate     = "date"     // a year, month or day
	FactName     = "name"     // a named entity
	FactQuantity = "quantity" // a quantifier or a number's modifier ("most", "nearly all", "over")
	FactNegation = "negation" // a statement and its denial
	FactContrast = "contrast" // a word replaced by its contrary (damaged, collapsed; north, east)
)

// Fact is one value that differs between two versions of a statement: what
// stands in the slot of the reference text (A) and what stands there in the
// other text (B). An empty From or To is a value given on one side only.
type Fact struct {
	A int `json:"a"` // member index of the reference text (in a cluster's evidence)
	B int `json:"b"` // member index of the other text
	// Change is set by Compare: ChangeReplaced, ChangeAdded or
	// ChangeRemoved. A cluster's evidence lists replacements only and
	// leaves it empty.
	Change  string `json:"change,omitempty"`
	Type    string `json:"type"`    // FactNumber, FactDate, FactName, FactQuantity, FactNegation or FactContrast
	Slot    int    `json:"slot"`    // index of the slot's first token in A's tokens
	Context string `json:"context"` // up to MaxContextWords words of A before the slot
	From    string `json:"from"`
	To      string `json:"to"`
}

// MaxContextWords bounds the words before a slot that Fact.Context quotes.
const MaxContextWords = 4

// Comparison is how text B relates to text A, as Compare finds it.
type Comparison struct {
	// Kind is Identical (the same text after whitespace normalisation),
	// CopyEdit (no fact differs), FactualDrift (a fact differs: the pair
	// rules of Classify) or Other (a fragment, or texts that share too
	// few words to be versions of one statement).
	Kind string `json:"kind"`
	// Rule is the copy-edit flavour or the reason a pair is Other; for
	// FactualDrift it is "facts_differ".
	Rule string `json:"rule"`
	// Facts lists, in the order of their slots, what happened to each
	// fact (Fact.Change): the values replaced (those of a FactualDrift,
	// but for a figure replaced by words that state none, which is on one
	// side only) and the numbers, dates and names given on one side only,
	// added or removed, or moved into the place of another value, which
	// replaces it. A CopyEdit may hold these: as in a cluster, a value
	// added or moved is no disagreement of the two texts, but a reader
	// tracking a page wants to know of it.
	Facts   []Fact   `json:"facts"`
	Changes []Change `json:"changes"`
	// Mechanisms says what decided beyond the token rules
	// (Evidence.Mechanisms).
	Mechanisms []string `json:"mechanisms,omitempty"`
}

// Compare aligns two versions of one statement (the same sentence of a page
// in two revisions, say) and reports whether a fact changed between them:
// a number, date, name, quantity or negation replaced by another, after
// spellings, formats and other forms of the same thing are set aside; and
// the numbers, dates and names that one version adds or drops. It applies
// the pair rules of Classify without the cluster's template rules, since
// two versions of one page's sentence speak of the same subject.
func Compare(a, b Member) Comparison {
	return CompareWith(a, b, Knowledge{})
}

// CompareWith is Compare with what the run learned from its dumps.
func CompareWith(a, b Member, know Knowledge) Comparison {
	na, nb := strings.Join(strings.Fields(a.Text), " "), strings.Join(strings.Fields(b.Text), " ")
	if na == nb {
		return Comparison{Kind: Identical, Rule: "same_text", Facts: []Fact{}, Changes: []Change{}}
	}
	c := newCluster([]Member{a, b}, know)
	c.ref = 0
	pairs := c.comparePairs()
	p := pairs[0]
	out := Comparison{Kind: p.kind, Rule: p.rule, Changes: p.changes, Mechanisms: p.mechanisms}
	if p.kind == substantive {
		out.Kind, out.Rule = FactualDrift, "facts_differ"
	}
	if p.kind != Other {
		out.Facts = slices.DeleteFunc(p.facts, func(f Fact) bool {
			if clause, ok := negatedClause(f); ok {
				out.Mechanisms = append(out.Mechanisms, MechanismClause+": "+clause)
				return true
			}
			return false
		})
		if out.Kind == FactualDrift && len(out.Facts) == 0 {
			// Only clauses were rewritten: a copy edit of words.
			out.Kind, out.Rule = CopyEdit, flavorWords
		}
		for i := range out.Facts {
			out.Facts[i] = typeReplacement(out.Facts[i])
		}
		if f, ok := splitQuantity(p.sided, c.texts[c.ref].toks, p.other.toks); ok {
			out.Facts = append(out.Facts, f)
			out.Mechanisms = append(out.Mechanisms, MechanismQuantity+": "+f.From+" → "+f.To)
			if out.Kind == CopyEdit {
				out.Kind, out.Rule = FactualDrift, "facts_differ"
			}
		}
		out.Facts = append(out.Facts, oneSidedFacts(p.sided, indexSet(p.usedA), indexSet(p.usedB), c.texts[c.ref].toks, p.other.toks)...)
		slices.SortStableFunc(out.Facts, func(x, y Fact) int { return x.Slot - y.Slot })
	}
	for i := range out.Facts {
		out.Facts[i].A, out.Facts[i].B = 0, 1
	}
	if out.Facts == nil {
		out.Facts = []Fact{}
	}
	if out.Changes == nil {
		out.Changes = []Change{}
	}
	return out
}

// typeReplacement types a fact of a substantive hunk: replaced, unless it
// is a figure (a number or a date) replaced by words that state no figure
// and no quantity ("16 doctoral programs", "a multitude of"; "19 hours",
// "less than a day"): those do not contradict the figure, which is on one
// side only, removed (or added, the other way round). A figure replaced by
// a quantity ("13", "several") is replaced.
func typeReplacement(f Fact) Fact {
	f.Change = ChangeReplaced
	if f.Type != FactNumber && f.Type != FactDate {
		return f
	}
	from, to := Tokenize(f.From), Tokenize(f.To)
	switch {
	case figure(from) && len(to) > 0 && !figure(to) && !states(to):
		f.Change, f.To = ChangeRemoved, ""
	case figure(to) && len(from) > 0 && !figure(from) && !states(from):
		f.Change, f.From = ChangeAdded, ""
	}
	return f
}

// figure reports whether toks hold a number or a date.
func figure(toks []Token) bool {
	return slices.ContainsFunc(toks, func(t Token) bool { return t.Kind == KindNumber || t.Kind == KindDate })
}

// states reports whether toks state a quantity or a negation.
func states(toks []Token) bool {
	all := make([]int, len(toks))
	for i := range all {
		all[i] = i
	}
	return len(quantities(toks, all)) > 0 || countNegations(toks, all) > 0
}

// indexSet returns the set of the indices idx.
func indexSet(idx []int) map[int]bool {
	set := make(map[int]bool, len(idx))
	for _, i := range idx {
		set[i] = true
	}
	return set
}

// factType names the type of a substantive replacement: a figure, a date, a
// name, or a claim (quantity or negation).
func factType(numeric, named bool, a []Token, rem []int, b []Token, add []int) string {
	switch {
	case numeric && (hasKind(a, rem, KindDate) || hasKind(b, add, KindDate)) && !hasKind(a, rem, KindNumber) && !hasKind(b, add, KindNumber):
		return FactDate
	case numeric:
		return FactNumber
	case named:
		return FactName
	case quantityConflict(a, rem, b, add):
		return FactQuantity
	case negationConflict(a, rem, b, add):
		return FactNegation
	}
	return FactContrast
}

// slotContext quotes up to MaxContextWords words of toks before slot,
// punctuation left out.
func slotContext(toks []Token, slot int) string {
	var ctx []Token
	for i := min(slot, len(toks)) - 1; i >= 0 && len(ctx) < MaxContextWords; i-- {
		if toks[i].Kind != KindPunct {
			ctx = append(ctx, toks[i])
		}
	}
	slices.Reverse(ctx)
	return phrase(ctx)
}

// negatedClause reports whether a negation fact is a whole clause, negation
// and all, added or dropped rather than a statement denied: the side with
// more negations holds content words both before the negation (the
// clause's own subject) and after it (what it denies), and the other side
// none of them ("the criticism that anarchism could not be maintained" →
// "pragmatic": the criticism is dropped, nothing is said to be
// maintainable). It returns that clause. A negation inserted or deleted
// before words both sides share ("was not completed" → "was completed")
// stays a replaced negation.
func negatedClause(f Fact) (string, bool) {
	if f.Type != FactNegation {
		return "", false
	}
	from, to := Tokenize(f.From), Tokenize(f.To)
	neg, other, clause := from, to, f.From
	if countNegations(to, allIndices(to)) > countNegations(from, allIndices(from)) {
		neg, other, clause = to, from, f.To
	}
	keys := tokenKeys(other)
	content := func(t Token) bool {
		return t.Kind != KindPunct && !functionWords[t.key()] && !isNegation(t)
	}
	i := slices.IndexFunc(neg, func(t Token) bool { return isNegation(t) })
	if i < 0 {
		return "", false
	}
	before, after := false, false
	for k, t := range neg {
		if !content(t) {
			continue
		}
		if keys[t.key()] {
			return "", false // a word the other side keeps: the statement is there
		}
		if k < i {
			before = true
		} else {
			after = true
		}
	}
	return clause, before && after
}

// allIndices returns 0, 1, …, len(toks)-1.
func allIndices(toks []Token) []int {
	all := make([]int, len(toks))
	for i := range all {
		all[i] = i
	}
	return all
}

// MaxQuantityGap is the most tokens between a quantity that a hunk drops
// and one of another class that another hunk adds for them to stand in one
// place.
const MaxQuantityGap = 2

// splitQuantity finds a quantity replaced by one of another class across
// a word that both texts keep, so that the diff splits the replacement in
// two hunks, one dropping the quantity and one adding the other ("now
// mostly obsolete" → "many now obsolete"): a quantity replaced all the
// same (Fact.Change replaced, type quantity). Only the first is returned.
func splitQuantity(sided []sidedHunk, a, b []Token) (Fact, bool) {
	for _, x := range sided {
		qa := quantityTokens(a, x.rem)
		if len(qa) == 0 || len(quantityTokens(b, x.add)) > 0 {
			continue
		}
		for _, y := range sided {
			qb := quantityTokens(b, y.add)
			if len(qb) == 0 || len(quantityTokens(a, y.rem)) > 0 || abs(y.A0-x.A0) > MaxQuantityGap+1 {
				continue
			}
			if slices.Equal(quantities(a, qa), quantities(b, qb)) {
				continue // one class: "mostly", "largely"
			}
			slot := qa[0]
			return Fact{Change: ChangeReplaced, Type: FactQuantity, Slot: slot, Context: slotContext(a, slot),
				From: phrase(pick(a, qa)), To: phrase(pick(b, qb))}, true
		}
	}
	return Fact{}, false
}

// quantityTokens returns the indices of idx whose tokens state a quantity
// (quantities).
func quantityTokens(toks []Token, idx []int) []int {
	var out []int
	for _, i := range idx {
		if len(quantities(toks, []int{i})) > 0 {
			out = append(out, i)
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
