package simhash

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neardup/neardup/transforms/docfreq"
	"github.com/neardup/neardup/transforms/shingle"
)

func TestLog2Fixed(t *testing.T) {
	xs := []uint64{1, 2, 3, 5, 10, 1000, 1<<32 - 1, 1 << 40, 1<<62 + 12345, 1<<63 - 1, 1 << 63, math.MaxUint64}
	r := rand.New(rand.NewPCG(11, 12))
	for range 2000 {
		xs = append(xs, r.Uint64()>>r.IntN(64)|1)
	}
	for _, x := range xs {
		got := float64(log2Fixed(x)) / (1 << log2Bits)
		want := math.Log2(float64(x))
		// Truncated to 16 bits: below the logarithm by less than 2^-16
		// (and float64(x) rounds x itself by up to 2^-53).
		if d := want - got; d < -1e-9 || d > 1.0/(1<<log2Bits)+1e-9 {
			t.Errorf("log2Fixed(%d) = %v, want %v truncated to %d bits", x, got, want, log2Bits)
		}
	}
	for n := range 64 {
		if got := log2Fixed(1 << n); got != uint64(n)<<log2Bits {
			t.Errorf("log2Fixed(2^%d) = %v, want exactly %d", n, got, n)
		}
	}
}

func TestIDF(t *testing.T) {
	tests := []struct {
		docs int64
		df   uint32
		want float64 // before rounding to IDFBits bits
	}{
		{1000, 1, math.Log(1000)},
		{1000, 10, math.Log(100)},
		{1000, 999, math.Log(1000.0 / 999)},
		{3_000_000_000, 7, math.Log(3e9 / 7)},
		{1000, 0, math.Log(1000)},          // a word the sketch missed counts once
		{1000, 1000, 1.0 / (1 << IDFBits)}, // in every sentence: the least weight
		{1000, 5000, 1.0 / (1 << IDFBits)}, // a count-min overestimate past the documents
		{0, 0, 1.0 / (1 << IDFBits)},       // no documents
		{2, 1, math.Log(2)},
	}
	for _, tt := range tests {
		got := IDF(tt.docs, tt.df)
		want := max(1, math.Round(tt.want*(1<<IDFBits)))
		if math.Abs(float64(got)-want) > 1 {
			t.Errorf("IDF(%d, %d) = %d, want %v·2^%d ≈ %v", tt.docs, tt.df, got, tt.want, IDFBits, want)
		}
	}
}

// frequencies is Frequencies from a map.
type frequencies struct {
	docs  int64
	count map[uint64]uint32
}

func (f frequencies) Count(token uint64) uint32 { return f.count[token] }
func (f frequencies) Documents() int64          { return f.docs }

func TestWordFeatures(t *testing.T) {
	norm := shingle.DefaultNormalization
	tok := docfreq.Config{Tokens: docfreq.Words, Norm: norm}.Tokenizer()
	hash := func(w string) uint64 { return tok.AppendTokens(nil, w)[0] }
	freq := frequencies{docs: 1000, count: map[uint64]uint32{hash("the"): 900, hash("cat"): 10, hash("saw"): 50}}
	f := newWordFeatures(Config{Norm: norm})
	hashes, weights := f.features("The cat saw THE cat, the end.", freq)
	want := map[uint64]uint64{
		hash("the"): 3 * IDF(1000, 900),
		hash("cat"): 2 * IDF(1000, 10),
		hash("saw"): 1 * IDF(1000, 50),
		hash("end"): 1 * IDF(1000, 0),
	}
	if len(hashes) != len(want) || !slices.IsSorted(hashes) {
		t.Fatalf("features %v, want the 4 distinct words in increasing order", hashes)
	}
	for i, h := range hashes {
		if weights[i] != want[h] {
			t.Errorf("word %x: weight %d, want %d", h, weights[i], want[h])
		}
	}
	if h, _ := f.features(" ,;- ", freq); len(h) != 0 {
		t.Errorf("a text without words has features %v", h)
	}
}

// TestWordsAreDocfreqs checks that the words weighed are exactly those
// docfreq counts, on texts of several scripts (combining marks inside and
// at the start of words, digits, invalid UTF-8) and on every Katrina
// sentence.
func TestWordsAreDocfreqs(t *testing.T) {
	texts := []string{
		"Hurricane Katrina (2005) caused $125 billion in damage.",
		"हिन्दी भाषा में लिखा गया वाक्य।",    // Devanagari vowel signs are marks
		"ภาษาไทยเป็นภาษาที่มีเสียงวรรณยุกต์", // Thai
		"\u0301accent at the start, e\u0301 inside, Ωμέγα.",
		"bad \xff\xfe utf-8 \xc3 here",
		"ÉCOLE école Straße STRASSE",
		"",
	}
	for _, st := range katrinaSentences(t) {
		texts = append(texts, st.Text)
	}
	for _, norm := range []shingle.Normalization{shingle.DefaultNormalization, {}} {
		tok := docfreq.Config{Tokens: docfreq.Words, Norm: norm}.Tokenizer()
		f := newWordFeatures(Config{Norm: norm})
		for _, text := range texts {
			got, _ := f.features(text, frequencies{})
			if want := tok.AppendTokens(nil, text); !slices.Equal(got, want) {
				t.Fatalf("fold %v, %q: words %v, docfreq counts %v", norm.FoldCase, text, got, want)
			}
		}
	}
}
