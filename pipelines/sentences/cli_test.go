package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/pipelines/internal/launcher"
)

// command is one run of the built binary.
type command struct {
	stdout, stderr string
	code           int
}

// runBinary runs bin with args in dir and returns what it printed and its
// exit status.
func runBinary(t *testing.T, bin, dir string, env []string, args ...string) command {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{"TMPDIR=" + dir}, env...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v", bin, strings.Join(args, " "), err)
	}
	return command{stdout.String(), stderr.String(), code}
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// emptyOrMissing fails the test if dir holds anything.
// usageCase is a command line the binary must refuse, and the error it
// must give.
type usageCase struct {
	args []string
	want string
}

// wantUsageError runs the binary with args: it must exit 2 with "sentences:
// error: " and want on stderr. shown are the arguments the report names.
func wantUsageError(t *testing.T, bin, dir, want string, args, shown []string) {
	t.Helper()
	c := runBinary(t, bin, dir, nil, args...)
	if want := "sentences: error: " + want + "\n"; c.code != 2 || c.stderr != want {
		t.Errorf("%s: exit %d, stderr %q; want 2 and %q", strings.Join(shown, " "), c.code, c.stderr, want)
	}
}

// badInputs makes, in dir, two inputs no run can read: a dangling symlink
// and a directory, both named *.xml.
func badInputs(t *testing.T, dir string) (dangling, directory string) {
	t.Helper()
	dangling = filepath.Join(dir, "dangling.xml")
	if err := os.Symlink(filepath.Join(dir, "missing.xml"), dangling); err != nil {
		t.Fatal(err)
	}
	directory = filepath.Join(dir, "a-directory.xml")
	if err := os.Mkdir(directory, 0o755); err != nil {
		t.Fatal(err)
	}
	return dangling, directory
}

func emptyOrMissing(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if len(entries) > 0 {
		t.Errorf("%s holds %s after a run that was refused", dir, entries[0].Name())
	}
}

