// Package docfreq estimates the document frequency of tokens over the
// in-window sentences: in how many sentences a shingle (or a word) occurs.
//
// The schemes that are not MinHash banding need it: the exact join
// (package exactjoin) orders every sentence's shingles rarest first, and a
// weighted SimHash weighs a word by its inverse document frequency.
// Neither needs exact frequencies, so they are a count-min sketch
// (Cormode and Muthukrishnan, 2005), of fixed size.
//
//   - A count is never below the token's true frequency.
//   - Sketches of parts of the input merge into exactly the sketch of the
//     whole: Count's result does not depend on how the runner bundled.
//
// The sketch's shape and why: docs/schemes.md, "Document frequencies".
package docfreq

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/hashmix"
	"github.com/neardup/neardup/transforms/shingle"
)

// Tokens says what a sentence is made of for counting.
type Tokens string

const (
	// Shingles are the distinct hashes of the sentence's character
	// shingles (package shingle): those minhash.Sign signs.
	Shingles Tokens = "shingles"
	// Words are the maximal runs of Unicode letters and digits (with the
	// combining marks inside them, so that a word of Devanagari or Thai is
	// not cut at its vowel signs), case-folded when the normalisation
	// folds case, each hashed to 64 bits.
	Words Tokens = "words"
)

// Config says what Count counts.
type Config struct {
	Tokens        Tokens
	ShingleLength int                   // characters per shingle (Tokens == Shingles)
	Norm          shingle.Normalization // FoldCase also folds the case of words
	Workers       int                   // goroutines of the counting DoFn's pool (0: GOMAXPROCS)
}

// Validate reports a configuration Count cannot run with.
func (c Config) Validate() error {
	switch c.Tokens {
	case Shingles:
		if c.ShingleLength < 1 {
			return fmt.Errorf("docfreq: shingles of %d characters: need at least 1", c.ShingleLength)
		}
	case Words:
	default:
		return fmt.Errorf("docfreq: unknown tokens %q (want %q or %q)", c.Tokens, Shingles, Words)
	}
	return nil
}

// Tokenizer turns sentences into their distinct tokens, reusing its
// buffers. It is not safe for concurrent use; make one per worker.
type Tokenizer struct {
	tokens   Tokens
	norm     shingle.Normalization
	shingler *shingle.Shingler
	sorter   Sorter
}

// Tokenizer returns a Tokenizer for c's tokens. An unknown kind of token
// (see Validate) gives a Tokenizer of words.
func (c Config) Tokenizer() *Tokenizer {
	t := &Tokenizer{tokens: c.Tokens, norm: c.Norm}
	if c.Tokens == Shingles {
		t.shingler = shingle.New(c.ShingleLength, c.Norm)
	}
	return t
}

// AppendTokens appends the distinct tokens of text to dst, in increasing
// order, and returns the extended slice. A text shorter than one shingle
// has no shingle, and so no token of that kind.
func (t *Tokenizer) AppendTokens(dst []uint64, text string) []uint64 {
	start := len(dst)
	if t.shingler != nil {
		dst = append(dst, t.shingler.Hashes(text)...)
	} else {
		dst = appendWords(dst, text, t.norm.FoldCase)
	}
	t.sorter.Sort(dst[start:])
	return dst[:start+len(slices.Compact(dst[start:]))]
}

// Sorter sorts well-mixed 64-bit hashes, reusing its buffers: a counting
// pass distributes them over about one bucket per two hashes by their top
// bits, and each bucket is sorted by insertion (2.8 times as fast as
// slices.Sort on the 200 shingle hashes of a sentence). Hashes that are not
// well mixed are still sorted, if more slowly. Its zero value is ready; it
// is not safe for concurrent use.
type Sorter struct {
	scratch []uint64
	ends    []int32
}

// Sort sorts xs in increasing order.
func (s *Sorter) Sort(xs []uint64) {
	n := len(xs)
	if n < 48 {
		slices.Sort(xs)
		return
	}
	b := bits.Len(uint(n)) - 1 // 2^b buckets, n/2 < 2^b ≤ n
	s.ends = slices.Grow(s.ends[:0], 1<<b+1)[:1<<b+1]
	ends := s.ends
	clear(ends)
	shift := uint(64 - b)
	for _, x := range xs {
		ends[x>>shift+1]++
	}
	for i := 1; i < len(ends); i++ {
		ends[i] += ends[i-1]
	}
	s.scratch = slices.Grow(s.scratch[:0], n)[:n]
	out := s.scratch
	for _, x := range xs { // ends[k] moves from bucket k's start to its end
		k := x >> shift
		out[ends[k]] = x
		ends[k]++
	}
	start := 0
	for _, end := range ends[:len(ends)-1] {
		bucket := out[start:end]
		if len(bucket) > 16 {
			slices.Sort(bucket)
		} else {
			for i := 1; i < len(bucket); i++ {
				x, j := bucket[i], i
				for ; j > 0 && bucket[j-1] > x; j-- {
					bucket[j] = bucket[j-1]
				}
				bucket[j] = x
			}
		}
		start = int(end)
	}
	copy(xs, out)
}

