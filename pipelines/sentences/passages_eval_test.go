package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/testkit/corpus"
	"github.com/neardup/neardup/testkit/corpus/passageeval"
	"github.com/neardup/neardup/transforms/passage"
	"github.com/neardup/neardup/transforms/shingle"
)

// evalCorpus is a set of real dumps of one language that the passage
// evaluation plants copies into.
type evalCorpus struct {
	name    string
	files   []string // under ../shared/data
	perKind int      // plants of each kind
}

// evalCorpora are the corpora of TestPassageEvaluation: the English dumps
// together (one target page per plant: gensim's sample alone has 106
// articles, too few for 34 plants of five kinds), and two wikis of other
// scripts.
var evalCorpora = []evalCorpus{
	{
		name: "English (gensim enwiki, DBpedia enwiki, Katrina)",
		files: []string{
			"gensim-wiki/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2",
			"dbpedia-minidumps/enwiki-minidump.xml.bz2",
			"wikiduper/Katrina.xml",
		},
		perKind: 34,
	},
	{name: "Greek (elwiki, truncated)", files: []string{"xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz"}, perKind: 12},
	{name: "Ukrainian (ukwiki, truncated)", files: []string{"xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz"}, perKind: 12},
}

// minLightF1 is issue 16's target: the F1 of exact and lightly edited
// copies. Each such kind must reach it on each corpus (measured: 1.000 on
// exact, dropped and added copies); heavy rewrites have no floor (the
// issue asks only that they be reported: none is found).
const minLightF1 = 0.95

// evalConfig is a configuration of the pipeline the evaluation runs.
type evalConfig struct {
	name      string
	threshold float64 // --threshold; 0 for the default
	// belowTarget are the kinds of copy known to miss minLightF1 with this
	// configuration, by corpus: their shortfall is logged, not failed, and
	// reaching the target fails, so that the entry is removed and the floor
	// holds.
	belowTarget map[string]map[passageeval.Kind]string
}

// fewReworded is why reworded copies miss the target at the default
// banding.
const fewReworded = "the banding for --threshold 0.8 makes few candidates of reworded sentences of Jaccard 0.45–0.7 " +
	"(the misses above); a plant with two unlinked sentences side by side, or fewer than 3 linked in a page too long for --min_coverage, is lost"

// evalConfigs are the pipeline's defaults, whose banding (20 × 7, for
// Jaccard ≥ 0.8) makes candidates of too few lightly reworded sentences
// (a word or two changed in a sentence of 100 characters: Jaccard 0.45 to
// 0.7), and --threshold 0.7 (17 × 4), with which every lightly edited kind
// reaches the target: the passage stage finds what the candidates give it.
var evalConfigs = []evalConfig{
	{name: "defaults", belowTarget: map[string]map[passageeval.Kind]string{
		evalCorpora[0].name: {passageeval.Reworded: fewReworded},
		evalCorpora[2].name: {passageeval.Reworded: fewReworded},
	}},
	{name: "--threshold 0.7", threshold: 0.7},
}

// evalSeed seeds the planting.
const evalSeed = 16