// TestCLI runs the built binary as a new user would: --help, typos, a bad
// runner, bad flag values, bad inputs, local paths with a remote runner, a
// failed run and a Dataflow dry run.
func TestCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	tmp := t.TempDir()
	bin := buildGo(t, tmp, "sentences", ".")
	sample, err := filepath.Abs(sampleDump)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("help", func(t *testing.T) {
		c := runBinary(t, bin, tmp, nil, "--help")
		if c.code != 0 || c.stderr != "" {
			t.Errorf("--help: exit %d, stderr %q; want 0 and nothing", c.code, c.stderr)
		}
		lines := strings.Split(c.stdout, "\n")
		if !strings.HasPrefix(lines[0], "Usage: sentences --input") {
			t.Errorf("--help starts with %q, want a usage line", lines[0])
		}
		if examples := strings.Count(c.stdout, "\n  sentences --"); examples != 3 {
			t.Errorf("--help shows %d examples, want 3", examples)
		}
		// The pipeline's flags come first, by group, then Beam's.
		var order []int
		for _, h := range []string{"Input and output:", "Text:", "Candidates:", "Verification:", "Execution:", "Beam runner flags", "  -input string", "  -threshold float", "  -runner string"} {
			order = append(order, strings.Index(c.stdout, h))
		}
		if slices.Contains(order, -1) || !slices.IsSorted(order[:6]) || order[6] > order[1] || order[7] > order[3] || order[8] < order[5] {
			t.Errorf("--help lacks a group or has them out of order (positions %v):\n%s", order, c.stdout)
		}
		if len(lines) > 160 { // the header and the pipeline's ~60 flags, 2 lines each; Beam's ~60 would add 120
			t.Errorf("--help prints %d lines; want Beam's ~60 flags behind --help_beam", len(lines))
		}
		beam := c.stdout[order[5]:]
		if strings.Contains(beam, "(required)") && !strings.Contains(beam, "dataflow (required)") {
			t.Errorf("--help marks a Beam flag required without saying for which runner:\n%s", beam)
		}
		names := flagNames(t, bin)
		for _, name := range mainFlags(t) {
			if !names[name] {
				t.Errorf("--help does not list --%s", name)
			}
		}
		all := runBinary(t, bin, tmp, nil, "--help_beam")
		if all.code != 0 || !strings.Contains(all.stdout, "  -staging_location string") || !strings.Contains(all.stdout, "  -worker_harness_container_image string") || strings.Contains(all.stdout, "  -min_shingles") {
			t.Errorf("--help_beam: exit %d, want every Beam flag and no pipeline flag:\n%s", all.code, all.stdout)
		}
	})

	t.Run("unknown flags", func(t *testing.T) {
		for args, want := range map[string]string{
			"--min_shingle=3":           "sentences: unknown flag --min_shingle; did you mean --min_shingles?",
			"-thresold=0.7":             "sentences: unknown flag --thresold; did you mean --threshold?",
			"--stagin_location=gs://b/": "sentences: unknown flag --stagin_location; did you mean --staging_location?",
			"--help-beam":               "sentences: unknown flag --help-beam; did you mean --help_beam?",
			"--xyz":                     "sentences: unknown flag --xyz ('sentences --help' lists the flags)",
		} {
			c := runBinary(t, bin, tmp, nil, "--input", sample, "--output", tmp, args)
			if c.code != 2 || c.stderr != want+"\n" || c.stdout != "" {
				t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and only %q", args, c.code, c.stdout, c.stderr, want)
			}
		}
		c := runBinary(t, bin, tmp, nil, "--shards", "many")
		if want := "sentences: error: invalid value \"many\" for flag -shards: parse error ('sentences --help' lists the flags)\n"; c.code != 2 || c.stderr != want {
			t.Errorf("--shards many: exit %d, stderr %q; want 2 and %q", c.code, c.stderr, want)
		}
		c = runBinary(t, bin, tmp, nil, "--input", sample, "--output", tmp, "stray")
		if want := "sentences: error: unexpected argument \"stray\": the command takes only flags (--input \"stray\"?)\n"; c.code != 2 || c.stderr != want {
			t.Errorf("a stray argument: exit %d, stderr %q; want 2 and %q", c.code, c.stderr, want)
		}
	})

	t.Run("runner", func(t *testing.T) {
		out := filepath.Join(tmp, "out-runner")
		for runner, want := range map[string]string{
			"flnk":     `sentences: error: unknown runner "flnk"; did you mean --runner=flink? Beam Go's runners are prism, direct, flink, spark, dataflow, universal, portable, dot`,
			"Dataflow": `sentences: error: unknown runner "Dataflow"; did you mean --runner=dataflow? Beam Go's runners are prism, direct, flink, spark, dataflow, universal, portable, dot`,
			"samza":    `sentences: error: unknown runner "samza"; Beam Go's runners are prism, direct, flink, spark, dataflow, universal, portable, dot`,
		} {
			c := runBinary(t, bin, tmp, nil, "--runner="+runner, "--input", sample, "--output", out)
			if c.code != 2 || c.stderr != want+"\n" {
				t.Errorf("--runner=%s: exit %d, stderr %q; want 2 and %q", runner, c.code, c.stderr, want)
			}
		}
		emptyOrMissing(t, out)
	})

	t.Run("bad values", func(t *testing.T) {
		out := filepath.Join(tmp, "out-values")
		for _, tt := range []usageCase{
			{[]string{"--min_shingles=-1"}, "--min_shingles must be between 0 and 1073741824, got -1"},
			{[]string{"--max_page_bytes=-5"}, "--max_page_bytes must be between 1 and 1073741824, got -5"},
			{[]string{"--threshold=NaN"}, "--threshold must be between 0 and 1 (exclusive), got NaN"},
			{[]string{"--recall=+Inf"}, "--recall must be between 0 and 1 (exclusive), got +Inf"},
			{[]string{"--scheme=weissman", "--bands=3"}, "--scheme weissman has a fixed banding (10 bands × 10 rows): --bands does not apply"},
			{[]string{"--scheme=weissman", "--threshold=0.7"}, "--scheme weissman has a fixed banding (10 bands × 10 rows): --threshold does not apply"},
			{[]string{"--bands=20", "--rows=7", "--recall=0.9"}, "--bands and --rows set the banding by hand: --recall does not apply"},
			{[]string{"--bands=3"}, "give both --bands and --rows, or neither, got --bands 3 --rows 0"},
			{[]string{"--namespaces="}, "--namespaces is empty: give comma-separated namespace numbers (0,14), or 'all' for every namespace"},
			{[]string{"--namespaces=0,-5"}, "--namespaces: -5 is not a namespace (MediaWiki's start at -2); give namespace numbers or 'all'"},
			{[]string{"--split_bytes=-1"}, "--split_bytes must be between 0 and 9223372036854775807 (0: read every file whole), got -1"},
			{[]string{"--shingle_length=0"}, "--shingle_length must be between 1 and 1024, got 0"},
			{[]string{"--min_shingles=10", "--max_shingles=11"}, "--min_shingles 10 and --max_shingles 11 keep no sentence: a sentence is kept when min < shingles < max"},
			{[]string{"--max_bands=0"}, "--max_bands must be between 1 and 4096, got 0"},
			{[]string{"--min_jaccard=NaN"}, "--min_jaccard must be between 0 and 1, got NaN"},
			{[]string{"--max_edit=2"}, "--max_edit must be between 0 and 1, got 2"},
			{[]string{"--top_pairs=0"}, "--top_pairs must be between 1 and 100000, got 0"},
			{[]string{"--shards=-1"}, "--shards must be between 1 and 65536, or 0 for the runner's default, got -1"},
			{[]string{"--rounds=-1"}, "--rounds must be between 0 and 64, got -1"},
			{[]string{"--output_shards=0"}, "--output_shards must be between 1 and 99999, got 0"},
			{[]string{"--shards=10000000"}, "--shards must be between 1 and 65536, or 0 for the runner's default, got 10000000"},
			{[]string{"--output_shards=100000"}, "--output_shards must be between 1 and 99999, got 100000"},
			{[]string{"--progress_interval=-5s"}, "--progress_interval must be 0 (no progress lines) or more, got -5s"},
			{[]string{"--run_id=a\nb"}, `--run_id "a\nb" must be a plain directory name: it holds a control character`},
			{[]string{"--scheme=lsh"}, `--scheme must be 'oph', 'bands', 'weissman', 'simhash' or 'exact', got "lsh"`},
			{[]string{"--run_id=../x"}, `--run_id "../x" must be a plain directory name`},
		} {
			wantUsageError(t, bin, tmp, tt.want, append([]string{"--input", sample, "--output", out}, tt.args...), tt.args)
		}
		emptyOrMissing(t, out)
	})

	t.Run("bad inputs leave no run directory", func(t *testing.T) {
		dangling, dir := badInputs(t, tmp)
		for _, in := range []string{dangling, dir, filepath.Join(tmp, "nothing-*.xml")} {
			out := filepath.Join(tmp, "out-inputs")
			c := runBinary(t, bin, tmp, nil, "--input", in, "--output", out)
			if c.code != 2 || !strings.HasPrefix(c.stderr, "sentences: error: ") {
				t.Errorf("--input %s: exit %d, stderr %q; want 2 and an error", in, c.code, c.stderr)
			}
			emptyOrMissing(t, out)
		}
	})

	t.Run("local paths with remote runners", func(t *testing.T) {
		out := filepath.Join(tmp, "out-remote")
		for _, tt := range []usageCase{
			{[]string{"--runner=dataflow", "--input", sample, "--output=gs://b/out"},
				"--input " + sample + " is a local path, but with --runner=dataflow Dataflow's workers cannot read it: use gs:// URLs"},
			{[]string{"--runner=dataflow", "--input=gs://b/dumps/*.bz2", "--output", out},
				"--output " + out + " is a local path, but with --runner=dataflow Dataflow's workers cannot read it: use gs:// URLs"},
			{[]string{"--runner=flink", "--endpoint=flink.example.com:8099", "--environment_type=EXTERNAL", "--input=gs://b/d.xml", "--output", out},
				"--output " + out + " is a local path, but with --runner=flink the workers of the job server at flink.example.com:8099 run elsewhere: use gs:// URLs, or --environment_type=LOOPBACK, or run the job server on this machine (--endpoint=localhost:PORT) with the files at the same path on its workers"},
			{[]string{"--runner=prism", "--dry_run", "--input", sample, "--output", out}, "--dry_run is a Dataflow flag: it needs --runner=dataflow"},
			{[]string{"--async", "--input", sample, "--output", out}, "--async: the workers of --runner=prism run in this process, and would stop with it; wait for the run, or submit to a cluster"},
		} {
			wantUsageError(t, bin, tmp, tt.want, tt.args, tt.args)
		}
		emptyOrMissing(t, out)
	})

	t.Run("failed run", func(t *testing.T) {
		// The sample and a copy with one page's text changed under the same
		// revision id: the run must stop with an error.
		edited := rewritePages(t, sampleDump, t.TempDir(), "simplewiki-sample-edited.xml", func(i int, p string) string {
			if i == 0 {
				return strings.Replace(p, " the ", " a ", 1)
			}
			return p
		})
		out := filepath.Join(tmp, "out-failed")
		c := runBinary(t, bin, tmp, nil, "--input", sample+","+edited, "--output", out, "--run_id=failed")
		if c.code != 1 || !strings.Contains(c.stderr, "\nsentences: error: pipeline failed: ") ||
			!strings.Contains(lastLine(c.stderr), "(no manifest.json was written in "+filepath.Join(out, "failed")+": the run did not finish)") {
			t.Errorf("a failing run: exit %d, stderr ends %q; want 1 and 'sentences: error: pipeline failed: …'", c.code, tail([]byte(c.stderr), 600))
		}
		if strings.Contains(c.stdout, "results in") {
			t.Errorf("a failing run reported results: %s", c.stdout)
		}
	})

	t.Run("dataflow dry run", func(t *testing.T) {
		emulator := startGCSEmulator(t, "neardup-cli", map[string]string{"dumps/simplewiki-sample.xml": sampleDump})
		c := runBinary(t, bin, tmp, []string{"STORAGE_EMULATOR_HOST=" + emulator.host},
			"--runner=dataflow", "--dry_run", "--project=neardup-test", "--region=europe-west1",
			"--staging_location=gs://neardup-cli/staging", "--worker_binary="+bin,
			"--input=gs://neardup-cli/dumps/*.xml", "--output=gs://neardup-cli/out", "--run_id=dry")
		want := "sentences: job not run (dry run): the job above was built and checked, nothing was submitted; run dry would write to gs://neardup-cli/out/dry\n"
		if c.code != 0 || c.stdout != want {
			t.Errorf("dry run: exit %d, stdout %q, want 0 and %q; stderr:\n%s", c.code, c.stdout, want, tail([]byte(c.stderr), 3000))
		}
	})
}

