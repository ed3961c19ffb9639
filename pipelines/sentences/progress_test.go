package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/summary"
)

// progressLine is the form of every progress line.
var progressLine = regexp.MustCompile(`^progress \d+:\d\d: [a-z]+; ([\d,]+) pages, [\d.]+ MiB of [\d.]+ MiB \(\d+%\) read(; [\d,]+ [a-z ]+)*$`)

// TestProgressAndQuiet runs the binary twice. On three copies of the sample,
// with a progress line every 2 ms, every line on stderr that is not a log
// line is a progress line, there is at least one, none is on stdout, and
// the pages they count never exceed the run's pages_read. With --quiet,
// stderr is empty. The end of a run prints the kind table, the top
// article pairs and the files from the manifest.
func TestProgressAndQuiet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	tmp := t.TempDir()
	bin := buildGo(t, tmp, "sentences", ".")
	sample, err := filepath.Abs(sampleDump)
	if err != nil {
		t.Fatal(err)
	}
	input := strings.Join([]string{sample, sample, sample}, ",")

	c := runBinary(t, bin, tmp, nil, "--input", input, "--output", filepath.Join(tmp, "out"), "--run_id", "loud",
		"--progress_interval", "2ms")
	if c.code != 0 {
		t.Fatalf("exit %d: %s", c.code, c.stderr)
	}
	var doc summary.Document
	readJSONFile(t, filepath.Join(tmp, "out", "loud", "summary.json"), &doc)
	lines := 0
	for _, l := range strings.Split(strings.TrimSpace(c.stderr), "\n") {
		if strings.Contains(l, ` level=INFO msg="run loud: reading `) {
			continue // the launcher's first line; the runner's own lines need --verbose
		}
		m := progressLine.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("stderr line %q is neither a log line nor a progress line", l)
			continue
		}
		lines++
		pages, _ := strconv.ParseInt(strings.ReplaceAll(m[1], ",", ""), 10, 64)
		if pages > doc.Counts.PagesRead {
			t.Errorf("progress line counts %d pages, the run read %d", pages, doc.Counts.PagesRead)
		}
	}
	if lines == 0 {
		t.Errorf("no progress line on stderr:\n%s", c.stderr)
	}
	if strings.Contains(c.stdout, "progress ") {
		t.Errorf("progress on stdout:\n%s", c.stdout)
	}
	for _, want := range []string{
		"results in " + filepath.Join(tmp, "out", "loud") + ": clusters-*.jsonl, cluster_index-*.tsv, dead_letter-*.jsonl, passages-*.jsonl, summary.json",
		"shared passages 9 in 9 document pairs (longest 1 sentence)\n   25.0%  25.0%  Varenia (samplewiki:143:40338)  ↔  Northern Railway (Varenia) (samplewiki:146:40355)\n",
		"  kind              clusters   share   sentences   share\n  identical                1   16.7%           3   20.0%\n",
		"top article pairs (shared clusters):\n      1  samplewiki:Marren (river)  ↔  samplewiki:Lindfeld\n",
	} {
		if !strings.Contains(c.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, c.stdout)
		}
	}

	// The runner's own INFO lines (Prism's job messages) only with --verbose.
	v := runBinary(t, bin, tmp, nil, "--input", sample, "--output", filepath.Join(tmp, "out"), "--run_id", "verbose",
		"--progress_interval", "0", "--verbose")
	if v.code != 0 || !strings.Contains(v.stderr, "level=INFO msg=\"Submitted job") || !strings.Contains(v.stderr, `level=INFO msg="run verbose: reading 1 file(s)`) {
		t.Errorf("--verbose: exit %d, stderr lacks the runner's INFO lines or the run's first line:\n%s", v.code, v.stderr)
	}

	q := runBinary(t, bin, tmp, nil, "--input", sample, "--output", filepath.Join(tmp, "out"), "--run_id", "quiet",
		"--progress_interval", "2ms", "--quiet")
	if q.code != 0 || q.stderr != "" {
		t.Errorf("--quiet: exit %d, stderr %q; want 0 and nothing", q.code, q.stderr)
	}
	if !strings.Contains(q.stdout, "kind ") {
		t.Errorf("--quiet hides the results:\n%s", q.stdout)
	}
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
