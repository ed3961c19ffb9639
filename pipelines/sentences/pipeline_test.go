package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/portabletest"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/testkit/testshared"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/summary"
)

var update = flag.Bool("golden", false, "rewrite the golden files in testdata/golden")

func TestMain(m *testing.M) { ptest.Main(m) }

// needShared returns the path of rel under ../shared/data, or skips.
func needShared(t testing.TB, rel string) string {
	t.Helper()
	return testshared.Data(t, rel)
}

// testOptions are the command's defaults for the given input and output,
// but for smaller read ranges and more shards, so that the small test files
// are still read in parallel and shuffled in several shards.
func testOptions(t testing.TB, out string, input ...string) Options {
	t.Helper()
	o := DefaultOptions()
	o.Input, o.Output, o.RunID = input, out, "test"
	o.SplitBytes, o.Shards = 256<<10, 8
	if err := o.resolve(); err != nil {
		t.Fatal(err)
	}
	return o
}

// run runs the pipeline on Prism and returns the output files by name.
func run(t *testing.T, o Options) map[string][]byte {
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

func readSummaryFile(t testing.TB, dir string) counters.Counts {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	return readSummary(t, map[string][]byte{"summary.json": b})
}

func readSummary(t testing.TB, files map[string][]byte) counters.Counts {
	t.Helper()
	var doc summary.Document
	if err := json.Unmarshal(files["summary.json"], &doc); err != nil {
		t.Fatalf("summary.json: %v", err)
	}
	return doc.Counts
}

func readClusters(t *testing.T, files map[string][]byte) []categorize.Cluster {
	t.Helper()
	var out []categorize.Cluster
	for name, b := range files {
		if !strings.HasPrefix(name, "clusters-") {
			continue
		}
		for line := range bytes.Lines(b) {
			var c categorize.Cluster
			if err := json.Unmarshal(line, &c); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out = append(out, c)
		}
	}
	return out
}

// digest is the golden form of a result: one line per cluster with its id,
// category, member ids and the text of its first member.
func digest(clusters []categorize.Cluster) []byte {
	var b bytes.Buffer
	for _, c := range clusters {
		ids := make([]string, len(c.Members))
		for i, m := range c.Members {
			ids[i] = m.ID
		}
		b.WriteString(c.ID + "\t" + c.Category + "\t" + strings.Join(ids, " ") + "\t" + c.Members[0].Text + "\n")
	}
	return b.Bytes()
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -golden to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; got:\n%s", path, got)
	}
}

// checkAccounting asserts the equations every summary must satisfy.
func checkAccounting(t *testing.T, c counters.Counts) {
	t.Helper()
	if c.PagesRead != c.PagesKept+c.PagesDuplicate+c.PagesSkippedNamespace+c.Redirects+c.PagesEmpty+c.PagesFailed {
		t.Errorf("pages read %d != kept %d + duplicate %d + namespace %d + redirects %d + empty %d + failed %d",
			c.PagesRead, c.PagesKept, c.PagesDuplicate, c.PagesSkippedNamespace, c.Redirects, c.PagesEmpty, c.PagesFailed)
	}
	if c.Sentences != c.SentencesInWindow+c.SentencesTooShort+c.SentencesTooLong {
		t.Errorf("sentences %d != in window %d + too short %d + too long %d",
			c.Sentences, c.SentencesInWindow, c.SentencesTooShort, c.SentencesTooLong)
	}
	var inClusters, clusters int64
	for size, n := range c.ClusterSizes {
		inClusters += size * n
		clusters += n
	}
	if clusters != c.Clusters || inClusters != c.SentencesInClusters {
		t.Errorf("histogram has %d clusters of %d sentences, counts say %d of %d", clusters, inClusters, c.Clusters, c.SentencesInClusters)
	}
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name   string
		inputs []string
	}{
		{"sample", []string{"../../testdata/sample/simplewiki-sample.xml"}},
		{"katrina", []string{"wikiduper/Katrina.xml"}},
		{"gensim-enwiki", []string{"gensim-wiki/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"}},
		{"dbpedia-enwiki", []string{"dbpedia-minidumps/enwiki-minidump.xml.bz2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in []string
			for _, rel := range tt.inputs {
				if strings.HasPrefix(rel, "../../testdata/") {
					in = append(in, rel)
					continue
				}
				in = append(in, needShared(t, rel))
			}
			files := run(t, testOptions(t, t.TempDir(), in...))
			checkAccounting(t, readSummary(t, files))
			checkGolden(t, tt.name+".txt", digest(readClusters(t, files)))
		})
	}
}

