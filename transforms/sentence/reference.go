package sentence

import (
	"unicode"
	"unicode/utf8"
)

// AppendSplitReference appends the sentences of text, a paragraph of
// reference material (a <ref> body, an item of a References or
// Bibliography section), to dst and returns the extended slice.
//
// Such a paragraph is mostly one citation, "Author, A. (ed.). Title. Place:
// Publisher, p. 12.", whose fields the rules of AppendSplit would cut into
// fragments. So a boundary that AppendSplit finds is kept only between two
// sentences of prose, as the notes of a <ref> hold ("It should be stressed
// that the figures are old. New ones are expected from the census."): a
// sentence is prose when it has at least minProseWords words and more of
// them start with a lower-case letter than with an upper-case one (the
// first word aside), or when most of its letters have no case (case cannot
// tell its kind). Names, titles
// in title case, publishers, places and dates are not prose.
func (r *Rules) AppendSplitReference(dst []Span, text string) []Span {
	first := len(dst)
	dst = r.AppendSplit(dst, text)
	if len(dst)-first < 2 {
		return dst
	}
	out := first + 1
	prevProse := isProse(text[dst[first].Start:dst[first].End])
	for i := first + 1; i < len(dst); i++ {
		prose := isProse(text[dst[i].Start:dst[i].End])
		if prevProse && prose {
			dst[out] = dst[i]
			out++
		} else {
			dst[out-1].End = dst[i].End
		}
		prevProse = prose
	}
	return dst[:out]
}

// minProseWords is the fewest words of a sentence of prose.
const minProseWords = 4

// isProse reports whether sentence reads as prose rather than as the field
// of a citation (see AppendSplitReference).
func isProse(sentence string) bool {
	words, lower, upper := 0, 0, 0
	cased, caseless := 0, 0 // letters
	inWord := false
	for i := 0; i < len(sentence); {
		var c rune
		if b := sentence[i]; b < utf8.RuneSelf {
			// ASCII, the common case, without the Unicode tables.
			i++
			if !isASCIIAlnum(b) {
				inWord = inWord && (b == '\'' || b == '-')
				continue
			}
			if b > '9' {
				cased++
			}
			if inWord {
				continue
			}
			c = rune(b)
		} else {
			var w int
			c, w = utf8.DecodeRuneInString(sentence[i:])
			i += w
			if !unicode.IsLetter(c) && !unicode.IsDigit(c) && !unicode.IsMark(c) {
				inWord = inWord && c == '’'
				continue
			}
			if isCaselessLetter(c) {
				caseless++
			} else if unicode.IsLetter(c) {
				cased++
			}
			if inWord {
				continue
			}
		}
		inWord = true
		words++
		switch {
		case unicode.IsLower(c):
			lower++
		case isUpper(c) && words > 1: // the first word is capitalised by rule
			upper++
		}
	}
	if caseless > cased {
		return true
	}
	return words >= minProseWords && lower > upper
}
