package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/sentence"
)

// labelsFile is the hand-labelled set of real clusters (see its README).
const labelsFile = "../../testdata/labels/english-clusters.jsonl"

// minAccuracy is the floor below which the classifier is judged broken on
// the labelled set.
const minAccuracy = 0.85

// labelKinds are the categories in the order the report prints them.
var labelKinds = []string{
	categorize.Identical, categorize.CopyEdit, categorize.FactualDrift,
	categorize.Template, categorize.Reference, categorize.Other,
}

// labelledCluster is one line of labelsFile: members are [page id, sentence
// ordinal] pairs of a dump under sharedData.
type labelledCluster struct {
	File    string     `json:"file"`
	Members [][2]int64 `json:"members"`
	Label   string     `json:"label"`
	Reason  string     `json:"reason"`
}

// sentenceKey names one sentence of one page.
type sentenceKey struct {
	page    int64
	ordinal int
}

func readLabels(t *testing.T) []labelledCluster {
	t.Helper()
	f, err := os.Open(labelsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelledCluster
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var c labelledCluster
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			t.Fatalf("%s:%d: %v", labelsFile, n, err)
		}
		if !slices.Contains(labelKinds, c.Label) || len(c.Members) < 2 || c.File == "" || c.Reason == "" {
			t.Fatalf("%s:%d: want a known label, a file, a reason and at least 2 members: %+v", labelsFile, n, c)
		}
		key := fmt.Sprint(c.File, c.Members)
		if first, dup := seen[key]; dup {
			t.Fatalf("%s:%d: same members as line %d", labelsFile, n, first)
		}
		seen[key] = n
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// readSentences returns the views of the wanted sentences of a dump.
func readSentences(t *testing.T, path string, wanted map[sentenceKey]bool) map[sentenceKey]sentence.View {
	t.Helper()
	pages := map[int64]bool{}
	for k := range wanted {
		pages[k.page] = true
	}
	rc, err := dump.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	r := dump.NewReader(rc, path, dump.Options{})
	var ps sentence.PageSplitter
	found := map[sentenceKey]sentence.View{}
	for {
		page, err := r.Next()
		if errors.Is(err, io.EOF) {
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
		ps.Sentences(page, func(s sentence.Sentence) {
			k := sentenceKey{s.PageID, s.ID.Ordinal()}
			if wanted[k] {
				found[k] = s.View()
			}
		})
	}
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
// for the confusion matrix and the list of disagreements.
func TestLabelledClusters(t *testing.T) {
	labels := readLabels(t)
	if len(labels) < 150 {
		t.Fatalf("%d labelled clusters, want at least 150", len(labels))
	}
	wanted := map[string]map[sentenceKey]bool{}
	for _, c := range labels {
		if wanted[c.File] == nil {
			wanted[c.File] = map[sentenceKey]bool{}
		}
		for _, m := range c.Members {
			wanted[c.File][sentenceKey{m[0], int(m[1])}] = true
		}
	}
	views := map[string]map[sentenceKey]sentence.View{}
	for _, file := range slices.Sorted(maps.Keys(wanted)) {
		views[file] = readSentences(t, needShared(t, file), wanted[file])
	}

	matrix := confusion{}
	var misses []string
	for i, c := range labels {
		members := make([]categorize.Member, 0, len(c.Members))
		for _, m := range c.Members {
			v, ok := views[c.File][sentenceKey{m[0], int(m[1])}]
			if !ok {
				t.Errorf("line %d: sentence %d:%d is not in %s", i+1, m[0], m[1], c.File)
				continue
			}
			members = append(members, categorize.Member{Title: v.Title, Section: v.Section, Context: v.Context, Text: v.Text})
		}
		if len(members) != len(c.Members) {
			continue
		}
		got := categorize.Classify(members)
		matrix.add(c.Label, got.Category)
		if got.Category != c.Label {
			misses = append(misses, fmt.Sprintf("line %d %s %v: labelled %s (%s), got %s by %s: %s",
				i+1, c.File, c.Members, c.Label, c.Reason, got.Category, got.Evidence.Rule, got.Evidence.Reason))
		}
	}
	if t.Failed() {
		return
	}
	acc := matrix.accuracy()
	t.Logf("classifier on %d hand-labelled clusters: accuracy %.3f\n%s", len(labels), acc, matrix.table())
	t.Logf("%d disagreements:\n%s", len(misses), strings.Join(misses, "\n"))
	if acc < minAccuracy {
		t.Errorf("accuracy %.3f is below the floor %.2f", acc, minAccuracy)
	}
}
