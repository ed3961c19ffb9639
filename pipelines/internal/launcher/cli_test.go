package launcher

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
)

// toyCLI is a command with two flags of its own and two Beam flags, on a
// fresh flag set.
func toyCLI(stdout *bytes.Buffer) *CLI {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	fs.String("input", "", "files to read")
	fs.Int("shards", 4, "shards")
	fs.String("runner", "", "Beam's text")
	fs.String("worker_harness_container_image", "", "Beam's text")
	return &CLI{
		Program: "toy", Header: "Usage: toy --input X\n", ArgFlag: "input",
		Groups:  []FlagGroup{{"Input", []string{"input"}}, {"Execution", []string{"shards"}}},
		FlagSet: fs, Stdout: stdout,
	}
}

func TestParse(t *testing.T) {
	var out bytes.Buffer
	if err := toyCLI(&out).Parse([]string{"--input", "a.xml", "--shards=8"}); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if err := toyCLI(&out).Parse([]string{"-help"}); err != ErrHelp {
		t.Fatalf("Parse(-help) = %v, want ErrHelp", err)
	}
	want := "Usage: toy --input X\n\nInput:\n  -input string\n    \tfiles to read\n\nExecution:\n  -shards int\n    \tshards (default 4)\n\n" +
		"Beam runner flags (the most used; the pipeline runs on Beam's embedded Prism runner unless --runner says otherwise):\n" +
		"  -runner string\n    \t" + CommonBeamFlags[0].Usage + "\n\n'toy --help_beam' lists all 2 of Beam's flags; docs/runners.md and deploy/ say which each runner needs.\n"
	if out.String() != want {
		t.Errorf("--help:\n%s\nwant:\n%s", out.String(), want)
	}
	out.Reset()
	if err := toyCLI(&out).Parse([]string{"--help_beam"}); err != ErrHelp || !strings.Contains(out.String(), "-worker_harness_container_image") || strings.Contains(out.String(), "-input") {
		t.Errorf("--help_beam: %v\n%s", err, out.String())
	}
	for args, want := range map[string]string{
		"--inptu=a":  "unknown flag --inptu; did you mean --input?",
		"--runer=x":  "unknown flag --runer; did you mean --runner?",
		"--help-bem": "unknown flag --help-bem; did you mean --help_beam?",
		"--xyz":      "unknown flag --xyz ('toy --help' lists the flags)",
		"stray":      `unexpected argument "stray": the command takes only flags (--input "stray"?)`,
	} {
		err := toyCLI(&out).Parse([]string{args})
		var e *ExitError
		if !errors.As(err, &e) || e.Code != 2 || err.Error() != want {
			t.Errorf("Parse(%s) = %v, want status 2 and %q", args, err, want)
		}
	}
}

func TestNearest(t *testing.T) {
	for s, want := range map[string]string{"flnk": "flink", "Dataflow": "dataflow", "samza": "", "": ""} {
		if got := Nearest(s, KnownRunners); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", s, got, want)
		}
	}
	if got, err := CanonicalRunner("PortableRunner"); err != nil || got != "universal" {
		t.Errorf("CanonicalRunner(PortableRunner) = %q, %v", got, err)
	}
	_, err := CanonicalRunner("samza")
	var e *ExitError
	if !errors.As(err, &e) || e.Code != 2 || !strings.Contains(err.Error(), "Beam Go's runners are prism, direct") {
		t.Errorf("CanonicalRunner(samza) = %v, want a usage error listing the runners", err)
	}
}