// TestPassageEvaluation plants copies of paragraphs of real pages into
// others (package testkit/corpus/passageeval: verbatim, lightly edited, heavily
// rewritten), runs the pipeline on the dumps as they are and as planted,
// and scores the passages found against the plants by their boundaries: a
// passage hits a plant if it is on the plant's document pair and, in each
// of the two documents, its ordinals [first, last] and the plant's share
// at least half of the longer of the two ranges. Passages on document
// pairs that shared passages before planting are left out. It does so for
// each configuration of evalConfigs, logs the precision, recall and F1 of
// each kind of copy and each corpus (go test -v -run TestPassageEvaluation
// ./pipelines/sentences), with the plants missed, and checks the F1 of
// exact and lightly edited copies against minLightF1.
func TestPassageEvaluation(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the pipeline four times on real dumps")
	}
	dir := t.TempDir()
	var files [][]*passageeval.Dump // by corpus
	var all []*passageeval.Dump
	for _, c := range evalCorpora {
		var fs []*passageeval.Dump
		for _, rel := range c.files {
			f := readEvalFile(t, needShared(t, rel), filepath.Join(dir, "base"))
			fs = append(fs, f)
			all = append(all, f)
		}
		files = append(files, fs)
	}
	pages := evalPages(t, all, filepath.Join(dir, "base"))

	// The pages as they are, in every configuration: the sentences and
	// document pairs that any of them finds shared are not planted.
	shared, related := map[string]map[int]bool{}, map[passageeval.Pair]bool{}
	natural := make([]map[passageeval.Pair]bool, len(evalConfigs))
	for i, cfg := range evalConfigs {
		base := run(t, evalOptions(t, filepath.Join(dir, fmt.Sprint("out-base-", i)), filepath.Join(dir, "base"), all, cfg))
		addShared(t, base, shared, related)
		natural[i] = map[passageeval.Pair]bool{}
		for _, f := range readFound(t, base) {
			natural[i][f.Pair()] = true
		}
	}
	// A pair that shares a sentence (of one cluster) before planting may
	// get a passage of it once planting changes the buckets' stars and so
	// the edges verified: left out too, as are passages shared before.
	for i := range natural {
		for pair := range related {
			natural[i][pair] = true
		}
	}

	var plants []passageeval.Plant
	texts := map[string]string{}
	for i, c := range evalCorpora {
		p := passageeval.Planner{
			Config: passageeval.DefaultConfig(), Rand: rand.New(rand.NewPCG(evalSeed, uint64(i))),
			Split: pages.Split, Shared: shared, Related: related,
		}
		out, err := p.Plan(pages.Of(files[i]), c.perKind)
		if err != nil {
			t.Fatal(err)
		}
		for k, n := range out.Short {
			t.Errorf("%s: %d %s plants short of %d", c.name, n, k, c.perKind)
		}
		plants = append(plants, out.Plants...)
		for doc, text := range out.Texts {
			texts[doc] = text
		}
	}
	for _, f := range all {
		writePlanted(t, f, texts, filepath.Join(dir, "planted"))
	}
	checkPlanted(t, pages, all, filepath.Join(dir, "planted"), plants)

	for i, cfg := range evalConfigs {
		o := evalOptions(t, filepath.Join(dir, fmt.Sprint("out-planted-", i)), filepath.Join(dir, "planted"), all, cfg)
		o.PassageText = true
		out := run(t, o)
		found, clustered := readFound(t, out), clusteredPairs(t, out)
		for j, c := range evalCorpora {
			r := evaluateCorpus(t, files[j], plants, found, natural[i])
			t.Logf("%s, %s: %d plants; %d passages found on their pages, %d of them on pairs that shared passages before planting\n%s",
				c.name, cfg.name, r.All().Planted, r.All().Found+r.Natural, r.Natural, r.Table())
			logMisses(t, r, found, clustered)
			checkFloors(t, c.name+", "+cfg.name, r, cfg.belowTarget[c.name])
		}
	}
}

// evaluateCorpus scores the passages found on the pages of a corpus'
// files against the plants into them.
func evaluateCorpus(t *testing.T, files []*passageeval.Dump, plants []passageeval.Plant, found []foundLine, natural map[passageeval.Pair]bool) passageeval.Report {
	t.Helper()
	docs := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Docs() {
			docs[d] = true
		}
	}
	var ps []passageeval.Plant
	for _, p := range plants {
		if docs[p.Target] {
			ps = append(ps, p)
		}
	}
	var fs []passageeval.Found
	for _, f := range found {
		if docs[f.A] || docs[f.B] {
			fs = append(fs, f.Found)
		}
	}
	r, err := passageeval.Evaluate(ps, fs, natural)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkFloors checks the F1 of the exact and lightly edited copies against
// minLightF1, but for the kinds known to miss it, and that no passage was
// found where nothing was planted.
func checkFloors(t *testing.T, name string, r passageeval.Report, belowTarget map[passageeval.Kind]string) {
	t.Helper()
	for _, k := range passageeval.Kinds {
		f1 := r.Kinds[k].F1()
		why, known := belowTarget[k]
		switch {
		case !k.Light():
		case known && f1 >= minLightF1:
			t.Errorf("%s: %s copies: F1 %.3f reaches %.2f: remove them from belowTarget", name, k, f1, minLightF1)
		case known:
			t.Logf("%s: %s copies: F1 %.3f, below issue 16's target %.2f (known: %s)", name, k, f1, minLightF1, why)
		case f1 < minLightF1:
			t.Errorf("%s: %s copies: F1 %.3f, want ≥ %.2f", name, k, f1, minLightF1)
		}
	}
	if n := len(r.Unplanted); n > 0 {
		t.Errorf("%s: %d passages on pairs neither planted nor sharing passages before: %+v", name, n, r.Unplanted)
	}
}

