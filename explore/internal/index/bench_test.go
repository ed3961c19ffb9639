package index

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/neardup/neardup/explore/internal/store"
	"github.com/neardup/neardup/testkit/corpus/synthrun"
)

// run1M returns a synthetic run of a million clusters: $EXPLORE_RUN_1M if
// set (go run ./bench/cmd/synthrun writes one), or one
// written to a temporary directory (12 s and 1.4 GB of disk).
func run1M(b *testing.B) string {
	b.Helper()
	if dir := os.Getenv("EXPLORE_RUN_1M"); dir != "" {
		return dir
	}
	dir := filepath.Join(b.TempDir(), "r1m")
	if err := synthrun.Write(dir, synthrun.Config{Clusters: 1_000_000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkLoad1M loads the index of a million clusters.
func BenchmarkLoad1M(b *testing.B) {
	st, err := store.Open(b.Context(), run1M(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		r, err := Load(b.Context(), st, Options{TextBytes: -1})
		if err != nil {
			b.Fatal(err)
		}
		if r.Len() != 1_000_000 {
			b.Fatalf("%d clusters, want 1,000,000", r.Len())
		}
	}
}

// BenchmarkFilter1M filters a million clusters: each query reads every
// record, and a title search every title too.
func BenchmarkFilter1M(b *testing.B) {
	st, err := store.Open(b.Context(), run1M(b))
	if err != nil {
		b.Fatal(err)
	}
	r, err := Load(b.Context(), st, Options{TextBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	half, tenth := 0.5, 0.1
	for _, bc := range []struct {
		name string
		q    Query
	}{
		{"all", Query{}},
		{"kind", Query{Kinds: []string{"factual_drift"}}},
		{"size", Query{SizeMin: 5, SizeMax: 10}},
		{"cohesion", Query{JaccardMax: &half, EditMax: &tenth}},
		{"title", Query{Title: "lindfeld"}},
		{"title-greek", Query{Title: "ΠΟΤΑΜΌΣ"}},
		{"title-rare", Query{Title: "qqq"}},
		{"id-order", Query{ByID: true, Kinds: []string{"template"}, SizeMin: 3}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				r.Filter(bc.q, 1000, 50) // the 21st page of 50
			}
		})
	}
}

// BenchmarkText1M builds the sentence index of a million clusters once,
// then searches it: each search reads every folded text.
func BenchmarkText1M(b *testing.B) {
	st, err := store.Open(b.Context(), run1M(b))
	if err != nil {
		b.Fatal(err)
	}
	r, err := Load(b.Context(), st, Options{})
	if err != nil {
		b.Fatal(err)
	}
	ts := r.WaitTexts(b.Context())
	if !ts.Ready {
		b.Fatalf("sentence index: %+v", ts)
	}
	b.Logf("sentence index of %d MB of clusters built in %s", ts.Of>>20, ts.Took)
	for _, bc := range []struct{ name, text string }{
		{"common", "agricultural land"},
		{"greek", "ΠΟΤΑΜΌΣ"},
		{"rare", "qqqzz"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var p Page
			for b.Loop() {
				p = r.Filter(Query{Text: bc.text}, 0, 50)
			}
			b.ReportMetric(float64(p.Matches), "matches")
		})
	}
}
