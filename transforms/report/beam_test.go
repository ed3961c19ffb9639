package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/testkit/testshared/members"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/cluster"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/verify"
)

// TestMain runs the package's pipeline tests on ptest's runner, Prism
// unless --runner says otherwise.
func TestMain(m *testing.M) { ptest.Main(m) }

func init() {
	register.Function1x2(encodeStatsString)
}

func encodeStatsString(s Stats) (string, error) {
	b, err := encodeStats(s)
	return string(b), err
}

// testClusters are clusters as the cluster stage builds them: identical
// copies, one across two wikis, a copy edit, a drift and a template.
func testClusters(t *testing.T) []cluster.Cluster {
	sent := members.Maker{T: t, Wikis: []string{"enwiki", "elwiki"}}.Sentence
	const (
		emmental = "The municipality is located in the Emmental on the border with the canton of Lucerne."
		aare     = "The Aare rises in the Bernese Alps and flows into the Rhine at Koblenz."
	)
	groups := []struct {
		members []sentence.Sentence
		sims    []verify.Similarity
	}{
		{[]sentence.Sentence{sent(0, 11, 1011, 4, "Gondiswil", emmental), sent(0, 12, 1012, 3, "Kleindietwil", emmental),
			sent(0, 13, 1013, 5, "Leimiswil", emmental)}, []verify.Similarity{{Jaccard: 1}, {Jaccard: 1}}},
		{[]sentence.Sentence{sent(1, 40, 2040, 0, "Άαρ", aare), sent(0, 40, 1040, 1, "Aare", aare)}, []verify.Similarity{{Jaccard: 1}}},
		{[]sentence.Sentence{sent(0, 20, 1020, 7, "Thames", "It was named after the River Thames in 1850."),
			sent(0, 21, 1021, 2, "Thames Street", "It was named after the river Thames in 1850.")},
			[]verify.Similarity{{Jaccard: 0.78, Edit: 0.02}}},
		{[]sentence.Sentence{sent(0, 30, 1030, 9, "Second Balkan War", "Bulgaria was defeated by Serbia in the Second Balkan War of 1913."),
			sent(0, 31, 1031, 1, "Treaty of Bucharest", "Bulgaria was defeated by Greece in the Second Balkan War of 1913.")},
			[]verify.Similarity{{Jaccard: 0.71, Edit: 0.09}}},
	}
	var out []cluster.Cluster
	for _, g := range groups {
		c, _ := cluster.Build(g.members, g.sims, 0)
		c.Root = uint64(g.members[0].ID)
		out = append(out, c)
	}
	return out
}

// TestCollectOnPrism runs Collect on the embedded runner over the lines
// categorize.Clusters makes of real clusters, in one output shard and in
// three, and dead letters: the one Stats must be, byte for byte, those of
// the same lines and letters added in one pass.
func TestCollectOnPrism(t *testing.T) {
	clusters := testClusters(t)
	dead := []document.DeadLetter{
		{File: "/d/el.xml.xz", Offset: 99, Reason: "truncated: unexpected EOF"},
		{File: "/d/el.xml.xz", Offset: 50, PageID: 3, Title: "Κομμένη", Reason: "truncated: page cut: unexpected EOF"},
	}
	cfg := Config{Examples: 2, Seed: 5}
	want := NewStats(cfg.Examples, cfg.Seed)
	for _, c := range clusters {
		k := categorize.Categorize(c)
		line, err := k.MarshalLine()
		if err != nil {
			t.Fatal(err)
		}
		if err := want.AddRecord(result.Record(c.Root, categorize.AppendDigest(append(line, result.IndexSep), k.Digest()))); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range dead {
		want.AddDeadLetter(d)
	}
	if len(want.Kinds) != 3 || want.Kinds[categorize.Identical].Clusters != 2 || len(want.Kinds[categorize.Identical].Sample) != 2 {
		t.Fatalf("the clusters' kinds are not as the test expects: %s", statsJSON(t, want))
	}
	wantJSON := statsJSON(t, want)

	for _, shards := range []int{1, 3} {
		p, s := beam.NewPipelineWithRoot()
		lines, _ := categorize.Clusters(s, beam.CreateList(s, clusters), categorize.Learned{}, categorize.Config{OutputShards: shards, Workers: 2})
		stats := Collect(s, lines, beam.CreateList(s, dead), cfg)
		passert.Equals(s, beam.ParDo(s, encodeStatsString, stats), wantJSON)
		ptest.RunAndValidate(t, p)
	}
}

// TestWriteOnPrism writes report.html on the embedded runner from
// summary.json's bytes and Stats: the file must be what Render makes of
// them, and the returned size its size; with no Stats (a run without
// clusters or dead letters) the page is still written.
func TestWriteOnPrism(t *testing.T) {
	info, doc, st := smallRun(t)
	cfg := Config{Examples: st.Examples, Seed: st.Seed}
	for _, withStats := range []bool{true, false} {
		want := st
		if !withStats {
			want = NewStats(cfg.Examples, cfg.Seed)
		}
		page, err := NewPage(info, doc, want, PassageData{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := Render(&b, page); err != nil {
			t.Fatal(err)
		}

		path := filepath.Join(t.TempDir(), "report.html")
		p, s := beam.NewPipelineWithRoot()
		stats := beam.CreateList(s, []Stats{st})
		if !withStats {
			stats = beam.CreateList(s, []Stats{})
		}
		size := Write(s, path, info, cfg, beam.Create(s, doc), stats, NoPassages(s))
		passert.Equals(s, size, b.Len())
		ptest.RunAndValidate(t, p)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, b.Bytes()) {
			t.Errorf("with stats %v: report.html differs from Render's page (%d vs %d bytes)", withStats, len(got), b.Len())
		}
		if n := bytes.Count(got, []byte(`<article class="example"`)); withStats && n != 2 || !withStats && n != 0 {
			t.Errorf("with stats %v: %d example clusters on the page", withStats, n)
		}
	}
}
