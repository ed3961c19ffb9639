package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/sectionkind"
	"github.com/neardup/neardup/transforms/sentence"
)

// labelsGlob matches the hand-labelled sets of real clusters (see their
// README): english-clusters.jsonl, crossdate-clusters.jsonl and any other
// *-clusters.jsonl.
const labelsGlob = "../../testdata/labels/*-clusters.jsonl"

// minAccuracy is the floor below which the classifier is judged broken on
// floorFile, the labelled set it was set on. Over all files, the floors are
// just under what issue 15 measured (accuracy 0.795, factual_drift
// precision 0.50 and recall 0.47) and above what the classifier did before
// it (0.741, 0.45, 0.42): a change that undoes that work fails.
const (
	minAccuracy = 0.85
	floorFile   = "english-clusters.jsonl"

	minOverallAccuracy = 0.81
	minDriftPrecision  = 0.50
	minDriftRecall     = 0.40

	// minOtherLanguages is the floor on the files labelled from dumps
	// other than English (issue 30 measured 0.587 before its rules, 0.814
	// after them).
	minOtherLanguages = 0.79
)

// englishFiles are the labels files of English dumps; every other
// *-clusters.jsonl counts towards minOtherLanguages.
var englishFiles = []string{"english-clusters.jsonl", "loose-clusters.jsonl", "crossdate-clusters.jsonl"}

// labelKinds are the categories in the order the report prints them.
var labelKinds = []string{
	categorize.Identical, categorize.CopyEdit, categorize.FactualDrift,
	categorize.Template, categorize.Reference, categorize.Other,
}

// labelledCluster is one line of a labels file. It names its dumps (under
// sharedData) one of two ways: File, with members as [page id, sentence
// ordinal] pairs of that dump; or Files, with members as [page id,
// revision id, sentence ordinal] triples, each found in whichever of the
// files holds that revision of the page (the same page can be in several
// files at different dates).
type labelledCluster struct {
	File    string    `json:"file,omitempty"`
	Files   []string  `json:"files,omitempty"`
	Members [][]int64 `json:"members"`
	Label   string    `json:"label"`
	Reason  string    `json:"reason"`

	source string // the labels file, as "name:line"
}

// dumps returns the files the cluster's members are in.
func (c labelledCluster) dumps() []string {
	if c.File != "" {
		return []string{c.File}
	}
	return c.Files
}

// key returns the sentence a member names; rev is 0 in the pair format,
// where any revision of the page matches.
func (c labelledCluster) key(m []int64) sentenceKey {
	if len(m) == 3 {
		return sentenceKey{m[0], m[1], int(m[2])}
	}
	return sentenceKey{m[0], 0, int(m[1])}
}

// sentenceKey names one sentence of one page (of one revision, if rev is
// not 0).
type sentenceKey struct {
	page    int64
	rev     int64
	ordinal int
}

func (k sentenceKey) String() string {
	if k.rev == 0 {
		return fmt.Sprintf("%d:%d", k.page, k.ordinal)
	}
	return fmt.Sprintf("%d:%d:%d", k.page, k.rev, k.ordinal)
}

// labelFiles returns the labels files, sorted.
func labelFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(labelsGlob)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no labels files match %s", labelsGlob)
	}
	slices.Sort(files)
	return files
}

// readLabels reads every labels file and checks each line: a known label,
// a reason, at least two members, either a file and pairs or files and
// triples, and a member set that no other line of any file has.
func readLabels(t *testing.T, files []string) map[string][]labelledCluster {
	t.Helper()
	out := map[string][]labelledCluster{}
	seen := map[string]string{}
	for _, path := range files {
		name := filepath.Base(path)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			if strings.TrimSpace(sc.Text()) == "" {
				continue
			}
			where := fmt.Sprintf("%s:%d", name, n)
			var c labelledCluster
			dec := json.NewDecoder(strings.NewReader(sc.Text()))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&c); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			c.source = where
			if !slices.Contains(labelKinds, c.Label) || len(c.Members) < 2 || c.Reason == "" {
				t.Fatalf("%s: want a known label, a reason and at least 2 members: %+v", where, c)
			}
			width := 0
			switch {
			case c.File != "" && len(c.Files) == 0:
				width = 2
			case c.File == "" && len(c.Files) > 0 && !slices.Contains(c.Files, ""):
				width = 3
			default:
				t.Fatalf("%s: want either \"file\" with [page, ordinal] members or \"files\" with [page, rev, ordinal] members: %+v", where, c)
			}
			for _, m := range c.Members {
				if len(m) != width {
					t.Fatalf("%s: member %v: want %d numbers", where, m, width)
				}
			}
			key := fmt.Sprint(c.dumps(), c.Members)
			if first, dup := seen[key]; dup {
				t.Fatalf("%s: same members as %s", where, first)
			}
			seen[key] = where
			out[name] = append(out[name], c)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	return out
}

