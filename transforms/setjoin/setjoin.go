// Package setjoin finds candidate pairs of near-duplicate sentences by an
// exact set-similarity join (--scheme exact): every pair of in-window
// sentences whose shingle sets have a Jaccard similarity of at least the
// threshold t is a candidate, by construction, where MinHash banding finds
// such a pair only with some probability.
//
// It is the prefix-filtering join of Bayardo, Ma and Srikant's All-Pairs
// (2007) and Xiao et al.'s PPJoin (2008), distributed as Vernica, Carey and
// Li do it with MapReduce (2010):
//
//   - Order. The shingles of every set are ordered by one global order:
//     rarest first, by their document frequency (package docfreq, a
//     count-min sketch read as a side input), ties broken by the hash. Any
//     total order would be correct; rarest first makes prefixes selective
//     and keeps common shingles, which would make huge groups, out of them.
//   - Prefix. Two sets x, y with J(x, y) ≥ t share at least ⌈t·|x|⌉
//     shingles, so they share one of the first |x| − ⌈t·|x|⌉ + 1 of x (its
//     prefix), and one of y's: each set is sent, as one entry per prefix
//     shingle, to the group of that shingle. A shingle whose count is 1
//     occurs in one sentence only (a count is never below the true
//     frequency), so it can match nothing and is not sent.
//   - Identical sets. Sentences whose sets are equal (a 64-bit fingerprint
//     of the set) are linked to the smallest id among them by a star, as
//     package bucket links a bucket, and only that representative is joined:
//     a boilerplate sentence repeated 10,000 times costs 9,999 edges, not
//     50 million pairs.
//   - Join. Within a group, entries are sorted by set size; a pair is looked
//     at only if its sizes allow J ≥ t (t·|y| ≤ |x| ≤ |y|), and passes if
//     the shingles after the shared one can still make the overlap
//     J ≥ t needs (the positional filter: 1 + min(|x|−i−1, |y|−j−1) ≥
//     ⌈t/(1+t)·(|x|+|y|)⌉ at positions i, j).
//
// A pair of sets of Jaccard ≥ t passes at the first shingle they share:
// that shingle is in both prefixes, and the filters are weakest there. So
// recall is 1: every such pair is a candidate, or both sentences are linked
// by candidates to the representatives of their identical sets, which are.
//
// The filters are necessary conditions, not sufficient ones: on the 8×
// benchmark corpus (each sentence in 8 versions) 65% of the distinct
// candidates are below t. The pairs that pass are verified, like the
// buckets' edges, by verify.Edges, at Verification(t): Jaccard ≥ t and
// nothing else, so the scheme's edges are exactly the pairs of J ≥ t among
// the representatives and the identical sets' stars, and its clusters the
// connected components of the J ≥ t graph. The verification is not done
// here because a group holds prefix entries, not sets: carrying each set
// whole (150 shingles, 1.2 KB, in the 8× corpus) in every record of
// entries (one per shard its prefix reaches: 8.6 of 9) would shuffle 10 KB
// a sentence instead of 0.4, where verify.Edges, which must join the two
// texts anyway for the edit distance it reports, compares the pair from
// texts of 150 bytes.
//
// What the identical sets cost: their sentences are only known to be
// copies once grouped, so every copy sends its entries; in each group the
// entries of one set (equal fingerprints and sizes) count as one, its
// least id's, the star's anchor. Two different sets would be taken for one
// only if they met in a group with equal sizes and 64-bit fingerprints.
//
// Repeats: a pair of near duplicates shares most of its prefix, so it
// passes in several groups. Telling in a group whether its shingle is the
// first the pair shares would take the earlier prefix shingles in every
// entry; on the Greek sample the first one alone cost 415 KB of entries to
// spare 131 KB of repeated candidates, so entries carry none, and each
// bundle remembers the pairs it sent, as package bucket does.
//
// Hot shingles: a group holds the distinct sets that have its shingle
// among their rarest |x| − ⌈t·|x|⌉ + 1, at most the shingle's count. A
// common shingle gets there only in sets of mostly common shingles:
// templates, whose variants are near duplicates of each other, so the
// pairs of a large group are mostly true candidates, which an exact join
// must return. The largest groups measured: 5 sets (Katrina), 29 (the
// Greek sample), 13 (Ukrainian), 42 (100,000 sentences of six samples),
// 14 (the 8× benchmark corpus, 174,000 sentences); a template filled 400
// ways makes groups of 400 (TestTemplateFamilyIsJoinedWhole). No group is
// cut: the counts report the largest (Scheme.LargestGroup).
//
// The sketch has 2^21 counters a row: beyond some 30,000 sentences most
// shingles that occur once no longer read a count of 1, and a sentence
// sends about |x| − ⌈t·|x|⌉ + 1 entries (28 in the 8× corpus; 2.2 in the
// samples alone).
package setjoin

import (
	"cmp"
	"encoding/binary"
	"errors"
	"math"
	"slices"

	"github.com/neardup/neardup/internal/mix"
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
	h := uint64(len(sorted)) * mix.Gamma
	for _, t := range sorted {
		h = mix.Splitmix64(h ^ t)
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

// AppendRecord appends to b the record of entries of one set (one
// sentence, fingerprint and size; those of its prefix shingles that go to
// one shard): the uvarint of the id, the fingerprint in 8 bytes
// little-endian, the uvarints of the size and of the number of entries,
// then each entry's shingle in 8 bytes and the uvarint of its position.
// With the shards of the pipeline's embedded runner (4), a set's 30
// prefix shingles take 12 bytes each instead of 26 when every entry
// carries its set.
func AppendRecord(b []byte, entries []Entry) []byte {
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
var errRecord = errors.New("setjoin: corrupt record of prefix entries")

// AppendEntriesOf appends to dst the entries of a record AppendRecord
// wrote.
func AppendEntriesOf(dst []Entry, rec []byte) ([]Entry, error) {
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
