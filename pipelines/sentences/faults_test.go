package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/io/input"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// runCtx runs the pipeline on Prism under ctx and returns its error.
func runCtx(ctx context.Context, t *testing.T, o Options) error {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, o); err != nil {
		t.Fatal(err)
	}
	_, err := beam.Run(ctx, "prism", p)
	return err
}

// TestFailedRunLooksUnfinished makes a run fail part-way (an input file
// vanishes after the run was planned) and checks that the error names the
// file and that the run directory has no manifest, so no scheduler can take
// it for a finished result.
func TestFailedRunLooksUnfinished(t *testing.T) {
	in := filepath.Join(t.TempDir(), "vanishing.xml")
	sample, err := os.ReadFile("../../testdata/sample/simplewiki-sample.xml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, sample, 0o644); err != nil {
		t.Fatal(err)
	}
	o := testOptions(t, t.TempDir(), in, "../../testdata/sample/simplewiki-sample.xml")
	src, err := input.Plan(t.Context(), o.Input, o.inputFormat()) // planned while the file exists
	if err != nil {
		t.Fatal(err)
	}
	o.Sources = &src
	if err := os.Remove(in); err != nil {
		t.Fatal(err)
	}
	err = runCtx(t.Context(), t, o)
	if err == nil || !strings.Contains(err.Error(), "vanishing.xml") {
		t.Fatalf("run error = %v, want one naming vanishing.xml", err)
	}
	if _, err := os.Stat(filepath.Join(o.RunDir(), "manifest.json")); !os.IsNotExist(err) {
		t.Errorf("a failed run left manifest.json (stat: %v)", err)
	}
}

// TestCancelledRunLooksUnfinished cancels a run shortly after it starts:
// whatever was written, there must be no manifest.json.
func TestCancelledRunLooksUnfinished(t *testing.T) {
	in := []string{
		needShared(t, "gensim-wiki/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"),
		needShared(t, "dumpster-dive/smallwiki-latest-pages-articles.xml"),
		needShared(t, "wikiduper/Katrina.xml"),
	}
	o := testOptions(t, t.TempDir(), in...)
	// Cancel rather than time out: Prism's worker panics on a deadline
	// (worker.go: only codes.Canceled ends its data stream quietly).
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel)
	if err := runCtx(ctx, t, o); err == nil {
		t.Skip("the run finished before it could be cancelled; nothing to check")
	}
	if _, err := os.Stat(filepath.Join(o.RunDir(), "manifest.json")); !os.IsNotExist(err) {
		t.Errorf("a cancelled run left manifest.json (stat: %v)", err)
	}
}

// TestPageSizeCap runs the sample with a small page cap: the larger pages
// become dead letters that say why, the rest is used, and nothing is lost
// from the accounting.
func TestPageSizeCap(t *testing.T) {
	o := testOptions(t, t.TempDir(), "../../testdata/sample/simplewiki-sample.xml")
	o.MaxPageBytes = 1800
	files := run(t, o)
	c := readSummary(t, files)
	checkAccounting(t, c)
	dead := readDeadLetters(t, files)
	if c.PagesFailed == 0 || c.PagesKept == 0 || int64(len(dead)) != c.PagesFailed {
		t.Fatalf("pages failed %d, kept %d, dead letters %d: want some of each, one letter per failed page", c.PagesFailed, c.PagesKept, len(dead))
	}
	for _, d := range dead {
		if r, _ := d["reason"].(string); !strings.Contains(r, "larger than 1800 bytes") {
			t.Errorf("dead letter %v does not name the cap", d)
		}
	}
}
