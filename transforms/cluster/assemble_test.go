package cluster

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/testshared/members"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/verify"
)

func init() {
	register.DoFn2x1[[]byte, func(int, []byte), error](&keyBatchFn{})
	register.Function1x1(clusterSummary)
	register.Function1x2(clusterJSON)
	register.DoFn3x1[int, []byte, func(string, int64), error](&pairKeysFn{})
	register.Emitter2[string, int64]()
	register.Function2x1(sumInt64)
	register.Function2x1(pairCountString)
	register.Function1x2(assembleCountsJSON)
	register.Emitter2[int, []byte]()
	register.Function3x1(membershipStrings)
	register.Emitter1[string]()
}

// keyBatchFn keys a batch by the shard of its records, as the stages that
// make it do: labels by their sentence id, sentences by their id,
// similarities by their edge's first node. Every record of a batch must
// share the shard.
type keyBatchFn struct {
	Kind   shuffle.Kind
	Shards int
}

func (f *keyBatchFn) ProcessElement(b []byte, emit func(int, []byte)) error {
	var ids []uint64
	var err error
	switch f.Kind {
	case shuffle.KindLabels:
		var pairs []shuffle.Pair
		pairs, err = f.Kind.AppendPairs(nil, b)
		for _, p := range pairs {
			ids = append(ids, p.A)
		}
	case shuffle.KindSentences:
		err = f.Kind.Records(b, func(rec []byte) error {
			var id sentence.ID
			err := id.UnmarshalPrefix(rec)
			ids = append(ids, uint64(id))
			return err
		})
	case shuffle.KindSimilarities:
		err = f.Kind.Records(b, func(rec []byte) error {
			var e verify.Edge
			err := e.UnmarshalBinary(rec)
			ids = append(ids, e.U)
			return err
		})
	default:
		return fmt.Errorf("keyBatchFn: %v", f.Kind)
	}
	if err != nil || len(ids) == 0 {
		return fmt.Errorf("batch of %v with %d records: %v", f.Kind, len(ids), err)
	}
	shard := shuffle.ShardOf(ids[0], f.Shards)
	for _, id := range ids {
		if shuffle.ShardOf(id, f.Shards) != shard {
			return fmt.Errorf("batch of %v mixes shards", f.Kind)
		}
	}
	emit(shard, b)
	return nil
}

// clusterSummary formats what a cluster is: its root, id, size, pages,
// cohesion, members omitted and the ids of the members it lists, in order.
func clusterSummary(c Cluster) string {
	ids := make([]string, len(c.Members))
	for i, m := range c.Members {
		ids[i] = m.ID
	}
	return fmt.Sprintf("root=%d id=%s size=%d pages=%d cohesion=%+v omitted=%d members=%s",
		c.Root, c.ID, c.Size, c.Pages, c.Cohesion, c.MembersOmitted, strings.Join(ids, ","))
}

// clusterJSON is the whole cluster, members' titles and texts included.
func clusterJSON(c Cluster) (string, error) {
	b, err := json.Marshal(c)
	return string(b), err
}

// pairKeysFn keys each bundle's count of a page pair, of a batch of
// encoded PairCounts, by the pair, and checks the batch's shard is the
// pair's.
type pairKeysFn struct{ Shards int }

func (f *pairKeysFn) ProcessElement(shard int, b []byte, emit func(string, int64)) error {
	return shuffle.KindPagePairs.Records(b, func(rec []byte) error {
		var p PairCount
		if err := p.UnmarshalBinary(rec); err != nil {
			return err
		}
		if got := p.Shard(f.Shards); got != shard {
			return fmt.Errorf("pair %+v in shard %d, want %d", p, shard, got)
		}
		emit(fmt.Sprintf("%s:%d %s | %s:%d %s", p.WikiA, p.PageA, p.TitleA, p.WikiB, p.PageB, p.TitleB), p.Clusters)
		return nil
	})
}

