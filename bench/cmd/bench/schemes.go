package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/neardup/neardup/bench/internal/lines"
	"github.com/neardup/neardup/bench/internal/peerreport"
)

// schemeVariant is one candidate scheme of the comparison: the flags that
// choose it, added to the pipeline's defaults.
type schemeVariant struct {
	Name  string // in the tables
	ID    string // in -schemes, run ids and the examples
	Flags []string
}

// candidateSchemes are the schemes the comparison knows, the reference
// (oph, the default) first.
var candidateSchemes = []schemeVariant{
	{Name: "oph", ID: "oph", Flags: []string{"--scheme", "oph"}},
	{Name: "bands", ID: "bands", Flags: []string{"--scheme", "bands"}},
	{Name: "weissman", ID: "weissman", Flags: []string{"--scheme", "weissman"}},
	{Name: "simhash (shingles)", ID: "simhash", Flags: []string{"--scheme", "simhash", "--features", "shingles"}},
	{Name: "simhash (words)", ID: "simhash-words", Flags: []string{"--scheme", "simhash", "--features", "words"}},
	{Name: "exact", ID: "exact", Flags: []string{"--scheme", "exact"}},
}

// emitFlags make a run write what the recall, precision and cluster
// comparisons read.
var emitFlags = []string{"--emit_edges", "--emit_sentences"}

func schemeIDs(schemes []schemeVariant) string {
	ids := make([]string, len(schemes))
	for i, s := range schemes {
		ids[i] = s.ID
	}
	return strings.Join(ids, ",")
}

// parseSchemes parses -schemes: ids of candidateSchemes, comma-separated,
// each once; empty gives none.
func parseSchemes(s string) ([]schemeVariant, error) {
	var out []schemeVariant
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		i := slices.IndexFunc(candidateSchemes, func(v schemeVariant) bool { return v.ID == f })
		if i < 0 {
			return nil, fmt.Errorf("unknown scheme %q (known: %s)", f, schemeIDs(candidateSchemes))
		}
		if slices.ContainsFunc(out, func(v schemeVariant) bool { return v.ID == f }) {
			return nil, fmt.Errorf("scheme %q given twice", f)
		}
		out = append(out, candidateSchemes[i])
	}
	return out, nil
}

// parseLangs parses -scheme_langs: languages of the multilingual samples,
// comma-separated.
func parseLangs(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		if !slices.Contains(multilingualLangs, f) {
			return nil, fmt.Errorf("no %q sample (known: %s)", f, strings.Join(multilingualLangs, ","))
		}
		out = append(out, f)
	}
	return out, nil
}

// schemeInputs are the inputs of the comparison: the scaled corpora of
// -scheme_sizes (which must be among -sizes, which writes them) and the
// multilingual samples of -scheme_langs.
func (b *bench) schemeInputs() []input {
	var ins []input
	for _, k := range b.cfg.schemeSizes {
		if !slices.Contains(b.cfg.sizes, k) {
			log.Printf("schemes: no scaled %d× corpus: -scheme_sizes %d is not among -sizes %s", k, k, joinInts(b.cfg.sizes))
			continue
		}
		name := fmt.Sprintf("scaled %d× .xml", k)
		if k == 1 {
			name += " (the English samples)"
		}
		ins = append(ins, input{name, []string{b.scaledXML(k)}})
	}
	return append(ins, b.multilingualInputs(b.cfg.schemeLangs)...)
}

// compareSchemes runs every scheme of -schemes on every input of the
// comparison and prints its tables; the examples of clusters one scheme
// finds and another misses go to WORK/scheme-examples.md.
func (b *bench) compareSchemes() {
	if len(b.cfg.schemes) == 0 {
		return
	}
	ins := b.schemeInputs()
	if len(ins) == 0 {
		return
	}
	path := filepath.Join(b.cfg.work, "scheme-examples.md")
	f, err := os.Create(path)
	if err != nil {
		log.Printf("schemes: %v", err)
		return
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "# Clusters one candidate scheme finds and another misses\n\n")
	var cost, quality, comparisons [][]string
	threshold := 0.0
	for _, in := range ins {
		c, err := b.schemeComparison(in)
		if err != nil {
			log.Printf("schemes on %s: %v", in.Name, err)
			continue
		}
		threshold = c.Threshold
		cost = append(cost, schemeCostRows(c)...)
		quality = append(quality, schemeQualityRows(c)...)
		comparisons = append(comparisons, comparisonRows(c)...)
		writeExamples(w, c, examplesPerDirection)
	}
	if err := w.Flush(); err != nil {
		log.Printf("schemes: %s: %v", path, err)
	}
	fmt.Printf("## Candidate schemes: cost and candidates (runs without --emit_edges and --emit_sentences; median of %d run(s))\n\n%s\n", b.cfg.runs, table(schemeCostColumns, cost))
	fmt.Println(schemeCostNote)
	fmt.Println()
	t := strconv.FormatFloat(threshold, 'g', -1, 64)
	fmt.Printf("## Candidate schemes: recall of the exact pairs and edges (runs with --emit_edges --emit_sentences)\n\n%s\n", table(schemeQualityColumns(t), quality))
	fmt.Println(schemeQualityNote(t))
	fmt.Println()
	fmt.Printf("## Candidate schemes: clusters one finds and another misses\n\n%s\n", table(comparisonColumns(t), comparisons))
	fmt.Printf("%s Examples of each: %s\n\n", comparisonNote(t), path)
}

