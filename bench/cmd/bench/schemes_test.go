package main

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseSchemes(t *testing.T) {
	all, err := parseSchemes(schemeIDs(candidateSchemes))
	if err != nil || !reflect.DeepEqual(all, candidateSchemes) {
		t.Errorf("parseSchemes(all) = %v, %v", all, err)
	}
	got, err := parseSchemes(" exact, simhash-words ")
	if err != nil || len(got) != 2 || got[0].ID != "exact" || got[1].Name != "simhash (words)" {
		t.Errorf("parseSchemes = %v, %v", got, err)
	}
	if got, err := parseSchemes(""); err != nil || got != nil {
		t.Errorf("parseSchemes(\"\") = %v, %v; want none", got, err)
	}
	for _, bad := range []string{"oph,minhash", "oph,oph"} {
		if _, err := parseSchemes(bad); err == nil {
			t.Errorf("parseSchemes(%q): no error", bad)
		}
	}
	if got, err := parseLangs("el, vi"); err != nil || !reflect.DeepEqual(got, []string{"el", "vi"}) {
		t.Errorf("parseLangs = %v, %v", got, err)
	}
	if _, err := parseLangs("el,xx"); err == nil {
		t.Error("parseLangs(xx): no error")
	}
}

func TestCheckScheme(t *testing.T) {
	exact := candidateSchemes[5]
	if err := checkScheme(exact, parameters{Scheme: "exact"}, counts{}); err == nil || !strings.Contains(err.Error(), "no candidate stage") {
		t.Errorf("exact without counts.scheme: %v", err)
	}
	if err := checkScheme(exact, parameters{Scheme: "exact"}, counts{Scheme: &schemeCounts{}}); err != nil {
		t.Errorf("exact with counts.scheme: %v", err)
	}
	if err := checkScheme(candidateSchemes[0], parameters{Scheme: "oph"}, counts{}); err != nil {
		t.Errorf("oph: %v", err)
	}
	if err := checkScheme(candidateSchemes[1], parameters{Scheme: "oph"}, counts{}); err == nil {
		t.Error("bands ran as oph: no error")
	}
}

// Five sentences; x clusters {0,1,2} and {3,4}, y clusters {0,1} and
// leaves the rest alone.
var (
	xLabels = []int32{0, 0, 0, 1, 1}
	yLabels = []int32{0, 0, -1, -1, -1}
	exact5  = []edge{{A: 0, B: 1, Jaccard: 1}, {A: 0, B: 2, Jaccard: 0.85}, {A: 1, B: 3, Jaccard: 0.8}}
)

func TestRecallOf(t *testing.T) {
	d := schemeData{Labels: xLabels, Edges: []edge{{A: 0, B: 2, Jaccard: 0.85}, {A: 1, B: 2, Jaccard: 0.6}, {A: 3, B: 4, Jaccard: 0.5}}}
	all, near := recallOf(exact5, d)
	if want := (pairRecall{Pairs: 3, Together: 2, Direct: 1}); all != want {
		t.Errorf("all = %+v, want %+v", all, want)
	}
	if want := (pairRecall{Pairs: 2, Together: 1, Direct: 1}); near != want {
		t.Errorf("near = %+v, want %+v", near, want)
	}
	if got := edgesAtLeast(d.Edges, 0.6); got != 2 {
		t.Errorf("edgesAtLeast(0.6) = %d, want 2", got)
	}
	none, _ := recallOf(exact5, schemeData{Labels: []int32{-1, -1, -1, -1, -1}})
	if none.Together != 0 {
		t.Errorf("sentences in no cluster are together: %+v", none)
	}
}

func TestCompareClusterings(t *testing.T) {
	got := compareClusterings(xLabels, yLabels)
	want := clusterComparison{Clusters: 2, Missed: []int32{1}, Partial: []int32{0}, Pairs: 4, Split: 3}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("x vs y = %+v, want %+v", got, want)
	}
	got = compareClusterings(yLabels, xLabels)
	want = clusterComparison{Clusters: 1, Pairs: 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("y vs x = %+v, want %+v", got, want)
	}
	// A cluster whose members are in two clusters of y, one each, is missed.
	got = compareClusterings([]int32{0, 0}, []int32{0, 1})
	if len(got.Missed) != 1 || got.Split != 1 {
		t.Errorf("members in different clusters = %+v", got)
	}
	with := clustersWithPairs(xLabels, exact5)
	if !reflect.DeepEqual(with, map[int32]bool{0: true}) {
		t.Errorf("clustersWithPairs = %v", with)
	}
	in, out := partition([]int32{0, 1, 2}, with)
	if !reflect.DeepEqual(in, []int32{0}) || !reflect.DeepEqual(out, []int32{1, 2}) {
		t.Errorf("partition = %v, %v", in, out)
	}
}

