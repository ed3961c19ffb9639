package wikitext

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// Navigation and list debris.
//
// Pages of months, days and years, and navigation boxes written inline,
// hold rows such as "Ιανουάριος | Φεβρουάριος | … | Δεκέμβριος", "1 | 2 |
// … | 31" or "Tháng 1 - tháng 2 - … - tháng 12". They are not sentences:
// each page of the series holds the same row, and kept as text they form
// clusters of ten or twelve copies that say nothing. A line that is such a
// row, or that has no letter at all (a lone number), is dropped and counted
// (Cleaner.Debris).

// navSeparators are the separators of navigation rows.
var navSeparators = [...][]byte{[]byte("|"), []byte(" - "), []byte(" – "), []byte(" — "), []byte("•"), []byte("·"), []byte(" / ")}

// minNavItems is the fewest items a navigation row has; maxNavItemWords and
// maxNavItemRunes bound each item.
const (
	minNavItems      = 4
	maxNavItemWords  = 4
	maxNavItemRunes  = 40
	maxNavLineLength = 4096
)

// isDebris reports whether a line of the inline pass's output is
// navigation or list debris: a row of at least minNavItems short items
// separated by one of navSeparators outside brackets, or text without a
// letter (a lone number, a row of numbers).
func isDebris(line []byte) bool {
	if len(line) > maxNavLineLength {
		return false
	}
	if !hasLetter(line) {
		return hasLetterOrDigit(line)
	}
	if endsSentence(line) || !mayBeRow(line) {
		return false
	}
	for _, sep := range navSeparators {
		// Most lines have no separator three times: a quick count spares
		// them the scan.
		if bytes.Count(line, sep) >= minNavItems-1 && isNavigationRow(line, sep) {
			return true
		}
	}
	return false
}

// endsSentence reports whether the line ends in a terminator, perhaps
// followed by closing quotes and brackets: a line of prose, as nearly every
// line of an article, which spares it the search for separators.
func endsSentence(line []byte) bool {
	line = bytes.TrimRight(line, " \t\r")
	for len(line) > 0 {
		r, size := utf8.DecodeLastRune(line)
		switch {
		case unicode.Is(unicode.Sentence_Terminal, r):
			return true
		case unicode.In(r, unicode.Pe, unicode.Pf) || r == '"' || r == '\'':
			line = line[:len(line)-size]
		default:
			return false
		}
	}
	return false
}

// maxNavItemBytes bounds the bytes of an item: maxNavItemRunes of four
// bytes and the spaces around a separator.
const maxNavItemBytes = 4*maxNavItemRunes + 2

// mayBeRow is a quick test that most lines of prose fail after a few
// hundred bytes: a navigation row has at least minNavItems-1 separators and
// no stretch of more than maxNavItemBytes without a byte that may start
// one.
func mayBeRow(line []byte) bool {
	// The first item is short too: a line whose first maxNavItemBytes
	// bytes hold no separator, as nearly every line of prose, is not a row.
	// The searches are vectorised; the scan below is not.
	window := line[:min(len(line), maxNavItemBytes+len(" — "))]
	found := false
	for _, sep := range navSeparators {
		if bytes.Contains(window, sep) {
			found = true
			break
		}
	}
	if !found {
		return false
	}
	gap, seps := 0, 0
	for i := 0; i < len(line); i++ {
		if isSeparatorAt(line, i) {
			gap = 0
			seps++
			continue
		}
		if gap++; gap > maxNavItemBytes {
			return false
		}
	}
	return seps >= minNavItems-1
}

// isSeparatorAt reports whether a separator of navSeparators starts at or
// just after line[i], cheaply: the byte and its neighbours only.
func isSeparatorAt(line []byte, i int) bool {
	switch line[i] {
	case '|':
		return true
	case ' ':
		if i+2 < len(line) && line[i+2] == ' ' && (line[i+1] == '-' || line[i+1] == '/') {
			return true
		}
		return i+4 < len(line) && line[i+1] == 0xE2 && line[i+2] == 0x80 && (line[i+3] == 0x93 || line[i+3] == 0x94) && line[i+4] == ' '
	case 0xE2:
		return i+2 < len(line) && line[i+1] == 0x80 && line[i+2] == 0xA2
	case 0xC2:
		return i+1 < len(line) && line[i+1] == 0xB7
	}
	return false
}

// isNavigationRow reports whether line is at least minNavItems items
// separated by sep at bracket depth 0, each of them short and none a
// sentence (ending in a terminator) but the last.
func isNavigationRow(line []byte, sep []byte) bool {
	items, depth, start := 0, 0, 0
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRune(line[i:])
		switch {
		case r == '(' || r == '[' || r == '（' || r == '«' || r == '“':
			depth++
		case r == ')' || r == ']' || r == '）' || r == '»' || r == '”':
			depth = max(depth-1, 0)
		case depth == 0 && bytes.HasPrefix(line[i:], sep):
			if !isNavItem(line[start:i]) {
				return false
			}
			items++
			i += len(sep)
			start = i
			continue
		}
		i += size
	}
	if items == 0 || !isNavItem(line[start:]) {
		return false
	}
	return items+1 >= minNavItems
}

// isNavItem reports whether an item of a row is short: a few words, and no
// sentence ending inside it.
func isNavItem(item []byte) bool {
	item = bytes.TrimSpace(item)
	if len(item) == 0 || utf8.RuneCount(item) > maxNavItemRunes || len(bytes.Fields(item)) > maxNavItemWords {
		return false
	}
	for i := 0; i < len(item); {
		r, size := utf8.DecodeRune(item[i:])
		if unicode.Is(unicode.Sentence_Terminal, r) && i+size < len(item) {
			return false
		}
		i += size
	}
	return true
}

func hasLetter(text []byte) bool {
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		if unicode.IsLetter(r) {
			return true
		}
		i += size
	}
	return false
}
