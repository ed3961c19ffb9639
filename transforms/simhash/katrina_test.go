package simhash

import (
	"cmp"
	"math/bits"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/testkit/sentencetest"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/docfreq"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
)

// testShingleLength is the pipeline's default.
const testShingleLength = sentencetest.ShingleLength

// katrinaSentences returns the in-window sentences of Weissman et al.'s
// Katrina export (../shared/data/wikiduper/Katrina.xml, or the committed
// slice of it where ../shared is missing), split as the pipeline splits
// them: those of more than 75 and fewer than 600 shingles of 12.
func katrinaSentences(tb testing.TB) []sentence.Sentence {
	tb.Helper()
	return sentencetest.InWindow(tb, testshared.Katrina(tb))
}

// sketchOf counts the words of sentences as docfreq.Count does.
func sketchOf(sents []sentence.Sentence, norm shingle.Normalization) *docfreq.Sketch {
	tok := docfreq.Config{Tokens: docfreq.Words, Norm: norm}.Tokenizer()
	var s docfreq.Sketch
	var tokens []uint64
	for _, st := range sents {
		tokens = tok.AppendTokens(tokens[:0], st.Text)
		s.AddDocument(tokens)
	}
	return &s
}

// signatures signs sentences as the signing DoFn does; a sentence without
// features has none (ok false).
func signatures(cfg Config, sents []sentence.Sentence) (sigs []uint64, ok []bool) {
	return signaturesCounted(cfg, sents, sents)
}

// signaturesCounted is signatures with the word frequencies counted over
// docs, which may hold a sentence twice as the stage's input does.
func signaturesCounted(cfg Config, sents, docs []sentence.Sentence) (sigs []uint64, ok []bool) {
	cfg = cfg.withDefaults()
	signer := NewSigner(cfg.Seed, cfg.Bits)
	shingler := shingle.New(cfg.ShingleLength, cfg.Norm)
	words := newWordFeatures(cfg)
	var freq Frequencies
	if cfg.Features == FeaturesWords {
		freq = sketchOf(docs, cfg.Norm)
	}
	for _, st := range sents {
		var sig uint64
		var n int
		if cfg.Features == FeaturesWords {
			hashes, weights := words.features(st.Text, freq)
			sig, n = signer.Weighted(hashes, weights), len(hashes)
		} else {
			hashes := shingler.Hashes(st.Text)
			sig, n = signer.Shingles(hashes), len(hashes)
		}
		sigs, ok = append(sigs, sig), append(ok, n > 0)
	}
	return sigs, ok
}

// logicCandidates is what Candidates computes, without Beam: every
// permutation's range shards, windows and seams; the distinct candidate
// pairs of sentence ids, sorted, and the stages' statistics.
func logicCandidates(tb testing.TB, cfg Config, sents []sentence.Sentence) ([]shuffle.Pair, Stats) {
	tb.Helper()
	return logicCandidatesCounted(tb, cfg, sents, sents)
}

// logicCandidatesCounted is logicCandidates with the word frequencies
// counted over docs.
func logicCandidatesCounted(tb testing.TB, cfg Config, sents, docs []sentence.Sentence) ([]shuffle.Pair, Stats) {
	tb.Helper()
	cfg = cfg.withDefaults()
	sigs, ok := signaturesCounted(cfg, sents, docs)
	var all []shuffle.Pair
	var st Stats
	for _, p := range Permutations(cfg.Seed, cfg.Bits, cfg.Permutations) {
		var entries []shuffle.Pair
		for i, s := range sents {
			if ok[i] {
				entries = append(entries, shuffle.Pair{A: p.Apply(sigs[i]), B: uint64(s.ID)})
			}
		}
		found, w := shardedWindow(tb, entries, cfg.Shards, cfg.Window, cfg.MaxHamming)
		all = append(all, found...)
		st.Add(w)
	}
	return distinctPairs(all), st
}

// similarPair is two sentences (indices) and their shingle sets' Jaccard
// similarity.
type similarPair struct {
	i, j    int
	jaccard float64
}

// similarPairs returns every pair of sentences whose sets of shingles of
// 12 have a Jaccard similarity of at least threshold, exactly: an
// all-pairs join with prefix filtering (a pair of similarity t shares a
// token among the first |x|-⌈t|x|⌉+1 of each set in one global order,
// rarest first), every candidate then measured.
func similarPairs(sents []sentence.Sentence, threshold float64) []similarPair {
	shingler := shingle.New(testShingleLength, shingle.DefaultNormalization)
	sets := make([][]uint64, len(sents))
	freq := map[uint64]int{}
	for i, st := range sents {
		h := slices.Clone(shingler.Hashes(st.Text))
		slices.Sort(h)
		sets[i] = slices.Compact(h)
		for _, x := range sets[i] {
			freq[x]++
		}
	}
	rarest := func(a, b uint64) int { return cmp.Or(cmp.Compare(freq[a], freq[b]), cmp.Compare(a, b)) }
	index := map[uint64][]int{}
	seen := map[[2]int]bool{}
	var out []similarPair
	for i, set := range sets {
		order := slices.Clone(set)
		slices.SortFunc(order, rarest)
		prefix := len(order) - int(threshold*float64(len(order))+0.999999) + 1
		for _, x := range order[:max(prefix, 0)] {
			for _, j := range index[x] {
				if seen[[2]int{j, i}] {
					continue
				}
				seen[[2]int{j, i}] = true
				if s := jaccard(sets[j], set); s >= threshold {
					out = append(out, similarPair{j, i, s})
				}
			}
			index[x] = append(index[x], i)
		}
	}
	return out
}

