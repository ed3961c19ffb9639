package corpus

import "math/rand/v2"

// NewRand returns the source of the named stream of seed: a PCG seeded by
// seed and by the name's first eight bytes read as a big-endian number
// ("hotkey" is 0x686f746b6579), so that the generators of one seed draw
// from streams of their own and a corpus's bytes follow from its seed.
func NewRand(seed uint64, stream string) *rand.Rand {
	var s uint64
	for i := 0; i < len(stream) && i < 8; i++ {
		s = s<<8 | uint64(stream[i])
	}
	return rand.New(rand.NewPCG(seed, s))
}

// AppendDigits appends a random number of n digits drawn from rng,
// without a leading zero unless n is 1: a number edited into another of
// its size.
func AppendDigits(dst []byte, rng *rand.Rand, n int) []byte {
	for k := range n {
		d := rng.IntN(10)
		if k == 0 && n > 1 {
			d = 1 + rng.IntN(9)
		}
		dst = append(dst, byte('0'+d))
	}
	return dst
}
