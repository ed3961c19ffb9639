package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/corpus/passageeval"
	"github.com/neardup/neardup/transforms/passage"
)

// shortSeed seeds the short-copy corpus and its plants.
const shortSeed = 33

// shortCoverages are the values of --min_coverage TestShortCopyEvaluation
// measures: 0 is the rule off (passages of --min_passage only).
var shortCoverages = []float64{0, 0.1, 0.15, 0.2, 0.25, 0.34, 0.5}

// TestShortCopyEvaluation measures --min_coverage on a text corpus built
// from the English test dumps (package testkit/corpus/passageeval,
// NewShortCorpus): 30 whole pages as sources; 72 hosts, the leads of
// other pages cut to 5–12 in-window sentences, each given a copy of 1, 2,
// 3–4 or 2–3 scattered sentences of a source (short answers written by
// cut and paste); 40 independent documents, the leads of pages the sources
// link to, left as they are. A run on the corpus before planting, with
// every sentence pair a passage, says which sentences and document pairs
// are shared already: none of them is planted. It logs precision and
// recall by copy and by the share of the host the copy is, for each value
// of shortCoverages (go test -v -run TestShortCopyEvaluation
// ./pipelines/sentences), and checks the default: every copy of 3 or more
// sentences and 90% of the copies of at least --min_coverage of their
// host found, no independent document linked and no passage on a pair
// that shared no sentence before planting.
func TestShortCopyEvaluation(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the pipeline on real pages eight times")
	}
	dir := t.TempDir()
	var dumps []*passageeval.Dump
	for _, rel := range evalCorpora[0].files {
		dumps = append(dumps, readEvalFile(t, needShared(t, rel), filepath.Join(dir, "dumps")))
	}
	pages := evalPages(t, dumps, filepath.Join(dir, "dumps"))
	c, err := passageeval.NewShortCorpus(pages.Of(dumps), passageeval.DefaultShortConfig(), rand.New(rand.NewPCG(shortSeed, 0)))
	if err != nil {
		t.Fatal(err)
	}

	base := writeShortCorpus(t, c, filepath.Join(dir, "base.jsonl"))
	o := testOptions(t, filepath.Join(dir, "out-base"), base)
	o.MinPassage, o.MinCoverage, o.PassageText = 1, 0, true
	shared, related := map[string]bool{}, map[passageeval.Pair]bool{}
	for _, f := range readShortFound(t, run(t, o)) {
		related[passageeval.PairOf(f.A, f.B)] = true
		for _, s := range append(f.TextsA, f.TextsB...) {
			shared[s] = true
		}
	}
	if err := c.Plant(rand.New(rand.NewPCG(shortSeed, 1)), shared, related); err != nil {
		t.Fatal(err)
	}
	planted := writeShortCorpus(t, c, filepath.Join(dir, "planted.jsonl"))
	t.Logf("%d sources, %d hosts, %d independents (%d from a page their source links to); %d document pairs shared a sentence before planting",
		len(c.Sources), len(c.Hosts), len(c.Independents), c.Linked, len(related))

	for i, cov := range shortCoverages {
		o := testOptions(t, filepath.Join(dir, fmt.Sprint("out-", i)), planted)
		o.MinCoverage, o.PassageText = cov, true
		r := passageeval.EvaluateShort(c, readShortFound(t, run(t, o)), related)
		t.Logf("--min_coverage %v:\n%s", cov, r.Table())
		for _, f := range r.Unplanted {
			t.Logf("false link: %s ↔ %s: %q ↔ %q", f.A, f.B, f.TextsA, f.TextsB)
		}
		for _, f := range r.Natural {
			t.Logf("natural: %s ↔ %s, %d matched: %.80q…", f.A, f.B, len(f.TextsA), f.TextsA[0])
		}
		if cov != passage.DefaultMinCoverage {
			continue
		}
		if s := r.Kinds[passageeval.Three]; s.Recall() != 1 {
			t.Errorf("default: %d of %d copies of 3–4 sentences found, want all", s.Hits, s.Planted)
		}
		var planted, hits int
		for j, lo := range passageeval.CoverageBins {
			if lo >= passage.DefaultMinCoverage {
				planted, hits = planted+r.ByCoverage[j].Planted, hits+r.ByCoverage[j].Hits
			}
		}
		if 10*hits < 9*planted {
			t.Errorf("default: %d of %d copies of at least %v of their host found, want 90%%", hits, planted, passage.DefaultMinCoverage)
		}
		if len(r.Unplanted) > 0 || r.IndependentDocs > 0 {
			t.Errorf("default: %d passages on pairs that shared no sentence before planting, %d independent documents linked; want none", len(r.Unplanted), r.IndependentDocs)
		}
	}
}

// writeShortCorpus writes the documents of c as JSON lines to path.
func writeShortCorpus(t *testing.T, c *passageeval.ShortCorpus, path string) string {
	t.Helper()
	var b bytes.Buffer
	for _, d := range c.Docs() {
		line, err := json.Marshal(map[string]string{"id": d.ID, "text": d.Text()})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// readShortFound returns the passages of a run on a short-copy corpus, by
// their documents' corpus ids, with their matched sentences' texts.
func readShortFound(t *testing.T, files map[string][]byte) []passageeval.ShortFound {
	t.Helper()
	var out []passageeval.ShortFound
	for name, b := range files {
		if !strings.HasPrefix(name, "passages-") {
			continue
		}
		for line := range bytes.Lines(b) {
			var l passage.Line
			if err := json.Unmarshal(line, &l); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			f := passageeval.ShortFound{A: l.A.Doc, B: l.B.Doc}
			for _, m := range l.Matches {
				f.TextsA, f.TextsB = append(f.TextsA, m.TextA), append(f.TextsB, m.TextB)
			}
			out = append(out, f)
		}
	}
	return out
}
