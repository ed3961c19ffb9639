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

// minYearDigits is the fewest digits of the year that datedAt finds.
const minYearDigits = 3

// datedAt reports whether a bracketed year, a number of at least
// minYearDigits digits, starts at text[i], as after a title ("What a Widow!
// (1930)", "«Що таке поступ?» (1903)"): a sentence does not start with one,
// unlike a bracketed clause number ("Article 67. (1) The").
func datedAt(text string, i int) bool {
	if i >= len(text) || text[i] != '(' {
		return false
	}
	digits := 0
	for j := i + 1; digits < minYearDigits; digits++ {
		c, w := runeAt(text, j)
		if !unicode.IsDigit(c) {
			break
		}
		j += w
	}
	return digits == minYearDigits
}
