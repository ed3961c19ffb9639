// Package minhash computes MinHash band keys of shingle sets.
//
// Two sentences whose shingle sets have Jaccard similarity s share a given
// minhash with probability s. Grouping r minhashes into one band key makes a
// band collide with probability s^r, and b independent bands make at least one
// collide with probability 1-(1-s^r)^b: the S-curve that separates
// near-duplicates from the rest. Each band key is a 64-bit hash of the band's
// index and its r minhash values, so the shuffle groups fixed-size keys.
//
// Three schemes are provided. Weissman reproduces Weissman et al. (2015): a
// family of 20 multiply-shift hash functions with 60-bit output, and 10
// signatures of 10 minhashes each drawn from the family by a seeded
// generator. Banding is the standard scheme: b bands of r rows of b·r
// independent hash functions, with (b, r) usually chosen by ChooseBands; it
// costs b·r multiplications per shingle. OnePermutation gives the same b·r
// rows from one hash per shingle (Li, Owen and Zhang's one-permutation
// hashing, with Shrivastava's optimal densification for the empty bins).
package minhash

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/neardup/neardup/internal/hashmix"
)

// Scheme is a seeded family of hash functions and the bands drawn from it.
// A Scheme is immutable once built and safe for concurrent use.
type Scheme struct {
	Name  string
	Bands int // band keys per sentence
	Rows  int // minhashes per band
	Seed  uint64

	mul, add []uint64 // the family: h_i(x) = (mul[i]*x + add[i]) >> shift
	shift    uint
	rows     [][]int // for each band, the indices of its minhashes in the family
	bins     int     // one-permutation hashing: the number of bins (bands·rows), else 0
}

// Family is the number of hash functions of the scheme.
func (s *Scheme) Family() int { return len(s.mul) }

// Weissman returns the scheme of Weissman et al.: a family of 20
// multiply-shift hashes with 60-bit output and 10 signatures, each of 10
// minhashes drawn without replacement from the family.
func Weissman(seed uint64) *Scheme {
	const family, signatures, picks = 20, 10, 10
	g := newGenerator(seed)
	s := &Scheme{Name: "weissman", Bands: signatures, Rows: picks, Seed: seed, shift: 64 - 60}
	s.mul, s.add = g.family(family)
	for range signatures {
		s.rows = append(s.rows, g.sample(family, picks))
	}
	return s
}

// Unbanded returns a scheme of no bands, for the candidate stages that do
// not band MinHash signatures (simhash, exact): a signer of it appends no
// key, and Sign emits no entry.
func Unbanded(name string, seed uint64) *Scheme {
	return &Scheme{Name: name, Seed: seed}
}

// Banding returns the standard scheme of bands×rows independent 64-bit
// multiply-shift hashes, band j using hashes j·rows … j·rows+rows-1.
func Banding(seed uint64, bands, rows int) (*Scheme, error) {
	s, err := consecutiveBands("bands", seed, bands, rows)
	if err != nil {
		return nil, err
	}
	s.mul, s.add = newGenerator(seed).family(bands * rows)
	return s, nil
}

// consecutiveBands returns a scheme whose band j holds the rows j·rows …
// j·rows+rows-1, without its hash functions.
func consecutiveBands(name string, seed uint64, bands, rows int) (*Scheme, error) {
	if bands < 1 || rows < 1 || bands*rows > 4096 {
		return nil, fmt.Errorf("minhash: bands=%d rows=%d: need bands, rows ≥ 1 and bands·rows ≤ 4096", bands, rows)
	}
	s := &Scheme{Name: name, Bands: bands, Rows: rows, Seed: seed}
	for j := range bands {
		band := make([]int, rows)
		for i := range band {
			band[i] = j*rows + i
		}
		s.rows = append(s.rows, band)
	}
	return s, nil
}

// OnePermutation returns bands×rows band keys computed by one-permutation
// hashing: one multiply-shift hash per shingle splits the shingles into
// bands·rows bins and each bin keeps its least value, so that two sets of
// Jaccard similarity s have equal bins with probability s. A bin no
// shingle fell into borrows the value of the first filled bin of a seeded
// probe sequence of its own (optimal densification), which keeps that
// probability. The bins of a band are not independent when most bins are
// empty (sentences with fewer shingles than bins), so the collision curve
// is only approximately 1-(1-s^rows)^bands.
func OnePermutation(seed uint64, bands, rows int) (*Scheme, error) {
	s, err := consecutiveBands("oph", seed, bands, rows)
	if err != nil {
		return nil, err
	}
	s.bins = bands * rows
	s.mul, s.add = newGenerator(seed).family(2) // the hash, and the seed of the probe sequences
	return s, nil
}

// Collision is the probability 1-(1-s^rows)^bands that two sets of Jaccard
// similarity s share at least one band key.
func Collision(s float64, bands, rows int) float64 {
	return 1 - math.Pow(1-math.Pow(s, float64(rows)), float64(bands))
}

// ChooseBands picks the sharpest banding for which a pair of similarity
// threshold collides with probability at least recall, using no more than
// maxBands bands: the largest rows r whose required bands
// b = ⌈ln(1-recall)/ln(1-threshold^r)⌉ is ≤ maxBands. Larger r lowers the
// collision probability of dissimilar pairs; b is the shuffle cost.
func ChooseBands(threshold, recall float64, maxBands int) (bands, rows int, err error) {
	if threshold <= 0 || threshold >= 1 || recall <= 0 || recall >= 1 || maxBands < 1 {
		return 0, 0, fmt.Errorf("minhash: cannot choose bands for threshold %v, recall %v, max bands %d: need 0<threshold<1, 0<recall<1, max bands ≥ 1", threshold, recall, maxBands)
	}
	for r := 1; r <= 64; r++ {
		b := int(math.Ceil(math.Log(1-recall) / math.Log(1-math.Pow(threshold, float64(r)))))
		if b > maxBands {
			break
		}
		bands, rows = b, r
	}
	if bands == 0 {
		return 0, 0, fmt.Errorf("minhash: %d bands cannot reach recall %v at threshold %v; raise --max_bands", maxBands, recall, threshold)
	}
	return bands, rows, nil
}

