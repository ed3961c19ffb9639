package categorize

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// citation cues, each counted once per text with its weight.
type cue struct {
	name   string
	weight int
	needs  feature // what the text must hold for match to be tried
	match  func(toks []Token, i int) bool
}

// feature is a set of kinds of tokens that a text holds: a cue that needs
// one the text lacks cannot match, and is not tried.
type feature uint8

const (
	needNumber feature = 1 << iota // a number or a date
	needDot                        // "." or a token with a period (D.G.)
	needSlash                      // "/"
	needColon                      // ":"
	needParen                      // "("
)

// features returns the kinds of tokens toks hold.
func features(toks []Token) feature {
	var f feature
	for _, t := range toks {
		switch {
		case t.Kind == KindNumber || t.Kind == KindDate:
			f |= needNumber
		case t.Text == "/":
			f |= needSlash
		case t.Text == ":":
			f |= needColon
		case t.Text == "(":
			f |= needParen
		case strings.IndexByte(t.Text, '.') >= 0:
			f |= needDot
		}
	}
	return f
}

// citationCues are the shapes of bibliography entries. Strong cues (weight
// 2: volume(issue), identifiers, "Retrieved") are enough on their own;
// weaker ones need company.
var citationCues = []cue{
	{"volume_issue", 2, needNumber | needParen, func(t []Token, i int) bool { // 11 (1) or 11(1); not 85,458 (2014)
		return isNum(t, i) && isText(t, i+1, "(") && i+2 < len(t) && t[i+2].Kind == KindNumber && isText(t, i+3, ")")
	}},
	{"identifier", 2, 0, func(t []Token, i int) bool { // ISBN, doi… as written: not "đời", whose key is "doi"
		return len(t[i].Text) <= 7 && identifierWords[t[i].key()] && isASCII(t[i].Text)
	}},
	{"retrieved", 2, 0, func(t []Token, i int) bool { return t[i].Text == "Retrieved" || t[i].Text == "Archived" }},
	{"page_range", 1, needColon | needNumber, func(t []Token, i int) bool { // : 73-80
		return isText(t, i, ":") && isNum(t, i+1) && (isText(t, i+2, "-") || isText(t, i+2, "–")) && isNum(t, i+3)
	}},
	{"pages", 1, needDot | needNumber, func(t []Token, i int) bool { // pp. 5 / p. 5
		return (t[i].Text == "pp" || t[i].Text == "p") && isText(t, i+1, ".") && isNum(t, i+2)
	}},
	{"et_al", 1, 0, func(t []Token, i int) bool { return t[i].Text == "et" && isText(t, i+1, "al") }},
	{"publisher", 1, 0, func(t []Token, i int) bool {
		if t[i].Kind != KindName {
			return false
		}
		for rest := t[i].Text; ; {
			part, after, hyphen := strings.Cut(rest, "-")
			if publisherWords[part] {
				return true
			}
			if !hyphen {
				return false
			}
			rest = after
		}
	}},
	{"editor", 1, 0, func(t []Token, i int) bool { // (ed.), eds., In:
		return (t[i].Text == "ed" || t[i].Text == "eds") && isText(t, i+1, ".") || t[i].Text == "In" && isText(t, i+1, ":")
	}},
	{"year_in_parentheses", 1, needParen | needNumber, func(t []Token, i int) bool { // (2006)
		return isText(t, i, "(") && i+1 < len(t) && t[i+1].Kind == KindDate && isText(t, i+2, ")")
	}},
	{"trailing_year", 1, needNumber, func(t []Token, i int) bool { // …, Berlin, 2006.
		if !isText(t, i, ",") || i+1 >= len(t) || t[i+1].Kind != KindDate {
			return false
		}
		return i+2 == len(t) || i+3 == len(t) && isText(t, i+2, ".")
	}},
}