// jaccard is the Jaccard similarity of two sorted sets.
func jaccard(a, b []uint64) float64 {
	common := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			common++
			i++
			j++
		}
	}
	return float64(common) / float64(len(a)+len(b)-common)
}

// components labels every id of pairs with the least id of its connected
// component.
func components(pairs []shuffle.Pair) map[uint64]uint64 {
	parent := map[uint64]uint64{}
	var find func(x uint64) uint64
	find = func(x uint64) uint64 {
		p, ok := parent[x]
		if !ok || p == x {
			parent[x] = x
			return x
		}
		r := find(p)
		parent[x] = r
		return r
	}
	for _, p := range pairs {
		a, b := find(p.A), find(p.B)
		parent[max(a, b)] = min(a, b)
	}
	labels := map[uint64]uint64{}
	for x := range parent {
		labels[x] = find(x)
	}
	return labels
}

// TestKatrinaCandidates checks on real sentences that identical and
// near-identical ones become candidates: at the defaults (10 permutations,
// windows of 10) and the Hamming limit of cosine 2·0.8/1.8 (two sets of
// one size and Jaccard similarity 0.8), with 4 range shards. Identical
// shingle sets have equal signatures, which sort together: every two are
// linked, directly or through a chain of copies. Of the pairs of Jaccard
// similarity 0.8 or more whose signatures are within the limit, the
// windows find nearly all (on the whole export with seed 1, all 81 of
// them for shingles and all 78 for words, of 87 pairs); with the pairs
// whose signatures are farther apart, the recall is 0.93 for shingles,
// 0.90 for words. One range shard per permutation finds the same pairs as four.
func TestKatrinaCandidates(t *testing.T) { checkCandidates(t, katrinaSentences(t)) }

// checkCandidates is TestKatrinaCandidates on sents.
func checkCandidates(t *testing.T, sents []sentence.Sentence) {
	similar := similarPairs(sents, 0.8)
	identical := 0
	for _, p := range similar {
		if p.jaccard == 1 {
			identical++
		}
	}
	if identical == 0 || identical == len(similar) {
		t.Fatalf("%d similar pairs, %d identical: the dump proves nothing", len(similar), identical)
	}
	maxHamming := MaxHammingFor(2*0.8/1.8, 64)
	for _, features := range []string{FeaturesShingles, FeaturesWords} {
		t.Run(features, func(t *testing.T) {
			cfg := Config{
				Features: features, MaxHamming: maxHamming, Seed: 1,
				ShingleLength: testShingleLength, Norm: shingle.DefaultNormalization, Shards: 4,
			}
			cands, _ := logicCandidates(t, cfg, sents)
			found := map[shuffle.Pair]bool{}
			for _, p := range cands {
				found[p] = true
			}
			labels := components(cands)
			sigs, _ := signatures(cfg, sents)
			direct, within, withinFound := 0, 0, 0
			for _, p := range similar {
				u, v := uint64(sents[p.i].ID), uint64(sents[p.j].ID)
				isFound := found[shuffle.Pair{A: min(u, v), B: max(u, v)}]
				if isFound {
					direct++
				}
				if p.jaccard == 1 {
					if lu, ok := labels[u]; !ok || lu != labels[v] {
						t.Errorf("identical sentences not linked:\n  %q\n  %q", sents[p.i].Text, sents[p.j].Text)
					}
				}
				if bits.OnesCount64(sigs[p.i]^sigs[p.j]) <= maxHamming {
					within++
					if isFound {
						withinFound++
					}
				}
			}
			recall := float64(direct) / float64(len(similar))
			t.Logf("%d sentences, %d pairs of Jaccard ≥ 0.8 (%d identical): %d candidates; %d of the %d within the Hamming limit %d found; recall %.3f",
				len(sents), len(similar), identical, len(cands), withinFound, within, maxHamming, recall)
			if withinFound < within*95/100 {
				t.Errorf("the windows found %d of the %d similar pairs within the Hamming limit", withinFound, within)
			}
			if recall < 0.85 {
				t.Errorf("recall %.3f of the pairs of Jaccard ≥ 0.8, want at least 0.85", recall)
			}
			cfg.Shards = 1
			if one, _ := logicCandidates(t, cfg, sents); !slices.Equal(one, cands) {
				t.Errorf("one range shard found %d candidates, four %d", len(one), len(cands))
			}
		})
	}
}
