package sentence

import "unicode"

// inTitleRun reports whether the run of '!' and '?' at text[i], followed
// after white space by the word at text[next], lies inside a title in title
// case ("Ah! My Goddess is a manga", "Poptopia! Power Pop Classics"), as
// the cleaned text of a work's name leaves it without its italics or
// quotes: the word before the run starts with an upper-case letter, and
// the next two words do too, the first of them not a sentence opener ("Stop!
// The Beatles came" ends after "Stop!") and followed by a space. A real
// sentence rarely starts with two capitalised words after an exclamation
// or a question that ends in a capitalised word.
func (r *Rules) inTitleRun(text string, i int, run terminatorRun, next int) bool {
	for j := i; j < run.end; j++ {
		if text[j] != '!' && text[j] != '?' {
			return false
		}
	}
	before, _ := runeAt(wordBefore(text, i), 0)
	if !isUpper(before) || r.openerAt(text, next) {
		return false
	}
	word := letterWord(text, next)
	first, _ := runeAt(word, 0)
	after := next + len(word)
	if !isUpper(first) || after >= len(text) || text[after] != ' ' {
		return false
	}
	second, _ := runeAt(text, skipSpaces(text, after))
	return isUpper(second)
}

// datedAt reports whether a bracketed number starts at text[i], as the
// year after a title does ("What a Widow! (1930)", "«Що таке поступ?»
// (1903)"): a sentence does not start with one.
func datedAt(text string, i int) bool {
	if i >= len(text) || text[i] != '(' {
		return false
	}
	c, _ := runeAt(text, i+1)
	return unicode.IsDigit(c)
}
