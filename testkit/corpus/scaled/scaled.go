// Package scaled makes the benchmark's scaled corpora: the real pages of
// dumps (or the documents of JSON-lines files) repeated k times, with new
// ids and, in every copy but the first, small random edits to words and
// numbers (Scaler), seeded, so that the corpus is the same on every run.
// The corpus holds every sentence about k times, so that from 2× on nearly
// all in-window sentences are in clusters.
package scaled

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/neardup/neardup/testkit/corpus"
)

// Scaler makes copies of real pages for a scaled corpus. Copy 0 of a page
// is the page itself; every other copy gets small random edits to the
// words and numbers of its text, as a page copied and then edited would,
// so that the corpus holds identical, near-duplicate and drifted sentences
// in proportions that grow with the number of copies like real data.
type Scaler struct {
	Seed uint64  // seed of the edits: the same seed gives the same corpus
	Rate float64 // probability that a copy's word or number is edited
}

// Copy returns copy c of the raw page, the index-th of the corpus, with its
// page id and its revision id replaced by id (revision ids are unique in a
// wiki, and the pipeline takes two pages of one revision for the same
// page read twice). The edits depend only on Seed, index and c.
func (s Scaler) Copy(page []byte, index, c int, id int64) ([]byte, error) {
	out, err := corpus.ReplaceID(page, "</title>", id)
	if err == nil && bytes.Contains(out, []byte("<revision")) {
		out, err = corpus.ReplaceID(out, "<revision", id)
	}
	if err != nil || c == 0 {
		return out, err
	}
	start, end, ok := corpus.TextSpan(out)
	if !ok {
		return out, nil // a page without text, such as a redirect stub
	}
	edited := s.Edit(out[start:end], index, c)
	return append(append(append(make([]byte, 0, len(out)), out[:start]...), edited...), out[end:]...), nil
}

// Edit returns the text of copy c of the index-th document of a corpus: the
// text itself for copy 0, else a new slice with its words and numbers
// edited as editText does. The edits depend only on Seed, index and c, and
// are those Copy makes to a page's text.
func (s Scaler) Edit(text []byte, index, c int) []byte {
	if c == 0 {
		return text
	}
	rng := rand.New(rand.NewPCG(s.Seed, uint64(c)<<32|uint64(uint32(index))))
	return editText(text, rng, s.Rate)
}

// editText edits the words and numbers of escaped XML text, each with
// probability rate: a number becomes another number of as many digits, a
// word is replaced by another word of the same text or deleted. Only runs
// of ASCII letters or of ASCII digits are touched, and never one that
// follows '&', '#', ';' or '/', so that entities, character references and
// the names of escaped tags stay intact and the text stays valid XML.
func editText(text []byte, rng *rand.Rand, rate float64) []byte {
	vocabulary := words(text)
	out := make([]byte, 0, len(text))
	for i := 0; i < len(text); {
		j := tokenEnd(text, i)
		if j == i {
			out = append(out, text[i])
			i++
			continue
		}
		token := text[i:j]
		kind := kindOf(token)
		if kind == mixed || protected(text, i) || rng.Float64() >= rate {
			out = append(out, token...)
			i = j
			continue
		}
		switch {
		case kind == number:
			out = corpus.AppendDigits(out, rng, len(token))
		case rng.IntN(2) == 0 && len(vocabulary) > 0:
			out = append(out, vocabulary[rng.IntN(len(vocabulary))]...)
		default: // delete the word and the space after it
			if j < len(text) && text[j] == ' ' {
				j++
			}
		}
		i = j
	}
	return out
}

// tokenKind classifies a run of ASCII letters and digits.
type tokenKind int

const (
	word   tokenKind = iota // letters only
	number                  // digits only
	mixed                   // both
)

func kindOf(token []byte) tokenKind {
	letters, digits := false, false
	for _, c := range token {
		if isDigit(c) {
			digits = true
		} else {
			letters = true
		}
	}
	switch {
	case letters && digits:
		return mixed
	case digits:
		return number
	}
	return word
}

// tokenEnd returns the end of the run of ASCII letters and digits that
// starts at i, or i if text[i] is not one.
func tokenEnd(text []byte, i int) int {
	j := i
	for j < len(text) && (isLetter(text[j]) || isDigit(text[j])) {
		j++
	}
	return j
}

// protected reports whether the token at i belongs to markup: an entity
// or character reference, or the name of an escaped tag.
func protected(text []byte, i int) bool {
	if i == 0 {
		return false
	}
	switch text[i-1] {
	case '&', '#', ';', '/':
		return true
	}
	return false
}

// words returns the words of text that editing may use: runs of at least
// three ASCII letters outside markup, in order, with repetitions.
func words(text []byte) [][]byte {
	var out [][]byte
	for i := 0; i < len(text); {
		j := tokenEnd(text, i)
		if j == i {
			i++
			continue
		}
		if j-i >= 3 && kindOf(text[i:j]) == word && !protected(text, i) {
			out = append(out, text[i:j])
		}
		i = j
	}
	return out
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// Copies returns n copies of every page, copy by copy; page i of copy
// c gets id c×len(pages)+i+1, so that ids are distinct.
func Copies(s Scaler, pages [][]byte, n int) ([][]byte, error) {
	out := make([][]byte, 0, n*len(pages))
	for c := range n {
		for i, p := range pages {
			page, err := s.Copy(p, i, c, int64(c*len(pages)+i+1))
			if err != nil {
				return nil, fmt.Errorf("page %d: %w", i, err)
			}
			out = append(out, page)
		}
	}
	return out, nil
}
