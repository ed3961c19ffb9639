package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/dedup"
	"github.com/neardup/neardup/transforms/passage"
	"github.com/neardup/neardup/transforms/sentence"
)

func init() {
	register.DoFn7x1[context.Context, int, func(*[]byte) bool, func(*[]byte) bool, func(int, []byte), func(string, []byte), func(counters.Counts), error](&duplicateSentencesFn{})
	register.Emitter2[string, []byte]()
	register.DoFn2x1[passage.DocPair, func(string, dedup.Cover), error](&coversFn{})
	register.DoFn5x1[context.Context, string, func(*dedup.Cover) bool, func(int, []byte), func(counters.Counts), error](&duplicateDocumentsFn{})
	register.Emitter2[string, dedup.Cover]()
	register.Iter1[dedup.Cover]()
	register.Emitter2[int, []byte]()
	register.Emitter1[counters.Counts]()
	register.Iter1[[]byte]()
}

// duplicates returns the lines of duplicates-*.jsonl, keyed by output
// shard, and their partial counts: the sentences to remove
// (duplicateSentences) and the documents (duplicateDocuments). It writes
// the deduplicated copy of each JSON-lines corpus (dedupCorpora) and
// returns the PCollection<int> that says when they are written.
func duplicates(s beam.Scope, opts Options, records shuffle.Sentences, memberships shuffle.Lines, docPairs beam.PCollection) (shuffle.Lines, beam.PCollection, beam.PCollection) {
	s = s.Scope("Duplicates")
	sentences, removals, sentenceCounts := duplicateSentences(s, opts.OutputShards, opts.jsonlCorpora(), records, memberships)
	documents, documentCounts := duplicateDocuments(s, opts.OutputShards, opts.DuplicateShare, docPairs)
	copies, copyCounts := dedupCorpora(s, opts, removals)
	lines := shuffle.MakeLines(beam.Flatten(s, sentences.Raw(), documents.Raw()))
	return lines, copies, beam.Flatten(s, sentenceCounts, documentCounts, copyCounts)
}

// duplicateSentences returns the lines of the sentences to remove (package
// dedup's rule), from the sentence records and the clusters' memberships,
// both keyed by sentence shard, their partial counts, and those of the
// given JSON-lines corpora as removal batches: KV<corpus, uvarint page id
// and ordinal pairs>.
func duplicateSentences(s beam.Scope, outShards int, corpora []string, records shuffle.Sentences, memberships shuffle.Lines) (lines shuffle.Lines, removals, counts beam.PCollection) {
	joined := beam.CoGroupByKey(s, records.Raw(), memberships.Raw())
	out, removals, counts := beam.ParDo3(s, &duplicateSentencesFn{OutShards: outShards, Corpora: corpora}, joined)
	return shuffle.MakeLines(out), removals, counts
}

// duplicateDocuments returns the lines of the documents to remove (package
// dedup's rule, at minShare), from the document pairs that share passages
// (PCollection<passage.DocPair>), and their partial counts.
func duplicateDocuments(s beam.Scope, outShards int, minShare float64, docPairs beam.PCollection) (shuffle.Lines, beam.PCollection) {
	covers := beam.ParDo(s, &coversFn{MinShare: minShare}, docPairs)
	lines, counts := beam.ParDo2(s, &duplicateDocumentsFn{OutShards: outShards}, beam.GroupByKey(s, covers))
	return shuffle.MakeLines(lines), counts
}

// duplicateSentencesFn writes a line for each sentence of a shard that is
// in a cluster and is not its representative, keyed by the sentence's id,
// and, for a sentence of one of Corpora, its page id and ordinal keyed by
// its corpus. A sentence read twice (a page revision given twice) is
// written once.
type duplicateSentencesFn struct {
	OutShards int
	Corpora   []string // the JSON-lines corpora, whose copies drop the sentences
}

