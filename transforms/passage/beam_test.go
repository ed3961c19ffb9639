package passage

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/minhash"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/verify"
)

func TestMain(m *testing.M) { ptest.Main(m) }

func init() {
	register.Function3x1(lineStrings)
	register.Function1x1(pairString)
	register.Function1x1(passageCounts)
	register.Emitter1[string]()
}

// lineStrings decodes a batch of output lines.
func lineStrings(_ int, b []byte, emit func(string)) error {
	return shuffle.KindLines.Records(b, func(rec []byte) error {
		emit(string(rec[8:]))
		return nil
	})
}

func pairString(p DocPair) string {
	b, _ := json.Marshal(p)
	return string(b)
}

func passageCounts(c counters.Counts) string {
	b, _ := json.Marshal(c.Passages)
	return string(b)
}

// TestFindOnPrism runs the stage on the embedded runner: a passage of
// four matches with a gap between two documents of two wikis, with their
// texts; two matches covering the whole of a short document (a passage by
// --min_coverage); one sentence shared by two long documents (no
// passage); an edge within
// one document (counted, dropped); a passage between two revisions of one
// page (counted, not written); a page read twice (its smaller info is
// used).
func TestFindOnPrism(t *testing.T) {
	const shards = 3
	must := func(d sentence.Doc, err error) sentence.Doc {
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a := must(sentence.NewDoc(0, 1, 100)) // dewiki
	b := must(sentence.NewDoc(1, 2, 200)) // enwiki
	c := must(sentence.NewDoc(1, 3, 300))
	a2 := must(sentence.NewDoc(0, 1, 101)) // another revision of a's page
	d := must(sentence.NewDoc(1, 4, 400))
	type edge struct {
		u, v         sentence.ID
		rankU, rankV uint32
		jaccard      float64
	}
	edges := []edge{
		{a.Sentence(4), b.Sentence(20), 2, 10, 1},
		{a.Sentence(5), b.Sentence(21), 3, 11, 0.5},
		{a.Sentence(7), b.Sentence(23), 5, 12, 1}, // a sentence of a unmatched (rank 4), and one of b out of the window
		{a.Sentence(8), b.Sentence(24), 6, 13, 0.75},
		{a.Sentence(4), c.Sentence(0), 2, 0, 1},
		{a.Sentence(5), c.Sentence(1), 3, 1, 1},
		{a.Sentence(1), a.Sentence(9), 0, 7, 1},
		{a.Sentence(4), a2.Sentence(4), 2, 2, 1},
		{a.Sentence(5), a2.Sentence(5), 3, 3, 1},
		{b.Sentence(2), d.Sentence(3), 1, 1, 1}, // one sentence shared by two long documents: no passage
		{a.Sentence(7), a2.Sentence(7), 5, 5, 1},
	}
	sims := map[int][][]byte{}
	text := func(id sentence.ID) string { return fmt.Sprintf("Sentence %d of document %d.", id.Ordinal(), id.Doc()) }
	records := map[int][][]byte{}
	for _, e := range edges {
		rec := verify.Edge{U: uint64(e.u), V: uint64(e.v), RankU: e.rankU, RankV: e.rankV, Similarity: verify.Similarity{Jaccard: e.jaccard}}.AppendBinary(nil)
		sims[e.u.Shard(shards)] = append(sims[e.u.Shard(shards)], rec)
		for _, id := range []sentence.ID{e.u, e.v} {
			s := sentence.Sentence{ID: id, Title: "t", Text: text(id)}
			r := s.AppendBinary(nil)
			records[id.Shard(shards)] = append(records[id.Shard(shards)], r)
		}
	}
	infos := map[int][][]byte{}
	for _, i := range []minhash.PageInfo{
		{Doc: uint64(a), PageID: 1, Title: "Gondiswil", Counts: minhash.PageCounts{InWindow: 10}},
		{Doc: uint64(a), PageID: 1, Title: "Gondiswil (second copy)", Counts: minhash.PageCounts{InWindow: 10}},
		{Doc: uint64(b), PageID: 2, Title: "Gondiswil", Name: "doc-2", URL: "https://example.org/g", Counts: minhash.PageCounts{InWindow: 20}},
		{Doc: uint64(c), PageID: 3, Title: "Leimiswil", Counts: minhash.PageCounts{InWindow: 2}},
		{Doc: uint64(a2), PageID: 1, Title: "Gondiswil", Counts: minhash.PageCounts{InWindow: 10}},
		{Doc: uint64(d), PageID: 4, Title: "Ursenbach", Counts: minhash.PageCounts{InWindow: 50}},
	} {
		infos[shuffle.ShardOf(i.Doc, shards)] = append(infos[shuffle.ShardOf(i.Doc, shards)], i.AppendBinary(nil))
	}
	batches := func(s beam.Scope, k shuffle.Kind, by map[int][][]byte) beam.PCollection {
		var kvs []kv
		for shard, recs := range by {
			kvs = append(kvs, kv{shard, k.PackRecords(recs...)})
		}
		return beam.ParDo(s, toKV, beam.CreateList(s, kvs))
	}

	p, s := beam.NewPipelineWithRoot()
	opt := Options{Config: DefaultConfig(), Text: true, Wikis: []string{"dewiki", "enwiki"}, PairShards: 2, RecordShards: shards, OutputShards: 1}
	lines, pairs, counts := Find(s,
		shuffle.MakeSimilarities(batches(s, shuffle.KindSimilarities, sims)),
		shuffle.MakePageInfos(batches(s, shuffle.KindPageInfos, infos)),
		shuffle.MakeSentences(batches(s, shuffle.KindSentences, records)), opt)

	wantLine := `{"a":{"id":"dewiki:1:100","wiki":"dewiki","page_id":1,"rev_id":100,"title":"Gondiswil","first":4,"last":8,"sentences":5,"share":0.5},` +
		`"b":{"id":"enwiki:2:200","wiki":"enwiki","page_id":2,"rev_id":200,"doc":"doc-2","url":"https://example.org/g","title":"Gondiswil","first":20,"last":24,"sentences":4,"share":0.2},` +
		`"matched":4,"mean_jaccard":0.8125,"matches":[` +
		fmt.Sprintf(`{"a":4,"b":20,"jaccard":1,"text_a":%q,"text_b":%q},`, text(a.Sentence(4)), text(b.Sentence(20))) +
		fmt.Sprintf(`{"a":5,"b":21,"jaccard":0.5,"text_a":%q,"text_b":%q},`, text(a.Sentence(5)), text(b.Sentence(21))) +
		fmt.Sprintf(`{"a":7,"b":23,"jaccard":1,"text_a":%q,"text_b":%q},`, text(a.Sentence(7)), text(b.Sentence(23))) +
		fmt.Sprintf(`{"a":8,"b":24,"jaccard":0.75,"text_a":%q,"text_b":%q}]}`, text(a.Sentence(8)), text(b.Sentence(24)))
	// Two matches cover the whole of Leimiswil's two in-window sentences:
	// a passage by --min_coverage, not by its length.
	wantShort := `{"a":{"id":"dewiki:1:100","wiki":"dewiki","page_id":1,"rev_id":100,"title":"Gondiswil","first":4,"last":5,"sentences":2,"share":0.2},` +
		`"b":{"id":"enwiki:3:300","wiki":"enwiki","page_id":3,"rev_id":300,"title":"Leimiswil","first":0,"last":1,"sentences":2,"share":1},` +
		`"matched":2,"mean_jaccard":1,"matches":[` +
		fmt.Sprintf(`{"a":4,"b":0,"jaccard":1,"text_a":%q,"text_b":%q},`, text(a.Sentence(4)), text(c.Sentence(0))) +
		fmt.Sprintf(`{"a":5,"b":1,"jaccard":1,"text_a":%q,"text_b":%q}]}`, text(a.Sentence(5)), text(c.Sentence(1)))
	passert.Equals(s, beam.ParDo(s, lineStrings, lines.Raw()), wantLine, wantShort)
	passert.Equals(s, beam.ParDo(s, pairString, pairs),
		`{"a":"dewiki:1:100","title_a":"Gondiswil","b":"enwiki:2:200","title_b":"Gondiswil","passages":1,"matched":4,"share_a":0.5,"share_b":0.2}`,
		`{"a":"dewiki:1:100","title_a":"Gondiswil","b":"enwiki:3:300","title_b":"Leimiswil","passages":1,"matched":2,"share_a":0.2,"share_b":1}`)
	passert.Equals(s, beam.ParDo(s, passageCounts, counters.Total(s, counts)),
		`{"document_pairs":4,"document_pairs_with_passages":2,"passages":2,"sentence_pairs":6,"largest_passage":4,"matches_within_documents":1,"document_pairs_same_page":1,"matches_dropped":0,"length_histogram":[{"matched":2,"passages":1},{"matched":4,"passages":1}]}`)
	ptest.RunAndValidate(t, p)
}

type kv struct {
	Shard int
	Batch []byte
}

func toKV(x kv) (int, []byte) { return x.Shard, x.Batch }

func init() { register.Function1x2(toKV) }

// TestFindDropsOverTheCap: a document pair keeps its first MaxMatches
// matches in rank order and counts the rest.
func TestFindDropsOverTheCap(t *testing.T) {
	f := &findFn{Opt: Options{Config: DefaultConfig(), RecordShards: 1, MaxMatches: 3}}
	f.StartBundle(context.Background(), nil, nil)
	a, _ := sentence.NewDoc(0, 1, 1)
	b, _ := sentence.NewDoc(0, 2, 2)
	var recs [][]byte
	for i := range 6 {
		recs = append(recs, verify.Edge{U: uint64(a.Sentence(i)), V: uint64(b.Sentence(i)), RankU: uint32(i), RankV: uint32(i)}.AppendBinary(nil))
	}
	batch := shuffle.KindMatches.PackRecords(recs...)
	var out [][]byte
	iter := func(dst *[]byte) bool {
		if batch == nil {
			return false
		}
		*dst, batch = batch, nil
		return true
	}
	if err := f.ProcessElement(context.Background(), 0, iter, func(_ int, b []byte) { out = append(out, b) }, nil); err != nil {
		t.Fatal(err)
	}
	f.out.Flush(func(_ int, b []byte) { out = append(out, b) })
	c := f.counts.Passages
	var r pairRecord
	err := shuffle.KindPassages.Records(out[0], func(rec []byte) error { return r.UnmarshalBinary(rec) })
	if c.MatchesDropped != 3 || c.DocumentPairs != 1 || len(out) != 1 || err != nil || show(r.Passages) != "0-2/0-2:3" {
		t.Errorf("counts %+v, %d batches, passages %q (%v); want 3 matches dropped and one passage of the first 3", c, len(out), show(r.Passages), err)
	}
}
