package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/alias"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/changes"
)

// crossdateGlob matches the hand-labelled cross-date sentence pairs (see
// testdata/labels/crossdate-pairs.md and crossdate-pairs-2.md); files
// whose name holds "blind" are second readings of pairs of another file,
// for agreement, and are left out.
const crossdateGlob = "../../testdata/labels/crossdate-pairs*.jsonl"

// Floors of TestLabelledChanges, just under what it measured last
// (replaced: precision 0.77, recall 0.53; added: 0.62, 0.68; removed:
// 0.50, 0.60, on 270 pairs; see the CHANGELOG): a change that undoes that
// work fails. Issue 30's targets for replaced are 0.85 and 0.75.
const (
	minReplacedPrecision = 0.74
	minReplacedRecall    = 0.50
	minAddedPrecision    = 0.60
	minAddedRecall       = 0.65
	minRemovedPrecision  = 0.47
	minRemovedRecall     = 0.55
)

// maxLabelledOrdinal bounds the sentences read of a labelled page.
const maxLabelledOrdinal = 4096

// labelledPair is one line of a cross-date pairs file.
type labelledPair struct {
	Files []string         `json:"files"`
	Old   []int64          `json:"old"` // page id, revision id, ordinal
	New   []int64          `json:"new"`
	Facts []labelledChange `json:"facts"`
	Label string           `json:"label"`
	// Reason says why, in a line.
	Reason string `json:"reason"`

	source string // file:line
}

type labelledChange struct {
	Change string `json:"change"`
	Type   string `json:"type"`
	From   string `json:"from"`
	To     string `json:"to"`
}

// changeKinds are the changes a fact can have, in report order.
var changeKinds = []string{categorize.ChangeReplaced, categorize.ChangeAdded, categorize.ChangeRemoved}

// readLabelledPairs reads the cross-date pairs files, checking each line.
func readLabelledPairs(t *testing.T) map[string][]labelledPair {
	t.Helper()
	files, err := filepath.Glob(crossdateGlob)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]labelledPair{}
	for _, path := range files {
		name := filepath.Base(path)
		if strings.Contains(name, "blind") {
			continue
		}
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
			var p labelledPair
			dec := json.NewDecoder(strings.NewReader(sc.Text()))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&p); err != nil {
				t.Fatalf("%s:%d: %v", name, n, err)
			}
			p.source = fmt.Sprintf("%s:%d", name, n)
			if len(p.Files) != 2 || len(p.Old) != 3 || len(p.New) != 3 || p.Old[0] != p.New[0] || p.Reason == "" ||
				!slices.Contains([]string{"changed", "copy_edit", "not_versions"}, p.Label) || (p.Label == "changed") != (len(p.Facts) > 0) {
				t.Fatalf("%s: want two files, [page, rev, ordinal] of one page on each side, a known label, facts exactly when changed, a reason: %+v", p.source, p)
			}
			for _, c := range p.Facts {
				if !slices.Contains(changeKinds, c.Change) {
					t.Fatalf("%s: fact change %q", p.source, c.Change)
				}
			}
			out[name] = append(out[name], p)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	return out
}

// changes returns the set of changes of the pair's facts.
func (p labelledPair) changes() map[string]bool {
	out := map[string]bool{}
	for _, f := range p.Facts {
		out[f.Change] = true
	}
	return out
}

// revisionKey names one revision of a page in one dump file.
type revisionKey struct {
	file      string
	page, rev int64
}

// readRevisions reads every sentence of the wanted revisions, as
// changes.Revision (ordinals and texts as the labels' readSentences reads
// them: each dump cleaned and split with its own site).
func readRevisions(t *testing.T, wanted map[revisionKey]bool) map[revisionKey]changes.Revision {
	t.Helper()
	byFile := map[string]map[sentenceKey]bool{}
	for k := range wanted {
		if byFile[k.file] == nil {
			byFile[k.file] = map[sentenceKey]bool{}
		}
		for o := range maxLabelledOrdinal {
			byFile[k.file][sentenceKey{k.page, k.rev, o}] = true
		}
	}
	out := map[revisionKey]changes.Revision{}
	for _, file := range slices.Sorted(maps.Keys(byFile)) {
		views := readSentences(t, needShared(t, file), byFile[file])
		for k := range wanted {
			if k.file != file {
				continue
			}
			r := changes.Revision{PageID: k.page, RevID: k.rev}
			for o := 0; ; o++ {
				v, ok := views[sentenceKey{k.page, k.rev, o}]
				if !ok {
					break
				}
				if o == maxLabelledOrdinal-1 {
					t.Fatalf("%s: page %d has more than %d sentences; raise maxLabelledOrdinal", file, k.page, maxLabelledOrdinal)
				}
				r.Wiki, r.Title = v.Wiki, v.Title
				r.Sentences = append(r.Sentences, changes.Sentence{Ordinal: v.Sentence, Section: v.Section, Context: v.Context, Text: v.Text})
			}
			if len(r.Sentences) == 0 {
				t.Fatalf("%s: no sentence of page %d revision %d", file, k.page, k.rev)
			}
			out[k] = r
		}
	}
	return out
}

