package categorize

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/neardup/neardup/internal/numeral"
)

// Equivalence: before two tokens count as different facts, what does not
// change meaning is set aside. Each token's comparison key (Token.key) is
// canonical: Unicode NFKC with diacritics removed (Boumediene, Boumédiène;
// Bronislaw, Bronisław), one form of each dash and quote, acronyms without
// their periods (B.C., BC), American spelling for British (defence,
// defense; organise, organize), digits for number words (seven, 7;
// twenty-third, 23rd), numbers in ASCII digits (৮৭৪৯, ८७४९, 8749) and
// without thousands separators (1,000, 1000) and one name per unit (ft, feet). Number words joined to a word by a
// hyphen are split from it (seven-bit, 7-bit). Phrases (miles per hour,
// mph; 40 percent, 40%) are merged by canonicalPhrases before a cluster is
// compared. The tables are data files in tables/.

// canonicalKey returns the comparison key of a token of the given kind
// whose text in lower case is lower.
func canonicalKey(lower string, kind TokenKind) string {
	if !isASCII(lower) {
		lower = fold(lower)
	}
	switch kind {
	case KindPunct:
		if u, ok := unitSingles[lower]; ok {
			return u // %
		}
		return lower
	case KindNumber, KindDate:
		if v, ok := numberWordValue(lower); ok {
			return strconv.Itoa(v) + ordinalSuffix(lower)
		}
		return withoutThousands(numeral.ASCII(lower))
	}
	if strings.Contains(lower, ".") {
		lower = strings.ReplaceAll(lower, ".", "") // an acronym: b.c., u.s.a.
	}
	if u, ok := unitSingles[lower]; ok {
		return u
	}
	if a, ok := spellings[lower]; ok {
		return a
	}
	return americanSuffix(lower)
}

func isASCIIDigit(c byte) bool { return '0' <= c && c <= '9' }

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// fold applies NFKC, removes diacritics, and writes letters that do not
// decompose (ł, ø, ß…), dashes and quotes in one ASCII form.
//
// A diacritic is a nonspacing mark (Mn) on a letter of a script whose
// marks are optional accents or vowel points (diacriticScripts: é, ё,
// ά; Arabic and Hebrew vowel points), or on a sign of no script. In the
// other scripts a nonspacing mark is part of the letter: the vowel signs
// and viramas of Devanagari, Bengali, Kannada and Tamil (कुल is not कल),
// Thai vowels, the Japanese voicing mark (が is not か); those are kept.
func fold(s string) string {
	var b strings.Builder
	diacritics := true // the current base letter takes diacritics
	for _, r := range norm.NFKD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			diacritics = takesDiacritics(r)
		} else if diacritics {
			continue
		}
		if m, ok := foldRunes[r]; ok {
			b.WriteString(m)
			continue
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
}

// diacriticScripts are the scripts whose nonspacing marks are accents or
// optional vowel points, which fold removes.
var diacriticScripts = []*unicode.RangeTable{
	unicode.Latin, unicode.Greek, unicode.Cyrillic, unicode.Armenian, unicode.Georgian,
	unicode.Arabic, unicode.Hebrew, unicode.Syriac, unicode.Common, unicode.Inherited,
}

// takesDiacritics reports whether the nonspacing marks on r are
// diacritics: r is of one of diacriticScripts.
func takesDiacritics(r rune) bool {
	if r < utf8.RuneSelf {
		return true
	}
	return unicode.IsOneOf(diacriticScripts, r)
}

// foldRunes are the letters without a decomposition and the punctuation
// that fold writes otherwise.
var foldRunes = map[rune]string{
	'ł': "l", 'ø': "o", 'đ': "d", 'ß': "ss", 'æ': "ae", 'œ': "oe", 'ı': "i", 'þ': "th", 'ð': "d", 'ħ': "h",
	'‐': "-", '‑': "-", '‒': "-", '–': "-", '—': "-", '―': "-", '−': "-",
	'‘': "'", '’': "'", '‚': "'", '‛': "'", '′': "'", 'ʼ': "'",
	'“': `"`, '”': `"`, '„': `"`, '‟': `"`, '″': `"`, '«': `"`, '»': `"`,
}

