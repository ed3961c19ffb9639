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
var navSeparators = [...]string{"|", " - ", " – ", " — ", "•", "·", " / "}

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
	for _, sep := range navSeparators {
		if isNavigationRow(line, sep) {
			return true
		}
	}
	return false
}

// isNavigationRow reports whether line is at least minNavItems items
// separated by sep at bracket depth 0, each of them short and none a
// sentence (ending in a terminator) but the last.
func isNavigationRow(line []byte, sep string) bool {
	items, depth, start := 0, 0, 0
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRune(line[i:])
		switch {
		case r == '(' || r == '[' || r == '（' || r == '«' || r == '“':
			depth++
		case r == ')' || r == ']' || r == '）' || r == '»' || r == '”':
			depth = max(depth-1, 0)
		case depth == 0 && bytes.HasPrefix(line[i:], []byte(sep)):
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
