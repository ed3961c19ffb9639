package main

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/verify"
)

// schemeRun is what a test reads of a run with --emit_edges and
// --emit_sentences.
type schemeRun struct {
	texts map[string]string  // in-window sentence id → text
	edges map[[2]string]bool // verified edges, {a, b} as written
	files map[string][]byte  // every file of the run
	clust map[string]string  // sentence id → cluster id
}

func runScheme(t *testing.T, o Options) schemeRun {
	t.Helper()
	o.EmitEdges, o.EmitSentences = true, true
	r := schemeRun{texts: map[string]string{}, edges: map[[2]string]bool{}, clust: map[string]string{}}
	r.files = run(t, o)
	for name, b := range r.files {
		switch {
		case strings.HasPrefix(name, "edges-"):
			for line := range bytes.Lines(b) {
				var e verify.EdgeLine
				if err := json.Unmarshal(line, &e); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				r.edges[[2]string{e.A, e.B}] = true
			}
		case strings.HasPrefix(name, "sentences-") && strings.HasSuffix(name, ".jsonl"):
			for line := range bytes.Lines(b) {
				var row sentence.Row
				if err := json.Unmarshal(line, &row); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				r.texts[row.ID] = row.Text
				r.clust[row.ID] = row.ClusterID
			}
		}
	}
	return r
}

// similarPairs returns every pair of the texts whose
// shingle sets (the run's shingles) have a Jaccard similarity of at least
// t.
func similarPairs(texts map[string]string, o Options, t float64) [][2]string {
	sh := shingle.New(o.ShingleLength, shingle.Normalization{FoldCase: o.FoldCase, CollapseSpace: o.CollapseSpace})
	ids := make([]string, 0, len(texts))
	sets := map[string][]uint64{}
	for id, text := range texts {
		s := slices.Clone(sh.Hashes(text)) // Hashes reuses its buffer
		slices.Sort(s)
		sets[id] = slices.Compact(s)
		ids = append(ids, id)
	}
	// A prefix filter in the hashes' own order (not the pipeline's rarest
	// first): two sets with J ≥ t share one of the first n-⌈t·n⌉+1
	// elements of each, so only those are indexed and probed.
	slices.Sort(ids)
	index := map[uint64][]string{}
	var pairs [][2]string
	for _, x := range ids {
		sx := sets[x]
		prefix := sx[:len(sx)-int(math.Ceil(t*float64(len(sx))-1e-9))+1]
		seen := map[string]bool{}
		for _, h := range prefix {
			for _, y := range index[h] {
				if seen[y] {
					continue
				}
				seen[y] = true
				sy := sets[y]
				inter := 0
				for i, j := 0, 0; i < len(sx) && j < len(sy); {
					switch {
					case sx[i] < sy[j]:
						i++
					case sx[i] > sy[j]:
						j++
					default:
						inter, i, j = inter+1, i+1, j+1
					}
				}
				if float64(inter) >= t*float64(len(sx)+len(sy)-inter)-1e-9 {
					pairs = append(pairs, [2]string{y, x})
				}
			}
			index[h] = append(index[h], x)
		}
	}
	return pairs
}

// TestExactSchemeFindsEveryPair runs --scheme exact on the Katrina articles
// and the Ukrainian sample: every pair of in-window sentences whose
// shingle sets have Jaccard ≥ --threshold (found in the test by a prefix filter of its own) is
// in one cluster (identical sentences are linked by a star, others by a
// verified edge), every verified edge is such a pair, the clusters are
// exactly the connected components of those pairs, and the output is the
// same with 1 and 5 shards.
func TestExactSchemeFindsEveryPair(t *testing.T) {
	for _, rel := range []string{"wikiduper/Katrina.xml", "xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz"} {
		t.Run(rel, func(t *testing.T) {
			o := testOptions(t, t.TempDir(), needShared(t, rel))
			o.Scheme = "exact"
			r := runScheme(t, o)
			pairs := similarPairs(r.texts, o, o.Threshold)
			if len(pairs) < 20 {
				t.Fatalf("%d pairs at Jaccard ≥ %v: the dump proves little", len(pairs), o.Threshold)
			}
			for _, p := range pairs {
				if !r.together(p) {
					t.Errorf("pair %s – %s (Jaccard ≥ %v) is not in one cluster", p[0], p[1], o.Threshold)
				}
			}
			similar := map[[2]string]bool{}
			for _, p := range pairs {
				similar[p], similar[[2]string{p[1], p[0]}] = true, true
			}
			for e := range r.edges {
				if !similar[e] {
					t.Errorf("edge %s – %s is below Jaccard %v", e[0], e[1], o.Threshold)
				}
			}
			if got, want := partition(r.clust), partition(componentsOf(pairs)); !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("%d clusters, %d components of the pairs of Jaccard ≥ %v, or other members", len(got), len(want), o.Threshold)
			}
			t.Logf("%d in-window sentences, %d pairs at Jaccard ≥ %v, %d verified edges", len(r.texts), len(pairs), o.Threshold, len(r.edges))
			r.reportSays(t, "<h2>Candidates: the exact scheme</h2>", "exact: prefix-filtering join at Jaccard 0.8")

			o5 := o
			o5.Output, o5.Shards = t.TempDir(), 5
			if diff := diffRunFiles(r.files, runScheme(t, o5).files); diff != "" {
				t.Errorf("--shards 5 changes the output: %s", diff)
			}
		})
	}
}

