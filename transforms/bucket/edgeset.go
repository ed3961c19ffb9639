package bucket

import (
	"github.com/neardup/neardup/internal/hashmix"
	"github.com/neardup/neardup/internal/shuffle"
)

// edgeSet remembers up to a fixed number of edges in an open-addressed
// table twice that size, 32 bytes an edge: a Go map of a million pairs took
// 105–237 MB of the 32× and 64× benchmark corpora's peak heap. Once full
// it forgets everything and starts again, as the map it replaces did. The
// zero pair marks an empty slot: it is not an edge, whose nodes differ.
type edgeSet struct {
	slots []shuffle.Pair
	mask  uint64
	n     int
	limit int
}

// newEdgeSet returns a set that holds up to limit edges (a power of two).
func newEdgeSet(limit int) *edgeSet {
	return &edgeSet{slots: make([]shuffle.Pair, 2*limit), mask: uint64(2*limit - 1), limit: limit}
}

// add adds e and reports whether it was not in the set. Adding to a full
// set empties it first.
func (s *edgeSet) add(e shuffle.Pair) bool {
	i := hashmix.Splitmix64(e.A^hashmix.Splitmix64(e.B)) & s.mask
	for {
		switch s.slots[i] {
		case e:
			return false
		case shuffle.Pair{}:
			if s.n == s.limit {
				s.clear()
				return s.add(e)
			}
			s.slots[i] = e
			s.n++
			return true
		}
		i = (i + 1) & s.mask
	}
}

// clear empties the set.
func (s *edgeSet) clear() {
	clear(s.slots)
	s.n = 0
}