// schemeComparison runs every scheme on in twice, once as it is (the
// cost) and once with --emit_edges and --emit_sentences (what it found),
// finds the exact pairs of the input's sentences with the peer, and
// measures each scheme against them and against the others.
func (b *bench) schemeComparison(in input) (schemeComparisonResult, error) {
	c := schemeComparisonResult{Input: in.Name}
	base := slug(in.Name) + "-scheme-"
	for _, s := range b.cfg.schemes {
		log.Printf("schemes: %s on %s", s.Name, in.Name)
		r := b.runPipeline(in, base+s.ID, b.cfg.runs, s.Flags...)
		if r.Err == nil {
			r.Err = checkScheme(s, r.Params, r.Counts)
		}
		b.removeRun(base + s.ID)
		c.Schemes = append(c.Schemes, schemeResult{Scheme: s, Run: r, Err: r.Err})
	}
	var sents *sentenceSet
	var first string // the first emitting run's directory
	for i := range c.Schemes {
		s := &c.Schemes[i]
		if s.Err != nil {
			continue
		}
		id := base + s.Scheme.ID + "-emit"
		e := b.runPipeline(in, id, 1, slices.Concat(s.Scheme.Flags, emitFlags)...)
		if e.Err != nil {
			s.Err = e.Err
			continue
		}
		if c.Threshold == 0 && jaccardScheme(e.Params.Scheme) {
			c.Threshold, c.Params = e.Params.Threshold, e.Params
		}
		dir := filepath.Join(b.cfg.work, "out", id)
		if sents == nil {
			if sents, s.Err = readSentenceSet(filepath.Join(dir, "sentences-*.jsonl")); s.Err != nil {
				sents = nil
				continue
			}
			first = dir
		}
		d, err := readSchemeData(dir, sents)
		if dir != first {
			b.removeRun(id)
		}
		if err != nil {
			s.Err = err
			continue
		}
		s.Data = &d
	}
	if sents == nil {
		return c, fmt.Errorf("no scheme's run wrote its sentences")
	}
	defer b.removeRun(filepath.Base(first))
	if c.Threshold == 0 {
		return c, fmt.Errorf("no run of a scheme with a Jaccard threshold (oph, bands, exact) to take it from")
	}
	c.Sentences = sents
	pairs, err := b.exactPairs(in, first, c.Params, sents)
	if err != nil {
		return c, err
	}
	c.Exact = pairs
	return c, nil
}

// removeRun removes the run WORK/out/ID once read: the comparison's runs
// with --emit_* write 1.8 GB on the 8× corpus, all schemes together.
func (b *bench) removeRun(id string) {
	if err := os.RemoveAll(filepath.Join(b.cfg.work, "out", id)); err != nil {
		log.Printf("schemes: %v", err)
	}
}

// jaccardScheme reports whether a scheme's --threshold is a Jaccard
// similarity, the exact pairs' threshold.
func jaccardScheme(scheme string) bool {
	return scheme == "oph" || scheme == "bands" || scheme == "exact"
}

// checkScheme tells a run that did not use the scheme asked for, or whose
// candidate stage the pipeline does not have yet (a scheme that bands
// nothing must count its candidates in counts.scheme).
func checkScheme(s schemeVariant, p parameters, c counts) error {
	want := s.Flags[slices.Index(s.Flags, "--scheme")+1]
	switch {
	case p.Scheme != want:
		return fmt.Errorf("ran with scheme %q, not %q", p.Scheme, want)
	case (want == "simhash" || want == "exact") && c.Scheme == nil:
		return fmt.Errorf("this build has no candidate stage for --scheme %s (summary.json has no counts.scheme)", want)
	}
	return nil
}

