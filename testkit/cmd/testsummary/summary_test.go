package main

import (
	"flag"
	"os"
	"path"
	"strings"
	"testing"
)

// The streams in testdata were recorded with `go test -json -count=1` (Go
// 1.26) on a throwaway module example.com/demo in /tmp/tsdemo, one package per
// case (mixed.jsonl: ./... over all of them); timeout.jsonl has its goroutine
// dump shortened, truncated.jsonl is skip.jsonl cut after 20 lines.
var demo = config{Root: "/tmp/tsdemo", Module: "example.com/demo", MaxList: 3}

// TestRun summarises each recorded stream and compares the output with
// testdata/NAME.golden (go test -run TestRun -update rewrites them).
func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		code        int
	}{
		{"pass", "pass.jsonl", 0},                  // a package whose tests all pass: one line, the counts, PASS
		{"fail with output", "fail.jsonl", 1},      // failed tests and subtests print their output (the passing subtest's lines left out), then the FAIL line
		{"skip with reasons", "skip.jsonl", 0},     // skips grouped by reason; every missing ../shared/data path and wording under one reason; the list cut at MaxList
		{"build failure", "build.jsonl", 1},        // the compiler's errors, then FAIL with no time
		{"panic in a test", "panic.jsonl", 1},      // the panicking test's output and trace
		{"panic in init", "initpanic.jsonl", 1},    // a package that dies before any test: its own output
		{"timeout", "timeout.jsonl", 1},            // a test that never ends: its output and the timeout trace (shortened), named as unfinished
		{"no test files", "notests.jsonl", 1},      // no test results at all fails, even though nothing failed
		{"mixed packages", "mixed.jsonl", 1},       // go test -json ./... over all the above: packages interleave, each is reported whole
		{"truncated stream", "truncated.jsonl", 1}, // the input stops in the middle of a package: that package fails
		{"not json", "nojson.txt", 1},              // lines that are not events are copied through; no results fails
		{"empty", "", 1},                           // an empty input (go test never ran, or the pipe broke) fails
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, want := "", emptyWant
			if tc.input != "" {
				data, err := os.ReadFile("testdata/" + tc.input)
				if err != nil {
					t.Fatal(err)
				}
				in = string(data)
				want = readGolden(t, strings.TrimSuffix(tc.input, path.Ext(tc.input))+".golden")
			}
			var out strings.Builder
			code := run(strings.NewReader(in), &out, demo)
			got := out.String()
			if *update && tc.input != "" {
				writeGolden(t, strings.TrimSuffix(tc.input, path.Ext(tc.input))+".golden", got)
				want = got
			}
			if got != want {
				t.Errorf("output:\n%s\nwant:\n%s", got, want)
			}
			if code != tc.code {
				t.Errorf("exit status %d, want %d", code, tc.code)
			}
		})
	}
}

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the output")

// emptyWant is the summary of an empty input (go test never ran, or the
// pipe broke): it fails.
const emptyWant = `
tests: 0 passed, 0 failed, 0 skipped (subtests counted); packages: 0 ok, 0 failed, 0 without tests
FAIL: no test results in the input (did go test -json run?)
`

func readGolden(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeGolden(t *testing.T, name, got string) {
	t.Helper()
	if err := os.WriteFile("testdata/"+name, []byte(got), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestNormalise(t *testing.T) {
	s := newSummariser(nil, config{Root: "/work/main", Module: "github.com/neardup/neardup"})
	for _, tc := range []struct{ pkg, msg, want string }{
		// testshared: an absolute path through the module root
		{"github.com/neardup/neardup/io/dump", "shared test data not available: stat /work/main/../shared/data/enwiki/x.xml.bz2: no such file or directory",
			"shared test data not available: stat ../shared/data/…: no such file or directory"},
		// a path relative to the package directory, whatever its depth
		{"github.com/neardup/neardup/transforms/verify", "test data not found at ../../../shared/data/wikiduper/Katrina.xml",
			"test data not found at ../shared/data/…"},
		{"github.com/neardup/neardup/bench/cmd/bench", "test data not found at ../../../../shared/data/wikiduper/Katrina.xml",
			"test data not found at ../shared/data/…"},
		{"github.com/neardup/neardup/io/multistream", "real test data not available: stat ../../../shared/data: no such file or directory",
			"real test data not available: stat ../shared/data: no such file or directory"},
		{"github.com/neardup/neardup", "needs ./testdata/sample/a/b.xml", "needs testdata/sample/a/…"},
		// outside the module, relative paths only lose their extra ../
		{"example.com/other/pkg", "missing ../../shared/data/x/y", "missing ../shared/data/…"},
		// far from the root: absolute, cut
		{"github.com/neardup/neardup/io/dump", "stages binaries in /tmp and runs linux workers", "stages binaries in /tmp and runs linux workers"},
		{"github.com/neardup/neardup/io/dump", `open "/usr/share/dict/words": not found`, `open "/usr/share/dict/…": not found`},
		// words with a slash that are not paths are left alone
		{"github.com/neardup/neardup/io/dump", "python3 and/or bash not found", "python3 and/or bash not found"},
	} {
		if got := s.normalise(tc.msg, tc.pkg); got != tc.want {
			t.Errorf("normalise(%q, %q) = %q, want %q", tc.msg, tc.pkg, got, tc.want)
		}
	}
}

func TestReason(t *testing.T) {
	for _, tc := range []struct {
		msg, want string
		byPath    bool
	}{
		{"shared test data not available: stat ../shared/data/…: no such file or directory", "needs ../shared/data, which is missing", true},
		{"real test data not available: stat ../shared/data: no such file or directory", "needs ../shared/data, which is missing", true},
		{"paper examples not found at ../shared/cases/…", "needs ../shared/cases, which is missing", true},
		{"set NEARDUP_HUGE_PAGE_MB to measure", "set NEARDUP_HUGE_PAGE_MB to measure", false},
		{"the SDK's worker pool stages binaries in /tmp and runs linux workers", "the SDK's worker pool stages binaries in /tmp and runs linux workers", false},
		{"python3 not found", "python3 not found", false},
	} {
		if got, byPath := reason(tc.msg); got != tc.want || byPath != tc.byPath {
			t.Errorf("reason(%q) = %q, %v; want %q, %v", tc.msg, got, byPath, tc.want, tc.byPath)
		}
	}
}

func TestSkipMessage(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"=== RUN   TestA\n    a_test.go:3: needs data\n--- SKIP: TestA (0.00s)\n", "needs data"},
		// the last message is the skip's; continuation lines are joined
		{"=== RUN   TestA\n    a_test.go:3: a log line\n    a_test.go:4: first line\n        second line\n--- SKIP: TestA (0.00s)\n", "first line second line"},
		{"=== RUN   TestA\n--- SKIP: TestA (0.00s)\n", "(no message)"},
	} {
		var out []output
		for i, l := range strings.SplitAfter(tc.out, "\n") {
			out = append(out, output{i, l})
		}
		if got := skipMessage(out); got != tc.want {
			t.Errorf("skipMessage(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}

func TestModulePath(t *testing.T) {
	if got, want := modulePath("../../.."), "github.com/neardup/neardup"; got != want {
		t.Errorf("modulePath = %q, want %q", got, want)
	}
	if got := modulePath(t.TempDir()); got != "" {
		t.Errorf("modulePath of a directory without go.mod = %q", got)
	}
}
