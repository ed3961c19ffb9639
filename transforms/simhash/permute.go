package simhash

import (
	"github.com/neardup/neardup/internal/hashmix"
)

// Permutation shuffles the bits of a D-bit signature into the top D bits
// of a word, in a seeded order, so that sorting permuted signatures as
// integers sorts them by their bits in that order. It is a table lookup
// per byte of the signature. Permuting keeps Hamming distances.
type Permutation struct {
	to    [64]uint8      // bit i of a signature goes to bit 63-to[i]
	table [8][256]uint64 // table[k][b]: the bits of byte k of a signature, b, in place
}

// permutationSalt separates the permutations' random draws from the
// hyperplanes' under one seed.
const permutationSalt = 0x5eed_0f_b175_0f_5a1

// Permutations returns q seeded permutations of signatures of bits bits (1
// to 64), each drawn by a Fisher–Yates shuffle from a splitmix64 sequence:
// the same on every platform.
func Permutations(seed uint64, bits, q int) []Permutation {
	g := hashmix.NewGenerator(seed ^ permutationSalt)
	perms := make([]Permutation, q)
	for k := range perms {
		p := &perms[k]
		order := make([]uint8, bits)
		for i := range order {
			order[i] = uint8(i)
		}
		for i := bits - 1; i > 0; i-- {
			j := hashmix.Range(g.Next(), i+1)
			order[i], order[j] = order[j], order[i]
		}
		copy(p.to[:], order)
		for i := bits; i < 64; i++ {
			p.to[i] = uint8(i) // bits beyond the signature's are never set
		}
		for byteIdx := range p.table {
			for b := range 256 {
				var w uint64
				for bit := range 8 {
					if i := byteIdx*8 + bit; b>>bit&1 == 1 && i < bits {
						w |= 1 << (63 - uint(p.to[i]))
					}
				}
				p.table[byteIdx][b] = w
			}
		}
	}
	return perms
}

// Apply returns sig's bits in the permutation's order, from the top bit
// down. Bits of sig beyond the permutation's are ignored.
func (p *Permutation) Apply(sig uint64) uint64 {
	t := &p.table
	return t[0][uint8(sig)] | t[1][uint8(sig>>8)] | t[2][uint8(sig>>16)] | t[3][uint8(sig>>24)] |
		t[4][uint8(sig>>32)] | t[5][uint8(sig>>40)] | t[6][uint8(sig>>48)] | t[7][uint8(sig>>56)]
}