// aliasTable builds the table of names of one article of the labelled
// pairs' new dumps, as the pipeline builds it from its input.
func aliasTable(t *testing.T, labels map[string][]labelledPair) *alias.Table {
	t.Helper()
	files := map[string]bool{}
	for _, ps := range labels {
		for _, p := range ps {
			files[p.Files[1]] = true
		}
	}
	var encoded []byte
	for _, f := range slices.Sorted(maps.Keys(files)) {
		_, b, _, err := alias.BuildDump(t.Context(), needShared(t, f), DefaultOptions().MaxAliases)
		if err != nil {
			t.Fatal(err)
		}
		if encoded, err = alias.MergeEncoded(encoded, b); err != nil {
			t.Fatal(err)
		}
	}
	var tab alias.Table
	if err := tab.UnmarshalBinary(encoded); err != nil {
		t.Fatal(err)
	}
	return &tab
}

// changeScore counts, for one change kind, the labelled pairs with a fact
// of that kind that the tool finds (recall) and the tool's records on
// labelled pairs with a fact of that kind that the label confirms
// (precision).
type changeScore struct {
	labelled, found   int // pairs labelled with the kind; of them, given it by the tool
	reported, correct int // labelled pairs the tool gives the kind; of them, labelled so
}

func (s changeScore) recall() float64    { return fraction(s.found, s.labelled) }
func (s changeScore) precision() float64 { return fraction(s.correct, s.reported) }

