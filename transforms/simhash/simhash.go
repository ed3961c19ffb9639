// Package simhash finds candidate pairs of near-duplicate sentences by
// random projection (Charikar's SimHash) and sorted windows over permuted
// signatures (--scheme simhash), as Meng and Zheng do in their replication
// of Weissman et al. (their Algorithm 2).
//
// A sentence's D-bit signature is the signs of its projections on D random
// hyperplanes, so the Hamming distance of two signatures estimates the
// cosine similarity of the sentences (MaxHammingFor, Cosine). Comparing
// every pair is out of the question, so under each of Q seeded permutations
// of the bits the signatures are sorted and each is compared with the B-1
// that follow it; near-identical signatures share their leading bits and
// sort close together. The candidates are those of one global sorted window
// per permutation whatever the number of shards, and come out as
// bucket.Candidates gives them, for verify.Edges.
//
// How it works in full: docs/schemes.md, "How simhash finds candidates".
package simhash

import (
	"cmp"
	"fmt"
	"math"

	"github.com/neardup/neardup/transforms/shingle"
)

// The defaults of Config's fields that are zero. 64 bits fill a word;
// 10 permutations and windows of 10 are Meng and Zheng's; on large inputs
// 20 and 20 find more (docs/schemes.md, "How simhash finds candidates").
// Each permutation is one shuffled entry per sentence; a wider window
// costs only comparisons.
const (
	DefaultBits         = 64
	DefaultPermutations = 10
	DefaultWindow       = 10
)

// The feature sets a Config can name.
const (
	FeaturesShingles = "shingles" // character shingles, weight 1 each
	FeaturesWords    = "words"    // word tokens weighted by TF-IDF
)

// MaxPermutations bounds Config.Permutations: every permutation is one
// shuffled entry per sentence.
const MaxPermutations = 256

// Config is everything Candidates needs; it is serialised with the DoFns.
type Config struct {
	Features      string // FeaturesShingles ("" too) or FeaturesWords
	Bits          int    // D, 1..64 (0: DefaultBits)
	Permutations  int    // Q (0: DefaultPermutations)
	Window        int    // B ≥ 2 (0: DefaultWindow): each entry is compared with the next B-1 in the sorted order
	MaxHamming    int    // pairs with hamming ≤ MaxHamming are candidates
	Seed          uint64 // seeds the hyperplanes and the permutations
	ShingleLength int    // characters per shingle
	Norm          shingle.Normalization
	Shards        int // range shards per permutation (0: 1)
	RecordShards  int // shards of the candidate output (the sentence records' shards; 0: 1)
	Workers       int // goroutines of the DoFns' pools (0: GOMAXPROCS)
}

// withDefaults returns c with its zero fields set to their defaults.
func (c Config) withDefaults() Config {
	c.Features = cmp.Or(c.Features, FeaturesShingles)
	c.Bits = cmp.Or(c.Bits, DefaultBits)
	c.Permutations = cmp.Or(c.Permutations, DefaultPermutations)
	c.Window = cmp.Or(c.Window, DefaultWindow)
	c.Shards = cmp.Or(c.Shards, 1)
	c.RecordShards = cmp.Or(c.RecordShards, 1)
	return c
}

// Validate reports the first field of c, after defaults, that Candidates
// cannot work with.
func (c Config) Validate() error {
	c = c.withDefaults()
	switch {
	case c.Features != FeaturesShingles && c.Features != FeaturesWords:
		return fmt.Errorf("simhash: unknown features %q (want %s or %s)", c.Features, FeaturesShingles, FeaturesWords)
	case c.Bits < 1 || c.Bits > 64:
		return fmt.Errorf("simhash: %d bits: want 1 to 64", c.Bits)
	case c.Permutations < 1 || c.Permutations > MaxPermutations:
		return fmt.Errorf("simhash: %d permutations: want 1 to %d", c.Permutations, MaxPermutations)
	case c.Window < 2:
		return fmt.Errorf("simhash: window of %d: want at least 2", c.Window)
	case c.MaxHamming < 0 || c.MaxHamming > c.Bits:
		return fmt.Errorf("simhash: Hamming limit %d: want 0 to the %d bits", c.MaxHamming, c.Bits)
	case c.Features == FeaturesShingles && c.ShingleLength < 1:
		return fmt.Errorf("simhash: shingle length %d: want at least 1", c.ShingleLength)
	case c.Shards < 1 || c.RecordShards < 1:
		return fmt.Errorf("simhash: %d shards, %d record shards: want at least 1", c.Shards, c.RecordShards)
	}
	return nil
}

// MaxHammingFor returns the Hamming limit for a cosine threshold:
// floor(bits·acos(cos)/π), the largest distance whose estimate
// cos(π·h/bits) is still at least cosine. A cosine outside [-1, 1] is
// clamped. A distance within 1e-9 of the next integer counts as that
// integer, so that MaxHammingFor(Cosine(h, bits), bits) is h whatever the
// rounding of Acos.
func MaxHammingFor(cosine float64, bits int) int {
	cosine = max(-1, min(1, cosine))
	return int(math.Floor(float64(bits)*math.Acos(cosine)/math.Pi + 1e-9))
}

// Cosine is the cosine similarity that the Hamming distance h between two
// signatures of the given bits estimates: cos(π·h/bits).
func Cosine(h, bits int) float64 { return math.Cos(math.Pi * float64(h) / float64(bits)) }
