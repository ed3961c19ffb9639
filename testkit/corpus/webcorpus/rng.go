package webcorpus

import (
	"hash/fnv"

	"github.com/neardup/neardup/internal/hashmix"
)

// rng is a seeded, fully specified random source: the same seed and
// stream give the same draws on every platform and Go version.
type rng struct{ g *hashmix.Generator }

// newRNG returns the source of the named stream of seed, so that one part
// of the plan does not shift another's draws.
func newRNG(seed uint64, stream string) *rng {
	h := fnv.New64a()
	h.Write([]byte(stream))
	return &rng{hashmix.NewGenerator(hashmix.Splitmix64(seed) ^ h.Sum64())}
}

// intn returns a number in [0, n); n > 0.
func (r *rng) intn(n int) int { return hashmix.Range(r.g.Next(), n) }

// between returns a number in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// shuffle permutes n items with swap.
func (r *rng) shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.intn(i+1))
	}
}
