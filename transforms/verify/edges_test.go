package verify

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/testkit/sentencetest"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
)

func init() {
	register.DoFn2x1[[]byte, func(int, []byte), error](&keyCandidatesFn{})
	register.Function3x1(edgeStrings)
	register.Function3x1(similarityStrings)
	register.Function3x1(neededStrings)
	register.Function1x2(countsJSON)
	register.Emitter1[string]()
	register.Emitter2[int, []byte]()
}

// keyCandidatesFn keys a candidate batch by the shard of its pairs' first
// ids, as bucket.Candidates does; every pair of a batch must share it.
type keyCandidatesFn struct{ Shards int }

func (f *keyCandidatesFn) ProcessElement(b []byte, emit func(int, []byte)) error {
	pairs, err := shuffle.KindCandidates.AppendPairs(nil, b)
	if err != nil || len(pairs) == 0 {
		return fmt.Errorf("candidate batch of %d pairs: %v", len(pairs), err)
	}
	shard := shuffle.ShardOf(pairs[0].A, f.Shards)
	for _, p := range pairs {
		if shuffle.ShardOf(p.A, f.Shards) != shard {
			return fmt.Errorf("candidate batch mixes shards: %v", pairs)
		}
	}
	emit(shard, b)
	return nil
}

// edgeStrings decodes a batch of verified edges as "shard: U-V" lines.
func edgeStrings(shard int, b []byte, emit func(string)) error {
	pairs, err := shuffle.KindEdges.AppendPairs(nil, b)
	for _, p := range pairs {
		emit(fmt.Sprintf("%d: %d-%d", shard, p.A, p.B))
	}
	return err
}

// rankOf is the Sentence.Rank the test gives the sentence of id: any value
// the edges must carry through, not the ordinal.
func rankOf(id sentence.ID) int { return 2*id.Ordinal() + 1 }

// similarityStrings decodes a batch of Edge records as "shard: U-V
// jaccard edit" lines; %v prints a float64 exactly (the shortest decimal
// that reads back to it).
func similarityStrings(shard int, b []byte, emit func(string)) error {
	return shuffle.KindSimilarities.Records(b, func(rec []byte) error {
		var e Edge
		if err := e.UnmarshalBinary(rec); err != nil {
			return err
		}
		emit(similarityString(shard, e))
		return nil
	})
}

func similarityString(shard int, e Edge) string {
	return fmt.Sprintf("%d: %d-%d ranks=%d,%d jaccard=%v edit=%v", shard, e.U, e.V, e.RankU, e.RankV, e.Similarity.Jaccard, e.Similarity.Edit)
}

// neededStrings decodes a batch of sentence records as "shard: id title
// text" lines.
func neededStrings(shard int, b []byte, emit func(string)) error {
	return shuffle.KindSentences.Records(b, func(rec []byte) error {
		var s sentence.Sentence
		if err := s.UnmarshalBinary(rec); err != nil {
			return err
		}
		emit(neededString(shard, s))
		return nil
	})
}

func neededString(shard int, s sentence.Sentence) string {
	return fmt.Sprintf("%d: %d %q %q", shard, uint64(s.ID), s.Title, s.Text)
}

func countsJSON(c counters.Counts) (string, error) {
	b, err := json.Marshal(c)
	return string(b), err
}

