package categorize

import (
	"slices"
	"testing"
)

// Sentences of the ASCII page of two English dumps (the labelled
// cross-date pairs, testdata/labels/crossdate-pairs*.jsonl).
func TestSpelledAcronyms(t *testing.T) {
	checkForms(t, []formCase{
		{"acronym written out in another hunk", "enwiki",
			`DEC systems, for example, interpreted "Delete" to mean "remove the character before the cursor" and this interpretation also became common in Unix systems.`,
			`Operating systems from Digital Equipment Corporation, for example, interpreted DEL as an input character as meaning "remove previously-typed input character", and this interpretation also became common in Unix systems.`,
			CopyEdit, "acronym: DEC = Digital Equipment Corporation"},
		{"written out the other way", "enwiki",
			"Systems from Digital Equipment Corporation used both characters.",
			"DEC systems used both characters.",
			CopyEdit, ""},
		// An acronym of no words of the other text is another name.
		{"another maker", "enwiki",
			"Various IBM operating systems used both characters to mark the end of a line.",
			"DEC operating systems used both characters to mark the end of a line.",
			FactualDrift, ""},
		// Words in small letters are no name an acronym spells.
		{"small letters", "enwiki",
			"The PC used both characters.",
			"The pages, such as code, used both characters.",
			CopyEdit, ""},
	})
}

func TestInitialsRun(t *testing.T) {
	for _, c := range []struct {
		text, acr string
		want      string // the run, "" for none
	}{
		{"Operating systems from Digital Equipment Corporation, for example", "DEC", "Digital Equipment Corporation"},
		{"the International Telegraph Alphabet No. 2 standard", "ITA2", "International Telegraph Alphabet No . 2"}, // phrase spaces the period
		{"Federal Emergency Management Agency", "FEMA", "Federal Emergency Management Agency"},
		{"pages, such as code", "PC", ""},
		{"Digital Equipment Corporation", "", ""},
	} {
		toks := Tokenize(c.text)
		from, to, ok := initialsRun(toks, c.acr)
		got := ""
		if ok {
			got = phrase(toks[from:to])
		}
		if got != c.want {
			t.Errorf("initialsRun(%q, %q) = %q, want %q", c.text, c.acr, got, c.want)
		}
	}
}

// A month's abbreviation in capitals is an acronym, not a month.
func TestMonthAbbreviationInCapitals(t *testing.T) {
	for _, c := range []struct {
		text string
		want TokenKind
	}{
		{"DEC systems", KindName},
		{"the MAR files", KindName},
		{"on 5 Dec 1990", KindDate},
		{"in December", KindDate},
		{"in MAY", KindDate}, // a month's whole name
	} {
		toks := Tokenize(c.text)
		i := slices.IndexFunc(toks, func(t Token) bool { return months[t.key()] })
		if i < 0 || toks[i].Kind != c.want {
			t.Errorf("%q: tokens %+v, want the month's word of kind %v", c.text, toks, c.want)
		}
	}
}
