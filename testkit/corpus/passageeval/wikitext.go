package passageeval

import (
	"strings"

	"github.com/neardup/neardup/testkit/corpus"
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
func Inserted(orig, got []corpus.Sentence, planted []string) int {
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
func holds(got []corpus.Sentence, planted []string) bool {
	for i, s := range got {
		if s.Text != planted[i] || !s.Prose {
			return false
		}
	}
	return true
}

// sameTexts reports whether two runs of sentences have the same texts.
func sameTexts(x, y []corpus.Sentence) bool {
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