// wordSeed salts the hashes of words, so that a word's hash is not that of
// a shingle of the same runes.
const wordSeed uint64 = 0x2545f4914f6cdd1d

// appendWords appends the hash of every word of text to dst, repeats
// included. A word's hash is a polynomial hash of its runes (case-folded
// if fold), mixed by splitmix64: equal words, equal hashes.
func appendWords(dst []uint64, text string, fold bool) []uint64 {
	const base = hashmix.Gamma
	h, in := wordSeed, false
	for i := 0; i < len(text); {
		r := rune(text[i])
		if r < utf8.RuneSelf {
			i++
		} else {
			var size int
			r, size = utf8.DecodeRuneInString(text[i:])
			i += size
		}
		switch {
		case isWordRune(r) || in && r >= utf8.RuneSelf && unicode.IsMark(r):
			if fold {
				r = foldRune(r)
			}
			h = h*base + uint64(r) + 1
			in = true
		case in:
			dst = append(dst, hashmix.Splitmix64(h))
			h, in = wordSeed, false
		}
	}
	if in {
		dst = append(dst, hashmix.Splitmix64(h))
	}
	return dst
}

// isWordRune reports whether r is a letter or a digit, without the
// unicode tables for ASCII.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// foldRune lower-cases r, as shingle.Normalization does with FoldCase.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(r)
}

// The sketch's shape. Two sketches of different shapes do not merge, and
// an encoding of another shape does not decode.
const (
	Depth     = 2       // rows (the code counts on two)
	WidthBits = 21      // log2 of the counters of a row
	Width     = 1 << 21 // counters of a row
)

// Sketch is a count-min sketch of document frequencies. Its zero value is
// an empty sketch, which takes no memory until the first Add.
type Sketch struct {
	docs  int64
	cells []uint32 // Depth rows of Width counters, row after row; nil while empty
}

// cells returns the indices in Sketch.cells of token's counters in rows 0
// and 1: the top bits of the token's hash salted by the row.
func cells(token uint64) (int, int) {
	salted := token + hashmix.Gamma
	return int(hashmix.Splitmix64(salted) >> (64 - WidthBits)),
		Width | int(hashmix.Splitmix64(salted+hashmix.Gamma)>>(64-WidthBits))
}

// Add adds one occurrence of token, saturating at the counters' maximum.
func (s *Sketch) Add(token uint64) {
	if s.cells == nil {
		s.cells = make([]uint32, Depth*Width)
	}
	i, j := cells(token)
	for _, k := range [Depth]int{i, j} {
		if c := &s.cells[k]; *c != math.MaxUint32 {
			*c++
		}
	}
}

// AddDocument counts one document (sentence) whose distinct tokens are
// tokens: each is added once, and Documents grows by one. tokens must not
// repeat a token, or it is counted twice.
func (s *Sketch) AddDocument(tokens []uint64) {
	if s.cells == nil && len(tokens) > 0 {
		s.cells = make([]uint32, Depth*Width)
	}
	// The counters are scattered over 16 MiB: each is a cache miss. With
	// the indices of a few tokens computed first, their loads overlap.
	const group = 8
	var at [group * Depth]int
	for len(tokens) > 0 {
		n := min(len(tokens), group)
		for i, t := range tokens[:n] {
			at[i*Depth], at[i*Depth+1] = cells(t)
		}
		for _, i := range at[:n*Depth] {
			if c := s.cells[i]; c != math.MaxUint32 {
				s.cells[i] = c + 1
			}
		}
		tokens = tokens[n:]
	}
	s.docs++
}

// Count returns an upper bound of the number of times token was added: the
// least of its counters. It is exact unless other tokens collide with it
// in every row.
func (s *Sketch) Count(token uint64) uint32 {
	if s.cells == nil {
		return 0
	}
	i, j := cells(token)
	return min(s.cells[i], s.cells[j])
}

// AppendCounts appends the Count of each token to dst: Count in a loop
// that locates the counters of a few tokens before it reads any, so that
// their cache misses may overlap.
func (s *Sketch) AppendCounts(dst []uint32, tokens []uint64) []uint32 {
	if s.cells == nil {
		for range tokens {
			dst = append(dst, 0)
		}
		return dst
	}
	const group = 8
	var at [group * Depth]int
	for len(tokens) > 0 {
		n := min(len(tokens), group)
		for i, t := range tokens[:n] {
			at[i*Depth], at[i*Depth+1] = cells(t)
		}
		for i := range n {
			dst = append(dst, min(s.cells[at[i*Depth]], s.cells[at[i*Depth+1]]))
		}
		tokens = tokens[n:]
	}
	return dst
}

// Documents is the number of documents counted by AddDocument, over every
// merged sketch.
func (s *Sketch) Documents() int64 { return s.docs }

// Empty reports whether nothing was counted: no document, no token.
func (s *Sketch) Empty() bool { return s.docs == 0 && !slices.ContainsFunc(s.cells, nonZero) }

