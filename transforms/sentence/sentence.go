// Package sentence splits clean paragraphs into sentences and gives each a
// stable ID: its wiki, revision (or page) and ordinal.
//
// Weissman et al. end a sentence at every period followed by a space, which
// cuts "Bruce E. Ivins" and "the U.S. Army" in two, and the fragments match
// across unrelated pages. These rules know Unicode's Sentence_Terminal, the
// scripts written without spaces, letter case and each language's
// abbreviations, and run in one linear, allocation-free pass.
//
//   - RulesFor gives a language's rules; Split and AppendSplit use the
//     language-neutral ones.
//   - AppendSplitReference splits reference material, keeping a citation whole.
//   - The text is one paragraph: a new line is white space like any other.
//
// The rules in full: docs/input.md, "How sentences are split".
package sentence

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is a sentence as byte offsets into the paragraph: text[Start:End],
// trimmed of surrounding spaces.
type Span struct{ Start, End int }

// Split returns the sentences of text in order, as the language-neutral
// rules (RulesFor("")) split them.
func Split(text string) []Span {
	return RulesFor("").AppendSplit(nil, text)
}

// AppendSplit appends the sentences of text to dst, as Split returns them,
// and returns the extended slice. It allocates only when dst must grow.
func AppendSplit(dst []Span, text string) []Span {
	return RulesFor("").AppendSplit(dst, text)
}

// Split returns the sentences of text in order. It never panics and runs in
// time linear in len(text). The spans are non-overlapping, increasing and
// non-empty, and together they cover all non-space text of the paragraph:
// only white space lies between or around them.
func (r *Rules) Split(text string) []Span {
	return r.AppendSplit(nil, text)
}

