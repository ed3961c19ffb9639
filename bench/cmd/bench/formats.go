package main

import (
	"cmp"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// formatRuns is the least number of paired runs of the output-format
// comparison: its difference is a few percent, within one run's noise.
const formatRuns = 5

// formatsCost runs the pipeline on in with --formats jsonl and with
// --formats jsonl,parquet, alternately, so that both see the same machine,
// and returns the table of their median wall and CPU times.
func (b *bench) formatsCost(in input) (string, error) {
	variants := []struct{ name, formats string }{{"jsonl (default)", "jsonl"}, {"jsonl,parquet", "jsonl,parquet"}}
	runs := max(b.cfg.runs, formatRuns)
	walls := make([][]time.Duration, len(variants))
	cpus := make([][]time.Duration, len(variants))
	outDir := filepath.Join(b.cfg.work, "out")
	for range runs {
		for i, v := range variants {
			id := slug(in.Name) + "-formats-" + strings.ReplaceAll(v.formats, ",", "-")
			if err := os.RemoveAll(filepath.Join(outDir, id)); err != nil {
				return "", err
			}
			args := []string{"--input", strings.Join(in.Files, ","), "--output", outDir, "--run_id", id, "--quiet", "--formats", v.formats}
			m, err := measure(b.ctx, filepath.Join(b.cfg.work, "logs", id+".log"), nil, b.bin["sentences"], args...)
			if err != nil {
				return "", err
			}
			walls[i] = append(walls[i], m.Wall)
			cpus[i] = append(cpus[i], m.CPU)
		}
	}
	var rows [][]string
	base, baseCPU := median(walls[0]), median(cpus[0])
	for i, v := range variants {
		w, c := median(walls[i]), median(cpus[i])
		rows = append(rows, []string{v.name, fmt.Sprintf("%.2f", w.Seconds()), relative(w.Seconds(), base.Seconds()),
			fmt.Sprintf("%.2f", c.Seconds()), relative(c.Seconds(), baseCPU.Seconds())})
	}
	log.Printf("output formats on %s: %d paired runs", in.Name, runs)
	return table([]string{"--formats", "wall s (median)", "wall vs jsonl", "CPU s (median)", "CPU vs jsonl"}, rows), nil
}

// median is the median of ds (the lower middle one for an even count).
func median(ds []time.Duration) time.Duration {
	s := slices.SortedFunc(slices.Values(ds), cmp.Compare[time.Duration])
	return s[(len(s)-1)/2]
}
