package sentence

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// gluedEnds reports whether the run of terminators at text[i], directly
// followed by the rune next (no space between), ends a sentence. Only in
// the text of scripts without case does it: a letter of such a script
// after the run ("येते.सज्जनगडाच्या", "एक।दो") starts the next sentence when
// the run ends a word of such a script, not one that is an abbreviation.
// Digits (decimals), Latin letters (host names, "U.S.A.") and a Latin word
// before the run (a host name's "www.") leave it alone.
func (r *Rules) gluedEnds(text string, i int, run terminatorRun, next rune) bool {
	if !isCaselessLetter(next) || !endsCaselessWord(text, i) {
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

// syllables counts the syllables of word as the letters that do not follow
// a virama (canonical combining class 9), which joins a consonant to the
// next one: "डॉ" and "श्री" have one, "आहे" two. Marks are not letters.
func syllables(word string) int {
	n := 0
	joined := false
	for _, c := range word {
		switch {
		case unicode.IsLetter(c):
			if !joined {
				n++
			}
			joined = false
		case unicode.IsMark(c):
			var buf [utf8.UTFMax]byte
			joined = norm.NFC.Properties(buf[:utf8.EncodeRune(buf[:], c)]).CCC() == viramaClass
		default:
			joined = false
		}
	}
	return n
}

// viramaClass is the canonical combining class of the viramas.
const viramaClass = 9
