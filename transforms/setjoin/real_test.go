package setjoin

import (
	"testing"

	"github.com/neardup/neardup/internal/sentencetest"
	"github.com/neardup/neardup/internal/testshared"
	"github.com/neardup/neardup/transforms/docfreq"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
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
