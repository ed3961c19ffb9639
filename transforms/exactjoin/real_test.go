package exactjoin

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/testkit/sentencetest"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/docfreq"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/verify"
)

// shingleLength is the pipeline's default.
const shingleLength = sentencetest.ShingleLength

// realSets returns the shingle sets of the sentences, by id.
func realSets(sents []sentence.Sentence) map[uint64][]uint64 {
	tok := docfreq.Config{Tokens: docfreq.Shingles, ShingleLength: shingleLength, Norm: shingle.DefaultNormalization}.Tokenizer()
	sets := map[uint64][]uint64{}
	for _, s := range sents {
		sets[uint64(s.ID)] = tok.AppendTokens(nil, s.Text)
	}
	return sets
}

// TestRecallOnRealDumps joins the in-window sentences of real dumps, in
// memory, and checks them against brute force: every pair of shingle
// Jaccard ≥ 0.8 is a candidate between the representatives of their sets
// or a pair of identical sets.
func TestRecallOnRealDumps(t *testing.T) {
	for _, d := range []struct {
		name, rel  string
		minSimilar int // pairs of J ≥ 0.8 the dump is known to have, at least
	}{
		{"Katrina", "wikiduper/Katrina.xml", 50},
		{"elwiki", "xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz", 1000},
		{"ukwiki", "xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz", 10000},
	} {
		t.Run(d.name, func(t *testing.T) {
			if testing.Short() && d.name != "Katrina" {
				t.Skip("brute force takes seconds")
			}
			sets := realSets(sentencetest.InWindow(t, testshared.Data(t, d.rel)))
			j := joinAll(sets, 0.8)
			similar := bruteForce(sets, 0.8)
			if len(similar) < d.minSimilar {
				t.Fatalf("%d pairs of J ≥ 0.8 by brute force, want at least %d: the dump proves little", len(similar), d.minSimilar)
			}
			if miss := j.missed(sets, similar); len(miss) > 0 {
				t.Fatalf("%d of %d pairs of J ≥ 0.8 missed, such as %v", len(miss), len(similar), miss[0])
			}
			t.Logf("%d sentences, %d pairs of J ≥ 0.8: %d distinct candidates and %d identical-set edges; %d entries (%.2f a sentence); %+v",
				len(sets), len(similar), len(distinctPairs(j.candidates)), len(j.stars), j.entries, float64(j.entries)/float64(len(sets)), j.stats)
		})
	}
}

// TestVerifiedPairsAreTheGraph joins the in-window sentences of real
// dumps, verifies the candidates and the identical sets' stars by
// verify.Checker at Verification(t), as verify.Edges does, and checks the
// outcome against brute force over the sets: the pairs kept are exactly the
// pairs of J ≥ t between representatives, every star is kept, and the
// connected components are those of the whole J ≥ t graph. It also checks
// that the verification's Jaccard, computed from the texts, is the join's
// set's, for every candidate.
func TestVerifiedPairsAreTheGraph(t *testing.T) {
	for _, d := range []struct {
		name, rel string
		th        float64
		minBelow  int // candidates below the threshold, at least: what the verification removes
	}{
		{"Katrina", "wikiduper/Katrina.xml", 0.8, 10},
		{"Katrina 0.6", "wikiduper/Katrina.xml", 0.6, 10},
		{"elwiki", "xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz", 0.8, 50},
		{"ukwiki", "xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz", 0.8, 100},
	} {
		t.Run(d.name, func(t *testing.T) {
			if testing.Short() && !strings.HasPrefix(d.name, "Katrina") {
				t.Skip("brute force takes seconds")
			}
			sents := sentencetest.InWindow(t, testshared.Data(t, d.rel))
			texts := map[uint64]string{}
			for _, s := range sents {
				texts[uint64(s.ID)] = s.Text
			}
			sets := realSets(sents)
			j := joinAll(sets, d.th)
			checker := verify.NewChecker(shingleLength, shingle.DefaultNormalization, Verification(d.th))
			var kept []shuffle.Pair
			below := 0
			for _, p := range distinctPairs(j.candidates) {
				sim, ok := checker.Compare(texts[p.A], texts[p.B])
				if want := verify.Jaccard(sets[p.A], sets[p.B]); sim.Jaccard != want {
					t.Fatalf("%v: the verification's Jaccard %v, the sets' %v", p, sim.Jaccard, want)
				}
				if ok != (sim.Jaccard >= d.th) {
					t.Fatalf("%v: kept %v at %+v", p, ok, sim)
				}
				if ok {
					kept = append(kept, p)
				} else {
					below++
				}
			}
			for _, p := range j.stars {
				if sim, ok := checker.Compare(texts[p.A], texts[p.B]); !ok {
					t.Fatalf("identical sets %v not kept: %+v", p, sim)
				}
			}
			similar := bruteForce(sets, d.th)
			var want []shuffle.Pair // the pairs of J ≥ t between representatives
			for _, p := range similar {
				if j.rep[p.A] == p.A && j.rep[p.B] == p.B {
					want = append(want, p)
				}
			}
			if !slices.Equal(kept, want) {
				t.Fatalf("%d pairs kept, %d pairs of J ≥ %v between representatives; first difference %v",
					len(kept), len(want), d.th, firstDifference(kept, want))
			}
			if got, want := components(append(kept, j.stars...)), components(similar); !maps.Equal(got, want) {
				t.Fatalf("the kept pairs and stars make %d linked sentences, the J ≥ %v graph %d, or other components", len(got), d.th, len(want))
			}
			if below < d.minBelow {
				t.Fatalf("%d candidates below %v: the dump proves little", below, d.th)
			}
			t.Logf("%d sentences, %d pairs of J ≥ %v (%d between representatives), %d stars; of %d distinct candidates %d below the threshold",
				len(sets), len(similar), d.th, len(want), len(j.stars), len(kept)+below, below)
		})
	}
}

// components labels each sentence of an edge with the least id of its
// connected component.
func components(edges []shuffle.Pair) map[uint64]uint64 {
	parent := map[uint64]uint64{}
	var find func(uint64) uint64
	find = func(x uint64) uint64 {
		p, ok := parent[x]
		if !ok || p == x {
			return x
		}
		r := find(p)
		parent[x] = r
		return r
	}
	for _, e := range edges {
		a, b := find(e.A), find(e.B)
		parent[max(a, b)] = min(a, b)
		parent[e.A], parent[e.B] = find(e.A), find(e.B)
	}
	label := map[uint64]uint64{}
	for x := range parent {
		label[x] = find(x)
	}
	return label
}

// firstDifference returns the first pair of the sorted got or want that
// the other lacks.
func firstDifference(got, want []shuffle.Pair) string {
	for _, p := range got {
		if _, ok := slices.BinarySearchFunc(want, p, shuffle.ComparePairs); !ok {
			return fmt.Sprintf("%v kept, not of J ≥ t", p)
		}
	}
	for _, p := range want {
		if _, ok := slices.BinarySearchFunc(got, p, shuffle.ComparePairs); !ok {
			return fmt.Sprintf("%v of J ≥ t, not kept", p)
		}
	}
	return "none"
}
