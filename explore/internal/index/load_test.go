package index

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"unsafe"

	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/testkit/corpus/synthrun"
	"github.com/neardup/neardup/transforms/categorize"
)

// indexEntries reads a run's index files with categorize.ParseDigest, in
// shard and row order, as the entries Load must give.
func indexEntries(t *testing.T, dir string, shards int) []Entry {
	t.Helper()
	var want []Entry
	for s := range shards {
		f, err := os.Open(filepath.Join(dir, result.IndexName("cluster_index", s, shards)))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			fields := bytes.SplitN(sc.Bytes(), []byte{'\t'}, 3)
			d, err := categorize.ParseDigest(fields[2])
			if err != nil {
				t.Fatal(err)
			}
			e := Entry{Index: len(want), ID: d.ID, Kind: d.Category, Size: d.Size, Pages: d.Pages,
				MembersOmitted: d.MembersOmitted, MinJaccard: float32(d.MinJaccard), MaxEdit: float32(d.MaxEdit)}
			for _, a := range d.Articles {
				e.Articles = append(e.Articles, Article{Wiki: a.Wiki, PageID: a.PageID, Title: a.Title})
			}
			want = append(want, e)
		}
		f.Close()
	}
	return want
}

// entries returns every entry of r, without the articles' indexes.
func entries(r *Run) []Entry {
	out := make([]Entry, r.Len())
	for i := range out {
		out[i] = r.Entry(i)
		for j := range out[i].Articles {
			out[i].Articles[j].Index = 0
		}
	}
	return out
}

// TestLoadMatchesIndex loads a synthetic run of three shards with one
// worker and with many small chunks read at once: every cluster of the
// index is there, in shard and row order, as categorize.ParseDigest reads
// its row; and each cluster's line, read by range, is the cluster.
func TestLoadMatchesIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "synth")
	if err := synthrun.Write(dir, synthrun.Config{Clusters: 3000, Shards: 3, Articles: 800, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	want := indexEntries(t, dir, 3)
	if len(want) != 3000 {
		t.Fatalf("the index has %d rows", len(want))
	}
	for _, opts := range []Options{{Workers: 1}, {Workers: 4, ChunkBytes: 4096}, {Workers: 2, ChunkBytes: 333}} {
		t.Run(fmt.Sprintf("%+v", opts), func(t *testing.T) {
			r := load(t, dir, opts)
			if len(r.Warnings) > 0 {
				t.Errorf("warnings: %q", r.Warnings)
			}
			if got := entries(r); !reflect.DeepEqual(got, want) {
				for i := range min(len(got), len(want)) {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Fatalf("cluster %d:\n got %+v\nwant %+v", i, got[i], want[i])
					}
				}
				t.Fatalf("%d clusters, want %d", len(got), len(want))
			}
			for _, i := range []int{0, 1, 999, 1000, 2999} {
				c, err := r.ReadCluster(t.Context(), i)
				if err != nil {
					t.Fatal(err)
				}
				if d := c.Digest(); d.ID != want[i].ID || d.Size != want[i].Size || len(c.Members) != c.Size {
					t.Errorf("cluster %d read as %s of %d members, want %s of %d", i, d.ID, len(c.Members), want[i].ID, want[i].Size)
				}
			}
		})
	}
}

// TestLoadCounts checks the counts by kind and the articles' table.
func TestLoadCounts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "synth")
	if err := synthrun.Write(dir, synthrun.Config{Clusters: 500, Articles: 100, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	r := load(t, dir, Options{})
	var doc struct {
		Counts struct {
			Categories map[string]KindCount `json:"categories"`
		} `json:"counts"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range r.Kinds() {
		want := doc.Counts.Categories[k.Kind]
		if k.Clusters != want.Clusters || k.Sentences != want.Sentences {
			t.Errorf("%s: %d clusters of %d sentences, summary.json says %d of %d", k.Kind, k.Clusters, k.Sentences, want.Clusters, want.Sentences)
		}
	}
	if len(r.Kinds()) != len(doc.Counts.Categories) {
		t.Errorf("%d kinds, summary.json has %d", len(r.Kinds()), len(doc.Counts.Categories))
	}
	distinct := map[string]bool{}
	for _, e := range entries(r) {
		for _, a := range e.Articles {
			distinct[a.Wiki+":"+strconv.FormatInt(a.PageID, 10)] = true
		}
	}
	if r.Articles() != len(distinct) {
		t.Errorf("%d articles, want %d", r.Articles(), len(distinct))
	}
	for i := range r.Articles() {
		a := r.Article(i)
		if j, ok := r.FindArticle(a.Wiki, a.PageID); !ok || j != i {
			t.Errorf("FindArticle(%s, %d) = %d, %v; want %d", a.Wiki, a.PageID, j, ok, i)
		}
	}
	if _, ok := r.FindArticle("enwiki", 1); ok {
		t.Error("FindArticle found a page of no cluster")
	}
	if got := slices.Collect(func(yield func(string) bool) {
		for _, k := range r.Kinds() {
			yield(k.Kind)
		}
	}); !slices.Equal(got, []string{"identical", "copy_edit", "factual_drift", "template", "reference", "other"}) {
		t.Errorf("kinds in order %q", got)
	}
}

// TestRecordSize: a cluster costs 64 bytes of records, as docs/explorer.md says.
func TestRecordSize(t *testing.T) {
	if n := unsafe.Sizeof(record{}); n != 64 {
		t.Errorf("a record is %d bytes", n)
	}
}
