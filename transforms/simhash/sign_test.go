package simhash

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/hashmix"
	"github.com/neardup/neardup/transforms/shingle"
)

// naiveWeighted is the definition: one signed sum per hyperplane.
func naiveWeighted(s *Signer, hashes, weights []uint64, nbits int) uint64 {
	var sig uint64
	for b := range nbits {
		var sum int64
		for i, h := range hashes {
			if s.hyperplanes(h)>>uint(b)&1 == 1 {
				sum += int64(weights[i])
			} else {
				sum -= int64(weights[i])
			}
		}
		if sum > 0 {
			sig |= 1 << uint(b)
		}
	}
	return sig
}

// naiveShingles is naiveWeighted over the distinct hashes, of weight 1.
func naiveShingles(s *Signer, hashes []uint64, nbits int) uint64 {
	seen := map[uint64]bool{}
	var set, ones []uint64
	for _, h := range hashes {
		if !seen[h] {
			seen[h] = true
			set, ones = append(set, h), append(ones, 1)
		}
	}
	return naiveWeighted(s, set, ones, nbits)
}

func TestShinglesSmall(t *testing.T) {
	s := NewSigner(1, 64)
	r := func(h uint64) uint64 { return hashmix.Splitmix64(h ^ s.key) }
	a, b, c := uint64(11), uint64(22), uint64(33)
	tests := []struct {
		name   string
		hashes []uint64
		want   uint64
	}{
		{"none", nil, 0},
		{"one feature is its hyperplane entries", []uint64{a}, r(a)},
		{"a repeat counts once", []uint64{a, a, a}, r(a)},
		{"two tie where they differ", []uint64{a, b}, r(a) & r(b)},
		{"three take the majority", []uint64{c, a, b}, r(a)&r(b) | r(a)&r(c) | r(b)&r(c)},
		{"order and repeats do not matter", []uint64{b, c, b, a, c}, r(a)&r(b) | r(a)&r(c) | r(b)&r(c)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.Shingles(tt.hashes); got != tt.want {
				t.Errorf("Shingles = %016x, want %016x", got, tt.want)
			}
		})
	}
	// The same on every platform and Go version: splitmix64 is fully
	// specified.
	if got, want := NewSigner(1, 64).Shingles([]uint64{1, 2, 3}), uint64(0x5c525c1055c1697b); got != want {
		t.Errorf("seed 1, {1, 2, 3}: %#016x, want %#016x", got, want)
	}
	if got, want := NewSigner(1, 12).Shingles([]uint64{1, 2, 3}), uint64(0x5c525c1055c1697b)&0xfff; got != want {
		t.Errorf("12 bits: %#x, want the low 12 bits %#x", got, want)
	}
}

func TestShinglesMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, nbits := range []int{1, 7, 32, 63, 64} {
		s := NewSigner(uint64(nbits), nbits)
		for trial := range 200 {
			n := r.IntN(300)
			if trial%20 == 0 {
				n = r.IntN(5000) // past the first table size, more planes
			}
			hashes := make([]uint64, n)
			for i := range hashes {
				hashes[i] = r.Uint64N(uint64(n/2 + 1)) // many repeats
			}
			if got, want := s.Shingles(hashes), naiveShingles(s, hashes, nbits); got != want {
				t.Fatalf("%d bits, %d hashes: %016x, want %016x", nbits, n, got, want)
			}
		}
	}
}

func TestWeightedMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	s := NewSigner(9, 64)
	for range 300 {
		n := r.IntN(40)
		hashes, weights := make([]uint64, n), make([]uint64, n)
		for i := range hashes {
			hashes[i] = r.Uint64()
			weights[i] = r.Uint64N(1 << uint(r.IntN(20)))
		}
		if got, want := s.Weighted(hashes, weights), naiveWeighted(s, hashes, weights, 64); got != want {
			t.Fatalf("%d features: %016x, want %016x", n, got, want)
		}
		ones := make([]uint64, n)
		for i := range ones {
			ones[i] = 1
		}
		if got, want := s.Weighted(hashes, ones), s.Shingles(hashes); got != want {
			t.Fatalf("weights of 1: %016x, Shingles gives %016x", got, want)
		}
	}
	if got := s.Weighted([]uint64{1, 2}, []uint64{0, 0}); got != 0 {
		t.Errorf("no weight: %016x, want 0", got)
	}
}

