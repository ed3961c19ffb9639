package parquetfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// readLines returns the lines of a file of testdata.
func readLines(t testing.TB, name string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}

// fileWriter is writeClusters, writeSentences or writePassages.
type fileWriter func(w io.Writer, lines [][]byte, opts options) error

// write returns the file that write makes of lines.
func write(t testing.TB, write fileWriter, lines [][]byte) []byte {
	t.Helper()
	return writeWith(t, write, lines, defaultOptions())
}

// writeWith returns the file that write makes of lines with the settings
// opts.
func writeWith(t testing.TB, write fileWriter, lines [][]byte, opts options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf, lines, opts); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readRows reads back the rows of a file.
func readRows[T any](t testing.TB, file []byte) []T {
	t.Helper()
	rows, err := parquet.Read[T](bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatalf("reading back: %v", err)
	}
	return rows
}

// object decodes a JSON object keeping numbers exact.
func object(t testing.TB, b []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m
}

// Accessors of a decoded object; a missing key is the zero value.
func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }
func obj(m map[string]any, k string) map[string]any {
	o, _ := m[k].(map[string]any)
	return o
}
func i64(t testing.TB, m map[string]any, k string) int64 {
	n, ok := m[k].(json.Number)
	if !ok {
		return 0
	}
	i, err := n.Int64()
	if err != nil {
		t.Fatalf("%s: %v", k, err)
	}
	return i
}
func f64(t testing.TB, m map[string]any, k string) float64 {
	f, err := m[k].(json.Number).Float64()
	if err != nil {
		t.Fatalf("%s: %v", k, err)
	}
	return f
}

// canonical re-encodes a JSON value with sorted keys.
func canonical(t testing.TB, b []byte) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// wantClusterRows is the rows of cluster lines, built from the JSON as
// generic values, apart from the writer's decoding. Evidence is canonical.
func wantClusterRows(t testing.TB, lines [][]byte) []ClusterRow {
	var rows []ClusterRow
	for _, line := range lines {
		c := object(t, line)
		ev, coh := obj(c, "evidence"), obj(c, "cohesion")
		evJSON, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range c["members"].([]any) {
			m := m.(map[string]any)
			rows = append(rows, ClusterRow{
				ClusterID: str(c, "id"), ClusterSize: i64(t, c, "size"), ClusterPages: i64(t, c, "pages"),
				Category: str(c, "category"), Rule: str(ev, "rule"), Reason: str(ev, "reason"),
				Evidence:   canonical(t, evJSON),
				MinJaccard: f64(t, coh, "min_jaccard"), MeanJaccard: f64(t, coh, "mean_jaccard"),
				MaxEdit: f64(t, coh, "max_edit"), MeanEdit: f64(t, coh, "mean_edit"),
				CohesionEdges: i64(t, coh, "edges"), MembersOmitted: i64(t, c, "members_omitted"),
				MemberIndex: int64(i),
				ID:          str(m, "id"), Wiki: str(m, "wiki"), PageID: i64(t, m, "page_id"), RevID: i64(t, m, "rev_id"),
				Title: str(m, "title"), Sentence: i64(t, m, "sentence"), Section: str(m, "section"),
				Context: str(m, "context"), Text: str(m, "text"),
			})
		}
	}
	return rows
}

// wantSentenceRows is the rows of sentence lines, built like wantClusterRows.
func wantSentenceRows(t testing.TB, lines [][]byte) []SentenceRow {
	var rows []SentenceRow
	for _, line := range lines {
		s := object(t, line)
		rows = append(rows, SentenceRow{
			ID: str(s, "id"), Wiki: str(s, "wiki"), PageID: i64(t, s, "page_id"), RevID: i64(t, s, "rev_id"),
			Title: str(s, "title"), Sentence: i64(t, s, "sentence"), Section: str(s, "section"),
			Context: str(s, "context"), Text: str(s, "text"), ClusterID: str(s, "cluster_id"),
		})
	}
	return rows
}

