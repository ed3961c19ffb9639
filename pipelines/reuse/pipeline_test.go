package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/portabletest"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/transforms/reuse"
)

func TestMain(m *testing.M) { ptest.Main(m) }

// testOptions are the options of a run of the given files into a new
// temporary directory.
func testOptions(t testing.TB, wiki, web []string) Options {
	t.Helper()
	o := DefaultOptions()
	o.Wiki, o.Web, o.Output, o.RunID = wiki, web, t.TempDir(), "test"
	return o
}

// run runs the pipeline on o and returns the run directory's files.
func run(t testing.TB, o Options) map[string][]byte {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, o); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline failed: %v", err)
	}
	return portabletest.OutputFiles(t, o.RunDir())
}

// cases reads the reuse cases of a run's reuse-*.jsonl files.
func cases(t testing.TB, files map[string][]byte) []reuse.Case {
	t.Helper()
	var out []reuse.Case
	for name, b := range files {
		if !strings.HasPrefix(name, "reuse-") {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var c reuse.Case
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatalf("%s: %v: %s", name, err, sc.Bytes())
			}
			out = append(out, c)
		}
	}
	return out
}

// summaryOf reads a run's summary.json.
func summaryOf(t testing.TB, files map[string][]byte) (counters.Counts, reuse.Summary) {
	t.Helper()
	var doc struct {
		Counts counters.Counts `json:"counts"`
		Reuse  reuse.Summary   `json:"reuse"`
	}
	if err := json.Unmarshal(files["summary.json"], &doc); err != nil {
		t.Fatalf("summary.json: %v", err)
	}
	return doc.Counts, doc.Reuse
}
