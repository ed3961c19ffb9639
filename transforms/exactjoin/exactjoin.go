// Package exactjoin finds candidate pairs of near-duplicate sentences by an
// exact set-similarity join (--scheme exact): every pair of in-window
// sentences whose shingle sets have a Jaccard similarity of at least the
// threshold t is a candidate, by construction, where MinHash banding finds
// such a pair only with some probability.
//
// It is the prefix-filtering join of All-Pairs (Bayardo, Ma and Srikant,
// 2007) and PPJoin (Xiao et al., 2008), distributed as Vernica, Carey and
// Li do it with MapReduce (2010): shingles ordered rarest first (package
// docfreq), each set sent to the groups of its prefix shingles, identical
// sets joined once through a star, and the length and positional filters
// in each group. The filters are necessary conditions only; verify.Edges
// then keeps a pair iff J ≥ t (Verification). docs/schemes.md ("How exact
// joins") says why each step is correct, what it costs and what was
// measured.
package exactjoin

import (
	"cmp"
	"encoding/binary"
	"errors"
	"math"
	"slices"

	"github.com/neardup/neardup/internal/hashmix"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/verify"
)

// Verification is the verification that makes the join exact at threshold
// t: a candidate is linked if and only if its shingle sets have Jaccard ≥
// t. --min_jaccard's 0.5 would link most of the pairs below t the filters
// let through, and --max_edit's 0.25 some more; an edit distance of 0 is
// kept because it means equal normalised texts, whose sets are equal
// (Jaccard 1): it links nothing that Jaccard ≥ t does not.
func Verification(t float64) verify.Thresholds {
	return verify.Thresholds{MinJaccard: t, MaxEdit: 0}
}

// eps absorbs the rounding of products of the threshold: every bound below
// errs on the side of letting a pair through.
const eps = 1e-9

// PrefixLength is the number of shingles of a set of n that are sent to
// the join for threshold t: n − ⌈t·n⌉ + 1 (n when t·n ≤ 1; 0 for n = 0).
func PrefixLength(n int, t float64) int {
	if n <= 0 {
		return 0
	}
	return min(n, n-int(math.Ceil(t*float64(n)-eps))+1)
}

// MaxPartnerSize is the size of the largest set that can have a Jaccard
// similarity of t or more with a set of n: ⌊n/t⌋.
func MaxPartnerSize(n int, t float64) int {
	return int(math.Floor(float64(n)/t + eps))
}

// MinOverlap is the fewest shingles two sets of na and nb must share to
// have a Jaccard similarity of t or more: ⌈t/(1+t)·(na+nb)⌉, since
// o/(na+nb−o) ≥ t ⇔ o ≥ t·(na+nb)/(1+t).
func MinOverlap(na, nb int, t float64) int {
	return int(math.Ceil(t/(1+t)*float64(na+nb) - eps))
}

// Counter gives a token's document frequency, or an upper bound of it
// (*docfreq.Sketch).
type Counter interface{ Count(token uint64) uint32 }

// manyCounter counts many tokens faster than one at a time
// (*docfreq.Sketch).
type manyCounter interface {
	AppendCounts(dst []uint32, tokens []uint64) []uint32
}

// Ranked is a shingle and its count, which place it in the global order.
type Ranked struct {
	Token uint64
	Count uint32
}

// less is the global order: rarer first, then by hash.
func (r Ranked) compare(o Ranked) int {
	return cmp.Or(cmp.Compare(r.Count, o.Count), cmp.Compare(r.Token, o.Token))
}

// Fingerprint is a 64-bit hash of a set given as its sorted distinct
// tokens: equal sets, equal fingerprints.
func Fingerprint(sorted []uint64) uint64 {
	h := uint64(len(sorted)) * hashmix.Gamma
	for _, t := range sorted {
		h = hashmix.Splitmix64(h ^ t)
	}
	return h
}

// Prefixer computes the prefixes of sets, reusing its buffers. It is not
// safe for concurrent use; make one per worker.
type Prefixer struct {
	T      float64 // the join's Jaccard threshold
	counts []uint32
	ranked []Ranked
}

