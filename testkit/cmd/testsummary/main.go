// Command testsummary reads `go test -json` output on stdin and prints what
// `make test` shows: one line per package as it finishes, the full output of
// every failed test (and of a package that failed to build, panicked or timed
// out), and at the end how many tests passed, failed and skipped, with the
// skipped tests grouped by reason.
//
// Why: tests that need the real data in ../shared skip when it is missing,
// and plain `go test` hides skips, so a CI run or a newcomer's first run could
// pass while testing much less than it seems. The summary makes that visible.
//
// It exits 1 when a test or package failed, or when the input holds no test
// results at all (a broken pipe, or a `go test` that could not start, must not
// pass silently). Use it with pipefail, so `go test`'s own status counts too:
//
//	set -o pipefail; go test -json ./... | go run ./testkit/cmd/testsummary
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	root, _ := os.Getwd()
	cfg := config{MaxList: 10}
	flag.StringVar(&cfg.Root, "root", root, "module root, against which paths in skip messages are shown")
	flag.StringVar(&cfg.Module, "module", "", "module path, trimmed from package names (default: read from ROOT/go.mod)")
	flag.IntVar(&cfg.MaxList, "list", cfg.MaxList, "most tests listed per skip reason (0: all)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go test -json ./... | testsummary [flags]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if cfg.Module == "" {
		cfg.Module = modulePath(cfg.Root)
	}
	w := bufio.NewWriter(os.Stdout)
	code := run(os.Stdin, w, cfg)
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		code = 1
	}
	os.Exit(code)
}

// modulePath is the module path declared in dir/go.mod, or "".
func modulePath(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			rest, _, _ = strings.Cut(rest, "//")
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// run summarises the test2json stream r on w and returns the exit status.
// Progress is flushed line by line when w is a *bufio.Writer, so a long run
// shows each package as it finishes.
func run(r io.Reader, w io.Writer, cfg config) int {
	s := newSummariser(w, cfg)
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			s.feed(line)
			if f, ok := w.(*bufio.Writer); ok {
				f.Flush()
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintf(w, "testsummary: reading the input: %v\n", err)
			s.finish()
			return 1
		}
	}
	return s.finish()
}