// AppendSplit appends the sentences of text to dst, as r.Split returns
// them, and returns the extended slice. It allocates only when dst must
// grow.
func (r *Rules) AppendSplit(dst []Span, text string) []Span {
	start := -1      // where the current sentence begins; -1 between sentences
	last := 0        // just past the last non-space rune
	content := false // whether the current sentence has a letter or digit
	var item listItem
	for i := 0; i < len(text); {
		switch b := text[i]; {
		case isASCIIAlnum(b) && start >= 0:
			i++
			last, content = i, true
			continue
		case b == ' ':
			i++
			continue
		}
		c, w := runeAt(text, i)
		if unicode.IsSpace(c) {
			i += w
			continue
		}
		if start < 0 {
			start, item = i, listItem{}
		}
		switch {
		case (c == '.' || c == ')') && mayEndMarker(text, i):
			if m, ok := listMarker(text, start, i, &item); ok {
				if m.breakEnd > 0 {
					dst = append(dst, Span{start, m.breakEnd})
					start = m.start
				}
				i, last, content = m.end, m.end, true
				continue
			}
		case content && isBullet(c) && bulletBreak(text, start, i, c):
			dst = append(dst, Span{start, last})
			start, item, content = i, listItem{}, false
		}
		kind := r.terminatorKind(c)
		if kind == notTerminator {
			content = content || unicode.IsLetter(c) || unicode.IsDigit(c)
			i += w
			last = i
			continue
		}
		end, ends := r.boundary(text, i)
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
	lastMark  int  // byte offset of the run's last terminator
	periods   int  // number of '.' in the run
	marks     int  // number of terminators in the run
	closed    bool // the run holds a closing quote or bracket
	cjk       bool // the run holds a terminator that needs no space after it
	caseless  bool // the run holds a terminator of a script without case
	singleDot bool // the run's only terminator is one '.'
}

// scanRun reads the run of terminators and closing quotes and brackets that
// starts with the terminator at text[i]. A quotation mark directly followed
// by a letter or digit opens the next quotation (the second mark of
// "。”“再见"), so it ends the run instead of joining it.
func (r *Rules) scanRun(text string, i int) terminatorRun {
	run := terminatorRun{end: i}
	for run.end < len(text) {
		c, w := runeAt(text, run.end)
		if kind := r.terminatorKind(c); kind != notTerminator {
			run.marks++
			run.lastMark = run.end
			if c == '.' {
				run.periods++
			}
			run.cjk = run.cjk || kind == cjkTerminator
			run.caseless = run.caseless || kind == caselessTerminator
		} else if !isCloser(c) || isQuote(c) && opensWord(text, run.end+w) {
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
func (r *Rules) boundary(text string, i int) (end int, ends bool) {
	var run terminatorRun
	if text[i] == '.' && i+1 < len(text) && text[i+1] == ' ' {
		// The common case, a lone period before a space, as scanRun
		// would describe it.
		run = terminatorRun{end: i + 1, lastMark: i, periods: 1, marks: 1, singleDot: true}
	} else {
		run = r.scanRun(text, i)
	}
	if run.end == len(text) {
		return run.end, true
	}
	next, _ := runeAt(text, run.end)
	if run.cjk {
		return run.end, cjkEnds(text, i, run, next)
	}
	if !unicode.IsSpace(next) {
		return run.end, r.gluedEnds(text, i, run, next)
	}
	if run.caseless {
		return run.end, true
	}
	if elided(text, i, run) {
		return run.end, false
	}
	word := skipOpeners(text, skipSpaces(text, run.end))
	if run.singleDot && !run.closed && (i > 0 && text[i-1] == ' ' || hasPrefixAt(text, i+1, " . ")) {
		if ends, ok := r.ellipsisEnds(text, i, word); ok {
			return run.end, ends
		}
	}
	first, _ := runeAt(text, word)
	if !startsSentence(first) || datedAt(text, skipSpaces(text, run.end)) {
		return run.end, false
	}
	if run.periods == 0 && !run.closed && word == skipSpaces(text, run.end) && r.inTitleRun(text, i, run, word) {
		return run.end, false
	}
	if run.singleDot && !run.closed && r.abbreviated(text, i, word) {
		return run.end, false
	}
	return run.end, true
}

// cjkEnds reports whether the run of terminators at text[i], which holds a
// terminator that needs no space after it and is followed by next, ends a
// sentence.
func cjkEnds(text string, i int, run terminatorRun, next rune) bool {
	switch {
	case run.closed && unicode.IsLetter(next):
		return false
	case unicode.IsDigit(next) && unicode.IsDigit(runeBefore(text, i)):
		return false
	}
	return !inTitle(text, run.end)
}

// maxTitleLen bounds the scan of inTitle, which keeps the splitter linear.
const maxTitleLen = 64

// inTitle reports whether a closing title bracket '》' or '〉' follows
// text[i] closely, before any opening one or full stop.
func inTitle(text string, i int) bool {
	for j := i; j < len(text) && j-i < maxTitleLen; {
		c, w := runeAt(text, j)
		switch c {
		case '》', '〉':
			return true
		case '《', '〈', '。':
			return false
		}
		j += w
	}
	return false
}

// elided reports whether the run at text[i] is an ellipsis in brackets
// ("[...]", "(…)"), which marks an omission inside a sentence.
func elided(text string, i int, run terminatorRun) bool {
	if i == 0 || text[i-1] != '[' && text[i-1] != '(' {
		return false
	}
	j := i
	for j < run.end {
		if text[j] == '.' {
			j++
		} else if strings.HasPrefix(text[j:], "…") {
			j += len("…")
		} else {
			break
		}
	}
	return j > run.lastMark && j < run.end && (text[j] == ']' || text[j] == ')')
}

// ellipsisEnds decides the single '.' at text[dot] that is part of a spaced
// ellipsis (" . . . "), given that the next word starts at text[next]. It
// reports ok false if the period is not part of one.
func (r *Rules) ellipsisEnds(text string, dot, next int) (ends, ok bool) {
	dots, first := dotsBefore(text, dot)
	detached := first > 0 && text[first-1] == ' '
	switch {
	case dots == 3 && detached:
		// " . . . I didn't": an omission, unless a sentence opener follows.
		return r.openers[letterWord(text, next)], true
	case dots == 1 && !detached && hasPrefixAt(text, dot+1, " . . . "):
		// "compounds. . . . The": the period ends the sentence.
		word := skipOpeners(text, skipSpaces(text, dot+len(" . . . ")))
		first, _ := runeAt(text, word)
		return startsSentence(first), true
	}
	return false, false
}

// dotsBefore counts the periods of the spaced ellipsis (". . .") that ends
// with the period at text[dot], up to 5, and returns the offset of its first
// period.
func dotsBefore(text string, dot int) (dots, first int) {
	dots, first = 1, dot
	for dots < 5 && first >= 2 && text[first-1] == ' ' && text[first-2] == '.' {
		dots++
		first -= 2
	}
	return dots, first
}

func hasPrefixAt(text string, i int, prefix string) bool {
	return len(text)-i >= len(prefix) && text[i:i+len(prefix)] == prefix
}

// abbreviated reports whether the period at text[dot] ends an abbreviation
// rather than a sentence, given that the next word starts at text[next].
func (r *Rules) abbreviated(text string, dot, next int) bool {
	word := wordBefore(text, dot)
	switch {
	case word == "":
		return false
	case isInitial(word):
		prev := previousWord(text, dot-len(word))
		if first, _ := utf8.DecodeRuneInString(prev); isUpper(first) || strings.HasSuffix(prev, ".") {
			// "Bruce E. Ivins", "Frey, Sylvia R. The British Soldier",
			// "z. B. Das Buch", "J. R. R. Tolkien".
			return true
		}
		// "you and I. Did", "in X. This": after another word, a
		// pronoun or a letter before a sentence opener ends the
		// sentence; "by J. Smith" does not.
		if r.pronounI && word == "I" {
			return false
		}
		return !r.clauseAt(text, next)
	}
	a, ok := r.lookupAbbreviation(word)
	if !ok {
		// "l'Avv.", "dell'art.": an elided article or preposition before
		// the abbreviation.
		if j := elision(word); j > 0 {
			a, ok = r.lookupAbbreviation(word[j:])
		}
	}
	if ok {
		switch a.kind {
		case beforeNumber:
			c, _ := runeAt(text, next)
			return unicode.IsDigit(c)
		case beforeWord:
			return !r.openers[letterWord(text, next)]
		}
		return true
	}
	if isDottedAcronym(word) {
		return !r.openers[letterWord(text, next)]
	}
	if isOrdinal(word) {
		w := letterWord(text, next)
		return monthNames[w] || r.ordinals[w]
	}
	return citationAbbreviation(text, dot, word, next) && !r.openerAt(text, next)
}

// elision returns the offset just past the apostrophe that ends a short
// elided word (up to 6 bytes) at the start of word ("l'", "dell'", "d’",
// "quest'"), or 0 if there is none.
func elision(word string) int {
	for i := 0; i < len(word) && i <= 6; {
		c, w := utf8.DecodeRuneInString(word[i:])
		if (c == '\'' || c == '’') && i > 0 {
			if i+w < len(word) {
				return i + w
			}
			return 0
		}
		if !unicode.IsLetter(c) {
			return 0
		}
		i += w
	}
	return 0
}

// previousWord returns the word (as wordBefore) before the white space that
// ends at text[i], or "" if there is none.
func previousWord(text string, i int) string {
	j := i
	for j > 0 && i-j <= maxWordLen {
		c, w := utf8.DecodeLastRuneInString(text[:j])
		if !unicode.IsSpace(c) {
			break
		}
		j -= w
	}
	if j == i {
		return ""
	}
	return wordBefore(text, j)
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

// openerAt reports whether a sentence opener of r starts at text[i], as a
// whole word not followed by a period: the "A" of "A. A. Milne" is an
// initial, not the article.
func (r *Rules) openerAt(text string, i int) bool {
	word := letterWord(text, i)
	return r.openers[word] && (i+len(word) == len(text) || text[i+len(word)] != '.')
}

// clauseAt reports whether a sentence opener of r followed by a lower-case
// word starts at text[i] ("This town"), which an initial does not precede
// in a name: "Ph. An Bình" is Vietnamese.
func (r *Rules) clauseAt(text string, i int) bool {
	if !r.openerAt(text, i) {
		return false
	}
	j := i + len(letterWord(text, i))
	if j == len(text) || text[j] != ' ' {
		return false
	}
	c, _ := runeAt(text, skipSpaces(text, j))
	return unicode.IsLower(c)
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
		if text[i] == ' ' {
			i++
			continue
		}
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
// case that AppendSplit handles without decoding, like the ASCII space.
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

// runeBefore returns the rune that ends at text[i], or -1 at the start.
func runeBefore(text string, i int) rune {
	if i == 0 {
		return -1
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return r
}