func fraction(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// pairType is the record type a labelled pair's facts make, as
// changes.Change.Type, or "none" for a pair with no fact.
func pairType(kinds map[string]bool) string {
	switch {
	case kinds[categorize.ChangeReplaced]:
		return changes.TypeReplaced
	case kinds[categorize.ChangeAdded] && kinds[categorize.ChangeRemoved]:
		return changes.TypeAddedRemoved
	case kinds[categorize.ChangeAdded]:
		return changes.TypeAdded
	case kinds[categorize.ChangeRemoved]:
		return changes.TypeRemoved
	}
	return "none"
}

// recordTypes are the rows and columns of the confusion table: a record's
// type, "none" for no record on the pair (a copy edit, or not paired), and
// "unpaired" for an old sentence that the tool paired with another new one
// or with none.
var recordTypes = []string{"none", changes.TypeReplaced, changes.TypeAdded, changes.TypeRemoved, changes.TypeAddedRemoved}

// TestLabelledChanges measures the changes the pipeline's comparison finds
// (transforms/changes: the alignment of the two revisions of each page and
// categorize.Compare on each pair, typed) against the cross-date sentence
// pairs labelled by reading, drawn without looking at the tool's output.
// For each change kind (replaced, added, removed): recall is the share of
// the pairs labelled with a fact of that kind on which the tool writes a
// record holding a fact of that kind; precision the share of the tool's
// records on labelled pairs holding a fact of that kind whose label has
// one. Run it with -v for the confusion table of record types and every
// disagreement.
func TestLabelledChanges(t *testing.T) {
	labels := readLabelledPairs(t)
	total := 0
	wanted := map[revisionKey]bool{}
	for _, ps := range labels {
		for _, p := range ps {
			total++
			wanted[revisionKey{p.Files[0], p.Old[0], p.Old[1]}] = true
			wanted[revisionKey{p.Files[1], p.New[0], p.New[1]}] = true
		}
	}
	if total < 100 {
		t.Fatalf("%d labelled cross-date pairs, want at least 100", total)
	}
	revisions := readRevisions(t, wanted)

	// The comparison of the pipeline's defaults, on each page's two
	// revisions, knowing the names of one article that the input's dump
	// says (the table the pipeline builds from --input); its records by
	// (page, old ordinal, new ordinal).
	o := DefaultOptions()
	cmp := changes.NewComparer(o.comparerConfig())
	cmp.Knowledge = categorize.Knowledge{Entities: aliasTable(t, labels)}
	type pairKey struct {
		page     int64
		old, new int
	}
	records := map[pairKey]changes.Change{}
	pairedOld := map[[2]int64]int{} // (page, old ordinal) → new ordinal, -1 if unpaired
	compared := map[[2]revisionKey]bool{}
	for _, ps := range labels {
		for _, p := range ps {
			ko, kn := revisionKey{p.Files[0], p.Old[0], p.Old[1]}, revisionKey{p.Files[1], p.New[0], p.New[1]}
			if compared[[2]revisionKey{ko, kn}] {
				continue
			}
			compared[[2]revisionKey{ko, kn}] = true
			cs, _ := cmp.Compare(revisions[ko], revisions[kn])
			for _, c := range cs {
				records[pairKey{c.PageID, c.Old.Sentence, c.New.Sentence}] = c
			}
			for _, m := range cmp.Pairs(revisions[ko], revisions[kn]) {
				pairedOld[[2]int64{ko.page, int64(revisions[ko].Sentences[m.Old].Ordinal)}] = revisions[kn].Sentences[m.New].Ordinal
			}
		}
	}

	scores := map[string]*changeScore{}
	for _, k := range changeKinds {
		scores[k] = &changeScore{}
	}
	table := map[string]map[string]int{}
	var misses []string
	for _, name := range slices.Sorted(maps.Keys(labels)) {
		for _, p := range labels[name] {
			want := p.changes()
			rec, ok := records[pairKey{p.Old[0], int(p.Old[2]), int(p.New[2])}]
			got := map[string]bool{}
			for _, f := range rec.Facts {
				got[f.Change] = true
			}
			col := "none"
			if ok {
				col = rec.Type
			}
			if n, paired := pairedOld[[2]int64{p.Old[0], p.Old[2]}]; !paired || n != int(p.New[2]) {
				col = "unpaired"
			}
			row := pairType(want)
			if table[row] == nil {
				table[row] = map[string]int{}
			}
			table[row][col]++
			for _, k := range changeKinds {
				s := scores[k]
				if want[k] {
					s.labelled++
				}
				if got[k] {
					s.reported++
				}
				if want[k] && got[k] {
					s.found++
					s.correct++
				}
			}
			if row != col || !maps.Equal(want, got) {
				var facts []string
				for _, f := range rec.Facts {
					facts = append(facts, fmt.Sprintf("%s %s %q→%q", f.Change, f.Type, f.From, f.To))
				}
				var wantFacts []string
				for _, f := range p.Facts {
					wantFacts = append(wantFacts, fmt.Sprintf("%s %s %q→%q", f.Change, f.Type, f.From, f.To))
				}
				misses = append(misses, fmt.Sprintf("%s %d:%d→%d labelled %s [%s] (%s); got %s [%s]",
					p.source, p.Old[0], p.Old[2], p.New[2], row, strings.Join(wantFacts, "; "), p.Reason, col, strings.Join(facts, "; ")))
			}
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "%d labelled pairs\n%-14s", total, "label \\ got")
	cols := append(slices.Clone(recordTypes), "unpaired")
	for _, c := range cols {
		fmt.Fprintf(&b, "%14s", c)
	}
	b.WriteString("\n")
	for _, r := range recordTypes {
		fmt.Fprintf(&b, "%-14s", r)
		for _, c := range cols {
			fmt.Fprintf(&b, "%14d", table[r][c])
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\n%-10s%10s%8s%10s%8s%10s%8s\n", "change", "labelled", "found", "recall", "records", "correct", "prec.")
	for _, k := range changeKinds {
		s := scores[k]
		fmt.Fprintf(&b, "%-10s%10d%8d%10.3f%8d%10d%8.3f\n", k, s.labelled, s.found, s.recall(), s.reported, s.correct, s.precision())
	}
	t.Logf("changes on hand-labelled cross-date pairs\n%s", b.String())
	t.Logf("%d disagreements:\n%s", len(misses), strings.Join(misses, "\n"))

	for _, f := range []struct {
		kind, measure string
		got, floor    float64
	}{
		{categorize.ChangeReplaced, "precision", scores[categorize.ChangeReplaced].precision(), minReplacedPrecision},
		{categorize.ChangeReplaced, "recall", scores[categorize.ChangeReplaced].recall(), minReplacedRecall},
		{categorize.ChangeAdded, "precision", scores[categorize.ChangeAdded].precision(), minAddedPrecision},
		{categorize.ChangeAdded, "recall", scores[categorize.ChangeAdded].recall(), minAddedRecall},
		{categorize.ChangeRemoved, "precision", scores[categorize.ChangeRemoved].precision(), minRemovedPrecision},
		{categorize.ChangeRemoved, "recall", scores[categorize.ChangeRemoved].recall(), minRemovedRecall},
	} {
		if f.got < f.floor {
			t.Errorf("%s %s %.3f is below the floor %.2f", f.kind, f.measure, f.got, f.floor)
		}
	}
}