// Point is one point of a collision curve.
type Point struct {
	Similarity  float64 `json:"similarity"`
	Probability float64 `json:"probability"`
}

// Curve returns the scheme's collision probability at s = 0.50, 0.55, … 1.00.
func (s *Scheme) Curve() []Point {
	var pts []Point
	for i := 10; i <= 20; i++ {
		sim := float64(i) / 20
		p := Collision(sim, s.Bands, s.Rows)
		pts = append(pts, Point{Similarity: sim, Probability: math.Round(p*1e6) / 1e6})
	}
	return pts
}

// Signer computes band keys with reusable buffers. It is not safe for
// concurrent use; make one per worker.
type Signer struct {
	scheme *Scheme
	mins   []uint64
	filled []bool // one-permutation hashing: which bins a shingle fell into
}

// NewSigner returns a Signer for s.
func NewSigner(s *Scheme) *Signer {
	if s.bins > 0 {
		return &Signer{scheme: s, mins: make([]uint64, s.bins), filled: make([]bool, s.bins)}
	}
	return &Signer{scheme: s, mins: make([]uint64, s.Family())}
}

// AppendKeys appends the scheme's band keys for the given shingle hashes to
// dst, one per band in band order. With no shingles it appends nothing.
func (g *Signer) AppendKeys(dst []uint64, shingles []uint64) []uint64 {
	if len(shingles) == 0 || g.scheme.Bands == 0 {
		return dst
	}
	s := g.scheme
	if s.bins > 0 {
		g.binMinima(shingles)
	} else {
		minima(g.mins, s.mul, s.add, shingles)
	}
	mins := g.mins
	for j, band := range s.rows {
		key := hashmix.Splitmix64(uint64(j) + 0x632be59bd9b4e019)
		for _, i := range band {
			key = hashmix.Splitmix64(key ^ mins[i]>>s.shift)
		}
		dst = append(dst, key)
	}
	return dst
}

// minima sets mins[i] to the least mul[i]·x+add[i] over the shingles x. It
// takes the hash functions four at a time, so that their minima stay in
// registers while the shingles stream past (BenchmarkSigner/bands;
// bench/README.md, "Figures moved out of code comments").
func minima(mins, mul, add, shingles []uint64) {
	i := 0
	for ; i+4 <= len(mins); i += 4 {
		a0, a1, a2, a3 := mul[i], mul[i+1], mul[i+2], mul[i+3]
		b0, b1, b2, b3 := add[i], add[i+1], add[i+2], add[i+3]
		m0, m1, m2, m3 := uint64(math.MaxUint64), uint64(math.MaxUint64), uint64(math.MaxUint64), uint64(math.MaxUint64)
		for _, x := range shingles {
			m0 = min(m0, a0*x+b0)
			m1 = min(m1, a1*x+b1)
			m2 = min(m2, a2*x+b2)
			m3 = min(m3, a3*x+b3)
		}
		mins[i], mins[i+1], mins[i+2], mins[i+3] = m0, m1, m2, m3
	}
	for ; i < len(mins); i++ {
		m := uint64(math.MaxUint64)
		for _, x := range shingles {
			m = min(m, mul[i]*x+add[i])
		}
		mins[i] = m
	}
}

// binMinima sets g.mins to the one-permutation bins of the shingles: the
// bin of x is the high part of h(x)·bins, its value the low part (the
// position inside the bin), and each bin keeps its least value. Empty bins
// are then densified.
func (g *Signer) binMinima(shingles []uint64) {
	s := g.scheme
	mins, filled := g.mins, g.filled
	for i := range mins {
		mins[i], filled[i] = math.MaxUint64, false
	}
	a, b, n := s.mul[0], s.add[0], uint64(s.bins)
	for _, x := range shingles {
		bin, v := bits.Mul64(a*x+b, n)
		if v < mins[bin] {
			mins[bin] = v
		}
		filled[bin] = true
	}
	probe := s.add[1]
	for j := range mins {
		if filled[j] {
			continue
		}
		// Probe bins in a sequence that depends only on j and the seed,
		// so that two sets borrow from the same bins where both are filled.
		for attempt := uint64(0); ; attempt++ {
			c, _ := bits.Mul64(hashmix.Splitmix64(probe^uint64(j)<<32^attempt), n)
			if filled[c] {
				mins[j] = mins[c]
				break
			}
		}
	}
}

// generator draws the scheme's random choices from a splitmix64 sequence,
// so that a seed gives the same family on every platform and Go version.
type generator struct{ hashmix.Generator }

func newGenerator(seed uint64) *generator { return &generator{*hashmix.NewGenerator(seed)} }

func (g *generator) next() uint64 { return g.Next() }

// family draws n multiply-shift hash functions: odd multipliers, any addends.
func (g *generator) family(n int) (mul, add []uint64) {
	mul, add = make([]uint64, n), make([]uint64, n)
	for i := range n {
		mul[i] = g.next() | 1
		add[i] = g.next()
	}
	return mul, add
}

// sample draws k distinct indices from [0, n) by a partial Fisher–Yates shuffle.
func (g *generator) sample(n, k int) []int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := range k {
		j := i + int(g.next()%uint64(n-i))
		perm[i], perm[j] = perm[j], perm[i]
	}
	return perm[:k]
}