func (f *duplicateSentencesFn) ProcessElement(ctx context.Context, shard int, records, memberships func(*[]byte) bool, emit func(int, []byte), emitRemoval func(string, []byte), emitCounts func(counters.Counts)) error {
	clusters, err := sentence.ClusterIDs(shuffle.Collect(memberships))
	if err != nil {
		return fmt.Errorf("duplicates: memberships of shard %d: %w", shard, err)
	}
	if len(clusters) == 0 {
		return nil
	}
	p := shuffle.NewPacker(shuffle.KindLines, f.OutShards)
	removals := map[string][]byte{}
	var c counters.Counts
	seen := map[sentence.ID]bool{}
	for _, b := range shuffle.Collect(records) {
		err := shuffle.KindSentences.Records(b, func(rec []byte) error {
			var s sentence.Sentence
			if err := s.UnmarshalBinary(rec); err != nil {
				return err
			}
			if seen[s.ID] {
				return nil
			}
			seen[s.ID] = true
			m := dedup.Member{ID: s.Key(), Wiki: s.Wiki, PageID: s.PageID, RevID: s.RevID, Sentence: s.ID.Ordinal()}
			l, remove := dedup.RemoveSentence(m, clusters[s.ID])
			if !remove {
				return nil
			}
			line, err := result.JSONLine(l)
			if err != nil {
				return err
			}
			p.AddRecord(s.ID.Shard(f.OutShards), result.Record(uint64(s.ID), line), emit)
			if _, ok := slices.BinarySearch(f.Corpora, s.Wiki); ok {
				r := binary.AppendUvarint(removals[s.Wiki], uint64(s.PageID))
				removals[s.Wiki] = binary.AppendUvarint(r, uint64(s.ID.Ordinal()))
			}
			c.Duplicates.Sentences++
			return nil
		})
		if err != nil {
			return fmt.Errorf("duplicates: sentences of shard %d: %w", shard, err)
		}
	}
	p.Flush(emit)
	for _, corpus := range slices.Sorted(maps.Keys(removals)) {
		emitRemoval(corpus, removals[corpus])
	}
	counters.Emit(ctx, c, emitCounts)
	return nil
}

// coversFn keys each document pair whose later document the earlier
// covers enough (dedup.Covered) by the later document's id.
type coversFn struct{ MinShare float64 }

func (f *coversFn) ProcessElement(p passage.DocPair, emit func(string, dedup.Cover)) error {
	c, dup, err := dedup.Covered(dedup.Pair{A: p.A, B: p.B, ShareA: p.ShareA, ShareB: p.ShareB}, f.MinShare)
	if err != nil {
		return err
	}
	if dup {
		emit(c.Doc.String(), c)
	}
	return nil
}

// duplicateDocumentsFn writes the line of a duplicate document under the
// best of its covers (dedup.Best). Document lines have the sort key 0, so
// each file lists its documents first, by id, then its sentences.
type duplicateDocumentsFn struct {
	OutShards int

	out    *shuffle.Packer
	counts counters.Counts
}

func (f *duplicateDocumentsFn) StartBundle(context.Context, func(int, []byte), func(counters.Counts)) {
	f.out, f.counts = shuffle.NewPacker(shuffle.KindLines, f.OutShards), counters.Counts{}
}

func (f *duplicateDocumentsFn) ProcessElement(_ context.Context, doc string, covers func(*dedup.Cover) bool, emit func(int, []byte), _ func(counters.Counts)) error {
	var all []dedup.Cover
	var c dedup.Cover
	for covers(&c) {
		all = append(all, c)
	}
	line, err := result.JSONLine(dedup.Best(all).Line())
	if err != nil {
		return fmt.Errorf("duplicates: document %s: %w", doc, err)
	}
	h := fnv.New64a()
	h.Write([]byte(doc))
	f.out.AddRecord(shuffle.ShardOf(h.Sum64(), f.OutShards), result.Record(0, line), emit)
	f.counts.Duplicates.Documents++
	return nil
}

func (f *duplicateDocumentsFn) FinishBundle(ctx context.Context, emit func(int, []byte), emitCounts func(counters.Counts)) {
	f.out.Flush(emit)
	counters.Emit(ctx, f.counts, emitCounts)
}
