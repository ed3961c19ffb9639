package categorize

import (
	"slices"
	"unicode"
)

// Acronyms of names the other text writes in full: an edit that writes
// "DEC" out as "Digital Equipment Corporation", or shortens "International
// Telegraph Alphabet No. 2" to "ITA2", replaces no name, wherever in the
// sentence the full name stands (often in another hunk: "DEC systems" →
// "Operating systems from Digital Equipment Corporation").
// dropSpelledAcronyms removes such acronyms from a hunk before its names
// count as replaced. Acronyms are told by case (two or more capitals and no
// small letter), so scripts without case have none and lose nothing.

// dropSpelledAcronyms removes from rem (of a) each acronym whose letters
// are the initials of a run of words of b, and from add (of b) each one
// spelled by a run of a, recording "acronym: DEC = Digital Equipment
// Corporation" for each.
func (p *pair) dropSpelledAcronyms(a []Token, rem []int, b []Token, add []int) ([]int, []int) {
	rem = p.dropAcronymsOf(a, rem, b, false)
	add = p.dropAcronymsOf(b, add, a, true)
	return rem, add
}

// dropAcronymsOf removes from idx (of toks) the acronyms spelled by runs
// of other; flip says that toks is the other text, for the mechanism.
func (p *pair) dropAcronymsOf(toks []Token, idx []int, other []Token, flip bool) []int {
	return slices.DeleteFunc(idx, func(i int) bool {
		if !allCapitals(toks[i].Text) {
			return false // the cheap answer for most words
		}
		acr := acronym(toks[i])
		from, to, ok := initialsRun(other, acr)
		if !ok {
			return false
		}
		x, y := toks[i].Text, phrase(other[from:to])
		if flip {
			x, y = y, x
		}
		p.mechanism(MechanismAcronym, x+" = "+y)
		return true
	})
}

// initialsRun returns the first run toks[from:to] of two or more
// capitalised words (names, or numbers: "Alphabet No. 2"), with function
// words and punctuation between them, whose initials (see initials) are
// acr, an acronym.
func initialsRun(toks []Token, acr string) (from, to int, ok bool) {
	if acr == "" {
		return 0, 0, false
	}
	for i := range toks {
		if !isNameKind(toks[i]) {
			continue // a run starts with a word of the name
		}
		for j := i + 2; j <= len(toks); j++ {
			if t := toks[j-1]; !isNameKind(t) && t.Kind != KindNumber && t.Kind != KindPunct && !functionWords[t.key()] {
				break // a word in small letters: the name ended
			}
			in := initials(toks[i:j])
			if len(in) > len(acr) || acr[:len(in)] != in {
				break
			}
			if in == acr {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

// allCapitals reports whether s has two or more upper-case letters and no
// lower-case one, as an acronym has (see acronym).
func allCapitals(s string) bool {
	upper := 0
	for _, r := range s {
		switch {
		case unicode.IsLower(r):
			return false
		case unicode.IsUpper(r):
			upper++
		}
	}
	return upper >= 2
}
