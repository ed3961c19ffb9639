// Package sentencetest gives the tests of the stages after signing what
// minhash.Sign would give them: the in-window sentences of a real dump,
// packed and keyed as Sign packs and keys its records. Those stages'
// tests (docfreq, exactjoin, simhash, verify) share it instead of each
// keeping a copy.
package sentencetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
)

func init() {
	register.DoFn2x1[[]byte, func(int, []byte), error](&keyRecordsFn{})
	register.Emitter2[int, []byte]()
}

// The pipeline's default window: sentences of more than MinShingles and
// fewer than MaxShingles shingles of ShingleLength characters are signed.
const (
	ShingleLength = 12
	MinShingles   = 75
	MaxShingles   = 600
)

// InWindow reads, cleans and splits the main-namespace pages of the dump
// at path as the pipeline does, with the dump's own <siteinfo>, and
// returns its in-window sentences with their Rank set as minhash.Sign sets
// it. A truncated dump gives the sentences of its complete pages.
func InWindow(tb testing.TB, path string) []sentence.Sentence {
	tb.Helper()
	ctx := context.Background()
	site, err := dump.ReadSite(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	splitter := sentence.PageSplitter{Sites: clean.NewSites([]document.Site{site})}
	if splitter.Wikis, err = sentence.NewWikis([]document.Site{site}); err != nil {
		tb.Fatal(err)
	}
	rc, err := dump.Open(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	defer rc.Close()
	r := dump.NewReader(rc, path, dump.Options{})
	shingler := shingle.New(ShingleLength, shingle.DefaultNormalization)
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
			if _, n := shingler.HashesBelow(s.Text, MaxShingles); n > MinShingles && n < MaxShingles {
				s.Rank, rank = rank, rank+1
				out = append(out, s)
			}
		}
	}
}

// Batches encodes sentences as minhash.Sign batches them: by the shard of
// the id, at most perBatch records a batch.
func Batches(tb testing.TB, sents []sentence.Sentence, shards, perBatch int) [][]byte {
	tb.Helper()
	byShard := make([][][]byte, shards)
	for _, s := range sents {
		rec := s.AppendBinary(nil)
		byShard[s.ID.Shard(shards)] = append(byShard[s.ID.Shard(shards)], rec)
	}
	var batches [][]byte
	for _, recs := range byShard {
		for len(recs) > 0 {
			n := min(len(recs), perBatch)
			batches = append(batches, shuffle.KindSentences.PackRecords(recs[:n]...))
			recs = recs[n:]
		}
	}
	return batches
}

// Records is the PCollection of batches keyed by their records' shard, as
// minhash.Sign emits its records; every record of a batch must share it.
func Records(s beam.Scope, batches [][]byte, shards int) shuffle.Sentences {
	return shuffle.MakeSentences(beam.ParDo(s, &keyRecordsFn{Shards: shards}, beam.CreateList(s, batches)))
}

// keyRecordsFn keys a batch of sentence records by its records' shard; an
// empty batch is dropped.
type keyRecordsFn struct{ Shards int }

func (f *keyRecordsFn) ProcessElement(b []byte, emit func(int, []byte)) error {
	if len(b) == 0 {
		return nil
	}
	shard := -1
	err := shuffle.KindSentences.Records(b, func(rec []byte) error {
		var id sentence.ID
		if err := id.UnmarshalPrefix(rec); err != nil {
			return err
		}
		if shard >= 0 && id.Shard(f.Shards) != shard {
			return fmt.Errorf("sentence batch mixes shards %d and %d", shard, id.Shard(f.Shards))
		}
		shard = id.Shard(f.Shards)
		return nil
	})
	if err != nil || shard < 0 {
		return fmt.Errorf("sentence batch: %v", err)
	}
	emit(shard, b)
	return nil
}
