package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/pipelines/internal/launcher"
)

// testCLI is the command line on a copy of the process's flags (the
// pipeline's and Beam's), printing to stdout and stderr.
func testCLI(stdout, stderr *bytes.Buffer) *launcher.CLI {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	flag.VisitAll(func(f *flag.Flag) {
		if !strings.HasPrefix(f.Name, "test.") {
			fs.Var(f.Value, f.Name, f.Usage)
		}
	})
	c := *cli
	c.FlagSet, c.Stdout, c.Stderr = fs, stdout, stderr
	return &c
}

// definedFlags are the names of the pipeline's flags: those main.go
// defines and the common ones (launcher.RegisterCommon).
func definedFlags(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range regexp.MustCompile(`flag\.(?:Bool|Duration|Float64|Int|Int64|String|Uint|Uint64)\("([a-z_]+)"`).FindAllStringSubmatch(string(src), -1) {
		names = append(names, m[1])
	}
	names = append(names, launcher.CommonFlags()...)
	if len(names) < 20 {
		t.Fatalf("found %d flags in main.go: %v", len(names), names)
	}
	return names
}

// TestHelpListsEveryFlag checks that --help's groups name every flag
// main.go defines, each once, and only flags that exist, and that --help
// lists each group and is short.
func TestHelpListsEveryFlag(t *testing.T) {
	var grouped []string
	for _, g := range cli.Groups {
		grouped = append(grouped, g.Names...)
	}
	defined := definedFlags(t)
	if a, b := slices.Sorted(slices.Values(grouped)), slices.Sorted(slices.Values(defined)); !slices.Equal(a, b) {
		t.Errorf("--help's groups list %v, main.go defines %v: want each flag in one group", a, b)
	}

	var stdout, stderr bytes.Buffer
	if err := testCLI(&stdout, &stderr).Parse([]string{"--help"}); err != launcher.ErrHelp {
		t.Fatalf("Parse(--help) = %v, want ErrHelp", err)
	}
	help := stdout.String()
	if !strings.HasPrefix(help, "Usage: reuse --wiki") {
		t.Errorf("--help starts with %q, want a usage line", strings.SplitN(help, "\n", 2)[0])
	}
	if lines := strings.Count(help, "\n"); lines > 120 {
		t.Errorf("--help prints %d lines, want at most 120 (Beam's flags behind --help_beam)", lines)
	}
	if examples := strings.Count(help, "\n  reuse --"); examples != 2 {
		t.Errorf("--help shows %d examples, want 2", examples)
	}
	last := -1
	for _, g := range append(cli.Groups, launcher.FlagGroup{Title: "Beam runner flags (the most used"}) {
		at := strings.Index(help, "\n"+g.Title)
		if at < last {
			t.Errorf("--help lacks group %q or lists it out of order", g.Title)
		}
		last = at
	}
	for _, n := range append(defined, "runner", "endpoint", "worker_binary") {
		if !strings.Contains(help, "\n  -"+n+" ") && !strings.Contains(help, "\n  -"+n+"\n") {
			t.Errorf("--help does not list --%s", n)
		}
	}
	if strings.Contains(help, "  -worker_harness_container_image") {
		t.Error("--help lists all of Beam's flags, want the most used")
	}

	stdout.Reset()
	if err := testCLI(&stdout, &stderr).Parse([]string{"--wiki=x", "--help_beam"}); err != launcher.ErrHelp ||
		!strings.Contains(stdout.String(), "  -worker_harness_container_image string") || strings.Contains(stdout.String(), "  -wiki") {
		t.Errorf("--help_beam: %v, want every Beam flag and no pipeline flag:\n%s", err, stdout.String())
	}
}

// TestUsageErrors checks what the command says, and its exit status, for a
// typo, a bad value, a stray argument and a bad runner.
func TestUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--wik=dumps/*.bz2"}, "reuse: unknown flag --wik; did you mean --wiki?"},
		{[]string{"--min_shingle", "5"}, "reuse: unknown flag --min_shingle; did you mean --min_shingles?"},
		{[]string{"--xyz"}, "reuse: unknown flag --xyz ('reuse --help' lists the flags)"},
		{[]string{"--shards", "many"}, `reuse: error: invalid value "many" for flag -shards: parse error ('reuse --help' lists the flags)`},
		{[]string{"--wiki", "w.xml", "stray"}, `reuse: error: unexpected argument "stray": the command takes only flags ('reuse --help' lists them)`},
	} {
		var stdout, stderr bytes.Buffer
		c := testCLI(&stdout, &stderr)
		err := c.Parse(tt.args)
		var e *launcher.ExitError
		if !errors.As(err, &e) || e.Code != 2 {
			t.Errorf("%v: Parse = %v, want an error with status 2", tt.args, err)
			continue
		}
		if code := c.Report(err); code != 2 || stderr.String() != tt.want+"\n" || stdout.Len() > 0 {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want 2 and only %q", tt.args, code, stdout.String(), stderr.String(), tt.want)
		}
	}
	if _, err := launcher.CanonicalRunner("flnk"); err == nil || !strings.Contains(err.Error(), "did you mean --runner=flink?") {
		t.Errorf("--runner=flnk: %v, want the nearest runner", err)
	}
	var stderr bytes.Buffer
	c := testCLI(new(bytes.Buffer), &stderr)
	if code := c.Report(errors.New("pipeline failed: boom")); code != 1 || stderr.String() != "reuse: error: pipeline failed: boom\n" {
		t.Errorf("a failed run: status %d, stderr %q; want 1 and 'reuse: error: pipeline failed: boom'", code, stderr.String())
	}
}

// TestFlagsDocumented checks that docs/flags.md's "Reuse flags" table names
// every flag main.go defines, with its default.
func TestFlagsDocumented(t *testing.T) {
	readme, err := os.ReadFile("../../docs/flags.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Reuse flags\n")
	if !ok {
		t.Fatal(`docs/flags.md has no "## Reuse flags" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]string{} // flag name → its row
	for _, line := range strings.Split(section, "\n") {
		for _, m := range regexp.MustCompile("`--([a-z_]+)`").FindAllStringSubmatch(line, -1) {
			rows[m[1]] = line
		}
	}
	for _, name := range definedFlags(t) {
		row, ok := rows[name]
		if !ok {
			t.Errorf("--%s is not in docs/flags.md's Reuse flags table", name)
			continue
		}
		if def := flag.Lookup(name).DefValue; def != "" && def != "false" && def != "0" && !strings.Contains(row, def) {
			t.Errorf("--%s: its row does not give its default %s: %s", name, def, row)
		}
	}
}
