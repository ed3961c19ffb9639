package exactjoin

import (
	"cmp"
	"slices"

	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/bucket"
	"github.com/neardup/neardup/transforms/docfreq"
)

// joined is what the join makes of a collection of sets, without Beam.
type joined struct {
	candidates []shuffle.Pair // with repeats, each A < B
	stars      []shuffle.Pair // identical sets' edges
	stats      Stats
	rep        map[uint64]uint64 // a sentence's representative: the least id of its set
	entries    int
	bytes      int // the entries' encodings
}

// joinAll runs every step of the join on sets (sorted distinct tokens)
// keyed by sentence id, in memory: the sketch, the prefixes and entries,
// the groups and the identical sets' stars.
func joinAll(sets map[uint64][]uint64, t float64) joined {
	var sketch docfreq.Sketch
	ids := make([]uint64, 0, len(sets))
	for id := range sets {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		sketch.AddDocument(sets[id])
	}
	p := &Prefixer{T: t}
	var entries []Entry
	var fingerprints []shuffle.Pair
	out := joined{rep: map[uint64]uint64{}}
	for _, id := range ids {
		set := sets[id]
		fp := Fingerprint(set)
		fingerprints = append(fingerprints, shuffle.Pair{A: fp, B: id})
		entries = AppendEntries(entries, id, fp, len(set), p.Prefix(set, &sketch))
	}
	out.entries = len(entries)
	for i := range entries { // as if a shard had each
		out.bytes += len(AppendPrefixes(nil, entries[i:i+1]))
	}
	slices.SortStableFunc(entries, func(x, y Entry) int { return cmp.Compare(x.Token, y.Token) })
	j := &Joiner{T: t}
	for i := 0; i < len(entries); {
		k := i + 1
		for k < len(entries) && entries[k].Token == entries[i].Token {
			k++
		}
		out.candidates = j.Join(out.candidates, entries[i:k], &out.stats)
		i = k
	}
	out.stars, _ = bucket.Stars(nil, fingerprints)
	for _, id := range ids {
		out.rep[id] = id
	}
	for _, e := range out.stars {
		out.rep[e.B] = e.A
	}
	return out
}

// missed returns the pairs of sets with Jaccard ≥ t (given, A < B) that
// the join does not cover: neither a candidate between their
// representatives nor identical sets.
func (j joined) missed(sets map[uint64][]uint64, similar []shuffle.Pair) []shuffle.Pair {
	cands := map[shuffle.Pair]bool{}
	for _, c := range j.candidates {
		cands[c] = true
	}
	var out []shuffle.Pair
	for _, p := range similar {
		ra, rb := j.rep[p.A], j.rep[p.B]
		if ra == rb && slices.Equal(sets[p.A], sets[p.B]) {
			continue
		}
		if !cands[shuffle.Pair{A: min(ra, rb), B: max(ra, rb)}] {
			out = append(out, p)
		}
	}
	return out
}

// distinctPairs returns the distinct pairs of ps, sorted.
func distinctPairs(ps []shuffle.Pair) []shuffle.Pair {
	ps = slices.Clone(ps)
	shuffle.SortPairs(ps)
	return slices.Compact(ps)
}

// bruteForce returns every pair {A, B}, A < B, of sets with Jaccard ≥ t,
// sorted: it counts the overlap of every pair sharing a token through an
// inverted index of all the tokens, no filter.
func bruteForce(sets map[uint64][]uint64, t float64) []shuffle.Pair {
	ids := make([]uint64, 0, len(sets))
	for id := range sets {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	postings := map[uint64][]int32{}
	overlap := make([]int32, len(ids))
	var touched []int32
	var out []shuffle.Pair
	for x, id := range ids {
		touched = touched[:0]
		for _, tok := range sets[id] {
			for _, y := range postings[tok] {
				if overlap[y] == 0 {
					touched = append(touched, y)
				}
				overlap[y]++
			}
			postings[tok] = append(postings[tok], int32(x))
		}
		for _, y := range touched {
			o, nx, ny := int(overlap[y]), len(sets[id]), len(sets[ids[y]])
			if float64(o)/float64(nx+ny-o) >= t {
				out = append(out, shuffle.Pair{A: ids[y], B: id})
			}
			overlap[y] = 0
		}
	}
	shuffle.SortPairs(out)
	return out
}
