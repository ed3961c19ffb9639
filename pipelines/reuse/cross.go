package main

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/internal/tally"
	"github.com/neardup/neardup/transforms/sentence"
)

func init() {
	register.DoFn5x1[context.Context, int, []byte, func(int, []byte), func(tally.Counts), error](&crossFn{})
	register.Emitter2[int, []byte]()
}

// crossOnly keeps the candidate pairs of a web sentence and a Wikipedia
// sentence: only they can be reuse cases, and the pairs inside the
// Wikipedia dumps (the sentence pipeline's work) or inside the crawl would
// cost verification and passage alignment for nothing. web[i] says whether
// the wiki of index i (sentence.Doc.Wiki) is a web corpus. The pairs keep
// their shard (their first sentence's).
func crossOnly(s beam.Scope, candidates shuffle.Candidates, web []bool, shards int) (shuffle.Candidates, beam.PCollection) {
	kept, counts := beam.ParDo2(s.Scope("Web × Wikipedia"), &crossFn{Web: web, Shards: shards}, candidates.PCollection)
	return shuffle.Candidates{PCollection: kept}, counts
}

type crossFn struct {
	Web    []bool
	Shards int

	out    *shuffle.Packer
	pairs  []shuffle.Pair
	counts tally.Counts
}

func (f *crossFn) StartBundle(context.Context, func(int, []byte), func(tally.Counts)) {
	f.out, f.counts = shuffle.NewPacker(shuffle.KindCandidates, f.Shards), tally.Counts{}
}

func (f *crossFn) ProcessElement(_ context.Context, shard int, batch []byte, emit func(int, []byte), _ func(tally.Counts)) error {
	var err error
	if f.pairs, err = shuffle.KindCandidates.AppendPairs(f.pairs[:0], batch); err != nil {
		return fmt.Errorf("reuse: candidates of shard %d: %w", shard, err)
	}
	for _, p := range f.pairs {
		if f.isWeb(p.A) == f.isWeb(p.B) {
			f.counts.Reuse.CandidatesDropped++
			continue
		}
		f.out.Add(shard, p, emit)
	}
	return nil
}

// isWeb reports whether the sentence id is of a web corpus's document.
func (f *crossFn) isWeb(id uint64) bool {
	w := sentence.ID(id).Doc().Wiki()
	return w < len(f.Web) && f.Web[w]
}

func (f *crossFn) FinishBundle(ctx context.Context, emit func(int, []byte), emitCounts func(tally.Counts)) {
	f.out.Flush(emit)
	tally.Emit(ctx, f.counts, emitCounts)
}
