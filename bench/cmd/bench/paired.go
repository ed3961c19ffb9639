package main

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// variant is one side of a paired comparison: the flags it adds to the
// pipeline's defaults.
type variant struct {
	Name  string
	ID    string // the run id's suffix
	Flags []string
}

// pairedResult is what the runs of one variant took.
type pairedResult struct {
	Walls, CPUs []time.Duration // one per round, in round order
	Counts      counts          // of the last run
}

// pairedRuns runs the pipeline on in once per variant in each of rounds
// rounds, the variants in turn and the first of each round rotating (A B,
// B A, …), so that the machine's drift and any order effect hit all
// variants alike. Each run writes to WORK/out/SLUG-ID with --quiet.
func (b *bench) pairedRuns(in input, variants []variant, rounds int) ([]pairedResult, error) {
	res := make([]pairedResult, len(variants))
	outDir := filepath.Join(b.cfg.work, "out")
	for r := range rounds {
		for j := range variants {
			i := (r + j) % len(variants)
			v := variants[i]
			id := slug(in.Name) + "-" + v.ID
			if err := os.RemoveAll(filepath.Join(outDir, id)); err != nil {
				return nil, err
			}
			args := append([]string{"--input", strings.Join(in.Files, ","), "--output", outDir, "--run_id", id, "--quiet"}, v.Flags...)
			m, err := measure(b.ctx, filepath.Join(b.cfg.work, "logs", id+".log"), nil, b.bin["sentences"], args...)
			if err != nil {
				return nil, err
			}
			res[i].Walls = append(res[i].Walls, m.Wall)
			res[i].CPUs = append(res[i].CPUs, m.CPU)
			if res[i].Counts, _, err = readSummary(filepath.Join(outDir, id, "summary.json")); err != nil {
				return nil, err
			}
		}
	}
	return res, nil
}

// median is the median of ds (the lower middle one for an even count).
func median(ds []time.Duration) time.Duration {
	s := slices.SortedFunc(slices.Values(ds), cmp.Compare[time.Duration])
	return s[(len(s)-1)/2]
}

// medianFloat is the median of xs (the lower middle one for an even
// count).
func medianFloat(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	return s[(len(s)-1)/2]
}
