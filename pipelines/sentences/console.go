package main

// What the console shows at the end of a run.

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/pipelines/internal/launcher"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/minhash"
	"github.com/neardup/neardup/transforms/summary"
)

// kindOrder is the order the kind table lists the categories in.
var kindOrder = []string{categorize.Identical, categorize.CopyEdit, categorize.FactualDrift,
	categorize.Template, categorize.Reference, categorize.Other}

// consoleTopPairs is how many top article pairs the console lists.
const consoleTopPairs = 5

// printResults prints where a finished run's results are and what they say:
// its files, wikis, counts, kinds, top article pairs, collision curve and
// report. It reads the run's summary.json and manifest.json; a file it
// cannot read is reported and skipped.
func printResults(ctx context.Context, w io.Writer, dir string) {
	w = launcher.TerminalSafe(w) // titles and corpus names come from the input
	var m summary.Manifest
	var doc summary.Document
	if err := readJSON(ctx, result.Join(dir, "manifest.json"), &m); err != nil {
		fmt.Fprintln(w, err)
	}
	if err := readJSON(ctx, result.Join(dir, "summary.json"), &doc); err != nil {
		fmt.Fprintln(w, err)
		return
	}
	writeResults(w, dir, m.Outputs, doc)
}

func readJSON(ctx context.Context, path string, v any) error {
	b, err := result.ReadFile(ctx, path)
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", path, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("cannot parse %s: %w", path, err)
	}
	return nil
}

// writeResults writes what printResults prints.
func writeResults(w io.Writer, dir string, outputs []string, doc summary.Document) {
	fmt.Fprintf(w, "results in %s: %s\n", dir, strings.Join(filePatterns(outputs), ", "))
	writeWikis(w, doc.Wikis)
	c := doc.Counts
	fmt.Fprintf(w, "pages read %d, kept %d, duplicate %d, failed %d; sentences %d, in window %d; clusters %d with %d sentences (largest %d); dead letters %d\n",
		c.PagesRead, c.PagesKept, c.PagesDuplicate, c.PagesFailed, c.Sentences, c.SentencesInWindow, c.Clusters, c.SentencesInClusters, c.LargestCluster, c.DeadLetters)
	if line := baselineLine(c.Baseline); line != "" {
		fmt.Fprintln(w, line)
	}
	writeKinds(w, doc)
	writeTopPairs(w, doc.TopArticlePairs)
	if slices.ContainsFunc(outputs, func(name string) bool { return strings.HasPrefix(name, "passages-") }) {
		writePassages(w, doc)
	}
	if slices.ContainsFunc(outputs, func(name string) bool { return strings.HasPrefix(name, "duplicates-") }) {
		d := c.Duplicates
		fmt.Fprintf(w, "to remove (duplicates-*.jsonl): %d sentences, %d documents", d.Sentences, d.Documents)
		if d.CopyDocuments+d.CopyDocumentsDropped > 0 {
			fmt.Fprintf(w, "; dedup-*.jsonl.gz: %d documents, %d dropped, %d sentences removed", d.CopyDocuments, d.CopyDocumentsDropped, d.CopySentencesRemoved)
		}
		fmt.Fprintln(w)
	}
	writeCurve(w, doc.CollisionCurve)
	if slices.Contains(outputs, "report.html") {
		fmt.Fprintf(w, "report: %s\n", result.Join(dir, "report.html"))
	}
}

// filePatterns lists the outputs, with the shards of one file name as one
// pattern: clusters-*.jsonl.
func filePatterns(outputs []string) []string {
	var out []string
	for _, name := range outputs {
		if i := strings.Index(name, "-00000-of-"); i >= 0 {
			name = name[:i] + "-*" + name[strings.LastIndexByte(name, '.'):]
		} else if strings.Contains(name, "-of-") {
			continue
		}
		out = append(out, name)
	}
	return out
}

