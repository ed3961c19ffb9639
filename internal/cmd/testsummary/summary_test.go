package main

import (
	"os"
	"strings"
	"testing"
)

// The streams in testdata were recorded with `go test -json -count=1` (Go
// 1.26) on a throwaway module example.com/demo in /tmp/tsdemo, one package per
// case (mixed.jsonl: ./... over all of them); timeout.jsonl has its goroutine
// dump shortened, truncated.jsonl is skip.jsonl cut after 20 lines.
var demo = config{Root: "/tmp/tsdemo", Module: "example.com/demo", MaxList: 3}

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		code        int
		want        string
	}{
		{
			// a package whose tests all pass: one line, the counts, PASS
			name: "pass", input: "pass.jsonl", code: 0,
			want: `ok    pass                            0.01s  4 passed

tests: 4 passed, 0 failed, 0 skipped (subtests counted); packages: 1 ok, 0 failed, 0 without tests
PASS
`,
		},
		{
			// failed tests and subtests print their output (the passing subtest's lines left out), then the FAIL line
			name: "fail with output", input: "fail.jsonl", code: 1,
			want: `    fail_test.go:7: context line
    fail_test.go:8: got 1, want 2
--- FAIL: TestBad (0.00s)
    fail_test.go:14: case bad failed
--- FAIL: TestTable/bad (0.00s)
--- FAIL: TestTable (0.00s)
FAIL  fail                            0.01s  2 passed, 3 failed

failed tests:
  fail.TestBad
  fail.TestTable/bad
  fail.TestTable

failed packages:
  fail (3 failed)

tests: 2 passed, 3 failed, 0 skipped (subtests counted); packages: 0 ok, 1 failed, 0 without tests
FAIL
`,
		},
		{
			// skips grouped by reason; every missing ../shared/data path and wording under one reason; the list cut at MaxList
			name: "skip with reasons", input: "skip.jsonl", code: 0,
			want: `ok    skip                            0.01s  2 passed, 7 skipped

7 skipped, by reason:

    5 × needs ../shared/data, which is missing
        4 × "shared test data not available: stat ../shared/data/…: no such file or directory"
        1 × "test data not found at ../shared/data/…"
        skip.TestGolden
        skip.TestGolden2
        skip.TestKatrina
        … and 2 more (-list 0 lists all)

    1 × (no message)
        skip.TestNoMessage

    1 × runs only with -short
        skip.TestShort

tests: 2 passed, 0 failed, 7 skipped (subtests counted); packages: 1 ok, 0 failed, 0 without tests
PASS
`,
		},
		{
			// the compiler's errors, then FAIL with no time
			name: "build failure", input: "build.jsonl", code: 1,
			want: `# example.com/demo/build [example.com/demo/build.test]
build/build_test.go:5:40: cannot use "s" (untyped string constant) as int value in variable declaration
FAIL  build                                  build failed

failed packages:
  build (build failed)

tests: 0 passed, 0 failed, 0 skipped (subtests counted); packages: 0 ok, 1 failed, 0 without tests
FAIL
`,
		},
		{
			// the panicking test's output and trace
			name: "panic in a test", input: "panic.jsonl", code: 1,
			want: `    panic_test.go:7: before the panic
--- FAIL: TestPanics (0.00s)
panic: assignment to entry in nil map [recovered, repanicked]

goroutine 20 [running]:
testing.tRunner.func1.2({0x55a7a0, 0x6cac60})
	/usr/local/go/src/testing/testing.go:1974 +0x232
testing.tRunner.func1()
	/usr/local/go/src/testing/testing.go:1977 +0x349
panic({0x55a7a0?, 0x6cac60?})
	/usr/local/go/src/runtime/panic.go:860 +0x13a
example.com/demo/panic.TestPanics(0x2ee26e9c6c8?)
	/tmp/tsdemo/panic/panic_test.go:9 +0x54
testing.tRunner(0x2ee26e9c6c8, 0x592e68)
	/usr/local/go/src/testing/testing.go:2036 +0xea
created by testing.(*T).Run in goroutine 1
	/usr/local/go/src/testing/testing.go:2101 +0x4c5
FAIL  panic                           0.02s  1 passed, 1 failed

failed tests:
  panic.TestPanics

failed packages:
  panic (1 failed)

tests: 1 passed, 1 failed, 0 skipped (subtests counted); packages: 0 ok, 1 failed, 0 without tests
FAIL
`,
		},
		{
			// a package that dies before any test: its own output
			name: "panic in init", input: "initpanic.jsonl", code: 1,
			want: `panic: init went wrong

goroutine 1 [running]:
example.com/demo/initpanic.init.func1(...)
	/tmp/tsdemo/initpanic/p_test.go:5
example.com/demo/initpanic.init()
	/tmp/tsdemo/initpanic/p_test.go:5 +0x25
FAIL  initpanic                       0.01s  failed outside any test

failed packages:
  initpanic (failed outside any test)

tests: 0 passed, 0 failed, 0 skipped (subtests counted); packages: 0 ok, 1 failed, 0 without tests
FAIL
`,
		},
		{
			// a test that never ends: its output and the timeout trace (shortened), named as unfinished
			name: "timeout", input: "timeout.jsonl", code: 1,
			want: `    t_test.go:10: starting the slow part
panic: test timed out after 2s
	running tests:
		TestSlow (2s)

goroutine 19 [running]:
testing.(*M).startAlarm.func1()
	/usr/local/go/src/testing/testing.go:2802 +0x354
created by time.goFunc
	/usr/local/go/src/time/sleep.go:215 +0x2d
FAIL  timeout                         2.02s  1 passed; did not finish TestSlow

failed packages:
  timeout (did not finish TestSlow)

tests: 1 passed, 0 failed, 0 skipped (subtests counted); packages: 0 ok, 1 failed, 0 without tests
FAIL
`,
		},
		{
			// no test results at all fails, even though nothing failed
			name: "no test files", input: "notests.jsonl", code: 1,
			want: `skip  notests                                [no test files]

tests: 0 passed, 0 failed, 0 skipped (subtests counted); packages: 0 ok, 0 failed, 1 without tests
FAIL: no test results in the input (did go test -json run?)
`,
		},
		{
			// go test -json ./... over all the above: packages interleave, each is reported whole
			name: "mixed packages", input: "mixed.jsonl", code: 1,
			want: `# example.com/demo/build [example.com/demo/build.test]
build/build_test.go:5:40: cannot use "s" (untyped string constant) as int value in variable declaration
FAIL  build                                  build failed
    fail_test.go:7: context line
    fail_test.go:8: got 1, want 2
--- FAIL: TestBad (0.00s)
    fail_test.go:14: case bad failed
--- FAIL: TestTable/bad (0.00s)
--- FAIL: TestTable (0.00s)
FAIL  fail                            0.01s  2 passed, 3 failed
skip  notests                                [no test files]
    panic_test.go:7: before the panic
--- FAIL: TestPanics (0.00s)
panic: assignment to entry in nil map [recovered, repanicked]

goroutine 20 [running]:
testing.tRunner.func1.2({0x55a7a0, 0x6cac60})
	/usr/local/go/src/testing/testing.go:1974 +0x232
testing.tRunner.func1()
	/usr/local/go/src/testing/testing.go:1977 +0x349
panic({0x55a7a0?, 0x6cac60?})
	/usr/local/go/src/runtime/panic.go:860 +0x13a
example.com/demo/panic.TestPanics(0x3fa8ad31c6c8?)
	/tmp/tsdemo/panic/panic_test.go:9 +0x54
testing.tRunner(0x3fa8ad31c6c8, 0x592e68)
	/usr/local/go/src/testing/testing.go:2036 +0xea
created by testing.(*T).Run in goroutine 1
	/usr/local/go/src/testing/testing.go:2101 +0x4c5
FAIL  panic                           0.03s  1 passed, 1 failed
ok    skip                            0.01s  2 passed, 7 skipped
ok    pass                            0.01s  4 passed

7 skipped, by reason:

    5 × needs ../shared/data, which is missing
        4 × "shared test data not available: stat ../shared/data/…: no such file or directory"
        1 × "test data not found at ../shared/data/…"
        skip.TestGolden
        skip.TestGolden2
        skip.TestKatrina
        … and 2 more (-list 0 lists all)

    1 × (no message)
        skip.TestNoMessage

    1 × runs only with -short
        skip.TestShort

failed tests:
  fail.TestBad
  fail.TestTable/bad
  fail.TestTable
  panic.TestPanics

failed packages:
  build (build failed)
  fail (3 failed)
  panic (1 failed)

tests: 9 passed, 4 failed, 7 skipped (subtests counted); packages: 2 ok, 3 failed, 1 without tests
FAIL
`,
		},
		{
			// the input stops in the middle of a package: that package fails
			name: "truncated stream", input: "truncated.jsonl", code: 1,
			want: `    skip_test.go:29: runs only with -short
--- SKIP: TestShort (0.00s)
FAIL  skip                                   no result: the output ends before the package finished, in TestShort

3 skipped, by reason:

    3 × needs ../shared/data, which is missing
        2 × "shared test data not available: stat ../shared/data/…: no such file or directory"
        1 × "test data not found at ../shared/data/…"
        skip.TestGolden
        skip.TestGolden2
        skip.TestKatrina

failed packages:
  skip (no result: the output ends before the package finished, in TestShort)

tests: 0 passed, 0 failed, 3 skipped (subtests counted); packages: 0 ok, 1 failed, 0 without tests
FAIL
`,
		},
		{
			// lines that are not events are copied through; no results fails
			name: "not json", input: "nojson.txt", code: 1,
			want: `go: updates to go.mod needed; to update it:
	go mod tidy

tests: 0 passed, 0 failed, 0 skipped (subtests counted); packages: 0 ok, 0 failed, 0 without tests
FAIL: no test results in the input (did go test -json run?)
`,
		},
		{
			// an empty input (go test never ran, or the pipe broke) fails
			name: "empty", input: "", code: 1,
			want: `
tests: 0 passed, 0 failed, 0 skipped (subtests counted); packages: 0 ok, 0 failed, 0 without tests
FAIL: no test results in the input (did go test -json run?)
`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := ""
			if tc.input != "" {
				data, err := os.ReadFile("testdata/" + tc.input)
				if err != nil {
					t.Fatal(err)
				}
				in = string(data)
			}
			var out strings.Builder
			code := run(strings.NewReader(in), &out, demo)
			if got := out.String(); got != tc.want {
				t.Errorf("output:\n%s\nwant:\n%s", got, tc.want)
			}
			if code != tc.code {
				t.Errorf("exit status %d, want %d", code, tc.code)
			}
		})
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
