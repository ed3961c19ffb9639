package sentence

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// abbreviationKind says when an abbreviation keeps its period from ending a
// sentence.
type abbreviationKind uint8

const (
	beforeWord   abbreviationKind = iota // before any word but a sentence opener ("Co. It")
	always                               // before any word ("Dr. Smith")
	beforeNumber                         // only before a digit ("No. 5", not "said No. Then")
)

// abbreviation is an entry of an abbreviations table.
type abbreviation struct {
	kind abbreviationKind
	// exactCase forbids matching with the first letter's case toggled, for
	// words whose other spelling is a name ("al." of "et al." but "Al.").
	exactCase bool
}

// parseAbbreviations reads a table of abbreviations (abbreviations/*.txt):
// one a line, without its period, optionally followed by the flags
// "always", "number" and "exact"; '#' starts a comment. It returns the
// table and the length in bytes of its longest word. The tables are
// embedded and tested, so a malformed one is a programming error.
func parseAbbreviations(data string) (map[string]abbreviation, int) {
	table := map[string]abbreviation{}
	maxLen := 0
	for line := range strings.Lines(data) {
		line, _, _ = strings.Cut(line, "#")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		word := fields[0]
		if len(word) > maxWordLen {
			panic(fmt.Sprintf("sentence: abbreviation %q is longer than %d bytes", word, maxWordLen))
		}
		var a abbreviation
		for _, flag := range fields[1:] {
			switch flag {
			case "always":
				a.kind = always
			case "number":
				a.kind = beforeNumber
			case "exact":
				a.exactCase = true
			default:
				panic(fmt.Sprintf("sentence: abbreviation %q: unknown flag %q", word, flag))
			}
		}
		table[word] = a
		maxLen = max(maxLen, len(word))
	}
	return table, maxLen
}

// lookupAbbreviation finds word in the abbreviations of r, trying it as
// written and then with the case of its first letter toggled.
func (r *Rules) lookupAbbreviation(word string) (abbreviation, bool) {
	if len(word) > r.maxAbbreviationLen || word == "" {
		return abbreviation{}, false
	}
	if a, ok := r.abbreviations[word]; ok {
		return a, true
	}
	var buf [maxWordLen + utf8.UTFMax]byte
	n := toggleFirst(buf[:], word)
	if n == 0 {
		return abbreviation{}, false
	}
	if a, ok := r.abbreviations[string(buf[:n])]; ok && !a.exactCase {
		return a, true
	}
	return abbreviation{}, false
}

// toggleFirst copies word to buf with the case of its first letter toggled
// and returns its length, or 0 if the first rune has no other case. The
// buffer must hold len(word)+utf8.UTFMax bytes.
func toggleFirst(buf []byte, word string) int {
	if c := word[0]; c < utf8.RuneSelf {
		if 'a' > c|0x20 || c|0x20 > 'z' {
			return 0
		}
		buf[0] = c ^ 0x20
		return 1 + copy(buf[1:], word[1:])
	}
	first, w := utf8.DecodeRuneInString(word)
	toggled := unicode.ToUpper(first)
	if toggled == first {
		toggled = unicode.ToLower(first)
	}
	if toggled == first {
		return 0
	}
	n := utf8.EncodeRune(buf, toggled)
	return n + copy(buf[n:], word[w:])
}

// monthNames are the German month names, which follow an ordinal date
// ("3. Oktober") in every language's rules. Languages that write months in
// lower case need no entry: a lower-case word never starts a sentence.
var monthNames = map[string]bool{
	"Januar": true, "Jänner": true, "Februar": true, "Feber": true, "März": true,
	"April": true, "Mai": true, "Juni": true, "Juli": true, "August": true,
	"September": true, "Oktober": true, "November": true, "Dezember": true,
}
