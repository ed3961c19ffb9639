package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/pipelines/internal/launcher"
)

// printResults prints what a finished run found, from its summary.json.
func printResults(ctx context.Context, dir string) error {
	b, err := result.ReadFile(ctx, result.Join(dir, "summary.json"))
	if err != nil {
		return err
	}
	return writeResults(launcher.TerminalSafe(os.Stdout), dir, b)
}

// writeResults writes the console's lines for a run's summary.json.
func writeResults(w io.Writer, dir string, summaryJSON []byte) error {
	var doc struct {
		Counts counters.Counts `json:"counts"`
	}
	if err := json.Unmarshal(summaryJSON, &doc); err != nil {
		return fmt.Errorf("%s/summary.json: %w", dir, err)
	}
	c, web, r := doc.Counts, doc.Counts.Web, doc.Counts.Reuse
	fmt.Fprintf(w, "read %s (%s, %s of %s); %s\n",
		count(c.PagesRead, "Wikipedia page or web document", "Wikipedia pages and web documents"),
		count(web.HTMLPages, "HTML page", "HTML pages"), count(web.Conversions, "WET conversion", "WET conversions"),
		count(web.Records, "WARC record", "WARC records"), count(c.DeadLetters, "dead letter", "dead letters"))
	fmt.Fprintf(w, "reuse: %d cases (%d content, %d structure) in %d passages, between %d web pages and %d articles\n",
		r.Cases, r.ContentReuse, r.StructureReuse, r.Passages, r.WebPages, r.Articles)
	fmt.Fprintf(w, "results in %s: reuse-*.jsonl, summary.json, dead_letter-*.jsonl, manifest.json\n", dir)
	return nil
}

// count says n things, in the singular when n is 1.
func count(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