func TestComparisonPairs(t *testing.T) {
	got := comparisonPairs(candidateSchemes)
	want := [][2]int{{1, 0}, {0, 1}, {2, 0}, {0, 2}, {3, 0}, {0, 3}, {4, 0}, {0, 4}, {5, 0}, {0, 5}, {5, 3}, {3, 5}, {5, 4}, {4, 5}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("comparisonPairs = %v, want %v", got, want)
	}
	if got := comparisonPairs(candidateSchemes[:2]); !reflect.DeepEqual(got, [][2]int{{1, 0}, {0, 1}}) {
		t.Errorf("oph and bands: %v", got)
	}
	if got := comparisonPairs(nil); got != nil {
		t.Errorf("no scheme: %v", got)
	}
}

func TestSpaced(t *testing.T) {
	if got := spaced([]int{1, 2, 3, 4, 5, 6, 7}, 3); !reflect.DeepEqual(got, []int{1, 3, 5}) {
		t.Errorf("spaced = %v", got)
	}
	if got := spaced([]int{1, 2}, 3); !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("spaced short = %v", got)
	}
}

// comparison5 is a comparison of oph (x) and simhash (y) on the five
// sentences, exact failed.
func comparison5() schemeComparisonResult {
	ids := []string{"w:1:1:0", "w:2:2:0", "w:3:3:0", "w:4:4:0", "w:5:5:0"}
	s := &sentenceSet{IDs: ids, Texts: []string{"t0", "t1", "t2", "t3", "t4"}, Index: map[string]int32{}}
	for i, id := range ids {
		s.Index[id] = int32(i)
	}
	run := func(wall time.Duration, c counts) runResult {
		return runResult{Run: measurement{Wall: wall, CPU: 2 * wall, PeakRSS: 300e6}, Counts: c}
	}
	return schemeComparisonResult{
		Input: "in", Threshold: 0.8, Sentences: s, Exact: exact5,
		Schemes: []schemeResult{
			{Scheme: candidateSchemes[0], Run: run(time.Second, counts{Edges: 10, CandidateEdges: 6, EdgesVerified: 4, Clusters: 2, SentencesInClusters: 5}),
				Data: &schemeData{Labels: xLabels, Names: []string{"w:1:1:0", "w:4:4:0"},
					Edges: []edge{{A: 0, B: 1, Jaccard: 1}, {A: 0, B: 2, Jaccard: 0.85, Edit: 0.1}, {A: 3, B: 4, Jaccard: 0.55, Edit: 0.2}}}},
			{Scheme: candidateSchemes[3], Run: run(2*time.Second, counts{Edges: 0, CandidateEdges: 3, EdgesVerified: 1, Clusters: 1, SentencesInClusters: 2,
				Scheme: &schemeCounts{Candidates: 7}}),
				Data: &schemeData{Labels: yLabels, Names: []string{"w:1:1:0"}, Edges: []edge{{A: 0, B: 1, Jaccard: 1}}}},
			{Scheme: candidateSchemes[5], Run: runResult{Err: errors.New("no stage")}, Err: errors.New("no stage")},
		},
	}
}