// Prefix returns the prefix of a set given as its distinct tokens in
// increasing order: its first PrefixLength(len(tokens), T) tokens in the
// global order, with their counts. The slice is the Prefixer's, valid
// until the next call.
func (p *Prefixer) Prefix(tokens []uint64, c Counter) []Ranked {
	n := len(tokens)
	k := PrefixLength(n, p.T)
	if k == 0 {
		return nil
	}
	p.ranked = slices.Grow(p.ranked[:0], n)[:n]
	if many, ok := c.(manyCounter); ok {
		p.counts = many.AppendCounts(p.counts[:0], tokens)
	} else {
		p.counts = p.counts[:0]
		for _, t := range tokens {
			p.counts = append(p.counts, c.Count(t))
		}
	}
	for i, t := range tokens {
		p.ranked[i] = Ranked{t, p.counts[i]}
	}
	// The k-th least count splits the tokens: all those below it are in
	// the prefix, and, of those equal to it, the ones of least hashes
	// that fit: the first ones, tokens being in increasing order.
	split := kthLeast(p.counts, k-1)
	room := k
	for _, r := range p.ranked {
		if r.Count < split {
			room--
		}
	}
	prefix := p.ranked[:0] // compacted in place
	for _, r := range p.ranked {
		if r.Count < split || r.Count == split && room > 0 {
			if r.Count == split {
				room--
			}
			prefix = append(prefix, r)
		}
	}
	slices.SortFunc(prefix, Ranked.compare)
	return prefix
}

// kthLeast returns the value that would be at index k of xs sorted, in
// linear time (Hoare's selection, the middle element as pivot); it
// reorders xs.
func kthLeast(xs []uint32, k int) uint32 {
	lo, hi := 0, len(xs)-1
	for hi-lo > 16 {
		pivot := xs[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for xs[j] > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return xs[k] // between j and i: equal to the pivot
		}
	}
	slices.Sort(xs[lo : hi+1])
	return xs[k]
}

// Entry is one prefix shingle of one set: what the set sends to the group
// of the shingle.
type Entry struct {
	Token uint64 // the shingle, which names the group
	Set   uint64 // the set's Fingerprint
	ID    uint64 // the sentence
	Size  int32  // the set's size
	Pos   int32  // the shingle's position in the set's global order, from 0
}

// AppendEntries appends to dst the entries of sentence id, whose set of
// size n has the given fingerprint and prefix (Prefixer.Prefix): one per
// prefix shingle whose count is 2 or more.
func AppendEntries(dst []Entry, id, set uint64, n int, prefix []Ranked) []Entry {
	for i, r := range prefix {
		if r.Count >= 2 { // else in this sentence only
			dst = append(dst, Entry{Token: r.Token, Set: set, ID: id, Size: int32(n), Pos: int32(i)})
		}
	}
	return dst
}

// AppendPrefixes appends to b the shuffle.KindPrefixes record of entries
// of one set (one sentence, fingerprint and size; those of its prefix
// shingles that go to one shard): the set once, then each entry's shingle
// and position. With the shards of the pipeline's embedded runner (4), a
// set's 30 prefix shingles take 12 bytes each instead of 26 when every
// entry carries its set.
func AppendPrefixes(b []byte, entries []Entry) []byte {
	if len(entries) == 0 {
		return b
	}
	e := &entries[0]
	b = binary.AppendUvarint(b, e.ID)
	b = binary.LittleEndian.AppendUint64(b, e.Set)
	b = binary.AppendUvarint(b, uint64(e.Size))
	b = binary.AppendUvarint(b, uint64(len(entries)))
	for i := range entries {
		b = binary.LittleEndian.AppendUint64(b, entries[i].Token)
		b = binary.AppendUvarint(b, uint64(entries[i].Pos))
	}
	return b
}

// errRecord reports a record of entries that does not decode.
var errRecord = errors.New("exactjoin: corrupt record of prefix entries")