// bibliographicCues are shapes of bibliography entries in any language and
// script, where the words of citationCues are not found: a link or the
// "//" before a journal's title, a page or volume after an abbreviation
// ("С. 808", "σελ. 83", "հ. 5"), initials of names, a place and publisher
// before the year ("К.: Наука, 1990"), the ". —" between the parts of an
// entry, a year set off by a comma or brackets. Each is weak but the first:
// a lifespan, a date in prose or a taxon's authority ("(Schreber, 1776)")
// has one of them, an entry two or more.
var bibliographicCues = []cue{
	{"link", 2, needSlash, func(t []Token, i int) bool { return isText(t, i, "/") && isText(t, i+1, "/") }},
	{"page_mark", 1, needDot | needNumber, func(t []Token, i int) bool { // С. 808, σελ. 83
		return isAbbreviation(t[i]) && isText(t, i+1, ".") && i+2 < len(t) && t[i+2].Kind == KindNumber
	}},
	{"initials", 1, needDot, func(t []Token, i int) bool { // R. Feynman, Н. А. Шип, D.G. Orir
		if isDottedInitials(t[i].Text) {
			return i+1 < len(t) && t[i+1].Kind == KindName
		}
		return isInitial(t[i]) && isText(t, i+1, ".") && i+2 < len(t) && (t[i+2].Kind == KindName || isInitial(t[i+2]))
	}},
	{"place_publisher", 1, needColon | needNumber, func(t []Token, i int) bool { // Київ: Наука, 1990
		if !isText(t, i, ":") {
			return false
		}
		for j := i + 1; j < min(len(t), i+placeMaxTokens); j++ {
			if isComma(t[j]) && isYear(t, j+1) {
				return true
			}
			if t[j].Text == ":" || t[j].Text == "." {
				return false
			}
		}
		return false
	}},
	{"part_separator", 1, needDot, func(t []Token, i int) bool { // 2011. — С. 808.
		return isText(t, i, ".") && i+1 < len(t) && (t[i+1].Text == "—" || t[i+1].Text == "–") && i+2 < len(t)
	}},
	{"set_off_year", 1, needNumber, isSetOffYear},
	{"entry_parts", 1, needNumber, func(t []Token, i int) bool { // Korsch, Karl, Title, Αθήνα, Έρασμος, 1976
		if !isComma(t[i]) || !isYear(t, i+1) {
			return false
		}
		commas := 0
		for _, tok := range t[:i] {
			if isComma(tok) {
				commas++
			}
		}
		return commas >= entryMinParts-2
	}},
}

// entryMinParts is the fewest comma-separated parts of an entry whose last
// part is its year: author, title, place or publisher, year.
const entryMinParts = 4

// placeMaxTokens bounds the words between the colon after a place and the
// comma before the year (place_publisher).
const placeMaxTokens = 10

// entryCues are the cues of a bibliography entry in any language: the
// bibliographic ones and the citation cues they do not repeat.
var entryCues = func() []cue {
	var cues []cue
	for _, c := range citationCues {
		switch c.name {
		case "pages", "year_in_parentheses", "trailing_year": // page_mark, set_off_year
		default:
			cues = append(cues, c)
		}
	}
	return append(cues, bibliographicCues...)
}()

// IsCitation reports whether text is shaped like an entry of a
// bibliography in any language: its cues (those of citations and the
// bibliographic ones) score at least ReferenceMinScore. Learning which
// sections of a wiki hold citations counts the lines it accepts.
func IsCitation(text string) bool {
	buf := tokenBuffers.Get().(*[]Token)
	defer tokenBuffers.Put(buf)
	// The cues read the tokens' text and kind, not their canonical keys.
	*buf = tokenize((*buf)[:0], text, false)
	score, _ := scoreCues(entryCues, *buf, ReferenceMinScore)
	return score >= ReferenceMinScore
}

// tokenBuffers hold the tokens of IsCitation's calls: it is called on every
// line of a run.
var tokenBuffers = sync.Pool{New: func() any { return new([]Token) }}

// isSetOffYear reports whether t[i] is a year set off as a citation sets
// off its date: after a comma (not a month's day: "May 5, 1990") or an
// opening bracket, or before a closing one; a range of years (a
// lifespan, "(1836–1910)") is not.
func isSetOffYear(t []Token, i int) bool {
	if !isYear(t, i) || isRangeDash(t, i+1) && isNum(t, i+2) || i >= 2 && isRangeDash(t, i-1) && isNum(t, i-2) {
		return false
	}
	if i > 0 && isComma(t[i-1]) {
		return i < 2 || !isNum(t, i-2)
	}
	return i > 0 && isBracket(t[i-1], unicode.Ps) || i+1 < len(t) && isBracket(t[i+1], unicode.Pe)
}

// isDottedInitials reports whether s is initials written as one token:
// upper-case letters each followed by a period ("D.G.").
func isDottedInitials(s string) bool {
	n := 0
	for s != "" {
		r, size := utf8.DecodeRuneInString(s)
		if !unicode.IsUpper(r) || size == len(s) || s[size] != '.' {
			return false
		}
		s = s[size+1:]
		n++
	}
	return n >= 2
}

