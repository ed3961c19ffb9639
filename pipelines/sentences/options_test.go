package main

import (
	"encoding/json"
	"flag"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestWorkers checks --dofn_workers resolved for each runner: a value
// given is kept; 0 is GOMAXPROCS on the embedded runner (in this process)
// and 1 on a cluster runner (many bundles per worker process).
func TestWorkers(t *testing.T) {
	const procs = 3
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	runners := []struct {
		runner   string
		embedded bool
	}{
		{"", true}, {"prism", true}, {"PrismRunner", true}, {"direct", true}, {"DirectRunner", true},
		{"flink", false}, {"FlinkRunner", false}, {"spark", false}, {"dataflow", false},
		{"universal", false}, {"portable", false},
	}
	for _, r := range runners {
		for _, given := range []int{0, 1, 2, 16} {
			want := given
			switch {
			case given == 0 && r.embedded:
				want = procs
			case given == 0:
				want = 1
			}
			o := DefaultOptions()
			o.Runner, o.DofnWorkers = r.runner, given
			if got := o.Workers(); got != want {
				t.Errorf("--runner=%q --dofn_workers=%d: Workers() = %d, want %d", r.runner, given, got, want)
			}
		}
	}
}

// TestWorkersNotInParameters checks that --dofn_workers and the runner stay
// out of summary.json's parameters: the output is the same on every
// runner and with any pool size.
func TestWorkersNotInParameters(t *testing.T) {
	a := DefaultOptions()
	b := a
	b.DofnWorkers, b.Runner = 7, "flink"
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if string(ja) != string(jb) {
		t.Errorf("parameters differ with --dofn_workers and --runner:\n%s\n%s", ja, jb)
	}
	if strings.Contains(string(ja), "worker") || strings.Contains(string(ja), "runner") {
		t.Errorf("parameters name the workers or the runner: %s", ja)
	}
}

// TestFlagDefaultsDocumented checks the defaults that docs/flags.md's flag
// table and deploy/dataflow/metadata.json state against the flags' own,
// which come from DefaultOptions: the documents may repeat a default, but
// not a stale one.
func TestFlagDefaultsDocumented(t *testing.T) {
	checked := 0
	check := func(where, name, documented string) {
		t.Helper()
		f := flag.Lookup(name)
		if f == nil || !cli.PipelineFlag(name) {
			return // a Beam flag, such as --runner
		}
		checked++
		if f.DefValue != documented {
			t.Errorf("%s: --%s defaults to %q, the flag to %q", where, name, documented, f.DefValue)
		}
	}

	readme, err := os.ReadFile("../../docs/flags.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "\n## Sentence flags\n")
	if !ok {
		t.Fatal("docs/flags.md has no ## Sentence flags section")
	}
	table, _, _ = strings.Cut(table, "\n\n#")
	flagName := regexp.MustCompile("`--([a-z_]+)`")
	code := regexp.MustCompile("`([^`]*)`")
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(line, "| `--") {
			continue
		}
		var names, values []string
		for _, m := range flagName.FindAllStringSubmatch(cells[1], -1) {
			names = append(names, m[1])
		}
		for _, m := range code.FindAllStringSubmatch(cells[2], -1) {
			values = append(values, m[1])
		}
		for i, name := range names {
			switch {
			case len(values) == len(names):
				check("docs/flags.md", name, values[i])
			case len(values) == 1:
				check("docs/flags.md", name, values[0])
			}
		}
	}
	if !flagInTable(table, "dofn_workers") {
		t.Error("docs/flags.md's flag table does not list --dofn_workers")
	}

	meta, err := os.ReadFile("../../deploy/dataflow/metadata.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Parameters []struct {
			Name     string `json:"name"`
			HelpText string `json:"helpText"`
		} `json:"parameters"`
	}
	if err := json.Unmarshal(meta, &m); err != nil {
		t.Fatal(err)
	}
	// "(default 12)", "(default 0: 64 on Dataflow)", "Default oph."
	stated := regexp.MustCompile(`(?i)\bdefault ([^\s,:)]+)`)
	for _, p := range m.Parameters {
		if d := stated.FindStringSubmatch(p.HelpText); d != nil {
			check("metadata.json", p.Name, strings.TrimSuffix(d[1], "."))
		}
	}
	if checked < 30 {
		t.Errorf("checked %d documented defaults; the docs/flags.md table or metadata.json was not parsed", checked)
	}
}

func flagInTable(table, name string) bool {
	return strings.Contains(table, "| `--"+name+"`")
}
