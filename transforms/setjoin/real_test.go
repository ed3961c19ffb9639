package setjoin

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

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

var realDumps = []struct{ name, rel string }{
	{"Katrina", "wikiduper/Katrina.xml"},
	{"elwiki", "xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz"},
	{"ukwiki", "xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz"},
}

func TestRealStats(t *testing.T) {
	for _, d := range realDumps {
		sents := realSentences(t, testshared.Data(t, d.rel))
		sets := realSets(sents)
		j := joinAll(sets, 0.8)
		start := time.Now()
		similar := bruteForce(sets, 0.8)
		t.Logf("brute force: %d pairs in %v; missed %d", len(similar), time.Since(start), len(j.missed(sets, similar)))
		t.Logf("%s: %d sentences: entries %d (%d bytes), stars %d, stats %+v, distinct candidates %d",
			d.name, len(sets), j.entries, j.bytes, len(j.stars), j.stats, len(distinctPairs(j.candidates)))
	}
}
