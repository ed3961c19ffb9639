package sentence

import (
	"unicode"
	"unicode/utf8"
)

// Styles of list marker.
const (
	noMarker       = iota
	dotMarker      // "1."
	dotParenMarker // "1.)"
	parenMarker    // "1)"
	// letterMarker is added to the style of a lettered marker ("a.").
	letterMarker = 4
)

// listItem is the list marker that opened the current sentence.
type listItem struct {
	style int // a style of list marker, or noMarker
	num   int // the marker's number or letter
	end   int // byte offset just past the marker
}

// marker is a list marker found by listMarker.
type marker struct {
	start, end int // byte offsets of the marker
	// breakEnd, when not 0, is the end of the sentence that the marker
	// breaks off before it.
	breakEnd int
}

// maxMarkerPrefix bounds the bullets and spaces before a list marker that
// opens a sentence, which keeps the splitter linear.
const maxMarkerPrefix = 16

// listMarker examines the '.' or ')' at text[i] in the sentence that starts
// at text[start], and reports whether it ends a list marker. A marker that
// opens the sentence becomes *item; a marker next in sequence after *item
// that follows other text breaks the sentence before it.
func listMarker(text string, start, i int, item *listItem) (marker, bool) {
	num, letter, ws, ok := markerWord(text, i)
	if !ok {
		return marker{}, false
	}
	style, end := markerStyle(text, i)
	if style == noMarker {
		return marker{}, false
	}
	if letter {
		style += letterMarker
	}
	if ws-start <= maxMarkerPrefix && onlyBullets(text[start:ws]) {
		*item = listItem{style, num, end}
		return marker{start: start, end: end}, true
	}
	if item.style != style || num != item.num+1 || !startsSentence(wordAfter(text, end)) {
		return marker{}, false
	}
	prev := trimEnd(text, ws)
	if prev <= item.end {
		return marker{}, false
	}
	*item = listItem{style, num, end}
	return marker{start: ws, end: end, breakEnd: prev}, true
}

// mayEndMarker is a quick test of whether text[i] may end a list marker:
// a digit or a single ASCII letter comes before it.
func mayEndMarker(text string, i int) bool {
	if i == 0 {
		return false
	}
	if b := text[i-1]; '0' <= b && b <= '9' {
		return true
	}
	return 'a' <= text[i-1] && text[i-1] <= 'z' && (i == 1 || !isASCIIAlnum(text[i-2]))
}

// markerWord reads the number (one or two ASCII digits) or lower-case ASCII
// letter that ends at text[i] and starts a word: at ws, after a space or a
// bullet.
func markerWord(text string, i int) (num int, letter bool, ws int, ok bool) {
	ws = i
	for ws > 0 && '0' <= text[ws-1] && text[ws-1] <= '9' {
		ws--
		if i-ws > 2 {
			return 0, false, 0, false
		}
		num += int(text[ws]-'0') * pow10(i-ws-1)
	}
	if ws == i {
		if ws == 0 || text[ws-1] < 'a' || text[ws-1] > 'z' {
			return 0, false, 0, false
		}
		ws--
		num, letter = int(text[ws]), true
	}
	before := runeBefore(text, ws)
	return num, letter, ws, before == -1 || unicode.IsSpace(before) || isBullet(before)
}

func pow10(n int) int {
	if n == 1 {
		return 10
	}
	return 1
}

// markerStyle returns the style of the list marker whose punctuation starts
// at text[i] and the offset just past it; the marker must be followed by
// white space.
func markerStyle(text string, i int) (style, end int) {
	switch {
	case text[i] == ')':
		style, end = parenMarker, i+1
	case hasPrefixAt(text, i, ".)"):
		style, end = dotParenMarker, i+2
	default:
		style, end = dotMarker, i+1
	}
	if c, _ := runeAt(text, end); !unicode.IsSpace(c) {
		return noMarker, end
	}
	return style, end
}

// wordAfter returns the first rune of the word after the white space and
// opening punctuation at text[i].
func wordAfter(text string, i int) rune {
	c, _ := runeAt(text, skipOpeners(text, skipSpaces(text, i)))
	return c
}

// trimEnd returns the offset just past the last non-space rune before
// text[i].
func trimEnd(text string, i int) int {
	for i > 0 {
		c, w := utf8.DecodeLastRuneInString(text[:i])
		if !unicode.IsSpace(c) {
			break
		}
		i -= w
	}
	return i
}

// onlyBullets reports whether s holds nothing but bullets and white space.
func onlyBullets(s string) bool {
	for _, c := range s {
		if !isBullet(c) && !unicode.IsSpace(c) {
			return false
		}
	}
	return true
}

// isBullet reports whether c is a list bullet.
func isBullet(c rune) bool {
	switch c {
	case '•', '‣', '⁃', '◦', '▪', '●':
		return true
	}
	return false
}

// bulletBreak reports whether the bullet c at text[i] starts a new list item
// in the sentence that starts at text[start]: it follows white space and
// the sentence started with the same bullet.
func bulletBreak(text string, start, i int, c rune) bool {
	first, _ := runeAt(text, start)
	return first == c && unicode.IsSpace(runeBefore(text, i))
}
