package simhash

import (
	"math/bits"

	"github.com/neardup/neardup/internal/hashmix"
)

// Signer computes SimHash signatures of D bits, reusing its buffers between
// calls. It is not safe for concurrent use; make one per worker.
//
// Feature h's hyperplane entries are the bits of splitmix64(h ⊕ k), k drawn
// from the seed: bit i set is +1 on hyperplane i, clear is -1. Bit i of a
// signature is set when the weighted sum of the features' entries on
// hyperplane i is positive (a tie gives 0). Everything is integer
// arithmetic, so a seed gives the same signatures on every platform.
type Signer struct {
	key  uint64 // k
	mask uint64 // the low D bits

	// The set of distinct shingles of the sentence being signed: open
	// addressing on the hashes' top bits, a slot in use when its stamp is
	// the current one, so that it is never cleared.
	slots  []uint64
	stamps []uint32
	stamp  uint32
	words  []uint64 // the distinct shingles' hyperplane entries
}

// NewSigner returns a Signer of bits-bit signatures (1 to 64) for seed.
func NewSigner(seed uint64, bits int) *Signer {
	g := hashmix.NewGenerator(seed)
	return &Signer{key: g.Next(), mask: lowBits(bits)}
}

// lowBits returns a mask of the n low bits, n ≤ 64.
func lowBits(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

// hyperplanes returns feature h's entries on the 64 hyperplanes, a set bit
// for +1.
func (s *Signer) hyperplanes(h uint64) uint64 { return hashmix.Splitmix64(h ^ s.key) }

// Shingles returns the signature of the set of the given shingle hashes,
// each distinct hash of weight 1 however often it occurs (the set Jaccard
// similarity compares), in any order. The signature of no shingles is 0.
func (s *Signer) Shingles(hashes []uint64) uint64 {
	s.reset(len(hashes))
	words := s.words[:0]
	for _, h := range hashes {
		if s.insert(h) {
			words = append(words, s.hyperplanes(h))
		}
	}
	s.words = words
	var c counter
	c.addAll(words)
	return c.majority(len(words)) & s.mask
}

// counter is 64 counters of set bits, bit-sliced: planes[j] holds bit j of
// every counter, so that adding a word to all 64 is a ripple carry through
// the planes.
type counter struct{ planes [64]uint64 }

// addAt adds 2^j to the counter of every bit set in w.
func (c *counter) addAt(w uint64, j int) {
	for ; w != 0; j++ {
		c.planes[j], w = c.planes[j]^w, c.planes[j]&w
	}
}

// csa is a carry-save adder: the carry and sum bits of a+b+c, bit by bit.
func csa(a, b, c uint64) (carry, sum uint64) {
	u := a ^ b
	return a&b | u&c, u ^ c
}

// addAll adds 1 to the counter of every bit set in each word of ws.
// Sixteen words at a time go through a tree of carry-save adders (Harley
// and Seal's population count, as Muła, Kurz and Lemire describe it), so
// that the counter's ripple carry, whose length a branch predictor cannot
// guess, runs once every sixteen words instead of once a word
// (BenchmarkSign; bench/README.md, "Figures moved out of code comments").
func (c *counter) addAll(ws []uint64) {
	var ones, twos, fours, eights uint64
	for ; len(ws) >= 16; ws = ws[16:] {
		w := ws[:16:16]
		var twosA, twosB, foursA, foursB, eightsA, eightsB, sixteens uint64
		twosA, ones = csa(ones, w[0], w[1])
		twosB, ones = csa(ones, w[2], w[3])
		foursA, twos = csa(twos, twosA, twosB)
		twosA, ones = csa(ones, w[4], w[5])
		twosB, ones = csa(ones, w[6], w[7])
		foursB, twos = csa(twos, twosA, twosB)
		eightsA, fours = csa(fours, foursA, foursB)
		twosA, ones = csa(ones, w[8], w[9])
		twosB, ones = csa(ones, w[10], w[11])
		foursA, twos = csa(twos, twosA, twosB)
		twosA, ones = csa(ones, w[12], w[13])
		twosB, ones = csa(ones, w[14], w[15])
		foursB, twos = csa(twos, twosA, twosB)
		eightsB, fours = csa(fours, foursA, foursB)
		sixteens, eights = csa(eights, eightsA, eightsB)
		c.addAt(sixteens, 4)
	}
	c.addAt(eights, 3)
	c.addAt(fours, 2)
	c.addAt(twos, 1)
	c.addAt(ones, 0)
	for _, w := range ws {
		c.addAt(w, 0)
	}
}

// addTimes adds k to the counter of every bit set in w: w once into the
// planes of k's set bits.
func (c *counter) addTimes(w, k uint64) {
	for ; k != 0; k &= k - 1 {
		carry := w
		for j := bits.TrailingZeros64(k); carry != 0; j++ {
			c.planes[j], carry = c.planes[j]^carry, c.planes[j]&carry
		}
	}
}

// majority returns the word whose bit i is set when counter i holds more
// than n/2, n ≥ every counter.
func (c *counter) majority(n int) uint64 { return c.majorityOf(uint64(n)) }

// majorityOf is majority for n < 2^63: a bit-sliced comparison of the
// counters with the constant ⌊n/2⌋, from the top plane down.
func (c *counter) majorityOf(n uint64) uint64 {
	t := n / 2
	greater, equal := uint64(0), ^uint64(0)
	for j := bits.Len64(n) - 1; j >= 0; j-- {
		p := c.planes[j]
		if t>>uint(j)&1 == 0 {
			greater |= equal & p
			equal &^= p
		} else {
			equal &= p
		}
	}
	return greater
}

// Weighted returns the signature of the features hashes[i] of weights
// weights[i] (fixed-point integers of any scale, whose sum must stay below
// 2^63), each hash given once, in any order. The signature of no features,
// or of features of no weight, is 0.
func (s *Signer) Weighted(hashes, weights []uint64) uint64 {
	var c counter
	var total uint64
	for i, h := range hashes {
		c.addTimes(s.hyperplanes(h), weights[i])
		total += weights[i]
	}
	return c.majorityOf(total) & s.mask
}

// reset empties the set of distinct shingles, sized for n of them.
func (s *Signer) reset(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	s.stamp++
	// A table grown for a huge sentence is given back at the next
	// ordinary one.
	if cap(s.slots) < size || cap(s.slots) > keepSlots && size <= keepSlots || s.stamp == 0 {
		s.slots, s.stamps, s.stamp = make([]uint64, size), make([]uint32, size), 1
	}
	if cap(s.words) > keepSlots && size <= keepSlots {
		s.words = nil
	}
	// Probe only the first size slots: a table larger than needed costs
	// cache misses. Slots beyond keep older stamps.
	s.slots, s.stamps = s.slots[:size], s.stamps[:size]
}

// keepSlots bounds the slots a Signer keeps between sentences.
const keepSlots = 1 << 17

// insert adds h to the set and reports whether it was not there yet.
func (s *Signer) insert(h uint64) bool {
	m := uint64(len(s.slots) - 1)
	for i := h >> 32 & m; ; i = (i + 1) & m {
		if s.stamps[i] != s.stamp {
			s.stamps[i], s.slots[i] = s.stamp, h
			return true
		}
		if s.slots[i] == h {
			return false
		}
	}
}
