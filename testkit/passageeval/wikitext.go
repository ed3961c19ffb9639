package passageeval

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// Boundaries returns the paragraph boundaries of wikitext, where a new
// paragraph may go: the start of every line that follows a blank line,
// and the end of the text.
func Boundaries(wikitext string) []int {
	var out []int
	for i := 0; ; {
		j := strings.Index(wikitext[i:], "\n\n")
		if j < 0 {
			break
		}
		i += j + 2
		// A run of blank lines is one boundary, after the last of them.
		for i < len(wikitext) && wikitext[i] == '\n' {
			i++
		}
		if i < len(wikitext) {
			out = append(out, i)
		}
	}
	return append(out, len(wikitext))
}

// Insert returns wikitext with the sentences put at the boundary at as a
// paragraph of its own: a blank line before and after them, the sentences
// joined by spaces.
func Insert(wikitext string, at int, sentences []string) string {
	return wikitext[:at] + "\n\n" + strings.Join(sentences, " ") + "\n\n" + wikitext[at:]
}

// Inserted finds where the sentences of a page whose wikitext has had
// planted inserted (got) hold them: the ordinal of the first planted
// sentence, if got is the page's own sentences (orig) with planted, all
// prose, put between two of them, and -1 otherwise.
func Inserted(orig, got []Sentence, planted []string) int {
	m := len(planted)
	if len(got) != len(orig)+m {
		return -1
	}
	for k := 0; k <= len(orig); k++ {
		if k > 0 && got[k-1].Text != orig[k-1].Text {
			break // got's prefix no longer follows orig
		}
		if holds(got[k:k+m], planted) && sameTexts(got[k+m:], orig[k:]) {
			return k
		}
	}
	return -1
}

// holds reports whether got are the planted sentences, in prose.
func holds(got []Sentence, planted []string) bool {
	for i, s := range got {
		if s.Text != planted[i] || !s.Prose {
			return false
		}
	}
	return true
}

// sameTexts reports whether two runs of sentences have the same texts.
func sameTexts(x, y []Sentence) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].Text != y[i].Text {
			return false
		}
	}
	return true
}

// errNoText is returned for a page without a <text> element to replace.
var errNoText = errors.New("passageeval: no <text>…</text> element in the page")

// textEscaper escapes the characters that the content of an XML element
// may not hold as they are (and '>', as dumps do).
var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#13;")

// ReplaceText returns a raw <page> element of a dump with the content of
// its last <text> element (the last revision's) replaced by text, escaped;
// everything else, ids included, is kept byte for byte.
func ReplaceText(page []byte, text string) ([]byte, error) {
	open := lastTextTag(page)
	if open < 0 {
		return nil, errNoText
	}
	end := bytes.IndexByte(page[open:], '>')
	if end < 0 || page[open+end-1] == '/' {
		return nil, fmt.Errorf("%w (an empty <text/>)", errNoText)
	}
	start := open + end + 1
	stop := bytes.Index(page[start:], []byte("</text>"))
	if stop < 0 {
		return nil, fmt.Errorf("%w (no </text>)", errNoText)
	}
	out := make([]byte, 0, len(page)+len(text)-stop)
	out = append(out, page[:start]...)
	out = append(out, textEscaper.Replace(text)...)
	return append(out, page[start+stop:]...), nil
}

// lastTextTag returns the offset of the last "<text" start tag of page
// (followed by a space, '>' or '/'), or -1.
func lastTextTag(page []byte) int {
	for end := len(page); ; {
		i := bytes.LastIndex(page[:end], []byte("<text"))
		if i < 0 {
			return -1
		}
		if j := i + len("<text"); j < len(page) && bytes.IndexByte([]byte(" \t\r\n>/"), page[j]) >= 0 {
			return i
		}
		end = i
	}
}
