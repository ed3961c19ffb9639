package synthrun

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/summary"
)

// Wiki is a wiki of a run, as summary.json lists it.
type Wiki struct {
	Name string `json:"wiki"`
	Lang string `json:"lang"`
	Base string `json:"base"`
}

// Writer writes a run directory of given clusters, as pipelines/sentences
// does: each cluster's line to a clusters file and its index row to the
// shard's cluster_index file, then, on Close, summary.json, an empty
// dead-letter file and, last, manifest.json.
type Writer struct {
	dir    string
	wikis  []Wiki
	shards []*shardWriter
	n      int
	counts counters.Counts
}

// NewWriter creates dir and the files of shards shards.
func NewWriter(dir string, shards int, wikis []Wiki) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	w := &Writer{dir: dir, wikis: wikis}
	for i := range shards {
		s, err := newShardWriter(dir, i, shards)
		if err != nil {
			w.closeShards()
			return nil, err
		}
		w.shards = append(w.shards, s)
	}
	return w, nil
}

// Add writes a cluster to the next shard in turn. Clusters are written in
// the order they are added.
func (w *Writer) Add(c categorize.Cluster) error {
	w.counts.Clusters++
	w.counts.SentencesInClusters += int64(c.Size)
	w.counts.LargestCluster = max(w.counts.LargestCluster, int64(c.Size))
	w.counts.AddCategory(c.Category, 1, int64(c.Size))
	s := w.shards[w.n%len(w.shards)]
	w.n++
	return s.add(c)
}

// Close finishes the shards' files and writes the summary and manifest.
func (w *Writer) Close() error {
	if err := w.closeShards(); err != nil {
		return err
	}
	return writeMeta(w.dir, len(w.shards), w.wikis, w.counts)
}

func (w *Writer) closeShards() error {
	var first error
	for _, s := range w.shards {
		if err := s.close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// shardWriter writes a clusters file and its index.
type shardWriter struct {
	lines, index *os.File
	lw, iw       *bufio.Writer
	offset       int64
	row          []byte
}

func newShardWriter(dir string, i, n int) (*shardWriter, error) {
	lines, err := os.Create(filepath.Join(dir, result.ShardName("clusters", i, n)))
	if err != nil {
		return nil, err
	}
	index, err := os.Create(filepath.Join(dir, result.IndexName("cluster_index", i, n)))
	if err != nil {
		lines.Close()
		return nil, err
	}
	return &shardWriter{lines: lines, index: index, lw: bufio.NewWriterSize(lines, 1<<20), iw: bufio.NewWriterSize(index, 1<<20)}, nil
}

// add writes a cluster's line and its index row.
func (w *shardWriter) add(c categorize.Cluster) error {
	line, err := c.MarshalLine()
	if err != nil {
		return err
	}
	w.row = strconv.AppendInt(w.row[:0], w.offset, 10)
	w.row = append(w.row, '\t')
	w.row = strconv.AppendInt(w.row, int64(len(line)), 10)
	w.row = append(w.row, '\t')
	w.row = append(categorize.AppendDigest(w.row, c.Digest()), '\n')
	w.offset += int64(len(line)) + 1
	w.lw.Write(line)
	w.lw.WriteByte('\n')
	_, err = w.iw.Write(w.row)
	return err
}

func (w *shardWriter) close() error {
	for _, f := range []struct {
		w *bufio.Writer
		f *os.File
	}{{w.lw, w.lines}, {w.iw, w.index}} {
		err := f.w.Flush()
		if cerr := f.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("synthrun: writing %s: %w", f.f.Name(), err)
		}
	}
	return nil
}

// writeMeta writes summary.json, an empty dead-letter file and, last,
// manifest.json.
func writeMeta(dir string, shards int, wikis []Wiki, counts counters.Counts) error {
	wj, err := json.Marshal(wikis)
	if err != nil {
		return err
	}
	params := json.RawMessage(`{"output_shards":` + strconv.Itoa(shards) + `}`)
	doc := summary.Document{Version: "synthetic", Parameters: params, CollisionCurve: json.RawMessage(`{}`),
		Wikis: wj, Counts: counts, TopArticlePairs: []summary.PairCount{}}
	var outputs []string
	for i := range shards {
		outputs = append(outputs, result.ShardName("clusters", i, shards), result.IndexName("cluster_index", i, shards))
	}
	outputs = append(outputs, result.ShardName("dead_letter", 0, 1), "summary.json", "manifest.json")
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := summary.Manifest{RunID: filepath.Base(dir), Version: "synthetic", Parameters: params, Outputs: outputs,
		Inputs: []document.Input{}, Started: when, Finished: when, Counts: counts}
	for _, f := range []struct {
		name string
		v    any
	}{{result.ShardName("dead_letter", 0, 1), nil}, {"summary.json", doc}, {"manifest.json", m}} {
		var b []byte
		if f.v != nil {
			if b, err = json.MarshalIndent(f.v, "", "  "); err != nil {
				return err
			}
			b = append(b, '\n')
		}
		if err := os.WriteFile(filepath.Join(dir, f.name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
