package corpus

import "math/rand/v2"

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