// Merge adds o's counts to s, saturating: s becomes the sketch of
// everything added to either.
func (s *Sketch) Merge(o *Sketch) {
	s.docs += o.docs
	if o.cells == nil {
		return
	}
	if s.cells == nil {
		s.cells = slices.Clone(o.cells)
		return
	}
	for i, c := range o.cells {
		sum := s.cells[i] + c
		if sum < c {
			sum = math.MaxUint32
		}
		s.cells[i] = sum
	}
}

// Reset empties s, keeping its memory.
func (s *Sketch) Reset() {
	s.docs = 0
	clear(s.cells)
}

// Equal reports whether s and o hold the same counts.
func (s *Sketch) Equal(o *Sketch) bool {
	if s.docs != o.docs {
		return false
	}
	switch {
	case s.cells == nil && o.cells == nil:
		return true
	case s.cells == nil:
		return !slices.ContainsFunc(o.cells, nonZero)
	case o.cells == nil:
		return !slices.ContainsFunc(s.cells, nonZero)
	}
	return slices.Equal(s.cells, o.cells)
}

func nonZero(c uint32) bool { return c != 0 }

// The encoding: a magic byte, Depth and WidthBits, the uvarint of the
// documents, then a form byte and the counters: none (an empty sketch),
// sparse (the uvarint number of non-zero counters, then for each the
// uvarint of its index's step from the previous one's and the uvarint of
// its value), or dense (every counter, 4 bytes little-endian). The shorter
// form is chosen by the number of non-zero counters, so equal sketches
// encode equally.
const (
	magic      = 'D'
	formEmpty  = 0
	formSparse = 1
	formDense  = 2
)

// ErrCorrupt reports an encoding that does not decode.
var ErrCorrupt = errors.New("docfreq: corrupt sketch encoding")

// AppendBinary appends the encoding of s to b.
func (s *Sketch) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, magic, Depth, WidthBits)
	b = binary.AppendUvarint(b, uint64(s.docs))
	nonZero := 0
	for _, c := range s.cells {
		if c != 0 {
			nonZero++
		}
	}
	switch {
	case nonZero == 0:
		return append(b, formEmpty), nil
	case nonZero < len(s.cells)/2: // a sparse counter takes 2 to 9 bytes, mostly 3 to 5
		b = append(b, formSparse)
		b = binary.AppendUvarint(b, uint64(nonZero))
		prev := 0
		for i, c := range s.cells {
			if c != 0 {
				b = binary.AppendUvarint(b, uint64(i-prev))
				b = binary.AppendUvarint(b, uint64(c))
				prev = i
			}
		}
		return b, nil
	}
	b = append(b, formDense)
	b = slices.Grow(b, 4*len(s.cells))
	for _, c := range s.cells {
		b = binary.LittleEndian.AppendUint32(b, c)
	}
	return b, nil
}

// MarshalBinary returns the encoding of s.
func (s *Sketch) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary decodes what AppendBinary wrote into s.
func (s *Sketch) UnmarshalBinary(b []byte) error {
	if len(b) < 3 || b[0] != magic {
		return fmt.Errorf("%w: no header", ErrCorrupt)
	}
	if b[1] != Depth || b[2] != WidthBits {
		return fmt.Errorf("docfreq: a sketch of %d times 2^%d counters, where this build uses %d times 2^%d", b[1], b[2], Depth, WidthBits)
	}
	b = b[3:]
	docs, n := binary.Uvarint(b)
	if n <= 0 || docs > math.MaxInt64 || n >= len(b) {
		return fmt.Errorf("%w: bad document count", ErrCorrupt)
	}
	form, b := b[n], b[n+1:]
	out := Sketch{docs: int64(docs)}
	switch form {
	case formEmpty:
	case formSparse:
		count, n := binary.Uvarint(b)
		if n <= 0 || count == 0 || count > Depth*Width {
			return fmt.Errorf("%w: bad number of counters", ErrCorrupt)
		}
		b = b[n:]
		out.cells = make([]uint32, Depth*Width)
		i := 0
		for k := range count {
			step, n := binary.Uvarint(b)
			if n <= 0 || (k > 0 && step == 0) || step >= uint64(len(out.cells)-i) {
				return fmt.Errorf("%w: bad counter index", ErrCorrupt)
			}
			b = b[n:]
			v, n := binary.Uvarint(b)
			if n <= 0 || v == 0 || v > math.MaxUint32 {
				return fmt.Errorf("%w: bad counter value", ErrCorrupt)
			}
			b = b[n:]
			i += int(step)
			out.cells[i] = uint32(v)
		}
	case formDense:
		if len(b) < 4*Depth*Width {
			return fmt.Errorf("%w: %d bytes of counters, want %d", ErrCorrupt, len(b), 4*Depth*Width)
		}
		out.cells = make([]uint32, Depth*Width)
		for i := range out.cells {
			out.cells[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
		b = b[4*Depth*Width:]
	default:
		return fmt.Errorf("%w: unknown form %d", ErrCorrupt, form)
	}
	if len(b) != 0 {
		return fmt.Errorf("%w: %d bytes after the counters", ErrCorrupt, len(b))
	}
	*s = out
	return nil
}