// TestHelpListsEveryFlag checks that --help's groups name every flag
// main.go defines, each once, and only flags that exist.
func TestHelpListsEveryFlag(t *testing.T) {
	seen := map[string]int{}
	for _, g := range cli.Groups {
		for _, n := range g.Names {
			seen[n]++
			if flag.Lookup(n) == nil {
				t.Errorf("group %s lists --%s, which is not a flag", g.Title, n)
			}
		}
	}
	for _, n := range mainFlags(t) {
		if seen[n] != 1 {
			t.Errorf("--%s is in %d of --help's groups, want 1", n, seen[n])
		}
	}
	for _, b := range launcher.CommonBeamFlags {
		if flag.Lookup(b.Name) == nil || cli.PipelineFlag(b.Name) {
			t.Errorf("--%s is listed as a Beam flag", b.Name)
		}
	}
}

// TestFlagSuggestions checks the "did you mean" of unknown flags and
// runners.
func TestFlagSuggestions(t *testing.T) {
	for name, want := range map[string]string{
		"min_shingle": "min_shingles", "outptu": "output", "emit_sentence": "emit_sentences",
		"runer": "runner", "enpoint": "endpoint", "nmaespaces": "namespaces", "xyz": "", "completely_unknown_flag": "",
	} {
		if got := cli.NearestFlag(name); got != want {
			t.Errorf("cli.NearestFlag(%q) = %q, want %q", name, got, want)
		}
	}
	for runner, want := range map[string]string{"": "prism", "PrismRunner": "prism", "portable": "universal", "DataflowRunner": "dataflow", "flink": "flink"} {
		if got, err := launcher.CanonicalRunner(runner); err != nil || got != want {
			t.Errorf("launcher.CanonicalRunner(%q) = %q, %v; want %q", runner, got, err, want)
		}
	}
}

