// Package sentence splits clean plain-text paragraphs into sentences.
//
// Weissman et al. cut sentences with a regular expression that ends a
// sentence at every period followed by a space. That splits "Bruce E. Ivins"
// and "the U.S. Army" in two, and the fragments then match across unrelated
// pages as spurious near-duplicates. This package replaces the regular
// expression with a small set of rules that run in one linear, allocation-free
// pass and know about Unicode case and non-Latin terminators:
//
//   - Terminators are '.', '!', '?', '…' (and '‼', '⁇', '⁈', '⁉'), the CJK
//     full stops and marks '。', '｡', '！', '？', the Devanagari dandas '।' and
//     '॥', the Arabic question mark '؟', the Urdu full stop '۔' and the
//     Ethiopic full stop '።'. A semicolon is not a terminator. A run of
//     terminators ("?!", "!!!", "...") is one terminator, and closing quotes
//     and brackets right after it belong to the sentence it ends (a quotation
//     mark directly followed by a letter or digit opens the next one).
//   - A CJK terminator ends a sentence even without a following space, except
//     that a closing bracket directly followed by a letter ("「…。」と言った")
//     continues the sentence.
//   - Any other terminator ends a sentence only when followed by white space.
//     After '।', '॥', '؟', '۔' and '።' that is enough. After a Latin
//     terminator the next word, after optional opening quotes and brackets,
//     must start with an upper- or title-case letter, a digit, or a letter of
//     a script without case (Arabic, Hebrew, Devanagari, CJK, Thai, ...). A
//     lower-case word continues the sentence, which disposes of most
//     abbreviations.
//   - A single '.' directly followed by white space does not end a sentence
//     after an abbreviation: a single upper-case letter (the initial
//     in "Bruce E. Ivins"), a title, a Latin or bibliographic abbreviation, a
//     month ("Jan.") or a business word ("Inc."); "No." and "Nos." only before
//     a digit. "etc." is not an abbreviation: it continues the sentence only
//     before a lower-case word, like any word.
//   - Dotted acronyms (single letters each followed by '.', as in "U.S.",
//     "U.K.", "a.m.") are ambiguous: "the U.S. Army" is one sentence, "in the
//     U.S. The next year" is two. The rule: an acronym ends a sentence only
//     when the next word is a common sentence opener such as "The", "In",
//     "It", "He", "She", "This" or "They" (see sentenceOpeners).
//   - A German-style ordinal date ("am 3. Oktober") does not end a sentence:
//     one or two digits followed by '.' and a German month name.
//   - A sentence made only of punctuation ("...", "?!") does not end there; it
//     joins the next one, so only the last sentence of a paragraph can lack
//     a letter or digit.
//
// Periods inside numbers (40.4%, 3.14, v2.0.1), host names and e-mail
// addresses are not followed by a space and so never end a sentence. New
// lines are white space like any other: the input is one paragraph.
package sentence

import (
	"unicode"
	"unicode/utf8"
)

// Span is a sentence as byte offsets into the paragraph: text[Start:End],
// trimmed of surrounding spaces.
type Span struct{ Start, End int }

// Split returns the sentences of text in order. It never panics and runs in
// time linear in len(text). The spans are non-overlapping, increasing and
// non-empty, and together they cover all non-space text of the paragraph:
// only white space lies between or around them.
func Split(text string) []Span {
	return AppendSplit(nil, text)
}

// AppendSplit appends the sentences of text to dst, as Split returns them,
// and returns the extended slice. It allocates only when dst must grow.
func AppendSplit(dst []Span, text string) []Span {
	start := -1      // where the current sentence begins; -1 between sentences
	last := 0        // just past the last non-space rune
	content := false // whether the current sentence has a letter or digit
	for i := 0; i < len(text); {
		if isASCIIAlnum(text[i]) && start >= 0 {
			i++
			last, content = i, true
			continue
		}
		r, w := runeAt(text, i)
		if unicode.IsSpace(r) {
			i += w
			continue
		}
		if start < 0 {
			start = i
		}
		if !isTerminator(r) {
			content = content || unicode.IsLetter(r) || unicode.IsDigit(r)
			i += w
			last = i
			continue
		}
		end, ends := boundary(text, i)
		i, last = end, end
		if ends && content {
			dst = append(dst, Span{start, end})
			start, content = -1, false
		}
	}
	if start >= 0 {
		dst = append(dst, Span{start, last})
	}
	return dst
}

