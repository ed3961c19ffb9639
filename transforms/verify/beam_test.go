package verify

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/sentence"
)

// TestAttachFirstPassesOnlyCandidates runs attachFirstFn without Beam on
// one shard holding four sentences of which two form a candidate edge,
// found by two bands: only those two records are passed on, and the first
// one's record goes once to the second's shard.
func TestAttachFirstPassesOnlyCandidates(t *testing.T) {
	const shards = 4
	var recs [][]byte
	encoded := map[sentence.ID][]byte{}
	for _, id := range []sentence.ID{sentence.Doc(1).Sentence(0), sentence.Doc(1).Sentence(1), sentence.Doc(2).Sentence(0), sentence.Doc(3).Sentence(5)} {
		s := sentence.Sentence{ID: id, Title: "T", Text: "text of " + id.String()}
		rec := s.AppendBinary(nil)
		encoded[id] = rec
		recs = append(recs, rec)
	}
	u, v := uint64(sentence.Doc(1).Sentence(0)), uint64(sentence.Doc(2).Sentence(0))
	var pairs []shuffle.Pair
	for range 2 { // the same edge from two bands, in both directions
		pairs = append(pairs, shuffle.Pair{A: u, B: v}, shuffle.Pair{A: v, B: u})
	}
	cands := shuffle.KindCandidates.PackPairs(pairs...)

	var needed []sentence.ID
	var halves [][]byte
	f := &attachFirstFn{RecordShards: shards}
	f.Setup()
	defer f.Teardown()
	emitHalves := func(shard int, b []byte) {
		shuffle.KindHalfEdges.Records(b, func(rec []byte) error {
			if got, n := binary.Uvarint(rec); got != v || shard != shuffle.ShardOf(v, shards) || n <= 0 {
				t.Errorf("half-joined edge for %d in shard %d, want for %d in shard %d", got, shard, v, shuffle.ShardOf(v, shards))
			}
			halves = append(halves, rec)
			return nil
		})
	}
	emitNeeded := func(shard int, b []byte) {
		shuffle.KindSentences.Records(b, func(rec []byte) error {
			var id sentence.ID
			id.UnmarshalPrefix(rec)
			needed = append(needed, id)
			return nil
		})
	}
	if err := f.ProcessElement(0, testshared.Iter(cands), testshared.Iter(shuffle.KindSentences.PackRecords(recs...)), emitHalves, emitNeeded); err != nil {
		t.Fatal(err)
	}
	if err := f.FinishBundle(emitHalves, emitNeeded); err != nil {
		t.Fatal(err)
	}
	if want := []sentence.ID{sentence.ID(u), sentence.ID(v)}; !slices.Equal(needed, want) {
		t.Errorf("passed on %v, want only the candidates %v", needed, want)
	}
	if len(halves) != 1 {
		t.Fatalf("%d half-joined edges, want 1", len(halves))
	}
	_, n := binary.Uvarint(halves[0])
	if string(halves[0][n:]) != string(encoded[sentence.ID(u)]) {
		t.Errorf("half-joined edge carries %q, want the record of %v", halves[0][n:], sentence.ID(u))
	}
}