// isYear reports whether t[i] is a year written in digits (not a month).
func isYear(t []Token, i int) bool {
	if i >= len(t) || t[i].Kind != KindDate {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t[i].Text)
	return isDigit(r)
}

// isRangeDash reports whether t[i] is a hyphen or dash joining a range.
func isRangeDash(t []Token, i int) bool {
	return i < len(t) && (t[i].Text == "-" || t[i].Text == "–" || t[i].Text == "—")
}

// isComma reports whether t is a comma of any script: the Latin one, the
// Arabic "،", the ideographic "、" and "，", the Armenian "՝".
func isComma(t Token) bool {
	switch t.Text {
	case ",", "،", "、", "，", "՝", "﹐", "､":
		return true
	}
	return false
}

// isBracket reports whether t is one punctuation mark of the Unicode
// category cat: Ps, opening brackets, or Pe, closing ones.
func isBracket(t Token, cat *unicode.RangeTable) bool {
	r, size := utf8.DecodeRuneInString(t.Text)
	return size == len(t.Text) && unicode.Is(cat, r)
}

// isAbbreviation reports whether t is a short word of one to four
// letters, as the abbreviations of page, volume and number are.
func isAbbreviation(t Token) bool {
	if t.Kind != KindName && t.Kind != KindWord || utf8.RuneCountInString(t.Text) > 4 {
		return false
	}
	for _, r := range t.Text {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

func isText(t []Token, i int, s string) bool { return i < len(t) && t[i].Text == s }

func isNum(t []Token, i int) bool {
	return i < len(t) && (t[i].Kind == KindNumber || t[i].Kind == KindDate)
}

// citationScore sums the weights of the citation cues found in toks, and
// returns the names of those cues.
func citationScore(toks []Token) (int, []string) {
	return scoreCues(citationCues, toks, 0)
}

// scoreCues sums the weights of the cues found in toks, and returns the
// names of those cues. With enough > 0, it stops once the score reaches
// it.
func scoreCues(cues []cue, toks []Token, enough int) (int, []string) {
	score := 0
	var found []string
	have := features(toks)
	for _, c := range cues {
		if c.needs&^have != 0 {
			continue
		}
		for i := range toks {
			if c.match(toks, i) {
				score += c.weight
				found = append(found, c.name)
				break
			}
		}
		if enough > 0 && score >= enough {
			break
		}
	}
	return score, found
}

// fragmentReason says why a text looks like a piece of a sentence cut by a
// sentence-splitting accident, or returns "" if it looks whole. inList
// exempts list items, which often lack a final period or start in lower
// case.
func fragmentReason(text string, toks []Token, inList bool) string {
	if len(toks) == 0 {
		return "empty"
	}
	// List items often continue the sentence that introduces the list.
	if !inList && startsLowerCase(toks) {
		return "starts_lowercase"
	}
	if !inList && !endsWithTerminal(text) {
		return "no_terminal_punctuation"
	}
	n := len(toks)
	if n >= 2 && toks[n-1].Text == "." {
		last := toks[n-2]
		if titleAbbreviations[last.key()] && last.Kind == KindName {
			return "ends_with_abbreviation"
		}
		if isInitial(last) && n >= 3 && toks[n-3].Kind == KindName {
			return "ends_with_initial"
		}
	}
	return ""
}

// startsLowerCase reports whether the first word of toks is in lower case.
func startsLowerCase(toks []Token) bool {
	for _, t := range toks {
		if t.Kind != KindPunct {
			first, _ := utf8.DecodeRuneInString(t.Text)
			return unicode.IsLower(first)
		}
	}
	return false
}

// isInitial reports whether t is a single upper-case letter.
func isInitial(t Token) bool {
	r, size := utf8.DecodeRuneInString(t.Text)
	return size == len(t.Text) && unicode.IsUpper(r)
}

// endsWithTerminal reports whether text ends with a sentence terminal of
// any script (Unicode's Sentence_Terminal: ".", "!", "?", the danda "।",
// the Arabic "؟", "。"…), possibly followed by closing quotes or brackets.
func endsWithTerminal(text string) bool {
	text = strings.TrimRightFunc(text, unicode.IsSpace)
	text = strings.TrimRight(text, "\"'”’»)]")
	r, _ := utf8.DecodeLastRuneInString(text)
	return r == '.' || r == '!' || r == '?' || r >= utf8.RuneSelf && unicode.Is(unicode.Sentence_Terminal, r)
}