// readEvalFile reads a dump whole and writes it decompressed to dir
// under the name it gives the planted copy too.
func readEvalFile(t *testing.T, path, dir string) *passageeval.Dump {
	t.Helper()
	d, err := passageeval.ReadDump(t.Context(), path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, d.Name), d.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	return d
}

// evalPages splits the articles of the dumps, with the sites of their
// copies in dir (as the run reads them).
func evalPages(t *testing.T, dumps []*passageeval.Dump, dir string) *passageeval.Pages {
	t.Helper()
	var sites []document.Site
	for _, d := range dumps {
		s, err := dump.ReadSite(t.Context(), filepath.Join(dir, d.Name))
		if err != nil {
			t.Fatal(err)
		}
		sites = append(sites, s)
	}
	pages, err := passageeval.NewPages(dumps, sites)
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// checkPlanted reads the planted files as the pipeline will and checks
// that each plant's sentences are where the plant says, in its source and
// target.
func checkPlanted(t *testing.T, pages *passageeval.Pages, files []*passageeval.Dump, dir string, plants []passageeval.Plant) {
	t.Helper()
	want := map[string]bool{}
	for _, p := range plants {
		want[p.Source], want[p.Target] = true, true
	}
	got := map[string][]corpus.Sentence{}
	for _, f := range files {
		path := filepath.Join(dir, f.Name)
		rc, err := dump.Open(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		r := dump.NewReader(rc, path, dump.Options{})
		for {
			p, err := r.Next()
			if err != nil {
				var pe *dump.PageError
				if errors.As(err, &pe) {
					continue
				}
				break // EOF, or the end of a truncated dump
			}
			p.Wiki = f.Wiki()
			if doc := passageeval.DocID(f.Wiki(), p.ID, p.RevID); want[doc] {
				if got[doc], err = pages.SplitPage(p); err != nil {
					t.Fatal(err)
				}
			}
		}
		rc.Close()
	}
	texts := func(doc string, s passageeval.Span) []string {
		var out []string
		for _, st := range got[doc][s.First : s.Last+1] {
			out = append(out, st.Text)
		}
		return out
	}
	for _, p := range plants {
		if !slices.Equal(texts(p.Source, p.SourceSpan), p.Copied) || !slices.Equal(texts(p.Target, p.TargetSpan), p.Planted) {
			t.Fatalf("the planted dump does not hold the %s plant %s %v → %s %v where it should", p.Kind, p.Source, p.SourceSpan, p.Target, p.TargetSpan)
		}
	}
}

// writePlanted writes the planted copy of a dump to dir: its pages with
// the new wikitexts of those planted into, all else byte for byte.
func writePlanted(t *testing.T, d *passageeval.Dump, texts map[string]string, dir string) {
	t.Helper()
	planted, err := d.Planted(texts)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, d.Name), planted, 0o644); err != nil {
		t.Fatal(err)
	}
}

