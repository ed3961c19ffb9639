package categorize

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Changes of a fact between two versions of a statement (Fact.Change), as
// Compare types them.
const (
	// ChangeReplaced is a value replaced by another: a number, date, name
	// of another entity, quantity or negation (the cross-date form of
	// factual drift).
	ChangeReplaced = "replaced"
	// ChangeAdded is a number, date or named entity, with the words around
	// it, that only the new text (B) gives.
	ChangeAdded = "added"
	// ChangeRemoved is one that only the old text (A) gives.
	ChangeRemoved = "removed"
)

// sidedHunk is a hunk of a pair that replaced no value: the words it
// removes from A and adds to B, moves and other forms of the same words
// set aside. The numbers, dates and names among them are given on one side
// only.
type sidedHunk struct {
	hunk
	rem, add []int
}

// oneSidedFacts returns the facts that the sided hunks give on one side
// only: each run of numbers, dates and names (value tokens, see isValue)
// removed from A or added to B, but not one that used (the loose numbers
// matched as replaced) holds, nor one whose every value the other text
// states too (a value repeated or moved within the sentence). A run is
// value tokens next to each other, or separated by one punctuation mark
// of a phrase (", ", "-", "/", ".") or one lower-case word ("Gulf of
// Mexico", "May 1865", "September 21, 1858").
//
// A value removed from a frame that holds another value of its type in B,
// added there or moved there from another frame of the sentence, is
// replaced by it ("from Mount Pleasant to Brantford", "from Brantford to
// Paris": the origin is replaced); the value of B is then no added fact of
// its own.
func oneSidedFacts(sided []sidedHunk, usedA, usedB map[int]bool, a, b []Token) []Fact {
	keysA, keysB := tokenKeys(a), tokenKeys(b)
	acrA, acrB := acronyms(a), acronyms(b)
	var out []Fact
	taken := map[int]bool{} // the first tokens of B's values that replaced one of A
	for _, h := range sided {
		for _, run := range valueRuns(a, h.rem, usedA, keysB, acrB) {
			f := Fact{Change: ChangeRemoved, Type: runType(a[run[0] : run[1]+1]),
				Slot: run[0], Context: slotContext(a, run[0]), From: phrase(a[run[0] : run[1]+1])}
			if x, ok := inFrame(a, run, b, taken); ok {
				f.Change, f.To = ChangeReplaced, phrase(b[x[0]:x[1]+1])
				taken[x[0]] = true
			}
			out = append(out, f)
		}
	}
	for _, h := range sided {
		for _, run := range valueRuns(b, h.add, usedB, keysA, acrA) {
			if taken[run[0]] {
				continue // it replaced a value of A
			}
			out = append(out, Fact{Change: ChangeAdded, Type: runType(b[run[0] : run[1]+1]),
				Slot: h.A0, Context: slotContext(a, h.A0), To: phrase(b[run[0] : run[1]+1])})
		}
	}
	return out
}

// inFrame finds in b a run of values of the type of the run r of a, other
// than it and not taken, in the same frame: after the token before r, or
// before the token after it, that token being a word or a sign that binds
// a value (see sameFrame). A value that a has in the frame it has in b
// stayed in place, and replaces nothing.
func inFrame(a []Token, r [2]int, b []Token, taken map[int]bool) ([2]int, bool) {
	typ := runType(a[r[0] : r[1]+1])
	binds := func(t Token) bool { return t.Kind != KindPunct || strings.ContainsAny(t.Text, ":$£€/%") }
	try := func(first, last int) ([2]int, bool) {
		if first < 0 || first > last || last >= len(b) || taken[first] || taken[last] {
			return [2]int{}, false
		}
		x := b[first : last+1]
		if runType(x) != typ || slices.Equal(valueKeys(x), valueKeys(a[r[0]:r[1]+1])) || inPlace(b, first, last, a) {
			return [2]int{}, false
		}
		return [2]int{first, last}, true
	}
	for j := range b {
		if r[0] > 0 && binds(a[r[0]-1]) && b[j].key() == a[r[0]-1].key() {
			last := j
			for last+1 < len(b) && isValue(b, last+1) {
				last++
			}
			if x, ok := try(j+1, last); ok {
				return x, true
			}
		}
		if r[1]+1 < len(a) && binds(a[r[1]+1]) && b[j].key() == a[r[1]+1].key() {
			first := j
			for first > 0 && isValue(b, first-1) {
				first--
			}
			if x, ok := try(first, j-1); ok {
				return x, true
			}
		}
	}
	return [2]int{}, false
}

