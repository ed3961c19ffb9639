package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/neardup/neardup/bench/internal/peerreport"
)

// runColumns head the table of runs.
var runColumns = []string{
	"input", "documents", "sentences", "in-window sentences", "clusters", "passages", "wall s", "CPU s",
	"sentences/s", "input MB", "MB/s of input", "peak RSS MB", "RSS B/sentence", "decompress s", "pipeline ÷ decompress",
}

const mb = 1e6

// runRow formats one run for the table of runs.
func runRow(r runResult) []string {
	if r.Err != nil {
		row := make([]string, len(runColumns))
		row[0] = r.Input.Name
		row[1] = "failed: " + r.Err.Error()
		return row
	}
	wall := r.Run.Wall.Seconds()
	sentences := r.Counts.SentencesInWindow
	row := []string{
		r.Input.Name,
		fmt.Sprint(r.Counts.PagesRead),
		fmt.Sprint(r.Counts.Sentences),
		fmt.Sprint(sentences),
		fmt.Sprint(r.Counts.Clusters),
		fmt.Sprint(r.Counts.Passages.Passages),
		fmt.Sprintf("%.2f", wall),
		fmt.Sprintf("%.2f", r.Run.CPU.Seconds()),
		fmt.Sprintf("%.0f", float64(sentences)/wall),
		fmt.Sprintf("%.1f", float64(r.XMLBytes)/mb),
		fmt.Sprintf("%.1f", float64(r.XMLBytes)/mb/wall),
		fmt.Sprintf("%.0f", float64(r.Run.PeakRSS)/mb),
		perSentence(r.Run.PeakRSS, sentences),
		"–",
		"–",
	}
	if r.Baseline > 0 {
		n := len(row)
		row[n-2] = fmt.Sprintf("%.2f (%s)", r.Baseline.Seconds(), strings.Join(r.Tools, ", "))
		row[n-1] = fmt.Sprintf("%.1f×", wall/r.Baseline.Seconds())
	}
	return row
}

// perSentence formats bytes per sentence.
func perSentence(bytes, sentences int64) string {
	if sentences == 0 || bytes == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f", float64(bytes)/float64(sentences))
}

// scalingColumns head the table that compares the scaled corpora with the
// smallest one.
var scalingColumns = []string{"input", "in-window sentences", "in clusters", "µs/sentence", "vs first", "RSS B/sentence", "vs first"}

// scalingRows compares the cost per sentence of each run with the first:
// time and peak memory per sentence should stay flat as the corpus grows.
// The share of sentences in clusters says how much of the work after the
// first shuffle (verifying, joining, classifying) each sentence brings.
func scalingRows(runs []runResult) [][]string {
	var rows [][]string
	var baseTime, baseRSS float64
	for _, r := range runs {
		if r.Err != nil || r.Counts.SentencesInWindow == 0 {
			continue
		}
		n := float64(r.Counts.SentencesInWindow)
		perTime := r.Run.Wall.Seconds() / n * 1e6
		perRSS := float64(r.Run.PeakRSS) / n
		if baseTime == 0 {
			baseTime, baseRSS = perTime, perRSS
		}
		rows = append(rows, []string{
			r.Input.Name,
			fmt.Sprint(r.Counts.SentencesInWindow),
			fmt.Sprintf("%.0f%%", 100*float64(r.Counts.SentencesInClusters)/n),
			fmt.Sprintf("%.1f", perTime),
			relative(perTime, baseTime),
			fmt.Sprintf("%.0f", perRSS),
			relative(perRSS, baseRSS),
		})
	}
	return rows
}

// Targets of issue 19: the cost of an in-window sentence stays within
// flatTolerance of the smallest scaled corpus's as the corpus grows, peak
// RSS per in-window sentence stays at most maxRSSPerSentence from
// rssFromCopies copies on, and the pipeline on a multistream .bz2 takes at
// most maxDecompressRatio times as long as bzip2 -dc.
const (
	flatTolerance      = 0.25
	maxRSSPerSentence  = 1536
	rssFromCopies      = 32
	maxDecompressRatio = 2.0
)

// scalingVerdict says whether runs, a series of scaled corpora smallest
// first, meets the targets: time per in-window sentence within
// ±flatTolerance of the first's, and peak RSS per in-window sentence at
// most maxRSSPerSentence on the corpora of rssFromCopies copies or more.
func scalingVerdict(runs []runResult) string {
	var ok []runResult
	for _, r := range runs {
		if r.Err == nil && r.Counts.SentencesInWindow > 0 {
			ok = append(ok, r)
		}
	}
	if len(ok) < 2 {
		return ""
	}
	per := func(r runResult) (time, rss float64) {
		n := float64(r.Counts.SentencesInWindow)
		return r.Run.Wall.Seconds() / n * 1e6, float64(r.Run.PeakRSS) / n
	}
	base, _ := per(ok[0])
	lo, hi := 0.0, 0.0
	var rssLines []string
	rssMet := true
	for _, r := range ok {
		t, rss := per(r)
		lo, hi = min(lo, t/base-1), max(hi, t/base-1)
		if copiesOf(r.Input.Name) >= rssFromCopies {
			rssLines = append(rssLines, fmt.Sprintf("%s %.0f B", r.Input.Name, rss))
			rssMet = rssMet && rss <= maxRSSPerSentence
		}
	}
	v := fmt.Sprintf("Time per in-window sentence, %s to %s: %+.0f%% to %+.0f%% of the first's; within ±%.0f%%: %s.",
		ok[0].Input.Name, ok[len(ok)-1].Input.Name, lo*100, hi*100, flatTolerance*100, yesNo(-lo <= flatTolerance && hi <= flatTolerance))
	if len(rssLines) > 0 {
		v += fmt.Sprintf(" Peak RSS per in-window sentence from %d× on: %s; at most %d B: %s.",
			rssFromCopies, strings.Join(rssLines, ", "), maxRSSPerSentence, yesNo(rssMet))
	}
	return v
}

