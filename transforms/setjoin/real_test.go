package setjoin

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/neardup/neardup/internal/testshared"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/docfreq"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
)

// The pipeline's defaults.
const (
	shingleLength = 12
	minShingles   = 75
	maxShingles   = 600
)

// realSentences reads, cleans and splits the main-namespace pages of the
// dump at path as the pipeline does, and returns its in-window sentences
// (more than minShingles shingles, fewer than maxShingles), their Rank
// set as minhash.Sign sets it.
func realSentences(tb testing.TB, path string) []sentence.Sentence {
	tb.Helper()
	ctx := context.Background()
	site, err := dump.ReadSite(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	splitter := sentence.PageSplitter{Sites: clean.NewSites([]dump.Site{site})}
	if splitter.Wikis, err = sentence.NewWikis([]dump.Site{site}); err != nil {
		tb.Fatal(err)
	}
	rc, err := dump.Open(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	defer rc.Close()
	r := dump.NewReader(rc, path, dump.Options{})
	shingler := shingle.New(shingleLength, shingle.DefaultNormalization)
	var out []sentence.Sentence
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || (err != nil && len(out) > 0 && errors.Is(err, dump.ErrTruncated)) {
			return out
		}
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		if p.NS != 0 || p.Redirect != "" {
			continue
		}
		p.Wiki = site.Wiki
		sp, err := splitter.Split(p)
		if err != nil {
			tb.Fatal(err)
		}
		rank := 0
		for _, s := range sp.Sentences {
			if _, n := shingler.HashesBelow(s.Text, maxShingles); n > minShingles && n < maxShingles {
				s.Rank, rank = rank, rank+1
				out = append(out, s)
			}
		}
	}
}

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
			sets := realSets(realSentences(t, testshared.Data(t, d.rel)))
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