// evalOptions are the test options of a configuration for the files'
// copies in dir.
func evalOptions(t *testing.T, out, dir string, files []*passageeval.Dump, cfg evalConfig) Options {
	t.Helper()
	var in []string
	for _, f := range files {
		in = append(in, filepath.Join(dir, f.Name))
	}
	o := testOptions(t, out, in...)
	if cfg.threshold != 0 {
		o.Threshold, o.Bands, o.Rows = cfg.threshold, 0, 0
		if err := o.resolve(); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

// addShared adds, from a run's clusters, the sentences that another page
// holds too, by document, and the document pairs that share one.
func addShared(t *testing.T, files map[string][]byte, shared map[string]map[int]bool, related map[passageeval.Pair]bool) {
	t.Helper()
	for _, c := range readClusters(t, files) {
		var docs []string
		for _, m := range c.Members {
			doc := passageeval.DocID(m.Wiki, m.PageID, m.RevID)
			if shared[doc] == nil {
				shared[doc] = map[int]bool{}
			}
			shared[doc][m.Sentence] = true
			docs = append(docs, doc)
		}
		slices.Sort(docs)
		docs = slices.Compact(docs)
		for i, a := range docs {
			for _, b := range docs[i+1:] {
				related[passageeval.PairOf(a, b)] = true
			}
		}
	}
}

// foundLine is a line of passages-*.jsonl as a found passage.
type foundLine struct {
	passageeval.Found
	Matches []passage.Match
}

// readFound returns the passages of a run.
func readFound(t *testing.T, files map[string][]byte) []foundLine {
	t.Helper()
	var out []foundLine
	for name, b := range files {
		if !strings.HasPrefix(name, "passages-") {
			continue
		}
		for line := range bytes.Lines(b) {
			var l passage.Line
			if err := json.Unmarshal(line, &l); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out = append(out, foundLine{Found: passageeval.Found{
				A: l.A.ID, B: l.B.ID, SpanA: passageeval.Span{First: l.A.First, Last: l.A.Last},
				SpanB: passageeval.Span{First: l.B.First, Last: l.B.Last}, Matched: l.Matched,
			}, Matches: l.Matches})
		}
	}
	return out
}

// clusteredPairs returns, for a run, the sentence pairs of two pages that
// one cluster holds, as "doc:ordinal doc:ordinal" keys: which sentences
// of a missed plant the run linked to their copies.
func clusteredPairs(t *testing.T, files map[string][]byte) map[[2]string]bool {
	t.Helper()
	out := map[[2]string]bool{}
	for _, c := range readClusters(t, files) {
		for _, a := range c.Members {
			for _, b := range c.Members {
				out[[2]string{a.ID, b.ID}] = true
			}
		}
	}
	return out
}

// logMisses logs the plants no passage hits and the passages that hit no
// plant, with the sentences of each plant the run linked to their copy.
func logMisses(t *testing.T, r passageeval.Report, found []foundLine, clustered map[[2]string]bool) {
	t.Helper()
	heavy := 0
	for _, p := range r.Missed {
		if p.Kind == passageeval.Heavy {
			if heavy++; heavy > 3 {
				continue // three examples are enough
			}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "missed %s: %s %v → %s %v", p.Kind, p.Source, p.SourceSpan, p.Target, p.TargetSpan)
		// Which planted sentence the run linked to some copied one, and
		// the Jaccard similarity of each with the copied one most like it.
		for j, s := range p.Planted {
			linked, best := "·", 0.0
			for i, c := range p.Copied {
				if clustered[[2]string{fmt.Sprint(p.Source, ":", p.SourceSpan.First+i), fmt.Sprint(p.Target, ":", p.TargetSpan.First+j)}] {
					linked = fmt.Sprintf("↔%d", i)
				}
				best = max(best, jaccard(s, c))
			}
			fmt.Fprintf(&b, "\n    %s planted %d (J %.2f): %q", linked, j, best, s)
		}
		for i, s := range p.Copied {
			fmt.Fprintf(&b, "\n    copied %d: %q", i, s)
		}
		for _, f := range found {
			if f.Pair() == passageeval.PairOf(p.Source, p.Target) {
				fmt.Fprintf(&b, "\n    found %s %v ↔ %s %v, %d matched", f.A, f.SpanA, f.B, f.SpanB, f.Matched)
			}
		}
		t.Log(b.String())
	}
	for _, m := range r.Extra {
		t.Logf("extra passage on a %s plant: %s %v ↔ %s %v (%d matched); the plant: %s %v → %s %v",
			m.Plant.Kind, m.Found.A, m.Found.SpanA, m.Found.B, m.Found.SpanB, m.Found.Matched,
			m.Plant.Source, m.Plant.SourceSpan, m.Plant.Target, m.Plant.TargetSpan)
	}
}

// jaccard is the Jaccard similarity of the pipeline's shingle sets of two
// sentences.
func jaccard(a, b string) float64 {
	sh := shingle.New(DefaultOptions().ShingleLength, shingle.DefaultNormalization)
	set := map[uint64]int{}
	for _, h := range sh.Hashes(a) {
		set[h] |= 1
	}
	for _, h := range sh.Hashes(b) {
		set[h] |= 2
	}
	both := 0
	for _, v := range set {
		if v == 3 {
			both++
		}
	}
	return float64(both) / float64(max(len(set), 1))
}
