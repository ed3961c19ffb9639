package parquetfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchMember and benchCluster encode lines shaped like the pipeline's.
type benchMember struct {
	ID       string `json:"id"`
	Wiki     string `json:"wiki"`
	PageID   int64  `json:"page_id"`
	RevID    int64  `json:"rev_id"`
	Title    string `json:"title"`
	Sentence int    `json:"sentence"`
	Section  string `json:"section"`
	Context  string `json:"context"`
	Text     string `json:"text"`
}

type benchCluster struct {
	ID       string         `json:"id"`
	Size     int            `json:"size"`
	Pages    int            `json:"pages"`
	Category string         `json:"category"`
	Evidence map[string]any `json:"evidence"`
	Cohesion map[string]any `json:"cohesion"`
	Members  []benchMember  `json:"members"`
}

var benchWords = strings.Fields(`the river rises in a cirque below massif drops through narrow gorge of grey
limestone and joins just downstream old town population census was recorded at 1,204 inhabitants in 2011 while
district office moved to new building after flood abbey monks drained marshes northern end lake`)

// benchText returns a sentence of about n bytes.
func benchText(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(benchWords[r.IntN(len(benchWords))])
	}
	b.WriteByte('.')
	return b.String()
}

// benchClusterLines returns n cluster lines of 3 to 8 members with texts
// of about 150 bytes, a few words changed from member to member.
func benchClusterLines(n int) [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	categories := []string{"identical", "copy_edit", "factual_drift", "template", "reference", "other"}
	lines := make([][]byte, n)
	for i := range lines {
		size := 3 + r.IntN(6)
		text := benchText(r, 150)
		c := benchCluster{
			Size: size, Pages: size, Category: categories[r.IntN(len(categories))],
			Evidence: map[string]any{
				"rule": "numbers_differ", "reason": "the same statement gives different numbers in 1 place: 1,204 → 1,240",
				"diffs":            []any{map[string]any{"a": 0, "b": 1, "changes": []any{map[string]any{"kind": "number", "from": "1,204", "to": "1,240"}}}},
				"identical_groups": []any{[]int{0, 2}}, "distinct_texts": 2, "votes": map[string]int{"factual_drift": 1},
			},
			Cohesion: map[string]any{"edges": size - 1, "min_jaccard": 0.81, "mean_jaccard": 0.9, "max_edit": 0.04, "mean_edit": 0.02},
		}
		for j := range size {
			page := int64(1000*i + j)
			m := benchMember{
				ID: fmt.Sprintf("enwiki:%d:%d:%d", page, 5000000+page, j), Wiki: "enwiki", PageID: page, RevID: 5000000 + page,
				Title: fmt.Sprintf("Page %d", page), Sentence: j, Section: "History", Context: "prose", Text: text,
			}
			if j%2 == 1 {
				m.Text = strings.Replace(text, benchWords[0], benchWords[r.IntN(len(benchWords))], 1)
			}
			c.Members = append(c.Members, m)
		}
		c.ID = c.Members[0].ID
		line, err := json.Marshal(c)
		if err != nil {
			panic(err)
		}
		lines[i] = line
	}
	return lines
}

// BenchmarkWriteClusters writes 2,000 clusters; MB/s is of the JSON lines
// read, parquet/json the size of the file over theirs.
func BenchmarkWriteClusters(b *testing.B) {
	benchmarkWriters(b, benchClusterLines(2000), clustersTable)
}

// benchmarkWriters writes lines as a file of the table tb, with the writer
// before streaming ("one-writer", onewriter_test.go) and with the streaming
// writer ("stream", and "stream-1" with one encoder).
func benchmarkWriters[T any](b *testing.B, lines [][]byte, tb table[T]) {
	in := 0
	for _, l := range lines {
		in += len(l) + 1
	}
	one := defaultOptions()
	one.encoders = 1
	for _, w := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{"one-writer", func(w io.Writer) error { return writeOneWriter(w, lines, tb, defaultOptions()) }},
		{"stream", func(w io.Writer) error { return writeAll(w, lines, tb, defaultOptions()) }},
		{"stream-1", func(w io.Writer) error { return writeAll(w, lines, tb, one) }},
	} {
		b.Run(w.name, func(b *testing.B) {
			b.SetBytes(int64(in))
			var buf bytes.Buffer
			cpu := cpuTime(b)
			for b.Loop() {
				buf.Reset()
				if err := w.write(&buf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(buf.Len())/float64(in), "parquet/json")
		})
	}
}

// Real inputs of the benchmark corpus, read when present: a clusters shard
// (69 MB) and a sentences shard (63 MB) of a run of the pipeline.
const (
	realClusters  = "/tmp/pqdata/clusters-8x.jsonl"
	realSentences = "/tmp/pqdata/run/s/sentences-00000-of-00001.jsonl"
)

// BenchmarkWriteClustersReal writes the real clusters shard, if present.
func BenchmarkWriteClustersReal(b *testing.B) {
	benchmarkWriters(b, realLines(b, realClusters), clustersTable)
}

// BenchmarkWriteSentencesReal writes the real sentences shard, if present.
func BenchmarkWriteSentencesReal(b *testing.B) {
	benchmarkWriters(b, realLines(b, realSentences), sentencesTable)
}

// cpuTime returns the CPU time of the process so far: on a shared machine,
// a steadier measure of work than the wall time.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// realLines returns the lines of the file name, or skips the benchmark if
// there is none.
func realLines(b *testing.B, name string) [][]byte {
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		b.Skipf("no %s: the benchmark reads a real shard there", name)
	}
	if err != nil {
		b.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
}