func readDeadLetters(t *testing.T, files map[string][]byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range bytes.Lines(files["dead_letter-00000-of-00001.jsonl"]) {
		var d map[string]any
		if err := json.Unmarshal(line, &d); err != nil {
			t.Fatalf("dead letter %q: %v", line, err)
		}
		out = append(out, d)
	}
	return out
}

// TestTruncatedFiles reads the four real .xz samples that end in the middle
// of a page: each yields its complete pages, one counted truncation, and
// the cut page, counted as failed with the id and title it had left.
func TestTruncatedFiles(t *testing.T) {
	dir := needShared(t, "xztextfilter-wiki-truncated")
	in, err := filepath.Glob(filepath.Join(dir, "*.xml.xz"))
	if err != nil || len(in) != 4 {
		t.Fatalf("want the 4 truncated .xz samples, got %v (%v)", in, err)
	}
	files := run(t, testOptions(t, t.TempDir(), in...))
	c := readSummary(t, files)
	checkAccounting(t, c)
	if c.FilesRead != 4 || c.FilesTruncated != 4 || c.PagesFailed != 4 || c.DeadLetters != 8 {
		t.Errorf("files read %d, truncated %d, pages failed %d, dead letters %d; want 4, 4, 4, 8",
			c.FilesRead, c.FilesTruncated, c.PagesFailed, c.DeadLetters)
	}
	if c.PagesKept == 0 || c.Clusters == 0 {
		t.Errorf("kept %d pages and found %d clusters: the complete pages were not used", c.PagesKept, c.Clusters)
	}
	cut := 0
	for _, d := range readDeadLetters(t, files) {
		r, _ := d["reason"].(string)
		if !strings.HasPrefix(r, "truncated: ") {
			t.Errorf("dead letter %v: want a truncation", d)
		}
		if strings.HasPrefix(r, "truncated: page cut") {
			cut++
			if d["title"] == nil || d["page_id"] == nil {
				t.Errorf("cut page %v: want its id and title", d)
			}
		}
	}
	if cut != 4 {
		t.Errorf("%d cut pages among the dead letters, want 4", cut)
	}
}

// TestCorruptFile reads the real corrupt export: every parseable page is
// used and every unparseable one is a dead letter with its offset.
func TestCorruptFile(t *testing.T) {
	in := needShared(t, "zxmeng-wikidump/wikidump.part.xml.bz2")
	files := run(t, testOptions(t, t.TempDir(), in))
	c := readSummary(t, files)
	checkAccounting(t, c)
	dead := readDeadLetters(t, files)
	if c.PagesFailed != 47 || c.FilesTruncated != 1 || int64(len(dead)) != c.DeadLetters || c.DeadLetters != 48 {
		t.Errorf("pages failed %d, truncated files %d, dead letters %d (%d lines); want 47, 1, 48",
			c.PagesFailed, c.FilesTruncated, c.DeadLetters, len(dead))
	}
	if c.PagesRead != 201 || c.PagesKept != 60 {
		t.Errorf("pages read %d, kept %d; want 201, 60", c.PagesRead, c.PagesKept)
	}
	for _, d := range dead {
		if d["file"] != in || d["offset"] == nil || d["reason"] == "" {
			t.Errorf("dead letter %v lacks file, offset or reason", d)
		}
	}
}