// TestSimhashScheme runs --scheme simhash, with shingle and word features,
// on the Katrina articles: it finds at least 95% of the pairs at Jaccard ≥
// 0.8 (shingles) or 80% (words), in one cluster, and its output is the
// same with 1 and 5 shards.
func TestSimhashScheme(t *testing.T) {
	for _, tt := range []struct {
		features string
		recall   float64
	}{{"shingles", 0.95}, {"words", 0.8}} {
		t.Run(tt.features, func(t *testing.T) {
			o := testOptions(t, t.TempDir(), needShared(t, "wikiduper/Katrina.xml"))
			o.Scheme, o.Simhash = "simhash", DefaultOptions().Simhash
			o.Simhash.Features = tt.features
			if err := o.resolve(); err != nil {
				t.Fatal(err)
			}
			r := runScheme(t, o)
			pairs := similarPairs(r.texts, o, 0.8)
			found := 0
			for _, p := range pairs {
				if r.together(p) {
					found++
				}
			}
			recall := float64(found) / float64(len(pairs))
			t.Logf("features %s: %d of %d pairs at Jaccard ≥ 0.8 are in one cluster (%.3f); %d edges", tt.features, found, len(pairs), recall, len(r.edges))
			if len(pairs) < 20 || recall < tt.recall {
				t.Errorf("features %s: %d of %d pairs at Jaccard ≥ 0.8 are in one cluster, want a share of %v", tt.features, found, len(pairs), tt.recall)
			}
			r.reportSays(t, "<h2>Candidates: the simhash scheme</h2>", "simhash: 64 bits of "+tt.features+", 10 permutations, window 10, Hamming distance ≤ 13")
			o5 := o
			o5.Output, o5.Shards = t.TempDir(), 5
			if diff := diffRunFiles(r.files, runScheme(t, o5).files); diff != "" {
				t.Errorf("--shards 5 changes the output: %s", diff)
			}
		})
	}
}

// together reports whether the two sentences of p are in one cluster.
func (r schemeRun) together(p [2]string) bool {
	c := r.clust[p[0]]
	return c != "" && c == r.clust[p[1]]
}

// componentsOf labels each sentence of a pair with the least id of its
// connected component.
func componentsOf(pairs [][2]string) map[string]string {
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		if p, ok := parent[x]; ok && p != x {
			parent[x] = find(p)
			return parent[x]
		}
		return x
	}
	for _, p := range pairs {
		a, b := find(p[0]), find(p[1])
		parent[max(a, b)], parent[min(a, b)] = min(a, b), min(a, b)
	}
	label := map[string]string{}
	for x := range parent {
		label[x] = find(x)
	}
	return label
}

// partition returns the groups of ids of equal non-empty labels, each
// sorted, in sorted order: the clusters, whatever their ids.
func partition(label map[string]string) [][]string {
	groups := map[string][]string{}
	for id, l := range label {
		if l != "" {
			groups[l] = append(groups[l], id)
		}
	}
	var out [][]string
	for _, g := range groups {
		slices.Sort(g)
		out = append(out, g)
	}
	slices.SortFunc(out, slices.Compare)
	return out
}

// reportSays fails unless report.html holds every one of want.
func (r schemeRun) reportSays(t *testing.T, want ...string) {
	t.Helper()
	for _, w := range want {
		if !bytes.Contains(r.files["report.html"], []byte(w)) {
			t.Errorf("report.html lacks %q", w)
		}
	}
}

// diffRunFiles names the files that differ between two runs, but for
// summary.json, report.html and manifest.json, whose parameters and times
// differ by design; "" when none does.
func diffRunFiles(a, b map[string][]byte) string {
	var diff []string
	for name, content := range a {
		if name == "summary.json" || name == "report.html" || name == "manifest.json" {
			continue
		}
		if !bytes.Equal(content, b[name]) {
			diff = append(diff, name)
		}
	}
	if len(a) != len(b) {
		diff = append(diff, "the number of files")
	}
	slices.Sort(diff)
	return strings.Join(diff, ", ")
}
