// Package shingle turns a sentence into the hashes of its character shingles.
//
// A shingle is a run of L consecutive Unicode characters (runes) of the
// normalised sentence. Weissman et al. use L = 12 on lower-cased text, so that
// shingles cross word boundaries and capture some word order. Each shingle is
// hashed to 64 bits with a polynomial rolling hash over its runes followed by
// a strong bit mixer, so a sentence of n runes costs O(n) work and, through
// Shingler, no allocation once its buffers have grown.
package shingle

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/hashmix"
)

// Normalization says how a sentence is normalised before shingling.
type Normalization struct {
	// FoldCase maps every letter to lower case (unicode.ToLower), so that
	// "The" and "the" give the same shingles.
	FoldCase bool
	// CollapseSpace maps every run of Unicode white space to one U+0020 and
	// drops leading and trailing space.
	CollapseSpace bool
}

// DefaultNormalization is what the pipeline uses unless told otherwise.
var DefaultNormalization = Normalization{FoldCase: true, CollapseSpace: true}

// Shingler hashes the shingles of sentences, reusing its buffers between
// calls. It is not safe for concurrent use; make one per worker.
type Shingler struct {
	Length int // characters per shingle, L
	Norm   Normalization

	runes  []rune
	hashes []uint64
}

// New returns a Shingler for shingles of length characters.
func New(length int, norm Normalization) *Shingler {
	return &Shingler{Length: length, Norm: norm}
}

// Normalize appends the normalised runes of text to dst. ASCII bytes, most
// of the text in most languages' wikitext, skip UTF-8 decoding and the
// unicode tables.
func (n Normalization) Normalize(dst []rune, text string) []rune {
	dst = slices.Grow(dst, len(text)) // never more runes than bytes
	pendingSpace := false
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf {
			i++
			if n.CollapseSpace && asciiSpace[c] {
				pendingSpace = len(dst) > 0
				continue
			}
			if pendingSpace {
				dst = append(dst, ' ')
				pendingSpace = false
			}
			if n.FoldCase && 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, rune(c))
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if n.CollapseSpace && unicode.IsSpace(r) {
			pendingSpace = len(dst) > 0
			continue
		}
		if pendingSpace {
			dst = append(dst, ' ')
			pendingSpace = false
		}
		if n.FoldCase {
			r = unicode.ToLower(r)
		}
		dst = append(dst, r)
	}
	return dst
}

// asciiSpace marks the ASCII white space of unicode.IsSpace.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// Count returns the number of shingles of a normalised sentence of n runes:
// n-L+1, or 0 if the sentence is shorter than one shingle.
func Count(runes, length int) int {
	if runes < length {
		return 0
	}
	return runes - length + 1
}

// Hashes returns the hash of every shingle of text, in order of position
// (duplicates included). The slice is owned by the Shingler and is valid
// until the next call.
func (s *Shingler) Hashes(text string) []uint64 {
	s.shrink(len(text))
	s.runes = s.Norm.Normalize(s.runes[:0], text)
	s.hashes = AppendHashes(s.hashes[:0], s.runes, s.Length)
	return s.hashes
}

// HashesBelow is Hashes for a sentence that is of no use with maxShingles
// shingles or more: it returns the hashes of text and their number n when
// n < maxShingles, and otherwise nil and some n ≥ maxShingles as soon as
// normalisation has seen that many (maxShingles+Length-1 runes), so that a
// huge sentence costs neither its runes nor its hashes. maxShingles ≤ 0
// means no limit. Runes then returns the runes normalised so far.
func (s *Shingler) HashesBelow(text string, maxShingles int) (hashes []uint64, n int) {
	limit := maxShingles + s.Length - 1 // the runes of maxShingles shingles
	if len(text) < limit || maxShingles <= 0 || s.Length <= 0 {
		// Never more runes than bytes: text is below the limit. (Hashes,
		// without a call.)
		s.shrink(len(text))
		s.runes = s.Norm.Normalize(s.runes[:0], text)
		s.hashes = AppendHashes(s.hashes[:0], s.runes, s.Length)
		return s.hashes, len(s.hashes)
	}
	s.shrink(limit)
	s.runes, s.hashes = s.runes[:0], s.hashes[:0]
	chunk := max(limit, minChunk)
	for i := 0; i < len(text); {
		j := s.chunkEnd(text, i, min(i+chunk, len(text)))
		// Normalising chunk by chunk appends what normalising the whole
		// text would: a chunk does not end in white space, and one after
		// runes starts with its white space, which becomes a space.
		s.runes = s.Norm.Normalize(s.runes, text[i:j])
		if len(s.runes) >= limit {
			return nil, Count(len(s.runes), s.Length)
		}
		i = j
	}
	s.hashes = AppendHashes(s.hashes, s.runes, s.Length)
	return s.hashes, len(s.hashes)
}

// chunkEnd returns the first rune boundary at or after j, past text[i:],
// before which there is no white space (when spaces are collapsed).
func (s *Shingler) chunkEnd(text string, i, j int) int {
	for j < len(text) {
		if !utf8.RuneStart(text[j]) {
			j++
			continue
		}
		if !s.Norm.CollapseSpace {
			break
		}
		if r, _ := utf8.DecodeLastRuneInString(text[i:j]); !unicode.IsSpace(r) {
			break
		}
		j++
	}
	return j
}

// minChunk is the fewest bytes of a long sentence HashesBelow normalises
// before it checks the runes against the limit.
const minChunk = 1 << 10

// keepRunes bounds the runes (and hashes) a Shingler keeps buffers for
// between calls: after a longer sentence, the buffers are given back to the
// garbage collector at the next shorter one, so that one huge sentence does
// not pin its buffers for the worker's lifetime.
const keepRunes = 1 << 16

// shrink drops buffers grown beyond keepRunes when the next text, of the
// given bytes, needs fewer.
func (s *Shingler) shrink(bytes int) {
	if cap(s.runes) > keepRunes && bytes <= keepRunes {
		s.runes = nil
	}
	if cap(s.hashes) > keepRunes && bytes <= keepRunes {
		s.hashes = nil
	}
}

// Runes returns the normalised runes of the last sentence given to Hashes
// or HashesBelow.
func (s *Shingler) Runes() []rune { return s.runes }

// base is the multiplier of the rolling hash: a large odd constant.
const base uint64 = 0x9e3779b97f4a7c15

// AppendHashes appends the hash of each length-rune window of runes to dst.
func AppendHashes(dst []uint64, runes []rune, length int) []uint64 {
	if length <= 0 || len(runes) < length {
		return dst
	}
	// top = base^(length-1), the weight of the rune leaving the window.
	top := uint64(1)
	for i := 1; i < length; i++ {
		top *= base
	}
	var h uint64
	for i := 0; i < length; i++ {
		h = h*base + uint64(runes[i]) + 1
	}
	dst = append(dst, hashmix.Splitmix64(h))
	for i := length; i < len(runes); i++ {
		h -= (uint64(runes[i-length]) + 1) * top
		h = h*base + uint64(runes[i]) + 1
		dst = append(dst, hashmix.Splitmix64(h))
	}
	return dst
}