// TestLaunchCheck checks which runners accept local paths.
func TestLaunchCheck(t *testing.T) {
	tests := []struct {
		l  launch
		ok bool
	}{
		{launch{runner: "prism"}, true},
		{launch{runner: "direct"}, true},
		{launch{runner: "prism", endpoint: "jobs.example.com:8073"}, false},
		{launch{runner: "prism", endpoint: "localhost:8073"}, true},
		{launch{runner: "flink", endpoint: "localhost:8099", environment: "EXTERNAL"}, true},
		{launch{runner: "flink", endpoint: "127.0.0.1:8099", environment: "EXTERNAL"}, true},
		{launch{runner: "spark", endpoint: "[::1]:8099"}, true},
		{launch{runner: "spark", endpoint: "spark.example.com:8099", environment: "EXTERNAL"}, false},
		{launch{runner: "universal", endpoint: "10.0.0.5:8099", environment: "LOOPBACK"}, true},
		{launch{runner: "dataflow"}, false},
		{launch{runner: "dataflow", environment: "LOOPBACK"}, false},
	}
	for _, tt := range tests {
		err := tt.l.check("dumps/a.xml", "out")
		if (err == nil) != tt.ok {
			t.Errorf("%+v with local paths: err = %v, want ok %v", tt.l, err, tt.ok)
		}
		if err := tt.l.check("gs://b/dumps/a.xml", "gs://b/out"); err != nil {
			t.Errorf("%+v with gs:// paths: %v", tt.l, err)
		}
	}
}