// TestEdgesOnPrism runs the verification stage on the embedded runner with
// inputs packed and keyed as minhash.Sign and bucket.Candidates make them:
// a star of three near-identical template sentences (both edges pass the
// edit threshold), an identical pair, a candidate pair of two unrelated
// sentences about one river (rejected), and sentences in no candidate pair.
// Edges repeat as several bands would find them, each in both directions,
// and two records arrive twice (a page read twice, and the same revision
// under two titles). It checks every output exactly: the verified edges and
// their shards, the similarities against Checker, the needed records (each
// candidate sentence once, the lesser copy) and the counts.
func TestEdgesOnPrism(t *testing.T) {
	const recordShards, edgeShards = 4, 3
	type rec struct {
		id          sentence.ID
		title, text string
	}
	doc := func(page int64) sentence.Doc {
		d, err := sentence.NewDoc(0, page, 1000+page)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	const crops = "Of the agricultural land, %s is used for growing crops and %s is pastures, while %s is used for orchards or vine crops."
	const organizers = "Professional organizers help redirect paradigms into more useful cross-applications that ensure properly co-sustainable futures for their clients' spaces and processes."
	var (
		gondiswil    = rec{doc(11).Sentence(3), "Gondiswil", fmt.Sprintf(crops, "40.4%", "26.6%", "2.2%")}
		kleindietwil = rec{doc(12).Sentence(3), "Kleindietwil", fmt.Sprintf(crops, "26.1%", "30.2%", "3.0%")}
		leimiswil    = rec{doc(13).Sentence(4), "Leimiswil", fmt.Sprintf(crops, "37.8%", "35.5%", "2.2%")}
		organizing   = rec{doc(20).Sentence(0), "Professional organizing", organizers}
		organizer    = rec{doc(21).Sentence(7), "Professional organizer", organizers}
		aare         = rec{doc(30).Sentence(1), "Aare", "The river rises in the Bernese Alps below the Finsteraarhorn and flows north-west through Lake Brienz and Lake Thun to Bern."}
		ticino       = rec{doc(31).Sentence(2), "Ticino", "The river rises near the Nufenen Pass, crosses Lake Maggiore and joins the Po a few kilometres downstream of Pavia."}
		gondiswil2   = rec{doc(11).Sentence(4), "Gondiswil", "The municipality is located in the Emmental on the border with the canton of Lucerne, about 30 kilometres north-east of Bern."}
		katrina      = rec{doc(40).Sentence(0), "Hurricane Katrina", "Hurricane Katrina was a large and destructive Category 5 Atlantic hurricane that caused over 1,800 fatalities and $125 billion in damage in late August 2005."}
	)
	// The same revision read under another title: its encoding is greater
	// (a longer title), so the stage keeps the other copy.
	kleindietwilCopy := kleindietwil
	kleindietwilCopy.title = "Kleindietwil BE"

	all := []rec{gondiswil, kleindietwil, leimiswil, organizing, organizer, aare, ticino, gondiswil2, katrina}
	encode := func(r rec) []byte {
		s := sentence.Sentence{ID: r.id, Wiki: "dewiki", Title: r.title, Text: r.text, Rank: rankOf(r.id)}
		return s.AppendBinary(nil)
	}
	// One batch per shard, then the repeats in batches of their own.
	byShard := map[int][][]byte{}
	for _, r := range all {
		byShard[r.id.Shard(recordShards)] = append(byShard[r.id.Shard(recordShards)], encode(r))
	}
	var recordBatches [][]byte
	for _, recs := range byShard {
		recordBatches = append(recordBatches, shuffle.KindSentences.PackRecords(recs...))
	}
	recordBatches = append(recordBatches,
		shuffle.KindSentences.PackRecords(encode(gondiswil)),
		shuffle.KindSentences.PackRecords(encode(kleindietwilCopy)))

	// Star edges (anchor, other), the anchor the smaller id, and the bands
	// that found each.
	type edge struct {
		u, v  rec
		bands int
	}
	edges := []edge{
		{gondiswil, kleindietwil, 3},
		{gondiswil, leimiswil, 1},
		{organizing, organizer, 20},
		{aare, ticino, 1},
	}
	var candidateBatches [][]byte
	for band := range 20 {
		pairsByShard := map[int][]shuffle.Pair{}
		for _, e := range edges {
			if e.u.id >= e.v.id {
				t.Fatalf("star edge %v-%v: the anchor must be the smaller id", e.u.id, e.v.id)
			}
			if band >= e.bands {
				continue
			}
			u, v := uint64(e.u.id), uint64(e.v.id)
			pairsByShard[shuffle.ShardOf(u, recordShards)] = append(pairsByShard[shuffle.ShardOf(u, recordShards)], shuffle.Pair{A: u, B: v})
			pairsByShard[shuffle.ShardOf(v, recordShards)] = append(pairsByShard[shuffle.ShardOf(v, recordShards)], shuffle.Pair{A: v, B: u})
		}
		for _, ps := range pairsByShard {
			candidateBatches = append(candidateBatches, shuffle.KindCandidates.PackPairs(ps...))
		}
	}

	// What the stage must return, computed without it.
	cfg := Config{ShingleLength: 12, Norm: shingle.DefaultNormalization, Thresholds: DefaultThresholds(), RecordShards: recordShards, EdgeShards: edgeShards}
	checker := NewChecker(cfg.ShingleLength, cfg.Norm, cfg.Thresholds)
	var wantEdges, wantSims, wantNeeded []any
	var want counters.Counts
	needed := map[sentence.ID]rec{}
	for _, e := range edges {
		sim, ok := checker.Compare(e.u.text, e.v.text)
		want.CandidateEdges++
		needed[e.u.id], needed[e.v.id] = e.u, e.v
		if !ok {
			want.EdgesRejected++
			continue
		}
		want.EdgesVerified++
		u, v := uint64(e.u.id), uint64(e.v.id)
		wantEdges = append(wantEdges, fmt.Sprintf("%d: %d-%d", shuffle.EdgeShard(u, v, 0, edgeShards), u, v))
		wantSims = append(wantSims, similarityString(shuffle.ShardOf(u, recordShards), Edge{U: u, V: v, RankU: uint32(rankOf(e.u.id)), RankV: uint32(rankOf(e.v.id)), Similarity: sim}))
	}
	for id, r := range needed {
		wantNeeded = append(wantNeeded, neededString(id.Shard(recordShards), sentence.Sentence{ID: id, Title: r.title, Text: r.text}))
	}
	wantCounts, _ := countsJSON(want)
	// The cases mean what they say.
	if sim, ok := checker.Compare(organizing.text, organizer.text); sim != (Similarity{Jaccard: 1, Edit: 0}) || !ok {
		t.Fatalf("identical pair: %+v, %v", sim, ok)
	}
	if sim, ok := checker.Compare(gondiswil.text, kleindietwil.text); ok != true || sim.Jaccard >= cfg.Thresholds.MinJaccard {
		t.Fatalf("template pair: %+v, %v; want accepted by the edit distance alone", sim, ok)
	}
	if sim, ok := checker.Compare(aare.text, ticino.text); ok || sim.Jaccard == 0 {
		t.Fatalf("river pair: %+v, %v; want rejected, with some shingles shared", sim, ok)
	}
	if want.EdgesVerified != 3 || want.EdgesRejected != 1 || len(wantNeeded) != 7 {
		t.Fatalf("expected %+v and %d needed records", want, len(wantNeeded))
	}

	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			cfg := cfg
			cfg.Workers = workers
			p, s := beam.NewPipelineWithRoot()
			candidates := beam.ParDo(s, &keyCandidatesFn{Shards: recordShards}, beam.CreateList(s, candidateBatches))
			records := sentencetest.Records(s, recordBatches, recordShards)
			verified, sims, neededRecs, _, counts := Edges(s, shuffle.MakeCandidates(candidates), records, cfg)
			passert.Equals(s, beam.ParDo(s, edgeStrings, verified.Raw()), wantEdges...)
			passert.Equals(s, beam.ParDo(s, similarityStrings, sims.Raw()), wantSims...)
			passert.Equals(s, beam.ParDo(s, neededStrings, neededRecs.Raw()), wantNeeded...)
			passert.Equals(s, beam.ParDo(s, countsJSON, counters.Total(s, counts)), wantCounts)
			ptest.RunAndValidate(t, p)
		})
	}
}