// terminatorRun describes a run of terminators and closing punctuation.
type terminatorRun struct {
	end       int  // byte offset just past the run
	periods   int  // number of '.' in the run
	marks     int  // number of terminators in the run
	closed    bool // the run holds a closing quote or bracket
	cjk       bool // the run holds a CJK terminator
	caseless  bool // the run holds a terminator of a script without case
	singleDot bool // the run's only terminator is one '.'
}

// scanRun reads the run of terminators and closing quotes and brackets that
// starts with the terminator at text[i]. A quotation mark directly followed
// by a letter or digit opens the next quotation (the second mark of
// "。”“再见"), so it ends the run instead of joining it.
func scanRun(text string, i int) terminatorRun {
	run := terminatorRun{end: i}
	for run.end < len(text) {
		r, w := runeAt(text, run.end)
		if kind := terminatorKind(r); kind != notTerminator {
			run.marks++
			if r == '.' {
				run.periods++
			}
			run.cjk = run.cjk || kind == cjkTerminator
			run.caseless = run.caseless || kind == caselessTerminator
		} else if !isCloser(r) || isQuote(r) && opensWord(text, run.end+w) {
			break
		} else {
			run.closed = true
		}
		run.end += w
	}
	run.singleDot = run.marks == 1 && run.periods == 1
	return run
}

