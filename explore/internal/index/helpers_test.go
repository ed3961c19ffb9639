package index

import (
	"path/filepath"
	"testing"

	"github.com/neardup/neardup/explore/internal/store"
	"github.com/neardup/neardup/testkit/corpus/synthrun"
	"github.com/neardup/neardup/transforms/categorize"
)

// testWikis are the wikis of the hand-made runs.
var testWikis = []synthrun.Wiki{
	{Name: "elwiki", Lang: "el", Base: "https://el.wikipedia.org/wiki/Πύλη:Κύρια"},
	{Name: "enwiki", Lang: "en", Base: "https://en.wikipedia.org/wiki/Main_Page"},
	{Name: "jawiki", Lang: "ja", Base: "https://ja.wikipedia.org/wiki/メインページ"},
}

// page is an article of a hand-made cluster.
type page = synthrun.Page

// makeCluster makes a cluster of a test (synthrun.Cluster).
var makeCluster = synthrun.Cluster

// writeRun writes a run of the clusters over shards files and returns its
// directory.
func writeRun(t testing.TB, shards int, clusters ...categorize.Cluster) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	w, err := synthrun.NewWriter(dir, shards, testWikis)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range clusters {
		if err := w.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// load loads the run in dir, failing the test on an error.
func load(t testing.TB, dir string, opts Options) *Run {
	t.Helper()
	st, err := store.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Load(t.Context(), st, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