func TestWriteClusters(t *testing.T) {
	tests := []struct {
		name  string
		lines [][]byte
		rows  int
	}{
		{"pipeline output", readLines(t, "clusters.jsonl"), 15},
		{"handwritten", readLines(t, "clusters-handwritten.jsonl"), 2},
		{"both", append(readLines(t, "clusters.jsonl"), readLines(t, "clusters-handwritten.jsonl")...), 17},
		{"no lines", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := readRows[ClusterRow](t, write(t, writeClusters, tt.lines))
			if len(got) != tt.rows {
				t.Fatalf("%d rows, want %d", len(got), tt.rows)
			}
			for i := range got {
				// The evidence column is the line's own evidence object.
				if !bytes.Contains(tt.lines[clusterOf(t, tt.lines, got[i].ClusterID)], []byte(`"evidence":`+got[i].Evidence)) {
					t.Errorf("row %d: evidence %s is not the line's evidence", i, got[i].Evidence)
				}
				got[i].Evidence = canonical(t, []byte(got[i].Evidence))
			}
			if want := wantClusterRows(t, tt.lines); !slices.Equal(got, want) {
				t.Errorf("rows differ from the lines:\ngot  %+v\nwant %+v", got, want)
			}
		})
	}
}

// clusterOf returns the index of the line of the cluster id.
func clusterOf(t testing.TB, lines [][]byte, id string) int {
	for i, line := range lines {
		if str(object(t, line), "id") == id {
			return i
		}
	}
	t.Fatalf("no line of cluster %s", id)
	return -1
}

func TestWriteSentences(t *testing.T) {
	tests := []struct {
		name      string
		lines     [][]byte
		clustered int // rows with a cluster_id
	}{
		{"pipeline output", readLines(t, "sentences.jsonl"), 15},
		{"handwritten", readLines(t, "sentences-handwritten.jsonl"), 1},
		{"no cluster_id field", [][]byte{[]byte(`{"id":"w:1:2:3","wiki":"w","page_id":1,"rev_id":2,"sentence":3,"text":"t"}`)}, 0},
		{"no lines", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := readRows[SentenceRow](t, write(t, writeSentences, tt.lines))
			if want := wantSentenceRows(t, tt.lines); !slices.Equal(got, want) {
				t.Errorf("rows differ from the lines:\ngot  %+v\nwant %+v", got, want)
			}
			clustered := 0
			for _, r := range got {
				if r.ClusterID != "" {
					clustered++
				}
			}
			if clustered != tt.clustered {
				t.Errorf("%d rows with a cluster_id, want %d", clustered, tt.clustered)
			}
		})
	}
}

// column is a column's name and type as the BigQuery schemas say them.
type column struct{ name, typ string }

// columnsOf returns the columns of a file, failing on any that is not a
// required string, int64 or double.
func columnsOf(t testing.TB, file []byte) []column {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	var cols []column
	for _, field := range f.Schema().Fields() {
		typ := "unsupported " + field.Type().String()
		switch {
		case !field.Leaf() || !field.Required():
			typ = "not a required leaf"
		case field.Type().Kind() == parquet.ByteArray && isString(field.Type().LogicalType()):
			typ = "STRING"
		case field.Type().Kind() == parquet.Int64 && isInt64(field.Type().LogicalType()):
			typ = "INTEGER"
		case field.Type().Kind() == parquet.Double:
			typ = "FLOAT"
		}
		cols = append(cols, column{field.Name(), typ})
	}
	return cols
}

// isString says whether a logical type is STRING.
func isString(lt *format.LogicalType) bool {
	if lt == nil {
		return false
	}
	_, ok := lt.Value.(*format.StringType)
	return ok
}

// isInt64 says whether a logical type is none or a signed 64-bit integer.
func isInt64(lt *format.LogicalType) bool {
	if lt == nil || lt.Value == nil {
		return true
	}
	i, ok := lt.Value.(*format.IntType)
	return ok && i.BitWidth == 64 && i.IsSigned
}

