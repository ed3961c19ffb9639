package parquetfile

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/duckdbtest"
)

// TestDuckDB reads the files with DuckDB, as a user of the results would:
// the fixtures written as two shards of each kind, read by a glob.
func TestDuckDB(t *testing.T) {
	dir := t.TempDir()
	shards := func(prefix string, writeFile fileWriter, lines ...[][]byte) string {
		for i, l := range lines {
			name := filepath.Join(dir, fmt.Sprintf("%s-%05d-of-%05d.parquet", prefix, i, len(lines)))
			if err := os.WriteFile(name, write(t, writeFile, l), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return sqlString(filepath.Join(dir, prefix+"-*.parquet"))
	}
	clusterLines := [][][]byte{readLines(t, "clusters.jsonl"), readLines(t, "clusters-handwritten.jsonl")}
	sentenceLines := [][][]byte{readLines(t, "sentences.jsonl"), readLines(t, "sentences-handwritten.jsonl")}
	passageLines := [][][]byte{readLines(t, "passages-text.jsonl"), readLines(t, "passages-handwritten.jsonl")}
	clusters := "read_parquet(" + shards("clusters", writeClusters, clusterLines...) + ")"
	passages := "read_parquet(" + shards("passages", writePassages, passageLines...) + ")"
	sentences := "read_parquet(" + shards("sentences", writeSentences, sentenceLines...) + ")"

	t.Run("clusters by category", func(t *testing.T) {
		got := duckdbtest.Query(t, "SELECT category, count(DISTINCT cluster_id) FROM "+clusters+" GROUP BY category ORDER BY category")
		if want := categoryCounts(t, slices.Concat(clusterLines...)); !reflect.DeepEqual(got, want) {
			t.Errorf("clusters by category %v, want %v (from the lines)", got, want)
		}
	})
	t.Run("sentences", func(t *testing.T) {
		lines := slices.Concat(sentenceLines...)
		clustered := 0
		for _, line := range lines {
			if str(object(t, line), "cluster_id") != "" {
				clustered++
			}
		}
		got := duckdbtest.Query(t, "SELECT count(*), count(*) FILTER (cluster_id <> '') FROM "+sentences)
		if want := [][]any{{int64(len(lines)), int64(clustered)}}; !reflect.DeepEqual(got, want) {
			t.Errorf("sentences, clustered: %v, want %v", got, want)
		}
	})
	t.Run("non-ASCII text", func(t *testing.T) {
		text := str(object(t, readLines(t, "sentences-handwritten.jsonl")[0]), "text")
		got := duckdbtest.Query(t, "SELECT text, octet_length(encode(text)) FROM "+sentences+" WHERE id = 'testwiki:7:70:0'")
		if want := [][]any{{text, int64(len(text))}}; !reflect.DeepEqual(got, want) {
			t.Errorf("text %q, want %q", got, want)
		}
		// Selected by the text itself, which reads the page statistics.
		got = duckdbtest.Query(t, "SELECT id, member_index FROM "+clusters+" WHERE text = "+sqlString(text))
		if want := [][]any{{"testwiki:7:70:0", int64(0)}}; !reflect.DeepEqual(got, want) {
			t.Errorf("cluster members of text %q: %v, want %v", text, got, want)
		}
	})
	t.Run("evidence is JSON", func(t *testing.T) {
		got := duckdbtest.Query(t, "SELECT count(*), count(*) FILTER (json_extract_string(evidence, '$.rule') = rule"+
			" AND json_extract_string(evidence, '$.reason') = reason AND json_valid(evidence)) FROM "+clusters)
		if len(got) != 1 || got[0][0] != got[0][1] || got[0][0] == int64(0) {
			t.Errorf("rows, rows whose evidence has their rule and reason: %v, want two equal counts", got)
		}
	})
	t.Run("passages", func(t *testing.T) {
		lines := slices.Concat(passageLines...)
		var matched int64
		for _, line := range lines {
			matched += i64(t, object(t, line), "matched")
		}
		got := duckdbtest.Query(t, "SELECT count(*), sum(matched), count(*) FILTER (json_array_length(matches) = matched) FROM "+passages)
		// Every line of the run with --passage_text lists its matches, and
		// one handwritten line does; the other has none.
		if want := [][]any{{int64(len(lines)), matched, int64(len(lines) - 1)}}; !reflect.DeepEqual(got, want) {
			t.Errorf("passages, matched pairs, passages listing them: %v, want %v", got, want)
		}
		got = duckdbtest.Query(t, "SELECT b_title, json_extract_string(matches, '$[1].text_b'), a_lang FROM "+passages+" WHERE a_id = 'webcorpus:3:3'")
		if want := [][]any{{"日本語 😀", "日本語の文章。", "el"}}; !reflect.DeepEqual(got, want) {
			t.Errorf("handwritten passage: %v, want %v", got, want)
		}
	})
	t.Run("no lines", func(t *testing.T) {
		name := filepath.Join(dir, "empty.parquet")
		if err := os.WriteFile(name, write(t, writeClusters, nil), 0o644); err != nil {
			t.Fatal(err)
		}
		got := duckdbtest.Query(t, "SELECT count(*), count(category) FROM read_parquet("+sqlString(name)+")")
		if want := [][]any{{int64(0), int64(0)}}; !reflect.DeepEqual(got, want) {
			t.Errorf("rows of a file of no lines: %v, want %v", got, want)
		}
	})
}

// categoryCounts is the number of clusters of each category in lines, as
// rows [category, count] by category.
func categoryCounts(t testing.TB, lines [][]byte) [][]any {
	counts := map[string]int64{}
	for _, line := range lines {
		counts[str(object(t, line), "category")]++
	}
	var rows [][]any
	for _, c := range slices.Sorted(maps.Keys(counts)) {
		rows = append(rows, []any{c, counts[c]})
	}
	return rows
}

// sqlString quotes s as an SQL string literal.
func sqlString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
