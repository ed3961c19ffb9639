// Package tokenspan finds the words and numbers of a text as byte ranges and
// edits them, for the builders of test corpora (internal/plant,
// internal/webcorpus), which copy real sentences with light edits.
package tokenspan

import (
	"unicode"
	"unicode/utf8"
)

// Span is a byte range of a text: text[Start:End].
type Span struct{ Start, End int }

// Scan returns the maximal runs of text whose runes satisfy is, in order.
func Scan(text string, is func(rune) bool) []Span {
	var out []Span
	start := -1
	for i, r := range text {
		switch {
		case is(r) && start < 0:
			start = i
		case !is(r) && start >= 0:
			out = append(out, Span{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, Span{start, len(text)})
	}
	return out
}

// Words returns the words of text: runs of letters.
func Words(text string) []Span { return Scan(text, unicode.IsLetter) }

// Numbers returns the numbers of text: runs of ASCII digits.
func Numbers(text string) []Span {
	return Scan(text, func(r rune) bool { return '0' <= r && r <= '9' })
}

// Replace returns text with text[s.Start:s.End] replaced by with.
func Replace(text string, s Span, with string) string {
	return text[:s.Start] + with + text[s.End:]
}

// MatchCase returns with capitalised as word is: with its first letter in
// upper case if word's is.
func MatchCase(word, with string) string {
	w, _ := utf8.DecodeRuneInString(word)
	r, n := utf8.DecodeRuneInString(with)
	if unicode.IsUpper(w) && !unicode.IsUpper(r) {
		return string(unicode.ToUpper(r)) + with[n:]
	}
	return with
}