func TestColumns(t *testing.T) {
	clusters := []column{
		{"cluster_id", "STRING"}, {"cluster_size", "INTEGER"}, {"cluster_pages", "INTEGER"},
		{"category", "STRING"}, {"rule", "STRING"}, {"reason", "STRING"}, {"evidence", "STRING"},
		{"min_jaccard", "FLOAT"}, {"mean_jaccard", "FLOAT"}, {"max_edit", "FLOAT"}, {"mean_edit", "FLOAT"},
		{"cohesion_edges", "INTEGER"}, {"members_omitted", "INTEGER"}, {"member_index", "INTEGER"},
		{"id", "STRING"}, {"wiki", "STRING"}, {"page_id", "INTEGER"}, {"rev_id", "INTEGER"},
		{"title", "STRING"}, {"sentence", "INTEGER"}, {"section", "STRING"}, {"context", "STRING"}, {"text", "STRING"},
	}
	sentences := []column{
		{"id", "STRING"}, {"wiki", "STRING"}, {"page_id", "INTEGER"}, {"rev_id", "INTEGER"},
		{"title", "STRING"}, {"sentence", "INTEGER"}, {"section", "STRING"}, {"context", "STRING"},
		{"text", "STRING"}, {"cluster_id", "STRING"},
	}
	var passages []column
	for _, side := range []string{"a_", "b_"} {
		passages = append(passages, []column{
			{side + "id", "STRING"}, {side + "wiki", "STRING"}, {side + "page_id", "INTEGER"}, {side + "rev_id", "INTEGER"},
			{side + "title", "STRING"}, {side + "doc", "STRING"}, {side + "url", "STRING"}, {side + "lang", "STRING"},
			{side + "first", "INTEGER"}, {side + "last", "INTEGER"}, {side + "sentences", "INTEGER"}, {side + "share", "FLOAT"},
		}...)
	}
	passages = append(passages, column{"matched", "INTEGER"}, column{"mean_jaccard", "FLOAT"}, column{"matches", "STRING"})
	tests := []struct {
		name string
		file []byte
		want []column
	}{
		{"clusters", write(t, writeClusters, readLines(t, "clusters.jsonl")), clusters},
		{"clusters of no lines", write(t, writeClusters, nil), clusters},
		{"sentences", write(t, writeSentences, readLines(t, "sentences.jsonl")), sentences},
		{"sentences of no lines", write(t, writeSentences, nil), sentences},
		{"passages", write(t, writePassages, readLines(t, "passages-text.jsonl")), passages},
		{"passages of no lines", write(t, writePassages, nil), passages},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := columnsOf(t, tt.file); !slices.Equal(got, tt.want) {
				t.Errorf("columns\n%v\nwant\n%v", got, tt.want)
			}
		})
	}
}

