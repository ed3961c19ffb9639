package categorize

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/neardup/neardup/testkit/testshared/members"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/cluster"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/verify"
)

func init() {
	register.Function3x1(lineStrings)
	register.Function1x2(categoryCountsJSON)
	register.Emitter1[string]()
}

// lineStrings decodes a batch of output lines as "shard root line"
// strings: each record is result.Record, the 8-byte big-endian root then
// the JSON line.
func lineStrings(shard int, b []byte, emit func(string)) error {
	return shuffle.KindLines.Records(b, func(rec []byte) error {
		if len(rec) < 8 {
			return fmt.Errorf("line record of %d bytes", len(rec))
		}
		emit(lineString(shard, binary.BigEndian.Uint64(rec), rec[8:]))
		return nil
	})
}

func lineString(shard int, root uint64, line []byte) string {
	return fmt.Sprintf("%d %d %s", shard, root, line)
}

func categoryCountsJSON(c counters.Counts) (string, error) {
	b, err := json.Marshal(c)
	return string(b), err
}

// TestClustersOnPrism runs the categories stage on the embedded runner over
// four clusters built as the cluster stage builds them: two of identical
// copies (one across two wikis), a copy-edited pair and a pair whose facts
// drift. It checks every output line exactly (its shard, its sort key, the
// cluster's root, and the line Categorize gives) and the counts by
// category.
func TestClustersOnPrism(t *testing.T) {
	sent := members.Maker{T: t, Wikis: []string{"enwiki", "dewiki"}}.Sentence
	const (
		emmental = "The municipality is located in the Emmental on the border with the canton of Lucerne."
		aare     = "The Aare rises in the Bernese Alps and flows into the Rhine at Koblenz."
	)
	type built struct {
		members  []sentence.Sentence
		sims     []verify.Similarity
		category string
		root     sentence.ID // by hand: the smallest member id
	}
	identical := []sentence.Sentence{
		sent(0, 11, 1011, 4, "Gondiswil", emmental),
		sent(0, 12, 1012, 3, "Kleindietwil", emmental),
		sent(0, 13, 1013, 5, "Leimiswil", emmental),
	}
	acrossWikis := []sentence.Sentence{sent(1, 40, 2040, 0, "Aare", aare), sent(0, 40, 1040, 1, "Aare", aare)}
	copyEdit := []sentence.Sentence{
		sent(0, 20, 1020, 7, "Thames", "It was named after the River Thames in 1850."),
		sent(0, 21, 1021, 2, "Thames Street", "It was named after the river Thames in 1850."),
	}
	drift := []sentence.Sentence{
		sent(0, 30, 1030, 9, "Second Balkan War", "Bulgaria was defeated by Serbia in the Second Balkan War of 1913."),
		sent(0, 31, 1031, 1, "Treaty of Bucharest", "Bulgaria was defeated by Greece in the Second Balkan War of 1913."),
	}
	cases := []built{
		{identical, []verify.Similarity{{Jaccard: 1}, {Jaccard: 1}}, Identical, identical[0].ID},
		{acrossWikis, []verify.Similarity{{Jaccard: 1}}, Identical, acrossWikis[1].ID},
		{copyEdit, []verify.Similarity{{Jaccard: 0.78, Edit: 0.02}}, CopyEdit, copyEdit[0].ID},
		{drift, []verify.Similarity{{Jaccard: 0.71, Edit: 0.09}}, FactualDrift, drift[0].ID},
	}
	var clusters []cluster.Cluster
	want := map[int][]any{} // the lines by output shards
	var counts counters.Counts
	for _, c := range cases {
		b, _ := cluster.Build(c.members, c.sims, 0)
		b.Root = uint64(c.root)
		k := Categorize(b)
		if k.Category != c.category {
			t.Fatalf("cluster %s: category %s (%s), want %s", b.ID, k.Category, k.Evidence.Rule, c.category)
		}
		line, err := k.MarshalLine()
		if err != nil {
			t.Fatal(err)
		}
		line = AppendDigest(append(line, result.IndexSep), k.Digest())
		for _, shards := range []int{1, 3} {
			want[shards] = append(want[shards], lineString(shuffle.ShardOf(uint64(c.root), shards), uint64(c.root), line))
		}
		clusters = append(clusters, b)
		counts.AddCategory(c.category, 1, int64(len(c.members)))
	}
	wantCounts, err := categoryCountsJSON(counters.Counts{Categories: map[string]counters.Category{
		Identical: {Clusters: 2, Sentences: 5}, CopyEdit: {Clusters: 1, Sentences: 2}, FactualDrift: {Clusters: 1, Sentences: 2},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := categoryCountsJSON(counts); got != wantCounts {
		t.Fatalf("counts of the cases %s, want %s", got, wantCounts)
	}

	for _, workers := range []int{1, 2} {
		for _, shards := range []int{1, 3} {
			t.Run(fmt.Sprintf("workers=%d/output_shards=%d", workers, shards), func(t *testing.T) {
				p, s := beam.NewPipelineWithRoot()
				lines, partials := Clusters(s, beam.CreateList(s, clusters), Learned{}, Config{OutputShards: shards, Workers: workers})
				passert.Equals(s, beam.ParDo(s, lineStrings, lines.Raw()), want[shards]...)
				passert.Equals(s, beam.ParDo(s, categoryCountsJSON, counters.Total(s, partials)), wantCounts)
				ptest.RunAndValidate(t, p)
			})
		}
	}
}
