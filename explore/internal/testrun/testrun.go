// Package testrun gives the explorer's tests real runs: it builds
// pipelines/sentences once per test binary, runs it on a dump once per
// dump and flags, and removes what it made when the tests end. A test
// package that uses it calls Main from its TestMain.
package testrun

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// runner builds the pipeline and keeps the runs it made.
type runner struct {
	root string

	build    sync.Once
	bin      string
	buildErr error

	mu   sync.Mutex
	runs map[string]string // by input and flags: the run directory
	errs map[string]error
}

// shared is the test binary's runner, from Main to the end of the tests.
var shared *runner

// Main runs the tests of m with a runner whose files are removed at the
// end, and returns the exit code: func TestMain(m *testing.M) {
// os.Exit(testrun.Main(m)) }.
func Main(m *testing.M) int {
	root, err := os.MkdirTemp("", "explore-runs-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	shared = &runner{root: root, runs: map[string]string{}, errs: map[string]error{}}
	code := m.Run()
	os.RemoveAll(root)
	return code
}

// Sample returns the run directory of the pipeline on the committed
// sample dump, testdata/sample/simplewiki-sample.xml.
func Sample(tb testing.TB) string {
	tb.Helper()
	return Of(tb, "testdata/sample/simplewiki-sample.xml")
}

// Greek returns the run directory of the pipeline on the first 100 kB of
// the Greek Wikipedia in ../shared/data, or skips the test if it is not
// there.
func Greek(tb testing.TB) string {
	tb.Helper()
	const rel = "../shared/data/xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz"
	root := ModuleRoot(tb)
	if _, err := os.Stat(filepath.Join(root, rel)); err != nil {
		tb.Skipf("needs ../shared/data, which is missing: %v", err)
	}
	return Of(tb, rel)
}

// Ukrainian returns the run directory of the pipeline with flags on the
// first 100 kB of the Ukrainian Wikipedia in ../shared/data (165
// passages shared by 117 document pairs at the defaults), or skips the
// test if it is not there.
func Ukrainian(tb testing.TB, flags ...string) string {
	tb.Helper()
	const rel = "../shared/data/xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz"
	if _, err := os.Stat(filepath.Join(ModuleRoot(tb), rel)); err != nil {
		tb.Skipf("needs ../shared/data, which is missing: %v", err)
	}
	return Of(tb, rel, flags...)
}

// Of returns the run directory of the pipeline on input (relative to the
// module root) with the given flags, running it the first time.
func Of(tb testing.TB, input string, flags ...string) string {
	tb.Helper()
	if shared == nil {
		tb.Fatal("testrun: call testrun.Main from the package's TestMain")
	}
	dir, err := shared.run(tb, input, flags)
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

func (r *runner) run(tb testing.TB, input string, flags []string) (string, error) {
	bin, err := r.binary(tb)
	if err != nil {
		return "", err
	}
	key := input + " " + strings.Join(flags, " ")
	r.mu.Lock()
	defer r.mu.Unlock()
	if dir, ok := r.runs[key]; ok {
		return dir, r.errs[key]
	}
	out := filepath.Join(r.root, fmt.Sprintf("out%d", len(r.runs)))
	args := append([]string{"--input", filepath.Join(ModuleRoot(tb), input), "--output", out, "--run_id", "run"}, flags...)
	cmd := exec.Command(bin, args...)
	msg, err := cmd.CombinedOutput()
	if err != nil {
		err = fmt.Errorf("testrun: sentences %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	dir := filepath.Join(out, "run")
	r.runs[key], r.errs[key] = dir, err
	return dir, err
}

// binary builds pipelines/sentences, once.
func (r *runner) binary(tb testing.TB) (string, error) {
	r.build.Do(func() {
		r.bin = filepath.Join(r.root, "sentences")
		cmd := exec.Command(goTool(), "build", "-o", r.bin, "./pipelines/sentences")
		cmd.Dir = ModuleRoot(tb)
		if msg, err := cmd.CombinedOutput(); err != nil {
			r.buildErr = fmt.Errorf("testrun: go build ./pipelines/sentences: %v\n%s", err, msg)
		}
	})
	return r.bin, r.buildErr
}

// goTool is the go command that runs the tests.
func goTool() string {
	if root := os.Getenv("GOROOT"); root != "" {
		if p := filepath.Join(root, "bin", "go"); fileExists(p) {
			return p
		}
	}
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// ModuleRoot returns the nearest directory above the working directory
// (a test's package directory) that holds go.mod.
func ModuleRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if fileExists(filepath.Join(dir, "go.mod")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("testrun: no go.mod above the working directory")
		}
		dir = parent
	}
}
