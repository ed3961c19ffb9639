package simhash

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// slowApply is Permutation.Apply bit by bit.
func slowApply(p *Permutation, sig uint64, nbits int) uint64 {
	var w uint64
	for i := range nbits {
		if sig>>uint(i)&1 == 1 {
			w |= 1 << (63 - uint(p.to[i]))
		}
	}
	return w
}

func TestPermutations(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, nbits := range []int{1, 2, 13, 63, 64} {
		perms := Permutations(42, nbits, 12)
		distinct := map[[64]uint8]bool{}
		for k := range perms {
			p := &perms[k]
			distinct[p.to] = true
			// A bijection of the signature's bits onto the top bits.
			to := slices.Clone(p.to[:nbits])
			slices.Sort(to)
			for i, v := range to {
				if int(v) != i {
					t.Fatalf("%d bits, permutation %d: positions %v, want 0…%d once each", nbits, k, p.to[:nbits], nbits-1)
				}
			}
			mask := lowBits(nbits)
			for range 200 {
				x, y := r.Uint64()&mask, r.Uint64()&mask
				px, py := p.Apply(x), p.Apply(y)
				if want := slowApply(p, x, nbits); px != want {
					t.Fatalf("%d bits: Apply(%x) = %x, want %x", nbits, x, px, want)
				}
				if px<<uint(nbits) != 0 && nbits < 64 {
					t.Fatalf("%d bits: Apply(%x) = %x sets bits below the top %d", nbits, x, px, nbits)
				}
				if bits.OnesCount64(px^py) != bits.OnesCount64(x^y) {
					t.Fatalf("%d bits: Hamming distance changed by the permutation", nbits)
				}
				if p.Apply(x|^mask) != px {
					t.Fatalf("%d bits: bits beyond the signature were permuted", nbits)
				}
			}
		}
		if nbits >= 13 && len(distinct) != len(perms) {
			t.Errorf("%d bits: %d distinct permutations of %d", nbits, len(distinct), len(perms))
		}
		again := Permutations(42, nbits, 12)
		other := Permutations(43, nbits, 12)
		for k := range perms {
			if again[k] != perms[k] {
				t.Fatalf("%d bits: seed 42 drew permutation %d differently twice", nbits, k)
			}
			if nbits == 64 && other[k].to == perms[k].to {
				t.Errorf("seeds 42 and 43 drew the same permutation %d", k)
			}
		}
	}
}

func BenchmarkPermute(b *testing.B) {
	perms := Permutations(1, 64, 10)
	var x uint64
	for i := 0; b.Loop(); i++ {
		for k := range perms {
			x ^= perms[k].Apply(uint64(i) * 0x9e3779b97f4a7c15)
		}
	}
	_ = x
}
