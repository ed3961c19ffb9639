package simhash

import (
	"math/bits"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/transforms/docfreq"
)

// Frequencies are document frequencies: how many of Documents documents
// hold a token. A *docfreq.Sketch is one.
type Frequencies interface {
	Count(token uint64) uint32
	Documents() int64
}

// IDFBits is the number of fractional bits of a word's weight: weights are
// integers, tf·idf·2^IDFBits, so that signatures are the same on every
// platform.
const IDFBits = 8

// IDF returns ln(docs/df) with IDFBits fractional bits, rounded, and at
// least 1 (2^-IDFBits): a word found in every sentence still counts a
// little, so that a sentence made only of such words has a signature. A df
// of 0 (a word the frequencies missed) counts as 1. The logarithm is
// computed in integer arithmetic.
func IDF(docs int64, df uint32) uint64 {
	d := max(uint64(df), 1)
	if docs <= 0 || uint64(docs) <= d {
		return 1
	}
	const shift = 32 + log2Bits - IDFBits
	l := log2Fixed(uint64(docs)) - log2Fixed(d) // < 2^(6+log2Bits)
	return max(1, (l*ln2+1<<(shift-1))>>shift)
}

// log2Bits is the number of fractional bits of log2Fixed.
const log2Bits = 16

// ln2 is ln 2 with 32 fractional bits.
const ln2 = 2977044472

// log2Fixed returns log2(x), x ≥ 1, with log2Bits fractional bits,
// truncated: the integer part is the position of x's top bit, and each
// fractional bit comes from squaring the mantissa (Knuth's and Turner's
// binary logarithm).
func log2Fixed(x uint64) uint64 {
	n := bits.Len64(x) - 1
	// y is x/2^n in [1, 2) with 62 fractional bits.
	var y uint64
	if n <= 62 {
		y = x << uint(62-n)
	} else {
		y = x >> 1
	}
	l := uint64(n) << log2Bits
	for b := log2Bits - 1; b >= 0; b-- {
		hi, lo := bits.Mul64(y, y)
		y = hi<<2 | lo>>62 // y² in [1, 4)
		if y >= 1<<63 {
			l |= 1 << uint(b)
			y >>= 1
		}
	}
	return l
}

// wordFeatures turns a sentence into its distinct words and their TF-IDF
// weights, reusing its buffers. It is not safe for concurrent use.
type wordFeatures struct {
	tokenizer *docfreq.Tokenizer // the words docfreq counts
	occ       []uint64           // each occurrence's hash
	hashes    []uint64
	weights   []uint64
}

func newWordFeatures(cfg Config) *wordFeatures {
	return &wordFeatures{tokenizer: docfreq.Config{Tokens: docfreq.Words, Norm: cfg.Norm}.Tokenizer()}
}

// features returns the distinct words of text, as docfreq hashes them, in
// increasing order, and their weights: tf·IDF(documents, df).
func (f *wordFeatures) features(text string, freq Frequencies) (hashes, weights []uint64) {
	f.occ = f.appendOccurrences(f.occ[:0], text)
	slices.Sort(f.occ)
	f.hashes, f.weights = f.hashes[:0], f.weights[:0]
	docs := freq.Documents()
	for i := 0; i < len(f.occ); {
		j := i + 1
		for j < len(f.occ) && f.occ[j] == f.occ[i] {
			j++
		}
		h := f.occ[i]
		f.hashes = append(f.hashes, h)
		f.weights = append(f.weights, uint64(j-i)*IDF(docs, freq.Count(h)))
		i = j
	}
	return f.hashes, f.weights
}

// appendOccurrences appends the hash of every word of text, repeats
// included, to dst. It cuts text into words as docfreq does (maximal runs
// of letters and digits, with the combining marks inside them) and has
// docfreq's tokenizer hash each, so that the hashes are the sketch's.
func (f *wordFeatures) appendOccurrences(dst []uint64, text string) []uint64 {
	start := -1 // where the current word starts, or -1
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		switch {
		case isWordRune(r) || start >= 0 && r >= utf8.RuneSelf && unicode.IsMark(r):
			if start < 0 {
				start = i
			}
		case start >= 0:
			dst = f.tokenizer.AppendTokens(dst, text[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		dst = f.tokenizer.AppendTokens(dst, text[start:])
	}
	return dst
}

// isWordRune reports whether r is a letter or a digit.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
