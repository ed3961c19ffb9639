package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/bench/internal/peerreport"
)

func TestRunRow(t *testing.T) {
	r := runResult{
		Input: input{Name: "scaled 1× .bz2"},
		Run:   measurement{Wall: 2 * time.Second, CPU: 3500 * time.Millisecond, PeakRSS: 200e6},
		Counts: counts{PagesRead: 326, Sentences: 31000, SentencesInWindow: 20000, Clusters: 700,
			Passages: passageCounts{Passages: 45, PairsWithPassages: 12}},
		XMLBytes: 8e6,
		Baseline: 500 * time.Millisecond,
		Tools:    []string{"bzip2"},
	}
	want := []string{"scaled 1× .bz2", "326", "31000", "20000", "700", "45", "2.00", "3.50", "10000", "8.0", "4.0", "200", "10000", "0.50 (bzip2)", "4.0×"}
	if got := runRow(r); !reflect.DeepEqual(got, want) {
		t.Errorf("runRow =\n%q\nwant\n%q", got, want)
	}
	if len(want) != len(runColumns) {
		t.Errorf("%d cells, %d columns", len(want), len(runColumns))
	}
	r.Baseline, r.Run.PeakRSS = 0, 0
	got := runRow(r)
	if got[11] != "0" || got[12] != "–" || got[13] != "–" || got[14] != "–" {
		t.Errorf("without baseline or RSS: %q", got)
	}
	failed := runRow(runResult{Input: input{Name: "x"}, Err: errors.New("exit status 1")})
	if failed[0] != "x" || failed[1] != "failed: exit status 1" || len(failed) != len(runColumns) {
		t.Errorf("failed run: %q", failed)
	}
}

func TestScalingRows(t *testing.T) {
	run := func(name string, sentences, clustered int64, wall time.Duration, rss int64) runResult {
		return runResult{Input: input{Name: name}, Counts: counts{SentencesInWindow: sentences, SentencesInClusters: clustered},
			Run: measurement{Wall: wall, PeakRSS: rss}}
	}
	runs := []runResult{
		run("1×", 1000, 30, time.Second, 100e6),
		{Input: input{Name: "broken"}, Err: errors.New("x")},
		run("2×", 2000, 1740, 3*time.Second, 150e6),
	}
	want := [][]string{
		{"1×", "1000", "3%", "1000.0", "+0%", "100000", "+0%"},
		{"2×", "2000", "87%", "1500.0", "+50%", "75000", "-25%"},
	}
	if got := scalingRows(runs); !reflect.DeepEqual(got, want) {
		t.Errorf("scalingRows =\n%q\nwant\n%q", got, want)
	}
}

func TestTable(t *testing.T) {
	got := table([]string{"a", "long name"}, [][]string{{"×1", "2"}, {"three"}})
	want := "" +
		"| a     | long name |\n" +
		"|-------|-----------|\n" +
		"| ×1    | 2         |\n" +
		"| three |           |\n"
	if got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
}

func TestPeerRowsAndSummary(t *testing.T) {
	c := peerComparison{Input: "scaled 1× .xml", Pipeline: 2 * time.Second, Report: peerreport.Report{
		Threshold: 0.7,
		Sentences: 100,
		Peer:      peerreport.Peer{Hashes: 128, Bands: 9, BandRows: 13, Seconds: 4, Clusters: 3, ClusteredSentences: 7},
	}}
	rows := peerRows(c)
	if rows[0][2] != "2.00" || rows[0][5] != "–" || rows[1][0] != "minhash-lsh peer (128 hashes, 9 bands × 13 rows)" || rows[1][4] != "7" {
		t.Errorf("rows without exact pairs: %q", rows)
	}
	if got, want := peerSummary(c), "scaled 1× .xml: pipeline time ÷ peer time = 0.50"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	c.Report.Exact = &peerreport.Exact{Pairs: 10, Seconds: 1, PeerRecall: 0.9, PipelineRecall: 1, PipelineClusters: 4, PipelineClusteredSentences: 9}
	rows = peerRows(c)
	if rows[0][3] != "4" || rows[0][4] != "9" || rows[0][5] != "1.0000" || rows[1][5] != "0.9000" {
		t.Errorf("rows with exact pairs: %q", rows)
	}
	if got := peerSummary(c); !strings.HasSuffix(got, "exact pairs with Jaccard ≥ 0.7: 10 (found by brute force with a prefix filter in 1.0 s); recall pipeline 1.0000, peer 0.9000") {
		t.Errorf("summary %q", got)
	}
}