// exactPairs finds with the peer every pair of the sentences in dir's
// sentences-*.jsonl whose shingle sets have a Jaccard similarity of at
// least the run's threshold, over its shingles.
func (b *bench) exactPairs(in input, dir string, p parameters, sents *sentenceSet) ([]edge, error) {
	if !p.FoldCase || !p.CollapseSpace {
		return nil, fmt.Errorf("the peer folds case and collapses white space; the pipeline ran with fold_case %v, collapse_space %v", p.FoldCase, p.CollapseSpace)
	}
	out := filepath.Join(b.cfg.work, "out", slug(in.Name)+"-exact-pairs.jsonl")
	log.Printf("schemes: the exact pairs of %s", in.Name)
	var report strings.Builder
	_, err := measure(b.ctx, filepath.Join(b.cfg.work, "logs", "peer-pairs-"+slug(in.Name)+".log"), &report, b.bin["peer"],
		"-sentences", filepath.Join(dir, "sentences-*.jsonl"), "-pairs", out,
		"-shingle_length", strconv.Itoa(p.ShingleLength), "-threshold", strconv.FormatFloat(p.Threshold, 'g', -1, 64))
	if err != nil {
		return nil, err
	}
	defer os.Remove(out)
	return readEdges(out, sents)
}

// readSentenceSet reads the ids and texts of a run's sentences-*.jsonl.
func readSentenceSet(glob string) (*sentenceSet, error) {
	s := &sentenceSet{Index: map[string]int32{}}
	err := lines.Each(glob, func(line []byte) error {
		var v struct{ ID, Text string }
		if err := json.Unmarshal(line, &v); err != nil {
			return err
		}
		if _, ok := s.Index[v.ID]; ok {
			return fmt.Errorf("sentence %s appears twice: the input's ids are not unique", v.ID)
		}
		s.Index[v.ID] = int32(len(s.IDs))
		s.IDs = append(s.IDs, v.ID)
		s.Texts = append(s.Texts, v.Text)
		return nil
	})
	return s, err
}

// readSchemeData reads what a run with --emit_edges and --emit_sentences
// wrote to dir, over the sentences sents: every sentence of one must be
// in the other.
func readSchemeData(dir string, sents *sentenceSet) (schemeData, error) {
	d := schemeData{Labels: make([]int32, len(sents.IDs))}
	for i := range d.Labels {
		d.Labels[i] = -1
	}
	clusters := map[string]int32{}
	n := 0
	err := lines.Each(filepath.Join(dir, "sentences-*.jsonl"), func(line []byte) error {
		var v struct {
			ID        string
			ClusterID string `json:"cluster_id"`
		}
		if err := json.Unmarshal(line, &v); err != nil {
			return err
		}
		i, ok := sents.Index[v.ID]
		if !ok {
			return fmt.Errorf("sentence %s is not among the first run's", v.ID)
		}
		n++
		if v.ClusterID == "" {
			return nil
		}
		l, ok := clusters[v.ClusterID]
		if !ok {
			l = int32(len(d.Names))
			clusters[v.ClusterID] = l
			d.Names = append(d.Names, v.ClusterID)
		}
		d.Labels[i] = l
		return nil
	})
	if err != nil {
		return d, err
	}
	if n != len(sents.IDs) {
		return d, fmt.Errorf("%s: %d sentences, the first run %d", dir, n, len(sents.IDs))
	}
	d.Edges, err = readEdges(filepath.Join(dir, "edges-*.jsonl"), sents)
	return d, err
}

// readEdges reads lines {"a", "b", "jaccard", "edit"} (edges-*.jsonl, or
// the peer's exact pairs) over the sentences sents.
func readEdges(glob string, sents *sentenceSet) ([]edge, error) {
	var edges []edge
	err := lines.Each(glob, func(line []byte) error {
		var p peerreport.Pair
		if err := json.Unmarshal(line, &p); err != nil {
			return err
		}
		a, okA := sents.Index[p.A]
		b, okB := sents.Index[p.B]
		if !okA || !okB {
			return fmt.Errorf("edge %s–%s: a sentence that is not among the run's", p.A, p.B)
		}
		edges = append(edges, edge{A: min(a, b), B: max(a, b), Jaccard: p.Jaccard, Edit: p.Edit})
		return nil
	})
	return edges, err
}
