package index

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/neardup/neardup/pipelines/explore/internal/store"
	"github.com/neardup/neardup/pipelines/explore/internal/synth"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/cluster"
	"github.com/neardup/neardup/transforms/sentence"
)

// testWikis are the wikis of the hand-made runs.
var testWikis = []synth.Wiki{
	{Name: "elwiki", Lang: "el", Base: "https://el.wikipedia.org/wiki/Πύλη:Κύρια"},
	{Name: "enwiki", Lang: "en", Base: "https://en.wikipedia.org/wiki/Main_Page"},
	{Name: "jawiki", Lang: "ja", Base: "https://ja.wikipedia.org/wiki/メインページ"},
}

// page is an article of a hand-made cluster.
type page struct {
	wiki  string
	id    int64
	title string
}

// makeCluster makes cluster n, of a member in each of pages (a page may
// come more than once), its id its first member's.
func makeCluster(n int, kind string, minJ, maxE float64, pages ...page) categorize.Cluster {
	c := categorize.Cluster{Category: kind, Cohesion: cluster.Cohesion{Edges: len(pages) - 1, MinJaccard: minJ, MaxEdit: maxE},
		Evidence: categorize.Evidence{Rule: "test", Reason: "made by a test"}}
	for i, p := range pages {
		c.Members = append(c.Members, sentence.View{ID: fmt.Sprintf("%s:%d:%d:%d", p.wiki, p.id, p.id*10, n*10+i), Wiki: p.wiki,
			PageID: p.id, RevID: p.id * 10, Title: p.title, Sentence: n*10 + i, Context: "prose",
			Text: fmt.Sprintf("Sentence %d of cluster %d in %s.", i, n, p.title)})
	}
	c.ID, c.Size = c.Members[0].ID, len(c.Members)
	seen := map[page]bool{}
	for _, p := range pages {
		seen[p] = true
	}
	c.Pages = len(seen)
	return c
}

// writeRun writes a run of the clusters over shards files and returns its
// directory.
func writeRun(t testing.TB, shards int, clusters ...categorize.Cluster) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	w, err := synth.NewWriter(dir, shards, testWikis)
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
