package main

import (
	"fmt"
	"log"
)

// formatRuns is the least number of paired runs of the output-format
// comparison: its difference is a few percent, within one run's noise.
const formatRuns = 5

// formatsCost runs the pipeline on in with --formats jsonl and with
// --formats jsonl,parquet, alternately, so that both see the same machine,
// and returns the table of their median wall and CPU times.
func (b *bench) formatsCost(in input) (string, error) {
	variants := []variant{
		{Name: "jsonl (default)", ID: "formats-jsonl", Flags: []string{"--formats", "jsonl"}},
		{Name: "jsonl,parquet", ID: "formats-jsonl-parquet", Flags: []string{"--formats", "jsonl,parquet"}},
	}
	runs := max(b.cfg.runs, b.cfg.formatPairs)
	res, err := b.pairedRuns(in, variants, runs)
	if err != nil {
		return "", err
	}
	var rows [][]string
	base, baseCPU := median(res[0].Walls), median(res[0].CPUs)
	for i, v := range variants {
		w, c := median(res[i].Walls), median(res[i].CPUs)
		rows = append(rows, []string{v.Name, fmt.Sprintf("%.2f", w.Seconds()), relative(w.Seconds(), base.Seconds()),
			fmt.Sprintf("%.2f", c.Seconds()), relative(c.Seconds(), baseCPU.Seconds())})
	}
	log.Printf("output formats on %s: %d paired runs", in.Name, runs)
	return table([]string{"--formats", "wall s (median)", "wall vs jsonl", "CPU s (median)", "CPU vs jsonl"}, rows), nil
}
