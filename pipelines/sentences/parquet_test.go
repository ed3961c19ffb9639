package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/neardup/neardup/testkit/duckdbtest"
	"github.com/neardup/neardup/transforms/summary"
)

// TestParquetReadByDuckDB runs the pipeline with --formats jsonl,parquet
// and --emit_sentences on the sample, the committed Katrina slice (whose
// pages share passages) and, with ../shared, on a Japanese dump, in three
// output shards, and asks DuckDB, a real consumer: its clusters by
// category, members, sentences and passages must be summary.json's.
func TestParquetReadByDuckDB(t *testing.T) {
	inputs := []string{sampleDump, katrinaSlice}
	if !testing.Short() {
		inputs = append(inputs, needShared(t, "xztextfilter-wiki-truncated/jawiki-truncated-100k.xml.xz"))
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			o := testOptions(t, t.TempDir(), in)
			o.EmitSentences, o.OutputShards, o.Formats = true, 3, []string{formatJSONL, formatParquet}
			files := run(t, o)
			for _, name := range o.outputs() {
				if _, ok := files[name]; !ok {
					t.Errorf("%s missing", name)
				}
			}
			var doc summary.Document
			if err := json.Unmarshal(files["summary.json"], &doc); err != nil {
				t.Fatal(err)
			}
			c := doc.Counts
			if c.Clusters == 0 {
				t.Fatalf("no clusters: the test proves nothing")
			}
			clusters := filepath.Join(o.RunDir(), "clusters-*.parquet")
			rows := duckdbtest.Query(t, fmt.Sprintf(
				`SELECT category, count(DISTINCT cluster_id), max(cluster_size) FROM read_parquet('%s') GROUP BY category ORDER BY category`, clusters))
			got := map[string]int64{}
			for _, r := range rows {
				got[r[0].(string)] = asInt(t, r[1])
			}
			for cat, k := range c.Categories {
				if k.Clusters > 0 && got[cat] != k.Clusters {
					t.Errorf("DuckDB: %d %s clusters, summary.json %d", got[cat], cat, k.Clusters)
				}
				delete(got, cat)
			}
			if len(got) > 0 {
				t.Errorf("DuckDB: categories summary.json lacks: %v", got)
			}
			sentences := filepath.Join(o.RunDir(), "sentences-*.parquet")
			r := duckdbtest.Query(t, fmt.Sprintf(
				`SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE cluster_id <> '') FROM read_parquet('%s')`, sentences))
			all, distinct, clustered := asInt(t, r[0][0]), asInt(t, r[0][1]), asInt(t, r[0][2])
			if all != c.SentencesInWindow || distinct != all || clustered != c.SentencesInClusters {
				t.Errorf("DuckDB: %d sentences (%d distinct), %d in clusters; summary.json %d in window, %d in clusters",
					all, distinct, clustered, c.SentencesInWindow, c.SentencesInClusters)
			}
			passages := filepath.Join(o.RunDir(), "passages-*.parquet")
			r = duckdbtest.Query(t, fmt.Sprintf(
				`SELECT count(*), coalesce(sum(matched), 0), coalesce(max(matched), 0) FROM read_parquet('%s')`, passages))
			p := c.Passages
			if n, pairs, largest := asInt(t, r[0][0]), asInt(t, r[0][1]), asInt(t, r[0][2]); n != p.Passages || pairs != p.SentencePairs || largest != p.LargestPassage {
				t.Errorf("DuckDB: %d passages of %d matched pairs, the largest %d; summary.json %d of %d, the largest %d",
					n, pairs, largest, p.Passages, p.SentencePairs, p.LargestPassage)
			}
			if filepath.Base(in) == filepath.Base(katrinaSlice) && p.Passages == 0 {
				t.Errorf("no passages in the Katrina slice: the check proves nothing")
			}
		})
	}
}

// asInt is an integer DuckDB returned.
func asInt(t *testing.T, v any) int64 {
	t.Helper()
	if n, ok := v.(int64); ok {
		return n
	}
	t.Fatalf("DuckDB returned %T %v, want an integer", v, v)
	return 0
}
