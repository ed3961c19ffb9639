package synthrun

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/neardup/neardup/transforms/categorize"
)

// TestWrite writes a run twice with one seed: the same bytes; each index
// row locates its cluster's line, whose digest is the row's, with 2 to 40
// members in 1 to 10 articles.
func TestWrite(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	for _, dir := range []string{a, b} {
		if err := Write(dir, Config{Clusters: 2000, Shards: 2, Articles: 300, Seed: 5}); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for _, name := range []string{"clusters-00000-of-00002.jsonl", "cluster_index-00000-of-00002.tsv", "clusters-00001-of-00002.jsonl", "cluster_index-00001-of-00002.tsv", "summary.json"} {
		x, _ := os.ReadFile(filepath.Join(a, name))
		y, _ := os.ReadFile(filepath.Join(b, name))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s: %d bytes, differs between two runs of one seed", name, len(x))
		}
	}
	for s := range 2 {
		lines, _ := os.ReadFile(filepath.Join(a, "clusters-0000"+strconv.Itoa(s)+"-of-00002.jsonl"))
		idx, _ := os.Open(filepath.Join(a, "cluster_index-0000"+strconv.Itoa(s)+"-of-00002.tsv"))
		sc := bufio.NewScanner(idx)
		for sc.Scan() {
			f := bytes.SplitN(sc.Bytes(), []byte{'\t'}, 3)
			off, _ := strconv.Atoi(string(f[0]))
			length, _ := strconv.Atoi(string(f[1]))
			var c categorize.Cluster
			if err := json.Unmarshal(lines[off:off+length], &c); err != nil {
				t.Fatalf("row %q: %v", f[2], err)
			}
			if got := categorize.AppendDigest(nil, c.Digest()); !bytes.Equal(got, f[2]) {
				t.Fatalf("row %q, line's digest %q", f[2], got)
			}
			if c.Size < 2 || c.Size > 40 || c.Size != len(c.Members) || len(c.Digest().Articles) > 10 || c.Pages != len(c.Digest().Articles) {
				t.Errorf("cluster %s: %d members, %d pages", c.ID, c.Size, c.Pages)
			}
			n++
		}
		idx.Close()
	}
	if n != 2000 {
		t.Errorf("%d clusters, want 2000", n)
	}
}
