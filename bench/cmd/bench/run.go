package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// input is one row of the benchmark: files the pipeline reads in one run.
type input struct {
	Name  string
	Files []string
}

// measurement is what one run of a command took.
type measurement struct {
	Wall    time.Duration
	CPU     time.Duration // user and system time of the process
	PeakRSS int64         // bytes; 0 when the platform does not report it
}

// runResult is the outcome of one pipeline run.
type runResult struct {
	Input    input
	Run      measurement
	Counts   counts
	Params   parameters    // the parameters the run used
	XMLBytes int64         // decompressed input: XML or JSON lines
	Baseline time.Duration // decompressing the input with the command-line tools, 0 if not measured
	Tools    []string      // the tools of Baseline
	Err      error
}

// counts are the fields of summary.json the benchmark reports.
type counts struct {
	PagesRead           int64         `json:"pages_read"`
	PagesKept           int64         `json:"pages_kept"`
	Sentences           int64         `json:"sentences"`
	SentencesInWindow   int64         `json:"sentences_in_window"`
	SentencesInClusters int64         `json:"sentences_in_clusters"`
	Clusters            int64         `json:"clusters"`
	Passages            passageCounts `json:"passages"`
	Edges               int64         `json:"edges"`           // MinHash schemes: the buckets' star edges
	CandidateEdges      int64         `json:"candidate_edges"` // distinct pairs sent to verification
	EdgesVerified       int64         `json:"edges_verified"`
	Scheme              *schemeCounts `json:"scheme"` // absent for the MinHash schemes
}

// schemeCounts are the fields of summary.json's counts.scheme, the counts
// of a candidate stage that bands no signature (simhash, exact), that the
// benchmark reports.
type schemeCounts struct {
	Candidates int64 `json:"candidates"`
}

// passageCounts are the fields of summary.json's counts.passages the
// benchmark reports: zero for a run without the passage stage.
type passageCounts struct {
	Passages          int64 `json:"passages"`
	PairsWithPassages int64 `json:"document_pairs_with_passages"`
}

// parameters are the fields of summary.json's parameters that the stage
// timings and the peer need. They are read from the pipeline's runs, with
// its defaults, so that the benchmark repeats none of them.
type parameters struct {
	Namespaces    []int   `json:"namespaces"` // nil: every namespace
	MaxPageBytes  int     `json:"max_page_bytes"`
	ShingleLength int     `json:"shingle_length"`
	MinShingles   int     `json:"min_shingles"`
	MaxShingles   int     `json:"max_shingles"`
	FoldCase      bool    `json:"fold_case"`
	CollapseSpace bool    `json:"collapse_space"`
	Scheme        string  `json:"scheme"`
	Threshold     float64 `json:"threshold"` // 0 for the weissman scheme
	Bands         int     `json:"bands"`
	Rows          int     `json:"rows"`
	Seed          uint64  `json:"seed"`
}

// readSummary reads the counts and the parameters of a run's summary.json.
func readSummary(path string) (counts, parameters, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return counts{}, parameters{}, err
	}
	var doc struct {
		Counts     *counts     `json:"counts"`
		Parameters *parameters `json:"parameters"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return counts{}, parameters{}, fmt.Errorf("%s: %w", path, err)
	}
	switch {
	case doc.Counts == nil:
		return counts{}, parameters{}, fmt.Errorf("%s: no counts", path)
	case doc.Parameters == nil:
		return counts{}, parameters{}, fmt.Errorf("%s: no parameters", path)
	}
	return *doc.Counts, *doc.Parameters, nil
}

// measure runs a command with its output appended to logPath and returns
// its wall time and peak resident memory.
func measure(ctx context.Context, logPath string, stdout io.Writer, name string, args ...string) (measurement, error) {
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return measurement{}, err
	}
	defer logFile.Close()
	fmt.Fprintf(logFile, "$ %s %s\n", name, strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if stdout != nil {
		cmd.Stdout = stdout
	}
	start := time.Now()
	err = cmd.Run()
	m := measurement{Wall: time.Since(start)}
	if ps := cmd.ProcessState; ps != nil {
		m.CPU = ps.UserTime() + ps.SystemTime()
		m.PeakRSS = peakRSS(ps)
	}
	if err != nil {
		return m, fmt.Errorf("%s: %w (see %s)", filepath.Base(name), err, logPath)
	}
	return m, nil
}

// medianRun measures run n times and returns the measurement with the
// median wall time (the lower of the two middle ones for an even n), or the
// first error.
func medianRun(n int, run func() (measurement, error)) (measurement, error) {
	var ms []measurement
	for range n {
		m, err := run()
		if err != nil {
			return m, err
		}
		ms = append(ms, m)
	}
	slices.SortFunc(ms, func(a, b measurement) int { return cmp.Compare(a.Wall, b.Wall) })
	return ms[(len(ms)-1)/2], nil
}

// decompressor returns the command-line tool that decompresses path, by
// its extension, or "" for a file that is not compressed.
func decompressor(path string) string {
	switch filepath.Ext(path) {
	case ".bz2":
		return "bzip2"
	case ".xz":
		return "xz"
	case ".gz":
		return "gzip"
	}
	return ""
}

// errNoTool reports that a decompression tool is not installed.
var errNoTool = errors.New("tool not installed")

// baseline times decompressing the files with their command-line tools
// (tool -dc FILE > /dev/null) and returns the total time, the tools and
// the decompressed size of all files (plain files count their size). The
// size is measured by a second, untimed run into a counting pipe. It
// returns errNoTool when a tool is missing.
func baseline(ctx context.Context, files []string) (elapsed time.Duration, tools []string, size int64, err error) {
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return 0, nil, 0, err
	}
	defer devNull.Close()
	for _, f := range files {
		tool := decompressor(f)
		if tool == "" {
			info, err := os.Stat(f)
			if err != nil {
				return 0, nil, 0, err
			}
			size += info.Size()
			continue
		}
		path, err := exec.LookPath(tool)
		if err != nil {
			return 0, nil, 0, fmt.Errorf("%s: %w", tool, errNoTool)
		}
		tools = appendUnique(tools, tool)
		start := time.Now()
		if err := runTool(ctx, devNull, path, f); err != nil {
			return 0, nil, 0, err
		}
		elapsed += time.Since(start)
		var c countingWriter
		if err := runTool(ctx, &c, path, f); err != nil {
			return 0, nil, 0, err
		}
		size += c.n
	}
	return elapsed, tools, size, nil
}

// runTool runs "tool -dc file" with its output to w. A tool that fails
// after decompressing part of a truncated file still counts: the
// multilingual samples are cut on purpose, and xz reports it.
func runTool(ctx context.Context, w io.Writer, tool, file string) error {
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, tool, "-dc", file)
	cmd.Stdout, cmd.Stderr = w, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && strings.Contains(stderr.String(), "nexpected end of input") {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s -dc %s: %w: %s", filepath.Base(tool), file, err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

func appendUnique(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

// countingWriter counts and discards what is written to it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// slug turns an input's name into a run id.
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