// TestEncodings checks what the package comment promises of the column
// chunks: Zstd, and no encoding beyond PLAIN, RLE and dictionaries.
func TestEncodings(t *testing.T) {
	allowed := []format.Encoding{format.Plain, format.RLE, format.RLEDictionary}
	for name, file := range map[string][]byte{
		"clusters":  write(t, writeClusters, readLines(t, "clusters.jsonl")),
		"sentences": write(t, writeSentences, readLines(t, "sentences.jsonl")),
		"passages":  write(t, writePassages, readLines(t, "passages-text.jsonl")),
	} {
		f, err := parquet.OpenFile(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			t.Fatal(err)
		}
		md := f.Metadata()
		if len(md.RowGroups) == 0 {
			t.Fatalf("%s: no row group", name)
		}
		if md.CreatedBy != createdBy {
			t.Errorf("%s: created_by %q, want %q", name, md.CreatedBy, createdBy)
		}
		for _, rg := range md.RowGroups {
			for _, c := range rg.Columns {
				path := strings.Join(c.MetaData.PathInSchema, ".")
				if c.MetaData.Codec != format.Zstd {
					t.Errorf("%s: column %s: codec %v, want ZSTD", name, path, c.MetaData.Codec)
				}
				for _, e := range c.MetaData.Encoding {
					if !slices.Contains(allowed, e) {
						t.Errorf("%s: column %s: encoding %v", name, path, e)
					}
				}
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	opts := defaultOptions()
	opts.rowGroupRows = 4 // several row groups
	for _, tt := range []struct {
		name  string
		write fileWriter
		lines [][]byte
	}{
		{"clusters", writeClusters, append(readLines(t, "clusters.jsonl"), readLines(t, "clusters-handwritten.jsonl")...)},
		{"sentences", writeSentences, append(readLines(t, "sentences.jsonl"), readLines(t, "sentences-handwritten.jsonl")...)},
		{"passages", writePassages, slices.Concat(readLines(t, "passages-text.jsonl"), readLines(t, "passages-handwritten.jsonl"))},
		{"no clusters", writeClusters, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			first := writeWith(t, tt.write, tt.lines, opts)
			for range 3 {
				if again := writeWith(t, tt.write, tt.lines, opts); !bytes.Equal(again, first) {
					t.Fatalf("a second write of the same lines differs: %d bytes, then %d", len(first), len(again))
				}
			}
		})
	}
}

func TestRowGroups(t *testing.T) {
	clusters := readLines(t, "clusters.jsonl") // 15 rows
	sentences := readLines(t, "sentences.jsonl")
	tests := []struct {
		name        string
		write       fileWriter
		lines       [][]byte
		rows, bytes int
		want        []int64 // rows of each row group
	}{
		{"clusters, default limits", writeClusters, clusters, rowGroupRows, rowGroupBytes, []int64{15}},
		{"clusters by rows", writeClusters, clusters, 4, rowGroupBytes, []int64{4, 4, 4, 3}},
		{"clusters by rows, exact", writeClusters, clusters, 5, rowGroupBytes, []int64{5, 5, 5}},
		{"clusters by bytes", writeClusters, clusters, rowGroupRows, 1, slices.Repeat([]int64{1}, 15)},
		{"sentences by rows", writeSentences, sentences, 10, rowGroupBytes, []int64{10, 10, 6}},
		{"no lines", writeSentences, nil, 4, rowGroupBytes, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := defaultOptions()
			opts.rowGroupRows, opts.rowGroupBytes = tt.rows, tt.bytes
			file := writeWith(t, tt.write, tt.lines, opts)
			f, err := parquet.OpenFile(bytes.NewReader(file), int64(len(file)))
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, rg := range f.RowGroups() {
				got = append(got, rg.NumRows())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("row groups of %v rows, want %v", got, tt.want)
			}
		})
	}
}

// TestRowGroupsReadBack checks that rows split across row groups and
// batches come back whole and in order.
func TestRowGroupsReadBack(t *testing.T) {
	var lines [][]byte
	for i := range 3*batchRows + 17 {
		lines = append(lines, fmt.Appendf(nil, `{"id":"w:1:1:%d","wiki":"w","page_id":1,"rev_id":1,"sentence":%d,"text":"sentence %d"}`, i, i, i))
	}
	opts := defaultOptions()
	opts.rowGroupRows = batchRows + batchRows/2
	got := readRows[SentenceRow](t, writeWith(t, writeSentences, lines, opts))
	if want := wantSentenceRows(t, lines); !slices.Equal(got, want) {
		t.Errorf("%d rows read back differ from the %d lines", len(got), len(want))
	}
}

// TestChunks checks that lines decoded in many chunks make the same file
// as in one, and that an error names its line whatever its chunk.
func TestChunks(t *testing.T) {
	one := defaultOptions()
	many := defaultOptions()
	many.chunkBytes = 1 // a line a chunk
	for _, tt := range []struct {
		name  string
		write fileWriter
		lines [][]byte
	}{
		{"clusters", writeClusters, slices.Concat(readLines(t, "clusters.jsonl"), readLines(t, "clusters-handwritten.jsonl"))},
		{"sentences", writeSentences, slices.Concat(readLines(t, "sentences.jsonl"), readLines(t, "sentences-handwritten.jsonl"))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if !bytes.Equal(writeWith(t, tt.write, tt.lines, many), writeWith(t, tt.write, tt.lines, one)) {
				t.Errorf("the file of %d chunks differs from that of one", len(tt.lines))
			}
			for _, bad := range []int{0, len(tt.lines) / 2, len(tt.lines) - 1} {
				lines := slices.Clone(tt.lines)
				lines[bad] = []byte("{")
				err := tt.write(io.Discard, lines, many)
				want := fmt.Sprintf("parquetfile: %s line %d: unexpected end of JSON input", tt.name, bad+1)
				if err == nil || err.Error() != want {
					t.Errorf("line %d malformed: error %v, want %q", bad+1, err, want)
				}
			}
		})
	}
}

