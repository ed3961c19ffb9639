package categorize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// citation cues, each counted once per text with its weight.
type cue struct {
	name   string
	weight int
	match  func(toks []Token, i int) bool
}

// citationCues are the shapes of bibliography entries. Strong cues (weight
// 2: volume(issue), identifiers, "Retrieved") are enough on their own;
// weaker ones need company.
var citationCues = []cue{
	{"volume_issue", 2, func(t []Token, i int) bool { // 11 (1) or 11(1)
		return isNum(t, i) && isText(t, i+1, "(") && isNum(t, i+2) && isText(t, i+3, ")")
	}},
	{"identifier", 2, func(t []Token, i int) bool { return len(t[i].Text) <= 7 && identifierWords[t[i].key()] }},
	{"retrieved", 2, func(t []Token, i int) bool { return t[i].Text == "Retrieved" || t[i].Text == "Archived" }},
	{"page_range", 1, func(t []Token, i int) bool { // : 73-80
		return isText(t, i, ":") && isNum(t, i+1) && (isText(t, i+2, "-") || isText(t, i+2, "–")) && isNum(t, i+3)
	}},
	{"pages", 1, func(t []Token, i int) bool { // pp. 5 / p. 5
		return (t[i].Text == "pp" || t[i].Text == "p") && isText(t, i+1, ".") && isNum(t, i+2)
	}},
	{"et_al", 1, func(t []Token, i int) bool { return t[i].Text == "et" && isText(t, i+1, "al") }},
	{"publisher", 1, func(t []Token, i int) bool {
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
	{"editor", 1, func(t []Token, i int) bool { // (ed.), eds., In:
		return (t[i].Text == "ed" || t[i].Text == "eds") && isText(t, i+1, ".") || t[i].Text == "In" && isText(t, i+1, ":")
	}},
	{"year_in_parentheses", 1, func(t []Token, i int) bool { // (2006)
		return isText(t, i, "(") && i+1 < len(t) && t[i+1].Kind == KindDate && isText(t, i+2, ")")
	}},
	{"trailing_year", 1, func(t []Token, i int) bool { // …, Berlin, 2006.
		if !isText(t, i, ",") || i+1 >= len(t) || t[i+1].Kind != KindDate {
			return false
		}
		return i+2 == len(t) || i+3 == len(t) && isText(t, i+2, ".")
	}},
}

func isText(t []Token, i int, s string) bool { return i < len(t) && t[i].Text == s }

func isNum(t []Token, i int) bool {
	return i < len(t) && (t[i].Kind == KindNumber || t[i].Kind == KindDate)
}

// citationScore sums the weights of the citation cues found in toks, and
// returns the names of those cues.
func citationScore(toks []Token) (int, []string) {
	score := 0
	var found []string
	for _, c := range citationCues {
		for i := range toks {
			if c.match(toks, i) {
				score += c.weight
				found = append(found, c.name)
				break
			}
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
