package sentence

// abbreviationKind says when an abbreviation keeps its period from ending a
// sentence.
type abbreviationKind uint8

const (
	always       abbreviationKind = iota // before any word
	beforeNumber                         // only before a digit ("No. 5", not "said No. Then")
)

// abbreviation is an entry of the abbreviations table.
type abbreviation struct {
	kind abbreviationKind
	// exactCase forbids matching with the first letter's case toggled, for
	// words whose other spelling is a name ("al." of "et al." but "Al.").
	exactCase bool
}

// abbreviations holds the words, without their period, that are followed by
// a period which does not end a sentence. A word also matches with the case
// of its first letter toggled ("vol." and "Vol.") unless exactCase is set.
// Single upper-case letters (initials) and dotted acronyms are recognised by
// rule, not listed here. "etc." is deliberately absent: it ends a sentence
// before an upper-case word like any other word.
//
// The map is never written after initialisation.
var abbreviations = map[string]abbreviation{
	// Titles.
	"Mr": {}, "Mrs": {}, "Ms": {}, "Dr": {}, "Prof": {}, "St": {}, "Sr": {}, "Jr": {},
	"Gen": {}, "Col": {}, "Lt": {}, "Capt": {}, "Sgt": {}, "Gov": {}, "Sen": {},
	"Rep": {}, "Rev": {}, "Hon": {}, "Pres": {}, "Messrs": {}, "Mme": {}, "Mlle": {},
	// Latin.
	"e.g": {}, "i.e": {}, "cf": {}, "viz": {}, "vs": {}, "al": {exactCase: true},
	// Months.
	"Jan": {}, "Feb": {}, "Apr": {}, "Aug": {}, "Sep": {}, "Sept": {}, "Oct": {}, "Nov": {}, "Dec": {},
	// References, business, places, approximations.
	"No": {kind: beforeNumber}, "Nos": {kind: beforeNumber},
	"vol": {}, "vols": {}, "pp": {}, "p": {exactCase: true}, "ch": {}, "fig": {}, "figs": {},
	"Inc": {}, "Ltd": {}, "Co": {}, "Corp": {}, "Bros": {},
	"Mt": {}, "Ft": {}, "Ave": {},
	"approx": {}, "est": {}, "ca": {}, "c": {exactCase: true},
}

// maxAbbreviationLen is the length in bytes of the longest key of
// abbreviations.
const maxAbbreviationLen = 6

// lookupAbbreviation finds word in abbreviations, trying it as written and
// then with the case of its first ASCII letter toggled.
func lookupAbbreviation(word string) (abbreviationKind, bool) {
	if len(word) > maxAbbreviationLen {
		return 0, false
	}
	if a, ok := abbreviations[word]; ok {
		return a.kind, true
	}
	var buf [maxAbbreviationLen]byte
	n := copy(buf[:], word)
	switch c := buf[0]; {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		buf[0] = c ^ 0x20
	default:
		return 0, false
	}
	if a, ok := abbreviations[string(buf[:n])]; ok && !a.exactCase {
		return a.kind, true
	}
	return 0, false
}

// sentenceOpeners are common first words of English sentences. A dotted
// acronym ("U.S.") followed by one of them ends its sentence; followed by any
// other word ("U.S. Army") it does not.
var sentenceOpeners = map[string]bool{
	"The": true, "A": true, "An": true, "In": true, "It": true, "Its": true,
	"He": true, "She": true, "His": true, "Her": true, "We": true, "They": true,
	"Their": true, "This": true, "That": true, "These": true, "Those": true,
	"There": true, "But": true, "However": true, "After": true, "On": true,
	"At": true, "As": true, "When": true, "While": true, "If": true,
}

// monthNames are the German month names, which follow an ordinal date
// ("3. Oktober"). Languages that write months in lower case need no entry:
// a lower-case word never starts a sentence.
var monthNames = map[string]bool{
	"Januar": true, "Jänner": true, "Februar": true, "Feber": true, "März": true,
	"April": true, "Mai": true, "Juni": true, "Juli": true, "August": true,
	"September": true, "Oktober": true, "November": true, "Dezember": true,
}