// inPlace reports whether b[first:last+1] stands in a with the same token
// before it or after it.
func inPlace(b []Token, first, last int, a []Token) bool {
	x := valueKeys(b[first : last+1])
	n := last - first + 1
	for i := 0; i+n <= len(a); i++ {
		if !slices.Equal(valueKeys(a[i:i+n]), x) {
			continue
		}
		if i > 0 && first > 0 && a[i-1].key() == b[first-1].key() ||
			i+n < len(a) && last+1 < len(b) && a[i+n].key() == b[last+1].key() {
			return true
		}
	}
	return false
}

// valueRuns returns the runs of value tokens of toks among idx (sorted),
// as [first, last] token indices, leaving out the tokens of used, the runs
// all of whose values the other text has (keys of other) and those that
// name what it names (sameName; acronyms are the other's acronyms).
func valueRuns(toks []Token, idx []int, used map[int]bool, other, acronyms map[string]bool) [][2]int {
	var runs [][2]int
	inRun := map[int]bool{}
	for _, i := range idx {
		if !used[i] && isValue(toks, i) {
			inRun[i] = true
		}
	}
	for _, i := range idx {
		if !inRun[i] {
			continue
		}
		if n := len(runs); n > 0 && joins(toks, runs[n-1][1], i) {
			runs[n-1][1] = i
			continue
		}
		runs = append(runs, [2]int{i, i})
	}
	out := runs[:0]
	for _, r := range runs {
		if !allIn(toks[r[0]:r[1]+1], other) && !sameName(toks, r, other, acronyms) {
			out = append(out, r)
		}
	}
	return out
}

// sameName reports whether a run of names (no number, date or word)
// names what both texts name: it is joined to a name that the other text
// has too, which it lengthens or shortens (Proudhon, Pierre-Joseph
// Proudhon; the Civil War, the war; U.S. Census, Census; not a word of the
// page's title, which names the page's subject: the Alabama Commissioner
// of Agriculture is not Alabama), or it is an acronym of words
// of either text, or words whose initials are an acronym of the other
// (International Telegraph Alphabet No. 2 (ITA2); DEC, Digital Equipment
// Corporation).
func sameName(toks []Token, r [2]int, other, acronyms map[string]bool) bool {
	run := toks[r[0] : r[1]+1]
	for _, t := range run {
		if t.Kind != KindName && t.Kind != KindPunct {
			return false // a number, a date, or names joined by a word ("and")
		}
	}
	kept := func(i int) bool {
		return i >= 0 && i < len(toks) && toks[i].Kind == KindName && other[toks[i].key()]
	}
	if kept(r[0]-1) || kept(r[1]+1) {
		return true
	}
	if len(run) == 1 && initialsOf(toks, acronym(run[0])) {
		return true
	}
	return acronyms[initials(run)]
}

// initials returns the initials of the words of run (function words and
// punctuation skipped; a number counts whole), in upper case, or "" for
// fewer than two.
func initials(run []Token) string {
	var b strings.Builder
	n := 0
	for _, t := range run {
		if t.Kind == KindPunct || functionWords[t.key()] && acronym(t) == "" {
			continue // "of", and "No." of "Alphabet No. 2"
		}
		n++
		if t.Kind == KindNumber {
			b.WriteString(t.key())
			continue
		}
		r, _ := utf8.DecodeRuneInString(t.Text)
		b.WriteRune(unicode.ToUpper(r))
	}
	if n < 2 {
		return ""
	}
	return b.String()
}

// initialsOf reports whether acr (an acronym, or "") is the initials of a run
// of toks: ITA2 of "International Telegraph Alphabet No. 2", TLA of
// "three-letter abbreviation".
func initialsOf(toks []Token, acr string) bool {
	if acr == "" {
		return false
	}
	for i := range toks {
		for j := i + 2; j <= len(toks); j++ {
			in := initials(toks[i:j])
			if !strings.HasPrefix(acr, in) {
				break
			}
			if in == acr {
				return true
			}
		}
	}
	return false
}

