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
	A       int    `json:"a"`       // member index of the reference text (in a cluster's evidence)
	B       int    `json:"b"`       // member index of the other text
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
	// CopyEdit (no fact differs), FactualDrift (Facts lists what
	// differs) or Other (a fragment, or texts that share too few words to
	// be versions of one statement).
	Kind string `json:"kind"`
	// Rule is the copy-edit flavour or the reason a pair is Other; for
	// FactualDrift it is "facts_differ".
	Rule    string   `json:"rule"`
	Facts   []Fact   `json:"facts"`
	Changes []Change `json:"changes"`
	// Mechanisms says what decided beyond the token rules
	// (Evidence.Mechanisms).
	Mechanisms []string `json:"mechanisms,omitempty"`
}

// Compare aligns two versions of one statement (the same sentence of a page
// in two revisions, say) and reports whether a fact changed between them:
// a number, date, name, quantity or negation replaced by another, after
// spellings, formats and other forms of the same thing are set aside. It
// applies the pair rules of Classify without the cluster's template rules,
// since two versions of one page's sentence speak of the same subject.
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
	out := Comparison{Kind: p.kind, Rule: p.rule, Facts: p.facts, Changes: p.changes, Mechanisms: p.mechanisms}
	if p.kind == substantive {
		out.Kind, out.Rule = FactualDrift, "facts_differ"
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