// opensWord reports whether a letter or digit starts at text[i].
func opensWord(text string, i int) bool {
	r, _ := runeAt(text, i)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// boundary examines the terminator at text[i]. It returns the end of its run
// of terminators and closing punctuation, and whether a sentence ends there.
func boundary(text string, i int) (end int, ends bool) {
	run := scanRun(text, i)
	if run.end == len(text) {
		return run.end, true
	}
	next, _ := runeAt(text, run.end)
	if run.cjk {
		return run.end, !(run.closed && unicode.IsLetter(next))
	}
	if !unicode.IsSpace(next) {
		return run.end, false
	}
	if run.caseless {
		return run.end, true
	}
	word := skipOpeners(text, skipSpaces(text, run.end))
	first, _ := runeAt(text, word)
	if !startsSentence(first) {
		return run.end, false
	}
	if run.singleDot && !run.closed && abbreviated(text, i, word) {
		return run.end, false
	}
	return run.end, true
}

// abbreviated reports whether the period at text[dot] ends an abbreviation
// rather than a sentence, given that the next word starts at text[next].
func abbreviated(text string, dot, next int) bool {
	word := wordBefore(text, dot)
	switch {
	case word == "":
		return false
	case isInitial(word):
		return true
	}
	if kind, ok := lookupAbbreviation(word); ok {
		if kind == beforeNumber {
			r, _ := runeAt(text, next)
			return unicode.IsDigit(r)
		}
		return true
	}
	if isDottedAcronym(word) {
		return !sentenceOpeners[letterWord(text, next)]
	}
	if isOrdinal(word) {
		return monthNames[letterWord(text, next)]
	}
	return false
}

// maxWordLen bounds the backward and forward word scans, which keeps the
// splitter linear: no abbreviation, acronym or opener is this long.
const maxWordLen = 32

// wordBefore returns the non-space text that ends at text[end], without
// leading punctuation such as an opening bracket, or "" if it is empty or
// longer than maxWordLen bytes.
func wordBefore(text string, end int) string {
	start := end
	for start > 0 {
		r, w := utf8.DecodeLastRuneInString(text[:start])
		if unicode.IsSpace(r) {
			break
		}
		if end-start+w > maxWordLen {
			return ""
		}
		start -= w
	}
	for start < end {
		r, w := runeAt(text, start)
		if r == '.' || !unicode.IsPunct(r) {
			break
		}
		start += w
	}
	return text[start:end]
}

// letterWord returns the run of letters that starts at text[i], or "" if it
// is longer than maxWordLen bytes.
func letterWord(text string, i int) string {
	j := i
	for j < len(text) && j-i <= maxWordLen {
		r, w := runeAt(text, j)
		if !unicode.IsLetter(r) {
			return text[i:j]
		}
		j += w
	}
	if j-i > maxWordLen {
		return ""
	}
	return text[i:j]
}

// isInitial reports whether word is a single upper-case letter.
func isInitial(word string) bool {
	r, w := utf8.DecodeRuneInString(word)
	return w == len(word) && isUpper(r)
}

// isDottedAcronym reports whether word is two or more single letters
// separated by periods, as in "U.S" or "a.m" (the last period is the
// terminator under examination).
func isDottedAcronym(word string) bool {
	letters := 0
	for i := 0; i < len(word); {
		r, w := utf8.DecodeRuneInString(word[i:])
		if !unicode.IsLetter(r) {
			return false
		}
		letters++
		i += w
		if i == len(word) {
			break
		}
		if word[i] != '.' {
			return false
		}
		i++
		if i == len(word) {
			return false
		}
	}
	return letters >= 2
}

// isOrdinal reports whether word is one or two ASCII digits.
func isOrdinal(word string) bool {
	if len(word) == 0 || len(word) > 2 {
		return false
	}
	for i := 0; i < len(word); i++ {
		if word[i] < '0' || word[i] > '9' {
			return false
		}
	}
	return true
}

// skipSpaces returns the offset of the first non-space rune at or after i.
func skipSpaces(text string, i int) int {
	for i < len(text) {
		r, w := runeAt(text, i)
		if !unicode.IsSpace(r) {
			break
		}
		i += w
	}
	return i
}

// skipOpeners returns the offset of the first rune at or after i that is not
// an opening quote or bracket.
func skipOpeners(text string, i int) int {
	for i < len(text) {
		r, w := runeAt(text, i)
		if !isOpener(r) {
			break
		}
		i += w
	}
	return i
}

// runeAt decodes the rune at text[i], returning (-1, 0) at the end of text.
// Invalid UTF-8 decodes as utf8.RuneError of width 1.
func runeAt(text string, i int) (rune, int) {
	if i >= len(text) {
		return -1, 0
	}
	if b := text[i]; b < utf8.RuneSelf {
		return rune(b), 1
	}
	return utf8.DecodeRuneInString(text[i:])
}

// isASCIIAlnum reports whether b is an ASCII letter or digit, the common
// case that AppendSplit handles without decoding.
func isASCIIAlnum(b byte) bool {
	return 'a' <= b|0x20 && b|0x20 <= 'z' || '0' <= b && b <= '9'
}

// startsSentence reports whether a word starting with r may begin a
// sentence after a Latin terminator.
func startsSentence(r rune) bool {
	return isUpper(r) || unicode.IsDigit(r) || isCaselessLetter(r)
}

func isUpper(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsTitle(r)
}

// isCaselessLetter reports whether r is a letter of a script without case,
// such as Arabic, Hebrew, Devanagari, Thai or CJK.
func isCaselessLetter(r rune) bool {
	return unicode.IsLetter(r) && !unicode.IsUpper(r) && !unicode.IsLower(r) && !unicode.IsTitle(r)
}

// isOpener reports whether r may open a quotation or parenthesis. Quotation
// marks count both ways because their direction differs between languages
// (»German«, “English”, „German“).
func isOpener(r rune) bool {
	switch r {
	case '"', '\'', '(', '[', '{', '¿', '¡':
		return true
	}
	return r >= utf8.RuneSelf && unicode.In(r, unicode.Ps, unicode.Pi, unicode.Pf)
}

// isCloser reports whether r may close a quotation or parenthesis.
func isCloser(r rune) bool {
	switch r {
	case '"', '\'', ')', ']', '}':
		return true
	}
	return r >= utf8.RuneSelf && unicode.In(r, unicode.Pe, unicode.Pi, unicode.Pf)
}

// isQuote reports whether r is a quotation mark, which may open or close.
func isQuote(r rune) bool {
	return r == '"' || r == '\'' || r >= utf8.RuneSelf && unicode.In(r, unicode.Pi, unicode.Pf)
}

// Kinds of terminator.
const (
	notTerminator      = iota
	latinTerminator    // needs a space and a sentence-starting word after it
	caselessTerminator // needs a space after it
	cjkTerminator      // needs nothing after it
)

func isTerminator(r rune) bool { return terminatorKind(r) != notTerminator }

func terminatorKind(r rune) int {
	switch r {
	case '.', '!', '?', '…', '‼', '⁇', '⁈', '⁉':
		return latinTerminator
	case '।', '॥', '؟', '۔', '።':
		return caselessTerminator
	case '。', '｡', '！', '？':
		return cjkTerminator
	}
	return notTerminator
}
