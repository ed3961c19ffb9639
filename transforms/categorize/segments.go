package categorize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Segment is a run of a text that is either the same in the text it is
// compared with or changed (replaced, inserted or deleted there).
type Segment struct {
	Text    string `json:"text"`
	Changed bool   `json:"changed,omitempty"`
}

// Segments splits a and b into runs of tokens they share and runs that
// differ, by the alignment Align uses (a longest common subsequence of
// case-folded tokens; a change of case is a change). Joined, each side's
// segments give back its text exactly; the space between two changed tokens
// is part of the change. It is what a report highlights.
func Segments(a, b string) (sa, sb []Segment) {
	ta, tb := Tokenize(a), Tokenize(b)
	ca, cb := make([]bool, len(ta)), make([]bool, len(tb))
	for _, h := range diff(ta, tb) {
		for i := h.A0; i < h.A1; i++ {
			ca[i] = true
		}
		for j := h.B0; j < h.B1; j++ {
			cb[j] = true
		}
	}
	return segments(a, ta, ca), segments(b, tb, cb)
}

// segments cuts text at its tokens' boundaries and merges neighbours of the
// same state. A segment is a slice of text, grown by reslicing, never by
// concatenation: the work is linear in the text (three sentences of 1 MB
// took 35 s when a merge copied the segment).
func segments(text string, toks []Token, changed []bool) []Segment {
	var out []Segment
	begin := 0 // where out's last segment starts in text
	add := func(from, to int, c bool) {
		if from == to {
			return
		}
		if n := len(out); n > 0 && out[n-1].Changed == c {
			out[n-1].Text = text[begin:to] // the pieces are contiguous
			return
		}
		out = append(out, Segment{Text: text[from:to], Changed: c})
		begin = from
	}
	pos := 0
	for i, t := range toks {
		start := skipSpace(text, pos)
		if !strings.HasPrefix(text[start:], t.Text) { // cannot happen: tokens are the text's own
			break
		}
		gapChanged := changed[i] && i > 0 && changed[i-1]
		add(pos, start, gapChanged)
		add(start, start+len(t.Text), changed[i])
		pos = start + len(t.Text)
	}
	add(pos, len(text), false)
	return out
}

// skipSpace returns the index of the first non-space rune of text at or
// after i.
func skipSpace(text string, i int) int {
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += size
	}
	return i
}