func TestMalformed(t *testing.T) {
	good := readLines(t, "clusters.jsonl")[0]
	goodSentence := readLines(t, "sentences.jsonl")[0]
	tests := []struct {
		name    string
		write   fileWriter
		lines   [][]byte
		wantErr string
	}{
		{"truncated cluster", writeClusters, [][]byte{good, good[:len(good)/2]}, "parquetfile: clusters line 2: unexpected end of JSON input"},
		{"empty cluster line", writeClusters, [][]byte{good, good, []byte{}}, "clusters line 3: unexpected end of JSON input"},
		{"cluster null", writeClusters, [][]byte{[]byte("null")}, "clusters line 1: cluster has no id"},
		{"cluster array", writeClusters, [][]byte{[]byte("[]")}, "clusters line 1: json: cannot unmarshal array"},
		{"cluster of no members", writeClusters, [][]byte{good, []byte(`{"id":"w:1:1:0","members":[]}`)}, "clusters line 2: cluster w:1:1:0 has no members"},
		{"size as a string", writeClusters, [][]byte{[]byte(`{"id":"w:1:1:0","size":"3"}`)}, "clusters line 1: json: cannot unmarshal string"},
		{"evidence not an object", writeClusters, [][]byte{[]byte(`{"id":"w:1:1:0","evidence":"x"}`)}, "clusters line 1: json: cannot unmarshal string"},
		{"a sentence as a cluster", writeClusters, [][]byte{goodSentence}, "clusters line 1: cluster samplewiki:101:40100:0 has no members"},
		{"truncated sentence", writeSentences, [][]byte{goodSentence, goodSentence, goodSentence[:10]}, "parquetfile: sentences line 3: unexpected end of JSON input"},
		{"sentence without id", writeSentences, [][]byte{[]byte(`{"wiki":"w","text":"t"}`)}, "sentences line 1: sentence has no id"},
		{"passage without b", writePassages, [][]byte{[]byte(`{"a":{"id":"w:1:1"},"matched":3}`)}, "passages line 1: passage has no document id"},
		{"truncated passage", writePassages, [][]byte{[]byte(`{"a":{"id":"w:1:1"},"b":{"id":`)}, "passages line 1: unexpected end of JSON input"},
		{"matched as a string", writePassages, [][]byte{[]byte(`{"a":{"id":"w:1:1"},"b":{"id":"w:2:2"},"matched":"3"}`)}, "passages line 1: json: cannot unmarshal string"},
		{"page_id as a float", writeSentences, [][]byte{[]byte(`{"id":"w:1:1:0","page_id":1.5}`)}, "sentences line 1: json: cannot unmarshal number 1.5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := tt.write(&buf, tt.lines, defaultOptions())
			if err == nil || !strings.HasPrefix(strings.TrimPrefix(err.Error(), "parquetfile: "), strings.TrimPrefix(tt.wantErr, "parquetfile: ")) ||
				!strings.HasPrefix(err.Error(), "parquetfile: ") {
				t.Errorf("error %v, want one starting %q", err, tt.wantErr)
			}
		})
	}
}
