// Package hashmix holds the one 64-bit mixer the pipeline uses wherever it needs
// a well-spread hash of a value that is not one (sentence ids to shards,
// shingle windows to hashes, the MinHash family's random draws): splitmix64,
// fully specified, so that a seed gives the same result on every platform,
// Go version and runner.
package hashmix

import "math/bits"

// Gamma is splitmix64's increment, the odd integer nearest 2^64/φ. Adding
// k·Gamma to a key salts it: the result is the k-th state of a splitmix64
// generator seeded with the key.
const Gamma uint64 = 0x9e3779b97f4a7c15

// Splitmix64 is the output function of Steele, Lea and Flood's splitmix64
// generator (Stafford's Mix13 variant): a bijection of uint64 in which every
// input bit affects every output bit.
func Splitmix64(x uint64) uint64 {
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Range maps a well-mixed 64-bit hash to [0, n) by its high bits (Lemire's
// multiply-shift ⌊h·n / 2^64⌋, unbiased to within n/2^64).
func Range(h uint64, n int) int {
	hi, _ := bits.Mul64(h, uint64(n))
	return int(hi)
}

// Generator is a splitmix64 sequence: a tiny, fully specified
// pseudo-random generator.
type Generator struct{ state uint64 }

// NewGenerator returns the sequence seeded with seed.
func NewGenerator(seed uint64) *Generator { return &Generator{state: seed} }

// Next returns the sequence's next value.
func (g *Generator) Next() uint64 {
	g.state += Gamma
	return Splitmix64(g.state)
}
