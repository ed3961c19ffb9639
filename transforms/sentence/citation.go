package sentence

import (
	"unicode"
	"unicode/utf8"
)

// maxLocatorWord is the longest word, in letters, that citationAbbreviation
// takes for the abbreviation of a locator ("p.", "pg.", "σελ.", "стор.").
const maxLocatorWord = 4

// citationAbbreviation reports whether word, which ends at the period at
// text[dot] and is followed by the word at text[next], is an abbreviation
// of a citation by its form, whatever the language:
//   - a word of letters alone in an opening bracket ("(b. 1950)", "(m.
//     2010)", "(пом. 1912)", "(περ. 100.000)", "(Hdt. 1.202.4)"): a
//     sentence does not end one word after the bracket that holds it;
//   - a short word of letters before a locator, a number that a closing
//     bracket, a comma, a semicolon, a colon, a period or the end of the
//     paragraph follows ("pg. 12,", "σελ. 403-459", "Nr. 8)", "Вип. 18.").
func citationAbbreviation(text string, dot int, word string, next int) bool {
	start := dot - len(word)
	bracketed := start > 0 && (text[start-1] == '(' || text[start-1] == '[')
	if c, _ := runeAt(text, next); !bracketed && !unicode.IsDigit(c) || !isLetters(word) {
		return false
	}
	return bracketed || utf8.RuneCountInString(word) <= maxLocatorWord && isLocator(text, next)
}

// isLetters reports whether word is one or more letters and marks.
func isLetters(word string) bool {
	for _, c := range word {
		if !unicode.IsLetter(c) && !unicode.IsMark(c) {
			return false
		}
	}
	return word != ""
}

// maxLocatorLen bounds the scan of isLocator, which keeps the splitter
// linear.
const maxLocatorLen = 32

// isLocator reports whether a locator starts at text[i]: a number, or a
// range of numbers ("12", "403-459", "1.202.4", "1,000"), followed by a
// closing bracket, a comma, a semicolon, a colon, the end of the text, or a
// period. A number followed by a word ("12 men") is not one, nor one or two
// digits followed by a period and a word that may start a sentence, a list
// marker ("2. Sự").
func isLocator(text string, i int) bool {
	digits := 0 // the runes of the number read
	for j := i; j-i <= maxLocatorLen; {
		c, w := runeAt(text, j)
		switch {
		case unicode.IsDigit(c):
			digits++
		case c == -1 || c == ')' || c == ']' || c == ';':
			return digits > 0
		case c == '.' || c == ',' || c == ':' || c == '-' || c == '–' || c == '—' || c == '−' || c == '/':
			// Inside a number ("1,000", "1:23", "403-459") or after it.
			d, _ := runeAt(text, j+w)
			switch {
			case unicode.IsDigit(d):
				digits++
			case c == '.':
				// "σελ. 403-459. Άλλο", "Вип. 18. — Київ", but not
				// the list marker of "quốc. 2. Sự đoàn kết".
				return digits > 2 || digits > 0 && !startsSentence(wordAfter(text, j+w))
			default:
				return digits > 0 && (c == ',' || c == ':')
			}
		default:
			return false
		}
		j += w
	}
	return false
}