// readSentences returns the views of the wanted sentences of a dump. A
// wanted key with rev 0 matches the sentence of any revision.
func readSentences(t *testing.T, path string, wanted map[sentenceKey]bool) map[sentenceKey]sentence.View {
	t.Helper()
	pages := map[int64]bool{}
	for k := range wanted {
		pages[k.page] = true
	}
	// Clean and split as the pipeline does: with the dump's own site
	// (wiki name, language, namespace names), or the ordinals differ.
	site, err := dump.ReadSite(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	sites := []document.Site{site}
	wikis, err := sentence.NewWikis(sites)
	if err != nil {
		t.Fatal(err)
	}
	ps := sentence.PageSplitter{Sites: clean.NewSites(sites), Wikis: wikis}
	rc, err := dump.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	r := dump.NewReader(rc, path, dump.Options{})
	found := map[sentenceKey]sentence.View{}
	for {
		page, err := r.Next()
		// A dump cut short (the truncated jawiki and viwiki samples) ends
		// at the cut, as the pipeline reads it: the cut page is
		// dead-lettered and every page before it is whole.
		if errors.Is(err, io.EOF) || errors.Is(err, dump.ErrTruncated) {
			return found
		}
		var pe *dump.PageError
		if errors.As(err, &pe) {
			continue
		}
		if err != nil {
			t.Fatalf("reading %s: %v", path, err)
		}
		if !pages[page.ID] {
			continue
		}
		page.Wiki = site.Wiki
		ps.Sentences(page, func(s sentence.Sentence) {
			for _, k := range []sentenceKey{{s.PageID, s.RevID, s.ID.Ordinal()}, {s.PageID, 0, s.ID.Ordinal()}} {
				if wanted[k] {
					found[k] = s.View()
				}
			}
		})
	}
}

// learnSections learns the section headings that hold citations from every
// page of the dumps (sectionkind.Learn's table, without Beam), as a run on
// them does.
func learnSections(t *testing.T, files []string) *sectionkind.Table {
	t.Helper()
	var counter sectionkind.Counter
	for _, file := range files {
		path := needShared(t, file)
		site, err := dump.ReadSite(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		cleaner := clean.Cleaner{Sites: clean.NewSites([]document.Site{site})}
		rc, err := dump.Open(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		r := dump.NewReader(rc, path, dump.Options{})
		for {
			page, err := r.Next()
			if errors.Is(err, io.EOF) || errors.Is(err, dump.ErrTruncated) {
				break
			}
			var pe *dump.PageError
			if errors.As(err, &pe) {
				continue
			}
			if err != nil {
				t.Fatalf("reading %s: %v", path, err)
			}
			page.Wiki = site.Wiki
			cp, err := cleaner.Clean(page)
			if err != nil {
				continue // the splitter leaves it out too
			}
			for _, e := range sectionkind.Summarize(cp, categorize.IsCitation) {
				counter.Add(e)
			}
		}
		rc.Close()
	}
	return sectionkind.Build(counter.Take())
}

// confusion counts clusters by labelled kind (row) and classified kind.
type confusion map[string]map[string]int

func (c confusion) add(want, got string) {
	if c[want] == nil {
		c[want] = map[string]int{}
	}
	c[want][got]++
}

func (c confusion) accuracy() float64 {
	var right, all int
	for want, row := range c {
		for got, n := range row {
			all += n
			if got == want {
				right += n
			}
		}
	}
	if all == 0 {
		return 0
	}
	return float64(right) / float64(all)
}

// table renders the matrix with per-kind precision and recall.
func (c confusion) table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-14s", "label \\ got")
	for _, k := range labelKinds {
		fmt.Fprintf(&b, "%14s", k)
	}
	fmt.Fprintf(&b, "%8s%10s%8s\n", "total", "precision", "recall")
	for _, want := range labelKinds {
		fmt.Fprintf(&b, "%-14s", want)
		total, predicted := 0, 0
		for _, got := range labelKinds {
			fmt.Fprintf(&b, "%14d", c[want][got])
			total += c[want][got]
			predicted += c[got][want]
		}
		fmt.Fprintf(&b, "%8d%10s%8s\n", total, ratio(c[want][want], predicted), ratio(c[want][want], total))
	}
	return b.String()
}

func ratio(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(n)/float64(d))
}

// TestLabelledClusters measures categorize.Classify against clusters of the
// English sample dumps that were labelled by reading them. Run it with -v
// for the confusion matrix of each labels file and of all of them, and the
// list of disagreements.
func TestLabelledClusters(t *testing.T) {
	files := labelFiles(t)
	labels := readLabels(t, files)
	total := 0
	for _, cs := range labels {
		total += len(cs)
	}
	if total < 150 {
		t.Fatalf("%d labelled clusters, want at least 150", total)
	}
	wanted := map[string]map[sentenceKey]bool{}
	for _, cs := range labels {
		for _, c := range cs {
			for _, file := range c.dumps() {
				if wanted[file] == nil {
					wanted[file] = map[sentenceKey]bool{}
				}
				for _, m := range c.Members {
					wanted[file][c.key(m)] = true
				}
			}
		}
	}
	views := map[string]map[sentenceKey]sentence.View{}
	for _, file := range slices.Sorted(maps.Keys(wanted)) {
		views[file] = readSentences(t, needShared(t, file), wanted[file])
	}
	// What a run on these dumps learns of their section headings.
	sections := learnSections(t, slices.Sorted(maps.Keys(wanted)))
	know := categorize.Knowledge{Sections: sections}

	overall, others := confusion{}, confusion{}
	floorAcc, floorFound := 0.0, false
	var reports, misses []string
	for _, path := range files {
		name := filepath.Base(path)
		matrix := confusion{}
		for _, c := range labels[name] {
			members := make([]categorize.Member, 0, len(c.Members))
			for _, m := range c.Members {
				k := c.key(m)
				var v sentence.View
				ok := false
				for _, file := range c.dumps() {
					if v, ok = views[file][k]; ok {
						break
					}
				}
				if !ok {
					t.Errorf("%s: sentence %v is not in %s", c.source, k, strings.Join(c.dumps(), " or "))
					continue
				}
				members = append(members, categorize.Member{Wiki: v.Wiki, Title: v.Title, Section: v.Section, Context: v.Context, Text: v.Text})
			}
			if len(members) != len(c.Members) {
				continue
			}
			got := categorize.ClassifyWith(members, know)
			matrix.add(c.Label, got.Category)
			overall.add(c.Label, got.Category)
			if !slices.Contains(englishFiles, name) {
				others.add(c.Label, got.Category)
			}
			if got.Category != c.Label {
				misses = append(misses, fmt.Sprintf("%s %s %v: labelled %s (%s), got %s by %s: %s",
					c.source, strings.Join(c.dumps(), ","), c.Members, c.Label, c.Reason, got.Category, got.Evidence.Rule, got.Evidence.Reason))
			}
		}
		if name == floorFile {
			floorAcc, floorFound = matrix.accuracy(), true
		}
		reports = append(reports, fmt.Sprintf("%s: %d clusters, accuracy %.3f\n%s", name, len(labels[name]), matrix.accuracy(), matrix.table()))
	}
	if t.Failed() {
		return
	}
	acc := overall.accuracy()
	var learned []string
	for _, h := range sections.Headings() {
		learned = append(learned, fmt.Sprintf("%s %q (%d of %d lines, %d pages)", h.Wiki, h.Heading, h.Citations, h.Lines, h.Pages))
	}
	t.Logf("section headings learned to hold citations: %s", strings.Join(learned, "; "))
	t.Logf("classifier on %d hand-labelled clusters in %d files\n\n%s\nall files: %d clusters, accuracy %.3f\n%s",
		total, len(files), strings.Join(reports, "\n"), total, acc, overall.table())
	t.Logf("%d disagreements:\n%s", len(misses), strings.Join(misses, "\n"))
	if !floorFound {
		t.Errorf("no %s among the labels files", floorFile)
	} else if floorAcc < minAccuracy {
		t.Errorf("accuracy %.3f on %s is below the floor %.2f", floorAcc, floorFile, minAccuracy)
	}
	if a := others.accuracy(); a < minOtherLanguages {
		t.Errorf("accuracy %.3f over the files of other languages than English is below the floor %.2f", a, minOtherLanguages)
	}
	if acc < minOverallAccuracy {
		t.Errorf("accuracy %.3f over all files is below the floor %.2f", acc, minOverallAccuracy)
	}
	drift := categorize.FactualDrift
	if p := overall.precision(drift); p < minDriftPrecision {
		t.Errorf("%s precision %.3f over all files is below the floor %.2f", drift, p, minDriftPrecision)
	}
	if r := overall.recall(drift); r < minDriftRecall {
		t.Errorf("%s recall %.3f over all files is below the floor %.2f", drift, r, minDriftRecall)
	}
}

// precision is the share of the clusters classified as kind that are
// labelled kind.
func (c confusion) precision(kind string) float64 {
	predicted := 0
	for _, row := range c {
		predicted += row[kind]
	}
	if predicted == 0 {
		return 0
	}
	return float64(c[kind][kind]) / float64(predicted)
}

// recall is the share of the clusters labelled kind that are classified
// as kind.
func (c confusion) recall(kind string) float64 {
	total := 0
	for _, n := range c[kind] {
		total += n
	}
	if total == 0 {
		return 0
	}
	return float64(c[kind][kind]) / float64(total)
}