func TestSchemeRows(t *testing.T) {
	c := comparison5()
	cost := schemeCostRows(c)
	want := [][]string{
		{"in", "oph", "1.00", "2.00", "300", "10", "6", "4", "2", "5"},
		{"in", "simhash (shingles)", "2.00", "4.00", "300", "7", "3", "1", "1", "2"},
		{"in", "exact", "failed: no stage", "", "", "", "", "", "", ""},
	}
	if !reflect.DeepEqual(cost, want) {
		t.Errorf("schemeCostRows =\n%q\nwant\n%q", cost, want)
	}
	quality := schemeQualityRows(c)
	want = [][]string{
		{"in", "oph", "3", "0.6667", "0.6667", "2", "0.5000", "0.5000", "3", "0.6667"},
		{"in", "simhash (shingles)", "3", "0.3333", "0.3333", "2", "0.0000", "0.0000", "1", "1.0000"},
		{"in", "exact", "failed: no stage", "", "", "", "", "", "", ""},
	}
	if !reflect.DeepEqual(quality, want) {
		t.Errorf("schemeQualityRows =\n%q\nwant\n%q", quality, want)
	}
	if n := len(schemeQualityColumns("0.8")); n != len(want[0]) {
		t.Errorf("%d quality columns, %d cells", n, len(want[0]))
	}
	comps := comparisonRows(c)
	want = [][]string{
		{"in", "simhash (shingles)", "oph", "1", "0", "0", "0", "1", "0"},
		{"in", "oph", "simhash (shingles)", "2", "1", "0", "1", "4", "3"},
	}
	if !reflect.DeepEqual(comps, want) {
		t.Errorf("comparisonRows =\n%q\nwant\n%q", comps, want)
	}
	if n := len(comparisonColumns("0.8")); n != len(want[0]) {
		t.Errorf("%d comparison columns, %d cells", n, len(want[0]))
	}
	if !strings.Contains(schemeQualityNote("0.8"), "Jaccard ≥ 0.8") || !strings.Contains(comparisonNote("0.8"), "0.8") {
		t.Error("notes do not name the threshold")
	}
}

func TestWriteExamples(t *testing.T) {
	var b strings.Builder
	writeExamples(&b, comparison5(), 3)
	got := b.String()
	for _, want := range []string{
		"## in\n",
		"### oph finds, simhash (shingles) misses (in): 1 of 2 clusters missed (0 with a pair J ≥ 0.8), 1 split\n",
		"oph cluster w:4:4:0 (2 members), missed by simhash (shingles), every pair J < 0.8:\n",
		"- `w:4:4:0` (simhash (shingles): in no cluster): t3\n",
		"oph's verified edges in it: `w:4:4:0`–`w:5:5:0` J 0.550 edit 0.200\nexact pairs in it: none\n",
		"oph cluster w:1:1:0 (3 members), split by simhash (shingles):\n",
		"- `w:2:2:0` (simhash (shingles): cluster w:1:1:0): t1\n",
		"exact pairs in it: `w:1:1:0`–`w:2:2:0` J 1.000; `w:1:1:0`–`w:3:3:0` J 0.850\n",
		"### simhash (shingles) finds, oph misses (in): 0 of 1 clusters missed",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("examples lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "exact finds") {
		t.Errorf("examples of a failed scheme:\n%s", got)
	}
}

func TestReadSchemeData(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("sentences-00000-of-00001.jsonl", `{"id":"w:1:1:0","text":"a","cluster_id":"w:1:1:0"}
{"id":"w:2:2:0","text":"b","cluster_id":""}
{"id":"w:3:3:0","text":"c","cluster_id":"w:1:1:0"}
`)
	write("edges-00000-of-00001.jsonl", `{"a":"w:3:3:0","b":"w:1:1:0","jaccard":0.9,"edit":0.05}`+"\n")
	sents, err := readSentenceSet(filepath.Join(dir, "sentences-*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sents.Texts, []string{"a", "b", "c"}) || sents.Index["w:3:3:0"] != 2 {
		t.Errorf("sentences = %+v", sents)
	}
	d, err := readSchemeData(dir, sents)
	if err != nil {
		t.Fatal(err)
	}
	want := schemeData{Labels: []int32{0, -1, 0}, Names: []string{"w:1:1:0"}, Edges: []edge{{A: 0, B: 2, Jaccard: 0.9, Edit: 0.05}}}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("readSchemeData = %+v, want %+v", d, want)
	}
	other := &sentenceSet{IDs: []string{"w:1:1:0"}, Index: map[string]int32{"w:1:1:0": 0}}
	if _, err := readSchemeData(dir, other); err == nil {
		t.Error("a sentence not among the first run's: no error")
	}
	write("sentences-00000-of-00001.jsonl", `{"id":"w:1:1:0","text":"a"}`+"\n"+`{"id":"w:1:1:0","text":"a"}`+"\n")
	if _, err := readSentenceSet(filepath.Join(dir, "sentences-*.jsonl")); err == nil {
		t.Error("a sentence id twice: no error")
	}
}
