package webcorpus

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/tokenspan"
	"github.com/neardup/neardup/testkit/corpus"
)

// MinEditedJaccard is the character-5-shingle Jaccard similarity every
// lightly edited sentence keeps with its original.
const MinEditedJaccard = 0.6

// Sentence edits (Copied.Edits).
const (
	EditSynonym     = "synonym"     // an English word replaced by a synonym
	EditWord        = "word"        // a word replaced by another word of the article
	EditClause      = "clause"      // a clause between commas dropped
	EditPunctuation = "punctuation" // a comma dropped, or the final stop changed
	EditWhitespace  = "whitespace"  // a space made a no-break space
	EditNumber      = "number"      // a digit changed
)

// Passage edits (Reuse.PassageEdits).
const (
	EditDropSentence = "drop-sentence" // a sentence of the passage left out
	EditSwap         = "swap"          // two adjacent sentences swapped
)

// editor makes light edits of an article's sentences.
type editor struct {
	r     *rng
	lang  string
	vocab []string // words of the article, for EditWord
}

// edit returns text lightly edited and the edit, or text and "" when no
// edit kept the sentence at MinEditedJaccard.
func (e *editor) edit(text string) (string, string) {
	kinds := []string{EditWord, EditWord, EditClause, EditClause, EditPunctuation, EditWhitespace, EditNumber}
	if e.lang == "en" {
		kinds = append(kinds, EditSynonym, EditSynonym, EditSynonym)
	}
	for range 6 {
		k := kinds[e.r.intn(len(kinds))]
		if out, ok := e.apply(k, text); ok && out != text && Jaccard(text, out) >= MinEditedJaccard {
			return out, k
		}
	}
	return text, ""
}

func (e *editor) apply(kind, text string) (string, bool) {
	switch kind {
	case EditSynonym:
		return e.synonym(text)
	case EditWord:
		return e.word(text)
	case EditClause:
		return dropClause(text)
	case EditPunctuation:
		return punctuation(text)
	case EditWhitespace:
		return e.whitespace(text)
	case EditNumber:
		return e.number(text)
	}
	return text, false
}

func (e *editor) synonym(text string) (string, bool) {
	var cands []tokenspan.Span
	for _, w := range tokenspan.Words(text) {
		if _, ok := synonyms[strings.ToLower(text[w.Start:w.End])]; ok {
			cands = append(cands, w)
		}
	}
	if len(cands) == 0 {
		return text, false
	}
	w := cands[e.r.intn(len(cands))]
	word := text[w.Start:w.End]
	return text[:w.Start] + tokenspan.MatchCase(word, synonyms[strings.ToLower(word)]) + text[w.End:], true
}

// word replaces a lower-case word of four letters or more by another of
// the article's.
func (e *editor) word(text string) (string, bool) {
	var cands []tokenspan.Span
	for _, w := range tokenspan.Words(text) {
		r, _ := utf8.DecodeRuneInString(text[w.Start:])
		if utf8.RuneCountInString(text[w.Start:w.End]) >= 4 && unicode.IsLower(r) {
			cands = append(cands, w)
		}
	}
	if len(cands) == 0 || len(e.vocab) == 0 {
		return text, false
	}
	w := cands[e.r.intn(len(cands))]
	with := e.vocab[e.r.intn(len(e.vocab))]
	return text[:w.Start] + with + text[w.End:], with != text[w.Start:w.End]
}

// dropClause drops a clause that a comma opens, up to the next comma or
// the end of the sentence's body, if it is at most a third of the text.
func dropClause(text string) (string, bool) {
	commas := tokenspan.Scan(text, func(r rune) bool { return r == ',' })
	for _, c := range commas {
		end := strings.IndexAny(text[c.End:], ",;")
		if end < 0 {
			body := strings.TrimRightFunc(text, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
			end = len(body) - c.End
		}
		end += c.End
		if end > c.End && 3*(end-c.Start) <= len(text) {
			return text[:c.Start] + text[end:], true
		}
	}
	return text, false
}

// punctuation drops the first comma, or, without one, makes the final
// full stop an exclamation mark.
func punctuation(text string) (string, bool) {
	if i := strings.Index(text, ", "); i >= 0 {
		return text[:i] + text[i+1:], true
	}
	if s, ok := strings.CutSuffix(text, "."); ok {
		return s + "!", true
	}
	return text, false
}

func (e *editor) whitespace(text string) (string, bool) {
	spaces := tokenspan.Scan(text, func(r rune) bool { return r == ' ' })
	if len(spaces) == 0 {
		return text, false
	}
	s := spaces[e.r.intn(len(spaces))]
	return text[:s.Start] + "\u00a0" + text[s.Start+1:], true
}

func (e *editor) number(text string) (string, bool) {
	digits := tokenspan.Scan(text, func(r rune) bool { return '0' <= r && r <= '9' })
	if len(digits) == 0 {
		return text, false
	}
	d := digits[e.r.intn(len(digits))]
	i := d.End - 1 // the last digit: the number keeps its size
	nd := byte('0' + (int(text[i]-'0')+1+e.r.intn(8))%10)
	return text[:i] + string(nd) + text[i+1:], true
}

// vocabulary returns the distinct lower-case words of four letters or more
// of sentences, in order of first use.
func vocabulary(sentences []corpus.Sentence) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range sentences {
		if !s.Prose {
			continue
		}
		for _, w := range tokenspan.Words(s.Text) {
			word := s.Text[w.Start:w.End]
			r, _ := utf8.DecodeRuneInString(word)
			if unicode.IsLower(r) && utf8.RuneCountInString(word) >= 4 && !seen[word] {
				seen[word] = true
				out = append(out, word)
			}
		}
	}
	return out
}

// describe names an edit for the labels.
func describe(kind string, from, to string) string {
	if kind == "" {
		return ""
	}
	a, b := diff(from, to)
	return fmt.Sprintf("%s: %q → %q", kind, a, b)
}

// diff returns the differing middles of a and b.
func diff(a, b string) (string, string) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	for p > 0 && !utf8.RuneStart(a[p]) {
		p--
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	for s > 0 && !utf8.RuneStart(a[len(a)-s]) {
		s--
	}
	return a[p : len(a)-s], b[p : len(b)-s]
}

// synonyms are English words and a word that can stand for each in most
// sentences: a copy-editor's light edits.
var synonyms = map[string]string{
	"large": "big", "big": "large", "small": "little", "began": "started", "started": "began",
	"major": "main", "important": "significant", "significant": "important", "often": "frequently",
	"several": "various", "many": "numerous", "city": "town", "area": "region", "region": "area",
	"country": "nation", "built": "constructed", "made": "created", "used": "employed",
	"called": "named", "named": "called", "about": "around", "around": "about", "during": "throughout",
	"because": "since", "although": "though", "similar": "comparable", "different": "distinct",
	"largest": "biggest", "said": "stated", "stated": "said", "considered": "regarded",
	"caused": "produced", "destroyed": "ruined", "damaged": "harmed", "located": "situated",
	"approximately": "roughly", "nearly": "almost", "almost": "nearly", "mostly": "largely",
	"mainly": "chiefly", "especially": "particularly", "entire": "whole", "total": "overall",
	"remained": "stayed", "completed": "finished", "received": "got", "later": "subsequently",
	"however": "nevertheless", "people": "persons", "storm": "cyclone", "hurricane": "cyclone",
	"damage": "destruction", "flooding": "floods", "residents": "inhabitants", "killed": "left dead",
}