// acronym returns t's letters and digits if it is an acronym (at least two
// upper-case letters, none in lower case: FEMA, U.S., ITA2), else "".
func acronym(t Token) string {
	if t.Kind == KindPunct {
		return ""
	}
	var b strings.Builder
	upper := 0
	for _, r := range t.Text {
		switch {
		case unicode.IsUpper(r):
			upper++
			b.WriteRune(r)
		case unicode.IsLower(r):
			return ""
		case unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	if upper < 2 {
		return ""
	}
	return b.String()
}

// acronyms returns the acronyms among toks.
func acronyms(toks []Token) map[string]bool {
	out := map[string]bool{}
	for _, t := range toks {
		if a := acronym(t); a != "" {
			out[a] = true
		}
	}
	return out
}

// isValue reports whether toks[i] is a number, a date or a name that a
// reader would call a fact: not a word of the page's own title (the
// subject, named again), and not a lone capitalised word that starts the
// sentence, which may be any word ("Historically, …"), unless a name
// follows it.
func isValue(toks []Token, i int) bool {
	t := toks[i]
	switch {
	case t.Kind == KindNumber || t.Kind == KindDate:
		return true
	case t.Kind != KindName || functionWords[t.key()] && acronymLetters(t) == "":
		return false // a word, or a function word capitalised in a title ("By"), not "U.S."
	}
	if atSentenceStart(toks, i) {
		return i+1 < len(toks) && toks[i+1].Kind == KindName
	}
	return true
}

// atSentenceStart reports whether toks[i] starts the text or follows a
// sentence's or clause's end (".", "!", "?", ":", or any Sentence_Terminal
// of another script).
func atSentenceStart(toks []Token, i int) bool {
	if i == 0 {
		return true
	}
	p := toks[i-1]
	if p.Kind != KindPunct {
		return false
	}
	r, _ := utf8.DecodeRuneInString(p.Text)
	return r == ':' || unicode.Is(unicode.Sentence_Terminal, r)
}

// joins reports whether the value tokens toks[i] and toks[j] (i < j) are
// one phrase: next to each other, or with one punctuation mark inside a
// phrase or one lower-case word between them.
func joins(toks []Token, i, j int) bool {
	switch j - i {
	case 1:
		return true
	case 2:
		m := toks[i+1]
		if m.Kind == KindPunct {
			return strings.Contains(",-/.'’–", m.Text)
		}
		r, _ := utf8.DecodeRuneInString(m.Text)
		return m.Kind == KindWord && unicode.IsLower(r)
	}
	return false
}

// allIn reports whether every value token of run has its key in keys.
func allIn(run []Token, keys map[string]bool) bool {
	for _, t := range run {
		if t.Kind != KindPunct && t.Kind != KindWord && !keys[t.key()] {
			return false
		}
	}
	return true
}

// tokenKeys returns the keys of the tokens that are not punctuation.
func tokenKeys(toks []Token) map[string]bool {
	keys := make(map[string]bool, len(toks))
	for _, t := range toks {
		if t.Kind != KindPunct {
			keys[t.key()] = true
		}
	}
	return keys
}

// runType is the fact type of a run of values: a date if it holds a month
// or a year and every other number is a day next to a month ("May 1865",
// "September 21, 1858"), a number if it holds another number, else a name.
func runType(run []Token) string {
	date, number := false, false
	for k, t := range run {
		switch t.Kind {
		case KindDate:
			date = true
		case KindNumber:
			day := k > 0 && isMonth(run[k-1]) || k+1 < len(run) && isMonth(run[k+1])
			number = number || !day
		}
	}
	switch {
	case number:
		return FactNumber
	case date:
		return FactDate
	}
	return FactName
}

// isMonth reports whether t is a month's name.
func isMonth(t Token) bool { return t.Kind == KindDate && months[t.key()] }

// Mentions reports whether text states value: value's tokens, compared as
// the alignment compares them (case, forms and number formats set aside),
// occur in text's tokens in a row, punctuation skipped. It tells a fact
// moved to a neighbouring sentence from one removed.
func Mentions(text, value string) bool {
	v := valueKeys(canonicalPhrases(Tokenize(value)))
	if len(v) == 0 {
		return false
	}
	t := valueKeys(canonicalPhrases(Tokenize(text)))
	for i := 0; i+len(v) <= len(t); i++ {
		if slices.Equal(t[i:i+len(v)], v) {
			return true
		}
	}
	return false
}

// valueKeys returns the keys of toks that are not punctuation.
func valueKeys(toks []Token) []string {
	var out []string
	for _, t := range toks {
		if t.Kind != KindPunct {
			out = append(out, t.key())
		}
	}
	return out
}