// TestDeterministic runs the same input with different shard counts,
// contraction rounds and read splits: every output byte must be the same.
func TestDeterministic(t *testing.T) {
	in := []string{"../../testdata/katrina/katrina-slice.xml", "../../testdata/sample/simplewiki-sample.xml", dedupFixture}
	a := testOptions(t, t.TempDir(), in...)
	a.Shards, a.Rounds, a.OutputShards, a.EmitSentences, a.SplitBytes, a.PassageText, a.EmitDuplicates = 1, 0, 3, true, 0, true, true
	b := a
	b.Output = t.TempDir()
	b.Shards, b.Rounds, b.SplitBytes = 37, 3, 16<<10 // the Katrina slice is read in 19 parallel ranges
	// The DoFns' pools (internal/orderedpool) run inline with one core and on
	// four goroutines with four, where results finish out of order.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	filesA := run(t, a)
	runtime.GOMAXPROCS(4)
	filesB := run(t, b)
	planned := a // outputs names the copies of the JSON-lines corpora, which planning finds
	if err := planned.planAll(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, want := slices.Sorted(maps.Keys(filesA)), planned.outputs(); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Errorf("wrote %v, want %v", got, want)
	}
	for name, content := range filesA {
		if name == "summary.json" || name == "report.html" || name == "manifest.json" {
			continue // their parameters differ by design, and the manifest has times
		}
		if !bytes.Equal(content, filesB[name]) {
			t.Errorf("%s differs between --shards 1 --rounds 0 --split_bytes 0 on one core and --shards 37 --rounds 3 --split_bytes 65536 on four", name)
		}
	}
	if len(filesA) != len(filesB) {
		t.Errorf("%d files vs %d", len(filesA), len(filesB))
	}
	ca, cb := readSummary(t, filesA), readSummary(t, filesB)
	ja, _ := json.Marshal(ca)
	jb, _ := json.Marshal(cb)
	if !bytes.Equal(ja, jb) {
		t.Errorf("counts differ:\n%s\n%s", ja, jb)
	}
	if ca.Clusters == 0 || ca.Passages.Passages == 0 || ca.Duplicates.Sentences == 0 {
		t.Error("no clusters, no passages or no duplicates: the test proves nothing")
	}
}

// TestRunDirectory checks the manifest a finished run leaves, that a second
// run with the same id is refused, and that an unwritable output is refused
// before any work.
func TestRunDirectory(t *testing.T) {
	ctx := t.Context()
	o := testOptions(t, t.TempDir(), "../../testdata/sample/simplewiki-sample.xml")
	o.RunID = ""
	if err := o.prepareRun(ctx, "nightly-1"); err != nil {
		t.Fatal(err)
	}
	files := run(t, o)
	var m summary.Manifest
	if err := json.Unmarshal(files["manifest.json"], &m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	if m.RunID != "nightly-1" || m.Version != version || len(m.Inputs) != 1 || m.Inputs[0].Bytes == 0 {
		t.Errorf("manifest run %q version %q inputs %v", m.RunID, m.Version, m.Inputs)
	}
	if got, want := slices.Sorted(maps.Keys(files)), slices.Sorted(slices.Values(m.Outputs)); !slices.Equal(got, want) {
		t.Errorf("run directory holds %v, manifest lists %v", got, want)
	}
	if m.Finished.Before(m.Started) {
		t.Errorf("finished %v before started %v", m.Finished, m.Started)
	}
	mj, _ := json.Marshal(m.Counts)
	sj, _ := json.Marshal(readSummary(t, files))
	if !bytes.Equal(mj, sj) {
		t.Errorf("manifest counts %s differ from summary counts %s", mj, sj)
	}

	again := o
	err := again.prepareRun(ctx, "nightly-1")
	if err == nil || !strings.Contains(err.Error(), "already finished") {
		t.Errorf("re-running a finished run: err = %v, want 'already finished'", err)
	}
	if err := again.prepareRun(ctx, "../escape"); err == nil {
		t.Error("a run id with a slash was accepted")
	}

	readOnly := t.TempDir()
	if err := os.Chmod(readOnly, 0o500); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		t.Log("running as root: permission bits do not stop writes; checking a path under a file instead")
		readOnly = filepath.Join(o.RunDir(), "manifest.json")
	}
	bad := o
	bad.Output = readOnly
	if err := bad.prepareRun(ctx, "x"); err == nil || !strings.Contains(err.Error(), "not writable") {
		t.Errorf("unwritable output: err = %v, want 'not writable'", err)
	}
}
