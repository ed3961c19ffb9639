package main

import (
	"fmt"
	"log"
	"time"
)

// passageColumns head the table of the passage stage's cost.
var passageColumns = []string{"run", "wall s", "CPU s", "passages", "document pairs with passages"}

// passageTarget is the most of a run's wall time the passage stage should
// take (issue 16).
const passageTarget = 0.10

// passageCost runs the pipeline on in with its defaults and with
// --min_passage 0, which leaves the passage stage out of the pipeline, in
// turn for b.cfg.passagePairs rounds, and returns the table of their
// medians and of the stage's cost, and a sentence that states its share of
// the default run's wall and CPU time.
func (b *bench) passageCost(in input) (tbl, summary string, err error) {
	variants := []variant{
		{Name: "defaults", ID: "passages-on"},
		{Name: "--min_passage 0", ID: "passages-off", Flags: []string{"--min_passage", "0"}},
	}
	res, err := b.pairedRuns(in, variants, b.cfg.passagePairs)
	if err != nil {
		return "", "", err
	}
	log.Printf("passage stage on %s: %d paired runs", in.Name, b.cfg.passagePairs)
	return table(passageColumns, passageRows(res[0], res[1])), passageSummary(in.Name, res[0], res[1]), nil
}

// passageRows formats the paired runs with (on) and without (off) the
// passage stage: the medians of each, then the stage's cost, the
// difference of the medians and the median of the rounds' differences,
// each with its share of the default run's time.
func passageRows(on, off pairedResult) [][]string {
	cost := func(d, of float64) string { return fmt.Sprintf("%.2f (%.1f%%)", d, 100*d/of) }
	wOn, wOff := median(on.Walls).Seconds(), median(off.Walls).Seconds()
	cOn, cOff := median(on.CPUs).Seconds(), median(off.CPUs).Seconds()
	wPair, cPair := pairedShares(on.Walls, off.Walls), pairedShares(on.CPUs, off.CPUs)
	return [][]string{
		{"defaults (passages found)", fmt.Sprintf("%.2f", wOn), fmt.Sprintf("%.2f", cOn),
			fmt.Sprint(on.Counts.Passages.Passages), fmt.Sprint(on.Counts.Passages.PairsWithPassages)},
		{"`--min_passage 0` (no passage stage)", fmt.Sprintf("%.2f", wOff), fmt.Sprintf("%.2f", cOff), "–", "–"},
		{"passage stage: difference of the medians (share of defaults)", cost(wOn-wOff, wOn), cost(cOn-cOff, cOn), "", ""},
		{fmt.Sprintf("passage stage: median of the %d rounds' differences", len(on.Walls)),
			cost(wPair*wOn, wOn), cost(cPair*cOn, cOn), "", ""},
	}
}

// pairedShares is the median over the rounds of (on − off) ÷ on: the share
// of the run with the feature that the feature takes, each round's runs
// compared with each other.
func pairedShares(on, off []time.Duration) float64 {
	shares := make([]float64, len(on))
	for i := range on {
		shares[i] = (on[i] - off[i]).Seconds() / on[i].Seconds()
	}
	return medianFloat(shares)
}

// passageSummary states the passage stage's share of the default run's
// wall and CPU time, from the medians, against the target.
func passageSummary(name string, on, off pairedResult) string {
	wOn, cOn := median(on.Walls).Seconds(), median(on.CPUs).Seconds()
	wall := (wOn - median(off.Walls).Seconds()) / wOn
	cpu := (cOn - median(off.CPUs).Seconds()) / cOn
	verdict := "within"
	if wall > passageTarget {
		verdict = "over"
	}
	return fmt.Sprintf("%s: the passage stage takes %.1f%% of the wall time and %.1f%% of the CPU time of a run with the defaults "+
		"(medians of %d paired runs); %s the target of %.0f%% of wall time.", name, 100*wall, 100*cpu, len(on.Walls), verdict, 100*passageTarget)
}