func writeWikis(w io.Writer, raw json.RawMessage) {
	var wikis []wikiSummary
	if json.Unmarshal(raw, &wikis) != nil {
		return
	}
	fmt.Fprint(w, "wikis:")
	for _, wk := range wikis {
		fmt.Fprintf(w, " %s (%s)", wk.Wiki, cmp.Or(wk.Lang, "language unknown"))
		for _, p := range wk.Problems {
			fmt.Fprintf(w, " [%s]", p)
		}
	}
	fmt.Fprintln(w)
}

// writeKinds writes the clusters and sentences of each category, and their
// shares.
func writeKinds(w io.Writer, doc summary.Document) {
	cats := doc.Counts.Categories
	if len(cats) == 0 {
		return
	}
	var clusters, sentences int64
	for _, k := range cats {
		clusters += k.Clusters
		sentences += k.Sentences
	}
	names := slices.Clone(kindOrder)
	for _, k := range slices.Sorted(maps.Keys(cats)) {
		if !slices.Contains(names, k) {
			names = append(names, k)
		}
	}
	fmt.Fprintf(w, "  %-15s %10s %7s %11s %7s\n", "kind", "clusters", "share", "sentences", "share")
	for _, name := range names {
		k := cats[name]
		fmt.Fprintf(w, "  %-15s %10d %7s %11d %7s\n", name, k.Clusters, share(k.Clusters, clusters), k.Sentences, share(k.Sentences, sentences))
	}
}

func share(n, total int64) string {
	if total == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(total))
}

// writeTopPairs writes the article pairs sharing the most clusters.
func writeTopPairs(w io.Writer, pairs []summary.PairCount) {
	if len(pairs) == 0 {
		return
	}
	fmt.Fprintf(w, "top article pairs (shared clusters):\n")
	for _, p := range pairs[:min(len(pairs), consoleTopPairs)] {
		fmt.Fprintf(w, "%7d  %s:%s  ↔  %s:%s\n", p.Clusters, p.WikiA, p.TitleA, p.WikiB, p.TitleB)
	}
	if len(pairs) > consoleTopPairs {
		fmt.Fprintf(w, "         (%d more in summary.json)\n", len(pairs)-consoleTopPairs)
	}
}

// writePassages writes how many passages documents share and the document
// pairs that share the most.
func writePassages(w io.Writer, doc summary.Document) {
	c := doc.Counts.Passages
	fmt.Fprintf(w, "shared passages %d in %d document pair%s (longest %d sentence%s)\n",
		c.Passages, c.PairsWithPassages, pluralS(c.PairsWithPassages), c.LargestPassage, pluralS(c.LargestPassage))
	for _, p := range doc.NearDuplicates[:min(len(doc.NearDuplicates), consoleTopPairs)] {
		fmt.Fprintf(w, "  %5.1f%% %5.1f%%  %s (%s)  ↔  %s (%s)\n", 100*p.ShareA, 100*p.ShareB, p.TitleA, p.A, p.TitleB, p.B)
	}
	if len(doc.NearDuplicates) > consoleTopPairs {
		fmt.Fprintf(w, "         (%d more in summary.json)\n", len(doc.NearDuplicates)-consoleTopPairs)
	}
}

func writeCurve(w io.Writer, raw json.RawMessage) {
	var curve struct {
		Formula     string
		Bands, Rows int
		Points      []minhash.Point
	}
	if json.Unmarshal(raw, &curve) != nil {
		return
	}
	if curve.Bands > 0 {
		fmt.Fprintf(w, "collision curve 1-(1-s^%d)^%d:", curve.Rows, curve.Bands)
	} else {
		fmt.Fprintf(w, "candidate curve %s:", curve.Formula)
	}
	for _, p := range curve.Points {
		fmt.Fprintf(w, " %.2f→%.3f", p.Similarity, p.Probability)
	}
	fmt.Fprintln(w)
}

// pluralS is "s" unless n is 1.
func pluralS(n int64) string {
	if n == 1 {
		return ""
	}
	return "s"
}