// ordinalSuffix returns "st", "nd", "rd" or "th" for an ordinal number
// word, "" for a cardinal.
func ordinalSuffix(word string) string {
	switch last := word[strings.LastIndexByte(word, '-')+1:]; {
	case last == "first":
		return "st"
	case last == "second":
		return "nd"
	case last == "third":
		return "rd"
	case ordinals[last] > 0:
		return "th"
	}
	return ""
}

// withoutThousands removes the commas that separate thousands in a number
// written in ASCII digits (1,000,000), and writes a decimal comma as a
// point (12,7).
func withoutThousands(num string) string {
	if !strings.Contains(num, ",") {
		return num
	}
	groups := strings.Split(num, ",")
	for _, g := range groups[1:] {
		if len(g) < 3 || !isASCIIDigit(g[0]) || !isASCIIDigit(g[1]) || !isASCIIDigit(g[2]) {
			if len(groups) == 2 && !strings.Contains(num, ".") {
				return groups[0] + "." + groups[1] // 12,7: a decimal comma
			}
			return num
		}
	}
	return strings.Join(groups, "")
}

// americanSuffix writes the British -is-/-ys- forms of verbs and their
// derivatives (organise, organisation, analysed) with z. Both sides of a
// comparison get the same key, so a word that is not such a verb
// (promise, promised) is only renamed, never confused with another.
func americanSuffix(w string) string {
	if n := len(w); n < 6 || !strings.Contains(w[n-min(n, 8):], "s") {
		return w // every suffix below holds an s
	}
	for _, suffix := range americanSuffixes {
		if stem, ok := strings.CutSuffix(w, suffix.british); ok && utf8.RuneCountInString(stem) >= 3 {
			return stem + suffix.american
		}
	}
	return w
}

var americanSuffixes = []struct{ british, american string }{
	{"isations", "izations"}, {"isational", "izational"}, {"isation", "ization"},
	{"ising", "izing"}, {"ised", "ized"}, {"ises", "izes"}, {"ise", "ize"},
	{"yse", "yze"}, {"ysed", "yzed"}, {"ysing", "yzing"},
}

// canonicalPhrases merges the tokens of a unit name of several words
// ("miles per hour", "per cent") into one token keyed by the unit's
// canonical name, and a number followed by the percent unit ("40
// percent") into one number keyed like "40%".
func canonicalPhrases(toks []Token) []Token {
	first := -1
	for i := range toks {
		if n, _ := matchUnit(toks, i); n > 0 {
			first = i
			break
		}
	}
	if first < 0 {
		return toks // nothing to merge, as in most sentences
	}
	out := slices.Clone(toks[:first])
	for i := first; i < len(toks); {
		n, canon := matchUnit(toks, i)
		if n == 0 {
			out = append(out, toks[i])
			i++
			continue
		}
		merged := Token{Text: phrase(toks[i : i+n]), Kind: KindWord, lower: canon}
		if last := len(out) - 1; canon == percentKey && last >= 0 && out[last].Kind == KindNumber {
			out[last] = Token{Text: out[last].Text + " " + merged.Text, Kind: KindNumber, lower: out[last].key() + "%"}
		} else {
			out = append(out, merged)
		}
		i += n
	}
	return out
}

// percentKey is the key of the percent unit.
const percentKey = unitKeyPrefix + "%"

// matchUnit returns the number of tokens from toks[i] that name a unit (a
// name of several tokens, or "percent") and its canonical key, or 0.
func matchUnit(toks []Token, i int) (int, string) {
	key := toks[i].key()
	if key == percentKey {
		return 1, percentKey
	}
	if !unitStarts[key] {
		return 0, ""
	}
	for _, p := range unitPhrases {
		if i+len(p.keys) > len(toks) {
			continue
		}
		match := true
		for k, key := range p.keys {
			match = match && toks[i+k].key() == key
		}
		if match {
			return len(p.keys), p.canon
		}
	}
	return 0, ""
}

// contrasted reports whether a hunk replaces a word (of a's tokens rem) by
// another word of its set of contrasts (of b's tokens add): damaged and
// collapsed, north and east.
func contrasted(a []Token, rem []int, b []Token, add []int) bool {
	for _, i := range rem {
		set, in := contrasts[a[i].key()]
		if !in {
			continue
		}
		for _, j := range add {
			if contrasts[b[j].key()] == set && b[j].key() != a[i].key() {
				return true
			}
		}
	}
	return false
}
