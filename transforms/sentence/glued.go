package sentence

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// gluedEnds reports whether the run of terminators at text[i], directly
// followed by the rune next (no space between), ends a sentence. Only in
// the text of scripts without case does it: a letter of such a script
// after one period or a run of caseless terminators ("येते.सज्जनगडाच्या",
// "एक।दो") starts the next sentence when the run ends a word of such a
// script, not one that is an abbreviation. Digits (decimals), Latin
// letters (host names, "U.S.A.") and a Latin word before the run (a host
// name's "www.") leave it alone, and so do an ellipsis (".."), a closing
// quote or bracket in the run, '!' and '?', and the letters of Chinese and Japanese, which
// have a full stop of their own.
func (r *Rules) gluedEnds(text string, i int, run terminatorRun, next rune) bool {
	if next < utf8.RuneSelf || run.closed || run.periods > 1 || !fullStops(text, i, run) || !isCaselessLetter(next) || ownFullStop(next) || !endsCaselessWord(text, i) {
		return false
	}
	if run.marks > 1 || text[run.lastMark] != '.' {
		return true
	}
	// A single period: not after an abbreviation of one syllable
	// ("डॉ.", "इ.स.", "পৃ.", "พ.ศ.") or of the language's table.
	word, whole := lettersBefore(text, i)
	if !whole {
		return true
	}
	if syllables(word) <= 1 {
		return false
	}
	_, abbreviated := r.lookupAbbreviation(word)
	return !abbreviated
}

// lettersBefore returns the letters and marks that end at text[i], and
// whether they are at most maxWordLen bytes long (if not, it returns "").
func lettersBefore(text string, i int) (word string, whole bool) {
	j := i
	for j > 0 {
		c, w := utf8.DecodeLastRuneInString(text[:j])
		if !unicode.IsLetter(c) && !unicode.IsMark(c) {
			break
		}
		if i-j+w > maxWordLen {
			return "", false
		}
		j -= w
	}
	return text[j:i], true
}

// fullStops reports whether the run at text[i] holds only periods and
// terminators of scripts without case ('।', '۔'): an ASCII '!' or '?'
// glued to the next word is part of a title more often than not
// ("飛べ!ダコタ", "ハロー!プロジェクト").
func fullStops(text string, i int, run terminatorRun) bool {
	for j := i; j < run.end; {
		c, w := runeAt(text, j)
		if c != '.' && terminatorKind(c) != caselessTerminator {
			return false
		}
		j += w
	}
	return true
}

// ownFullStop reports whether r is a letter of a script that ends its
// sentences with a full stop of its own ('。'), Han, Hiragana and
// Katakana, where a glued period is something else.
func ownFullStop(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// endsCaselessWord reports whether the text before text[i] ends with a
// letter of a script without case, possibly followed by combining marks
// (the vowel signs of "येते").
func endsCaselessWord(text string, i int) bool {
	for j := i; j > 0 && i-j <= maxWordLen; {
		c, w := utf8.DecodeLastRuneInString(text[:j])
		switch {
		case unicode.IsMark(c):
			j -= w
		case isCaselessLetter(c):
			return true
		default:
			return false
		}
	}
	return false
}

// syllables counts the syllables of word as its letters that no virama
// (canonical combining class 9) follows: a virama joins its consonant to
// the next one ("श्री" has one syllable) or closes the syllable before it
// (the "ಮ್" of "ಎಮ್", the letter M, has none). Marks are not letters: "डॉ"
// has one syllable, "आहे" two.
func syllables(word string) int {
	n := 0
	letter := false // the previous rune is a letter
	for _, c := range word {
		if letter && isVirama(c) {
			n--
		}
		letter = unicode.IsLetter(c)
		if letter {
			n++
		}
	}
	return n
}

// isVirama reports whether c is a virama.
func isVirama(c rune) bool {
	if c < 0x0900 || !unicode.IsMark(c) {
		return false
	}
	var buf [utf8.UTFMax]byte
	return norm.NFC.Properties(buf[:utf8.EncodeRune(buf[:], c)]).CCC() == viramaClass
}

// viramaClass is the canonical combining class of the viramas.
const viramaClass = 9