func TestSlug(t *testing.T) {
	tests := map[string]string{
		"scaled 8× multistream .bz2":      "scaled-8-multistream-bz2",
		"enwiki Katrina (wikiduper) .xml": "enwiki-katrina-wikiduper-xml",
		"elwiki 100k lines .xz":           "elwiki-100k-lines-xz",
	}
	for in, want := range tests {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDecompressor(t *testing.T) {
	tests := map[string]string{"a.xml.bz2": "bzip2", "b.xz": "xz", "c.gz": "gzip", "d.xml": "", "e-p1p2.bz2": "bzip2"}
	for in, want := range tests {
		if got := decompressor(in); got != want {
			t.Errorf("decompressor(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReadSummary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "summary.json")
	os.WriteFile(path, []byte(`{"version":"dev","parameters":{"input":["a.xml"],"namespaces":[0,14],"shingle_length":9,"min_shingles":3,"max_shingles":50,`+
		`"fold_case":true,"collapse_space":false,"scheme":"bands","threshold":0.7,"bands":5,"rows":4,"seed":42,"top_pairs":3},`+
		`"counts":{"pages_read":93,"pages_kept":40,"sentences":4000,"sentences_in_window":3093,"clusters":104,"edges":7,`+
		`"candidate_edges":6,"edges_verified":5,"scheme":{"entries":9,"candidates":8},`+
		`"passages":{"document_pairs":30,"document_pairs_with_passages":9,"passages":11,"length_histogram":[{"matched":3,"passages":11}]}}}`), 0o644)
	c, p, err := readSummary(path)
	if want := (counts{PagesRead: 93, PagesKept: 40, Sentences: 4000, SentencesInWindow: 3093, Clusters: 104,
		Passages: passageCounts{Passages: 11, PairsWithPassages: 9}, Edges: 7, CandidateEdges: 6, EdgesVerified: 5,
		Scheme: &schemeCounts{Candidates: 8}}); err != nil || !reflect.DeepEqual(c, want) {
		t.Errorf("readSummary counts = %+v, %v; want %+v", c, err, want)
	}
	want := parameters{Namespaces: []int{0, 14}, ShingleLength: 9, MinShingles: 3, MaxShingles: 50, FoldCase: true,
		Scheme: "bands", Threshold: 0.7, Bands: 5, Rows: 4, Seed: 42}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("readSummary parameters = %+v, want %+v", p, want)
	}
	for _, doc := range []string{`{"version":"dev","parameters":{}}`, `{"version":"dev","counts":{}}`} {
		os.WriteFile(path, []byte(doc), 0o644)
		if _, _, err := readSummary(path); err == nil {
			t.Errorf("%s: no error", doc)
		}
	}
}

func TestParseInts(t *testing.T) {
	if got, err := parseInts("1, 2,,8"); err != nil || !reflect.DeepEqual(got, []int{1, 2, 8}) {
		t.Errorf("parseInts = %v, %v", got, err)
	}
	if got, err := parseInts(""); err != nil || got != nil {
		t.Errorf("empty: %v, %v", got, err)
	}
	if _, err := parseInts("1,0"); err == nil {
		t.Error("0: no error")
	}
	if joinInts([]int{1, 2, 8}) != "1,2,8" {
		t.Error("joinInts")
	}
}

// TestBaseline checks the size of plain files, and the size and tool of a
// gzip file when gzip is installed.
func TestBaseline(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "a.xml")
	os.WriteFile(plain, []byte("0123456789"), 0o644)
	elapsed, tools, size, err := baseline(context.Background(), []string{plain})
	if err != nil || elapsed != 0 || tools != nil || size != 10 {
		t.Errorf("plain file: %v %v %d %v", elapsed, tools, size, err)
	}
	gzipPath, err := exec.LookPath("gzip")
	if err != nil {
		t.Skip("gzip not installed")
	}
	if err := exec.Command(gzipPath, "-k", plain).Run(); err != nil {
		t.Fatal(err)
	}
	_, tools, size, err = baseline(context.Background(), []string{plain + ".gz", plain})
	if err != nil || !reflect.DeepEqual(tools, []string{"gzip"}) || size != 20 {
		t.Errorf("gzip and plain: %v %d %v", tools, size, err)
	}
}

func TestStageRows(t *testing.T) {
	st := stageTimes{Read: time.Second, Clean: 2 * time.Second, Split: time.Second, Sign: 4 * time.Second, InWindow: 1000}
	rows := stageRows(st, parameters{Scheme: "bands", Bands: 5, Rows: 4}, 10*time.Second)
	want := [][]string{
		{"read + parse pages", "1.000", "1000.0", "10%"},
		{"clean wikitext", "2.000", "2000.0", "20%"},
		{"split sentences", "1.000", "1000.0", "10%"},
		{"shingle + MinHash (bands 5×4)", "4.000", "4000.0", "40%"},
		{"rest of the pipeline (CPU − stages)", "2.000", "2000.0", "20%"},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("stageRows = %v, want %v", rows, want)
	}
}

// TestMeasureStages runs the pipeline with its defaults on the sample, as
// the benchmark does, then the stages with the parameters of that run: they
// must find the sentences the pipeline found.
func TestMeasureStages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the pipeline; skipped with -short")
	}
	sample, err := filepath.Abs("../../../testdata/sample/simplewiki-sample.xml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "sentences")
	if msg, err := exec.Command("go", "build", "-o", bin, "../../../pipelines/sentences").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	out := filepath.Join(dir, "out")
	if _, err := measure(t.Context(), filepath.Join(dir, "run.log"), nil, bin, "--input", sample, "--output", out, "--run_id", "sample"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "run.log"))
		t.Fatalf("%v\n%s", err, log)
	}
	c, p, err := readSummary(filepath.Join(out, "sample", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := measureStages(t.Context(), sample, p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Sentences != c.Sentences || st.InWindow != c.SentencesInWindow || st.InWindow == 0 || st.Read <= 0 || st.Sign <= 0 {
		t.Errorf("stages = %+v; want the pipeline's %d sentences, %d in the window, with times", st, c.Sentences, c.SentencesInWindow)
	}
}

func TestMedianRun(t *testing.T) {
	tests := []struct {
		walls []time.Duration
		want  time.Duration
	}{
		{[]time.Duration{5}, 5},
		{[]time.Duration{9, 1, 5}, 5},
		{[]time.Duration{4, 8, 2, 6}, 4}, // the lower middle
	}
	for _, tt := range tests {
		i := 0
		got, err := medianRun(len(tt.walls), func() (measurement, error) {
			m := measurement{Wall: tt.walls[i], CPU: 10 * tt.walls[i]}
			i++
			return m, nil
		})
		if err != nil || got.Wall != tt.want || got.CPU != 10*tt.want {
			t.Errorf("medianRun(%v) = %+v, %v; want wall %v with its own CPU", tt.walls, got, err, tt.want)
		}
	}
	failed := errors.New("run 2 failed")
	calls := 0
	_, err := medianRun(3, func() (measurement, error) {
		calls++
		if calls == 2 {
			return measurement{}, failed
		}
		return measurement{Wall: 1}, nil
	})
	if !errors.Is(err, failed) || calls != 2 {
		t.Errorf("error %v after %d calls, want %v after 2", err, calls, failed)
	}
}

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		in   []time.Duration
		want time.Duration
	}{{[]time.Duration{3, 1, 2}, 2}, {[]time.Duration{4, 1, 3, 2}, 2}, {[]time.Duration{5}, 5}} {
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestMedianFloat(t *testing.T) {
	for _, tt := range []struct {
		in   []float64
		want float64
	}{{[]float64{0.3, -0.1, 0.2}, 0.2}, {[]float64{4, 1, 3, 2}, 2}, {[]float64{5}, 5}} {
		if got := medianFloat(tt.in); got != tt.want {
			t.Errorf("medianFloat(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestPassageRowsAndSummary(t *testing.T) {
	s := func(xs ...float64) []time.Duration {
		var ds []time.Duration
		for _, x := range xs {
			ds = append(ds, time.Duration(x*float64(time.Second)))
		}
		return ds
	}
	// Medians: on 10 s wall, 16 s CPU; off 9.5 s and 15 s. Rounds' wall
	// shares 5%, 0%, 10% (median 5%); CPU shares 1/16, 2/16, 1/17.
	on := pairedResult{Walls: s(10, 9, 11), CPUs: s(16, 16, 17),
		Counts: counts{Passages: passageCounts{Passages: 1200, PairsWithPassages: 300}}}
	off := pairedResult{Walls: s(9.5, 9, 9.9), CPUs: s(15, 14, 16)}
	want := [][]string{
		{"defaults (passages found)", "10.00", "16.00", "1200", "300"},
		{"`--min_passage 0` (no passage stage)", "9.50", "15.00", "–", "–"},
		{"passage stage: difference of the medians (share of defaults)", "0.50 (5.0%)", "1.00 (6.2%)", "", ""},
		{"passage stage: median of the 3 rounds' differences", "0.50 (5.0%)", "1.00 (6.2%)", "", ""},
	}
	if got := passageRows(on, off); !reflect.DeepEqual(got, want) {
		t.Errorf("passageRows =\n%q\nwant\n%q", got, want)
	}
	if got, want := passageSummary("scaled 8× .xml", on, off), "scaled 8× .xml: the passage stage takes 5.0% of the wall time and 6.2% "+
		"of the CPU time of a run with the defaults (medians of 3 paired runs); within the target of 10% of wall time."; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	off.Walls = s(8, 8, 8)
	if got := passageSummary("x", on, off); !strings.Contains(got, "20.0% of the wall time") || !strings.Contains(got, "over the target") {
		t.Errorf("summary over the target: %q", got)
	}
}

func TestScalingVerdict(t *testing.T) {
	run := func(name string, sentences int64, wall time.Duration, rss int64) runResult {
		return runResult{Input: input{Name: name}, Counts: counts{SentencesInWindow: sentences},
			Run: measurement{Wall: wall, PeakRSS: rss}}
	}
	tests := []struct {
		name string
		runs []runResult
		want string
	}{
		{"flat and small", []runResult{
			run("scaled 8× .xml", 100_000, 2*time.Second, 100e6),
			run("scaled 32× .xml", 400_000, 9*time.Second, 500e6),
			run("scaled 64× .xml", 800_000, 18*time.Second, 1000e6),
		}, "Time per in-window sentence, scaled 8× .xml to scaled 64× .xml: +0% to +12% of the first's; within ±25%: yes. " +
			"Peak RSS per in-window sentence from 32× on: scaled 32× .xml 1250 B, scaled 64× .xml 1250 B; at most 1536 B: yes."},
		{"growing", []runResult{
			run("scaled 8× .xml", 100_000, 2*time.Second, 100e6),
			run("scaled 16× .xml", 200_000, 3*time.Second, 300e6),
			run("scaled 32× .xml", 400_000, 11*time.Second, 800e6),
		}, "Time per in-window sentence, scaled 8× .xml to scaled 32× .xml: -25% to +38% of the first's; within ±25%: no. " +
			"Peak RSS per in-window sentence from 32× on: scaled 32× .xml 2000 B; at most 1536 B: no."},
		{"one run", []runResult{run("scaled 8× .xml", 100_000, time.Second, 1)}, ""},
	}
	for _, tt := range tests {
		if got := scalingVerdict(tt.runs); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

func TestDecompressVerdict(t *testing.T) {
	runs := []runResult{
		{Input: input{Name: "scaled 8× .xml"}, Run: measurement{Wall: 4 * time.Second}},
		{Input: input{Name: "scaled 8× multistream .bz2"}, Run: measurement{Wall: 3 * time.Second}, Baseline: 2 * time.Second},
		{Input: input{Name: "scaled 32× multistream .bz2"}, Run: measurement{Wall: 17 * time.Second}, Baseline: 8 * time.Second},
	}
	want := "Pipeline ÷ bzip2 -dc on the multistream corpora: scaled 8× multistream .bz2 1.5×, scaled 32× multistream .bz2 2.1×; at most 2×: no."
	if got := decompressVerdict(runs); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := decompressVerdict(runs[:2]); !strings.HasSuffix(got, "at most 2×: yes.") {
		t.Errorf("got %s, want a yes", got)
	}
}