// TestHammingEstimatesAngle checks Charikar's property on sets of known
// cosine similarity: two sets of n shingles sharing c have cosine c/n, and
// their signatures differ in each bit with probability acos(c/n)/π.
func TestHammingEstimatesAngle(t *testing.T) {
	const n, trials = 150, 400
	s := NewSigner(5, 64)
	for _, shared := range []int{150, 140, 120, 90, 30, 0} {
		sum := 0
		for trial := range trials {
			a, b := setPair(uint64(trial)<<24|uint64(shared)<<16, n, shared)
			sum += bits.OnesCount64(s.Shingles(a) ^ s.Shingles(b))
		}
		mean := float64(sum) / trials
		want := 64 * math.Acos(float64(shared)/n) / math.Pi
		// The mean of 400 binomial(64, p) draws has a standard deviation
		// below 0.2 (0.4 with the hyperplanes' ±1 entries); allow 1.
		if math.Abs(mean-want) > 1 {
			t.Errorf("cosine %.2f: mean Hamming distance %.2f, want %.2f", float64(shared)/n, mean, want)
		}
	}
}

// setPair returns two sets of n hashes sharing shared of them.
func setPair(base uint64, n, shared int) (a, b []uint64) {
	for i := range n {
		a = append(a, hashmix.Splitmix64(base+uint64(i)))
		if i < shared {
			b = append(b, a[i])
		} else {
			b = append(b, hashmix.Splitmix64(base+uint64(i)+1<<15))
		}
	}
	return a, b
}

func TestMaxHammingFor(t *testing.T) {
	tests := []struct {
		cosine float64
		bits   int
		want   int
	}{
		{1, 64, 0},
		{0, 64, 32},
		{-1, 64, 64},
		{2, 64, 0},
		{-3, 64, 64},
		{0.9, 64, 9},   // acos 0.451 rad: 9.19
		{0.95, 64, 6},  // 0.318 rad: 6.48
		{0.889, 64, 9}, // two sets of Jaccard 0.8 and one size: 2·0.8/1.8
		{0.9, 100, 14},
	}
	for _, tt := range tests {
		if got := MaxHammingFor(tt.cosine, tt.bits); got != tt.want {
			t.Errorf("MaxHammingFor(%v, %d) = %d, want %d", tt.cosine, tt.bits, got, tt.want)
		}
	}
	for _, nbits := range []int{1, 10, 64} {
		for h := range nbits + 1 {
			if got := MaxHammingFor(Cosine(h, nbits), nbits); got != h {
				t.Errorf("MaxHammingFor(Cosine(%d, %d)) = %d", h, nbits, got)
			}
		}
	}
}

// benchmarkSentence is a sentence of 161 runes: 150 shingles of 12.
const benchmarkSentence = "The levee failures in Greater New Orleans were the worst civil engineering disaster " +
	"in United States history, according to investigators of the American Society."

// BenchmarkSign signs a sentence of 150 shingles. shingles signs 64
// different sets of 150 shingle hashes in turn, as minhash's
// BenchmarkSigner does (its oph scheme is the one to compare with); words
// signs the sentence's 24 distinct words, weights computed. The +text
// benchmarks include the features: hashing the shingles of the sentence's
// text, or cutting it into words, hashing them and looking up their
// document frequencies in a sketch of the Katrina sentences.
func BenchmarkSign(b *testing.B) {
	sets := make([][]uint64, 64)
	for j := range sets {
		sets[j] = make([]uint64, 150)
		for i := range sets[j] {
			sets[j][i] = hashmix.Splitmix64(uint64(j<<20 | i))
		}
	}
	cfg := Config{Features: FeaturesWords, Norm: shingle.DefaultNormalization}
	freq := sketchOf(katrinaSentences(b), cfg.Norm)
	words := newWordFeatures(cfg)
	wh, ww := words.features(benchmarkSentence, freq)
	wh, ww = slices.Clone(wh), slices.Clone(ww)
	b.Run("shingles", func(b *testing.B) {
		s := NewSigner(1, 64)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			s.Shingles(sets[i%len(sets)])
		}
	})
	b.Run("words", func(b *testing.B) {
		s := NewSigner(1, 64)
		b.ReportAllocs()
		for b.Loop() {
			s.Weighted(wh, ww)
		}
	})
	b.Run("shingles+text", func(b *testing.B) {
		s := NewSigner(1, 64)
		sh := shingle.New(12, shingle.DefaultNormalization)
		if n := len(sh.Hashes(benchmarkSentence)); n != 150 {
			b.Fatalf("%d shingles, want 150", n)
		}
		b.ReportAllocs()
		for b.Loop() {
			s.Shingles(sh.Hashes(benchmarkSentence))
		}
	})
	b.Run("words+text", func(b *testing.B) {
		s := NewSigner(1, 64)
		b.ReportAllocs()
		for b.Loop() {
			s.Weighted(words.features(benchmarkSentence, freq))
		}
	})
}