// decompressVerdict says, for each multistream .bz2 run with a measured
// decompression, whether the pipeline took at most maxDecompressRatio
// times as long as decompressing the file.
func decompressVerdict(runs []runResult) string {
	var parts []string
	met := true
	for _, r := range runs {
		if r.Err != nil || r.Baseline <= 0 || !strings.Contains(r.Input.Name, "multistream .bz2") {
			continue
		}
		ratio := r.Run.Wall.Seconds() / r.Baseline.Seconds()
		parts = append(parts, fmt.Sprintf("%s %.1f×", r.Input.Name, ratio))
		met = met && ratio <= maxDecompressRatio
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("Pipeline ÷ bzip2 -dc on the multistream corpora: %s; at most %.0f×: %s.", strings.Join(parts, ", "), maxDecompressRatio, yesNo(met))
}

// copiesOf is the number of copies in a scaled corpus's name ("scaled 32×
// .xml"), or 0.
func copiesOf(name string) int {
	var k int
	if _, err := fmt.Sscanf(name, "scaled %d×", &k); err != nil {
		return 0
	}
	return k
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// relative formats x as a signed percentage change from base.
func relative(x, base float64) string {
	if base == 0 {
		return "–"
	}
	return fmt.Sprintf("%+.0f%%", (x/base-1)*100)
}

// peerColumns head the comparison with the peer.
var peerColumns = []string{"system", "sentences", "time s", "clusters", "sentences in clusters", "recall of exact pairs"}

// peerComparison is the pipeline and the peer on the same sentences.
type peerComparison struct {
	Input    string
	Pipeline time.Duration // the pipeline's run on the input, without --emit_sentences
	Report   peerreport.Report
}

// peerRows formats the comparison.
func peerRows(c peerComparison) [][]string {
	r := c.Report
	pipeline := []string{"neardup pipeline (end to end)", fmt.Sprint(r.Sentences), fmt.Sprintf("%.2f", c.Pipeline.Seconds()), "–", "–", "–"}
	peer := []string{
		fmt.Sprintf("minhash-lsh peer (%d hashes, %d bands × %d rows)", r.Peer.Hashes, r.Peer.Bands, r.Peer.BandRows),
		fmt.Sprint(r.Sentences), fmt.Sprintf("%.2f", r.Peer.Seconds),
		fmt.Sprint(r.Peer.Clusters), fmt.Sprint(r.Peer.ClusteredSentences), "–",
	}
	if e := r.Exact; e != nil {
		pipeline[3], pipeline[4] = fmt.Sprint(e.PipelineClusters), fmt.Sprint(e.PipelineClusteredSentences)
		pipeline[5] = fmt.Sprintf("%.4f", e.PipelineRecall)
		peer[5] = fmt.Sprintf("%.4f", e.PeerRecall)
	}
	return [][]string{pipeline, peer}
}

// peerSummary states the ratios of the comparison in a sentence.
func peerSummary(c peerComparison) string {
	r := c.Report
	s := fmt.Sprintf("%s: pipeline time ÷ peer time = %.2f", c.Input, c.Pipeline.Seconds()/r.Peer.Seconds)
	if e := r.Exact; e != nil {
		s += fmt.Sprintf("; exact pairs with Jaccard ≥ %v: %d (found by brute force with a prefix filter in %.1f s); recall pipeline %.4f, peer %.4f",
			r.Threshold, e.Pairs, e.Seconds, e.PipelineRecall, e.PeerRecall)
	}
	return s
}

// table renders a Markdown table with aligned columns.
func table(columns []string, rows [][]string) string {
	width := make([]int, len(columns))
	for i, c := range columns {
		width[i] = len([]rune(c))
	}
	for _, row := range rows {
		for i, cell := range row {
			width[i] = max(width[i], len([]rune(cell)))
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for i, w := range width {
			cell := ""
			if i < len(cells) {
				cell = cells[i]
			}
			fmt.Fprintf(&b, " %s%s |", cell, strings.Repeat(" ", w-len([]rune(cell))))
		}
		b.WriteString("\n")
	}
	line(columns)
	b.WriteString("|")
	for _, w := range width {
		b.WriteString(strings.Repeat("-", w+2) + "|")
	}
	b.WriteString("\n")
	for _, row := range rows {
		line(row)
	}
	return b.String()
}