// UnmarshalPrefixes appends to dst the entries of a record AppendPrefixes
// wrote.
func UnmarshalPrefixes(dst []Entry, rec []byte) ([]Entry, error) {
	id, n := binary.Uvarint(rec)
	if n <= 0 || len(rec) < n+8 {
		return dst, errRecord
	}
	set := binary.LittleEndian.Uint64(rec[n:])
	rec = rec[n+8:]
	size, n := binary.Uvarint(rec)
	if n <= 0 || size > math.MaxInt32 {
		return dst, errRecord
	}
	rec = rec[n:]
	count, n := binary.Uvarint(rec)
	if n <= 0 || count == 0 || count > size || count > uint64(len(rec)) {
		return dst, errRecord
	}
	rec = rec[n:]
	for range count {
		if len(rec) < 8 {
			return dst, errRecord
		}
		token := binary.LittleEndian.Uint64(rec)
		pos, n := binary.Uvarint(rec[8:])
		if n <= 0 || pos >= size {
			return dst, errRecord
		}
		rec = rec[8+n:]
		dst = append(dst, Entry{Token: token, Set: set, ID: id, Size: int32(size), Pos: int32(pos)})
	}
	if len(rec) != 0 {
		return dst, errRecord
	}
	return dst, nil
}

// Stats counts what Join saw.
type Stats struct {
	Entries       int64 // entries read
	Groups        int64 // distinct shingles
	LargestGroup  int64 // distinct sets of the largest group
	PairsCompared int64 // pairs of distinct sets of a group
	PairsFiltered int64 // of those, refused by a filter or met before
	Candidates    int64 // of those, passed on
}

// Add adds o to s, the largest group being the larger one.
func (s *Stats) Add(o Stats) {
	s.Entries += o.Entries
	s.Groups += o.Groups
	s.LargestGroup = max(s.LargestGroup, o.LargestGroup)
	s.PairsCompared += o.PairsCompared
	s.PairsFiltered += o.PairsFiltered
	s.Candidates += o.Candidates
}

// Joiner joins the entries of groups, reusing its buffers. It is not safe
// for concurrent use; make one per worker.
type Joiner struct {
	T    float64 // the join's Jaccard threshold
	reps []Entry
}

// Join appends to dst the candidate pairs {A, B}, A < B, of one group: the
// entries of one shingle, in any order. Entries of one set (equal
// fingerprints and sizes) count as one, its smallest id's: identical sets
// are linked apart (IdenticalStars). The pairs come out in the order of
// their first set's size, then id, then of the second's, so the result does
// not depend on the entries' order.
func (j *Joiner) Join(dst []shuffle.Pair, group []Entry, st *Stats) []shuffle.Pair {
	st.Entries += int64(len(group))
	st.Groups++
	slices.SortFunc(group, func(x, y Entry) int {
		return cmp.Or(cmp.Compare(x.Set, y.Set), cmp.Compare(x.Size, y.Size), cmp.Compare(x.ID, y.ID))
	})
	reps := j.reps[:0]
	for i, e := range group {
		if i == 0 || e.Set != group[i-1].Set || e.Size != group[i-1].Size {
			reps = append(reps, e)
		}
	}
	j.reps = reps
	slices.SortFunc(reps, func(x, y Entry) int {
		return cmp.Or(cmp.Compare(x.Size, y.Size), cmp.Compare(x.ID, y.ID), cmp.Compare(x.Set, y.Set))
	})
	g := int64(len(reps))
	st.LargestGroup = max(st.LargestGroup, g)
	st.PairsCompared += g * (g - 1) / 2
	t := j.T
	for a, x := range reps {
		maxSize := int32(MaxPartnerSize(int(x.Size), t))
		b := a + 1
		for ; b < len(reps) && reps[b].Size <= maxSize; b++ {
			y := &reps[b]
			if x.ID == y.ID || // one sentence, two texts: a page revision read under two titles
				1+min(x.Size-x.Pos-1, y.Size-y.Pos-1) < int32(MinOverlap(int(x.Size), int(y.Size), t)) {
				st.PairsFiltered++
				continue
			}
			dst = append(dst, shuffle.Pair{A: min(x.ID, y.ID), B: max(x.ID, y.ID)})
			st.Candidates++
		}
		st.PairsFiltered += int64(len(reps) - b) // too large for x
	}
	return dst
}