func sumInt64(a, b int64) int64 { return a + b }

func pairCountString(pair string, n int64) string { return fmt.Sprintf("%s = %d", pair, n) }

func assembleCountsJSON(c counters.Counts) (string, error) {
	b, err := json.Marshal(c)
	return string(b), err
}

// TestAssembleOnPrism runs the cluster stage on the embedded runner with its
// three inputs packed and keyed as component.Labels and verify.Edges make
// them: three components over pages of two wikis, whose ids interleave, one
// of five members (over the cap of three: a sample is listed), a chain of
// three whose second edge starts at a member that is not the root, and a
// pair sharing a page pair with the first. Two sentences are in no
// component and one record arrives twice. It checks the clusters (by hand,
// and whole against Build on the same members), the page pairs summed over
// bundles, and the counts.
func TestAssembleOnPrism(t *testing.T) {
	const shards, maxMembers = 4, 3
	sent := members.Maker{T: t, Wikis: []string{"enwiki", "simplewiki"}}.Sentence
	const (
		district = "%s is a municipality in the Oberaargau administrative district in the canton of Bern in Switzerland."
		thames   = "It was named after the River Thames in 1850."
		emmental = "The municipality is located in the Emmental on the border with the canton of Lucerne."
	)
	var (
		// A: a template over four pages, five members.
		a1 = sent(0, 10, 110, 2, "Gondiswil", fmt.Sprintf(district, "Gondiswil"))
		a2 = sent(0, 11, 111, 2, "Kleindietwil", fmt.Sprintf(district, "Kleindietwil"))
		a3 = sent(0, 11, 111, 5, "Kleindietwil", fmt.Sprintf(district, "The village"))
		a4 = sent(1, 10, 510, 0, "Gondiswil", fmt.Sprintf(district, "Gondiswil"))
		a5 = sent(1, 12, 512, 3, "Leimiswil", fmt.Sprintf(district, "Leimiswil"))
		// B: a chain of three over two pages; b3 arrives twice.
		b1 = sent(0, 20, 120, 1, "Thames", thames)
		b2 = sent(0, 20, 120, 4, "Thames", strings.Replace(thames, "River", "river", 1))
		b3 = sent(1, 21, 521, 0, "River Thames", thames)
		// C: a pair on A's first two pages.
		c1 = sent(0, 10, 110, 7, "Gondiswil", emmental)
		c2 = sent(0, 11, 111, 9, "Kleindietwil", emmental)
		// In no component.
		u1 = sent(0, 10, 110, 0, "Gondiswil", "Gondiswil is a village.")
		u2 = sent(1, 30, 530, 2, "Bern", "Bern is the capital.")
	)
	b2.Section, b2.Context = "History", 1 // a list item
	components := [][]sentence.Sentence{{a1, a2, a3, a4, a5}, {b1, b2, b3}, {c1, c2}}
	edges := [][]verify.Edge{
		{{U: uint64(a1.ID), V: uint64(a2.ID), Similarity: verify.Similarity{Jaccard: 1}},
			{U: uint64(a1.ID), V: uint64(a3.ID), Similarity: verify.Similarity{Jaccard: 1}},
			{U: uint64(a1.ID), V: uint64(a4.ID), Similarity: verify.Similarity{Jaccard: 0.9, Edit: 0.05}},
			{U: uint64(a1.ID), V: uint64(a5.ID), Similarity: verify.Similarity{Jaccard: 0.8, Edit: 0.1}}},
		{{U: uint64(b1.ID), V: uint64(b2.ID), Similarity: verify.Similarity{Jaccard: 0.6, Edit: 0.25}},
			{U: uint64(b2.ID), V: uint64(b3.ID), Similarity: verify.Similarity{Jaccard: 0.8, Edit: 0.1}}},
		{{U: uint64(c1.ID), V: uint64(c2.ID), Similarity: verify.Similarity{Jaccard: 1}}},
	}
	// The ids interleave across components: the roots are the smallest ids.
	if !(a1.ID < c1.ID && c1.ID < a2.ID && a2.ID < b1.ID && b1.ID < a4.ID && u1.ID < a1.ID) {
		t.Fatalf("ids out of the intended order")
	}

	// Labels, one batch per shard of their sentence.
	labelsByShard := map[int][]shuffle.Pair{}
	for _, comp := range components {
		root := uint64(comp[0].ID)
		for _, m := range comp {
			shard := shuffle.ShardOf(uint64(m.ID), shards)
			labelsByShard[shard] = append(labelsByShard[shard], shuffle.Pair{A: uint64(m.ID), B: root})
		}
	}
	var labelBatches [][]byte
	for _, ps := range labelsByShard {
		labelBatches = append(labelBatches, shuffle.KindLabels.PackPairs(ps...))
	}
	// Records, one batch per shard, then b3 again in a batch of its own.
	encode := func(s sentence.Sentence) []byte {
		return s.AppendBinary(nil)
	}
	recsByShard := map[int][][]byte{}
	for _, s := range []sentence.Sentence{a1, a2, a3, a4, a5, b1, b2, b3, c1, c2, u1, u2} {
		recsByShard[s.ID.Shard(shards)] = append(recsByShard[s.ID.Shard(shards)], encode(s))
	}
	var recordBatches [][]byte
	for _, recs := range recsByShard {
		recordBatches = append(recordBatches, shuffle.KindSentences.PackRecords(recs...))
	}
	recordBatches = append(recordBatches, shuffle.KindSentences.PackRecords(encode(b3)))
	// Similarities, one batch per shard of their first node.
	simsByShard := map[int][][]byte{}
	for _, es := range edges {
		for _, e := range es {
			shard := shuffle.ShardOf(e.U, shards)
			simsByShard[shard] = append(simsByShard[shard], e.AppendBinary(nil))
		}
	}
	var simBatches [][]byte
	for _, recs := range simsByShard {
		simBatches = append(simBatches, shuffle.KindSimilarities.PackRecords(recs...))
	}

	// The clusters by hand.
	key := func(s sentence.Sentence) string { return s.Key() }
	wantSummaries := []any{
		fmt.Sprintf("root=%d id=enwiki:10:110:2 size=5 pages=4 cohesion=%+v omitted=2 members=%s", uint64(a1.ID),
			Cohesion{Edges: 4, MinJaccard: 0.8, MeanJaccard: 0.925, MaxEdit: 0.1, MeanEdit: 0.0375},
			strings.Join([]string{key(a1), key(a2), key(a4)}, ",")),
		fmt.Sprintf("root=%d id=enwiki:20:120:1 size=3 pages=2 cohesion=%+v omitted=0 members=%s", uint64(b1.ID),
			Cohesion{Edges: 2, MinJaccard: 0.6, MeanJaccard: 0.7, MaxEdit: 0.25, MeanEdit: 0.175},
			strings.Join([]string{key(b1), key(b2), key(b3)}, ",")),
		fmt.Sprintf("root=%d id=enwiki:10:110:7 size=2 pages=2 cohesion=%+v omitted=0 members=%s", uint64(c1.ID),
			Cohesion{Edges: 1, MinJaccard: 1, MeanJaccard: 1},
			strings.Join([]string{key(c1), key(c2)}, ",")),
	}
	// The whole clusters, as Build makes them of the right members.
	var wantJSON []any
	for i, comp := range components {
		sims := make([]verify.Similarity, len(edges[i]))
		for j, e := range edges[i] {
			sims[j] = e.Similarity
		}
		c, _ := Build(append([]sentence.Sentence(nil), comp...), sims, maxMembers)
		c.Root = uint64(comp[0].ID)
		if got := clusterSummary(c); got != wantSummaries[i] {
			t.Fatalf("Build:\n%s\nwant\n%s", got, wantSummaries[i])
		}
		j, err := clusterJSON(c)
		if err != nil {
			t.Fatal(err)
		}
		wantJSON = append(wantJSON, j)
	}
	wantPairs := []any{
		"enwiki:10 Gondiswil | enwiki:11 Kleindietwil = 2", // A and C
		"enwiki:10 Gondiswil | simplewiki:10 Gondiswil = 1",
		"enwiki:10 Gondiswil | simplewiki:12 Leimiswil = 1",
		"enwiki:11 Kleindietwil | simplewiki:10 Gondiswil = 1",
		"enwiki:11 Kleindietwil | simplewiki:12 Leimiswil = 1",
		"simplewiki:10 Gondiswil | simplewiki:12 Leimiswil = 1",
		"enwiki:20 Thames | simplewiki:21 River Thames = 1",
	}
	counts := counters.Counts{Clusters: 3, SentencesInClusters: 10, LargestCluster: 5, MembersOmitted: 2}
	counts.AddClusterSize(5, 1)
	counts.AddClusterSize(3, 1)
	counts.AddClusterSize(2, 1)
	// Every member, listed or omitted, in the shard of its sentence id.
	var wantMemberships []any
	for i, comp := range components {
		id := []string{"enwiki:10:110:2", "enwiki:20:120:1", "enwiki:10:110:7"}[i]
		for _, s := range comp {
			wantMemberships = append(wantMemberships, fmt.Sprintf("%d %d %s", s.ID.Shard(2), uint64(s.ID), id))
		}
	}
	wantCounts, err := assembleCountsJSON(counts)
	if err != nil {
		t.Fatal(err)
	}

	for _, workers := range []int{1, 2} {
		for _, componentShards := range []int{1, 3} {
			t.Run(fmt.Sprintf("workers=%d/component_shards=%d", workers, componentShards), func(t *testing.T) {
				cfg := Config{ComponentShards: componentShards, MaxMembers: maxMembers, SentenceShards: 2, Workers: workers}
				p, s := beam.NewPipelineWithRoot()
				keyed := func(k shuffle.Kind, batches [][]byte) beam.PCollection {
					return beam.ParDo(s, &keyBatchFn{Kind: k, Shards: shards}, beam.CreateList(s, batches))
				}
				clusters, pairs, memberships, partials := Assemble(s,
					shuffle.MakeLabels(keyed(shuffle.KindLabels, labelBatches)),
					shuffle.MakeSentences(keyed(shuffle.KindSentences, recordBatches)),
					shuffle.MakeSimilarities(keyed(shuffle.KindSimilarities, simBatches)), cfg)
				passert.Equals(s, beam.ParDo(s, clusterSummary, clusters), wantSummaries...)
				passert.Equals(s, beam.ParDo(s, clusterJSON, clusters), wantJSON...)
				summed := beam.CombinePerKey(s, sumInt64, beam.ParDo(s, &pairKeysFn{Shards: cfg.ComponentShards}, pairs.Raw()))
				passert.Equals(s, beam.ParDo(s, pairCountString, summed), wantPairs...)
				passert.Equals(s, beam.ParDo(s, assembleCountsJSON, counters.Total(s, partials)), wantCounts)
				passert.Equals(s, beam.ParDo(s, membershipStrings, memberships.Raw()), wantMemberships...)
				ptest.RunAndValidate(t, p)
			})
		}
	}
}

// membershipStrings decodes a batch of memberships as "shard sentence
// cluster" strings.
func membershipStrings(shard int, b []byte, emit func(string)) error {
	return shuffle.KindLines.Records(b, func(rec []byte) error {
		if len(rec) < 8 {
			return shuffle.ErrCorrupt
		}
		emit(fmt.Sprintf("%d %d %s", shard, binary.BigEndian.Uint64(rec), rec[8:]))
		return nil
	})
}
