package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/changes"
	"github.com/neardup/neardup/transforms/summary"
)

const (
	sampleInput    = "../../testdata/sample/simplewiki-sample.xml"
	sampleBaseline = "../../testdata/baseline/samplewiki-20220101-baseline.xml"
)

// baselineOptions are testOptions with a baseline.
func baselineOptions(t testing.TB, out string, input, baseline []string) Options {
	t.Helper()
	o := testOptions(t, out, input...)
	o.Baseline = baseline
	return o
}

// readChanges decodes every changes-*.jsonl file, in file and line order.
func readChanges(t *testing.T, files map[string][]byte) []changes.Change {
	t.Helper()
	var names []string
	for name := range files {
		if strings.HasPrefix(name, "changes-") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var out []changes.Change
	for _, name := range names {
		for line := range bytes.Lines(files[name]) {
			var c changes.Change
			if err := json.Unmarshal(line, &c); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out = append(out, c)
		}
	}
	return out
}

// changesDigest is the golden form of changes: one line per change with
// both ids, its type, the facts and the new text.
func changesDigest(cs []changes.Change) []byte {
	var b bytes.Buffer
	for _, c := range cs {
		var facts []string
		for _, f := range c.Facts {
			facts = append(facts, f.Change+" "+f.Type+":"+f.From+"→"+f.To)
		}
		b.WriteString(c.Old.ID + "\t" + c.New.ID + "\t" + c.Type + "\t" + strings.Join(facts, "; ") + "\t" + c.New.Text + "\n")
	}
	return b.Bytes()
}

// checkBaselineAccounting asserts the equations of counts.baseline.
func checkBaselineAccounting(t *testing.T, b counters.Baseline) {
	t.Helper()
	if b.PagesRead != b.PagesKept+b.PagesSkippedNamespace+b.Redirects+b.PagesFailed+b.PagesEmpty {
		t.Errorf("baseline pages read %d != kept %d + namespace %d + redirects %d + failed %d", b.PagesRead, b.PagesKept, b.PagesSkippedNamespace, b.Redirects, b.PagesFailed)
	}
	if b.PagesKept != b.PagesOtherWiki+b.PagesUnmatched+b.PagesSuperseded+b.PagesUnchanged+b.PagesCompared {
		t.Errorf("baseline pages kept %d != other wiki %d + unmatched %d + superseded %d + unchanged %d + compared %d",
			b.PagesKept, b.PagesOtherWiki, b.PagesUnmatched, b.PagesSuperseded, b.PagesUnchanged, b.PagesCompared)
	}
	if b.SentencesBefore != b.SentencesUnchanged+b.PairsCompared+b.SentencesRemoved || b.SentencesAfter != b.SentencesUnchanged+b.PairsCompared+b.SentencesAdded {
		t.Errorf("baseline sentences %+v do not add up", b)
	}
	if b.PairsCompared != b.PairsMoved+b.PairsCopyEdit+b.PairsOther+b.Changes {
		t.Errorf("baseline pairs compared %d != moved %d + copy edit %d + other %d + changes %d", b.PairsCompared, b.PairsMoved, b.PairsCopyEdit, b.PairsOther, b.Changes)
	}
	if b.Changes != b.ChangesReplaced+b.ChangesAdded+b.ChangesRemoved+b.ChangesAddedRemoved {
		t.Errorf("baseline changes %d != replaced %d + added %d + removed %d + added_removed %d", b.Changes, b.ChangesReplaced, b.ChangesAdded, b.ChangesRemoved, b.ChangesAddedRemoved)
	}
	if b.DeadLetters != b.PagesFailed+b.FilesTruncated+b.FilesNotDumps {
		t.Errorf("baseline dead letters %d != failed %d + truncated %d + not dumps %d", b.DeadLetters, b.PagesFailed, b.FilesTruncated, b.FilesNotDumps)
	}
}

// TestBaselineFixture compares testdata/baseline (earlier revisions of
// three pages of the sample, one of them twice, one page at the sample's
// revision and one the sample lacks) with the sample. The planted fact
// changes are reported, the planted spelling changes and the older
// revision's change are not, and the run's other files are those of a run
// without a baseline, byte for byte.
func TestBaselineFixture(t *testing.T) {
	withBase := run(t, baselineOptions(t, t.TempDir(), []string{sampleInput}, []string{sampleBaseline}))
	plain := run(t, testOptions(t, t.TempDir(), sampleInput))

	want := "samplewiki:101:39001:2\tsamplewiki:101:40100:2\treplaced\treplaced date:1831→1848\tThe canton has been divided since 1848 into three districts, each of which elects its own prefect and maintains a small court for civil disputes and minor offences.\n" +
		"samplewiki:101:39001:3\tsamplewiki:101:40100:3\treplaced\treplaced date:1571→1562\tDairy farming and the making of hard mountain cheese were for centuries the backbone of the local economy, and summer grazing rights on the high pastures are still shared among the villages under rules first written down in 1562.\n" +
		"samplewiki:101:39001:5\tsamplewiki:101:40100:5\treplaced\treplaced name:Tessau→Lindfeld\tThe cantonal parliament of sixty members meets four times a year in the former grain hall of Lindfeld, and most laws passed there can be challenged in a popular vote if eight hundred citizens sign a petition within two months.\n" +
		"samplewiki:104:39020:7\tsamplewiki:104:40117:6\treplaced\treplaced date:1961→1957\tTwo small run-of-river power stations were built on the Marren in 1924 and 1957, and a fish ladder was added to the lower weir in 2009 after a long campaign by local anglers and conservation groups.\n"
	cs := readChanges(t, withBase)
	if got := string(changesDigest(cs)); got != want {
		t.Errorf("changes:\n%s\nwant:\n%s", got, want)
	}
	for _, c := range cs {
		if c.Wiki != "samplewiki" || c.Old.Section == "" || c.Old.Section != c.New.Section || len(c.Changes) == 0 {
			t.Errorf("change %+v lacks its wiki, section or token changes", c)
		}
	}

	base := readSummary(t, withBase).Baseline
	wantBase := counters.Baseline{
		FilesRead: 1, PagesRead: 5, PagesKept: 5,
		PagesUnmatched: 1, PagesSuperseded: 1, PagesUnchanged: 1, PagesCompared: 2,
		SentencesBefore: 16, SentencesAfter: 15, SentencesUnchanged: 9, SentencesRemoved: 1,
		PairsCompared: 6, PairsCopyEdit: 2, Changes: 4, ChangesReplaced: 4,
	}
	if base != wantBase {
		t.Errorf("counts.baseline\n%+v\nwant\n%+v", base, wantBase)
	}
	checkBaselineAccounting(t, base)
	checkAccounting(t, readSummary(t, withBase))

	for _, name := range []string{"clusters-00000-of-00001.jsonl", "cluster_index-00000-of-00001.tsv", "dead_letter-00000-of-00001.jsonl"} {
		if !bytes.Equal(withBase[name], plain[name]) {
			t.Errorf("%s differs from the run without a baseline", name)
		}
	}
	if bytes.Contains(plain["summary.json"], []byte(`"baseline"`)) {
		t.Error("summary.json of a run without --baseline mentions a baseline")
	}
	if _, ok := plain["changes-00000-of-00001.jsonl"]; ok {
		t.Error("a run without --baseline wrote changes-*.jsonl")
	}

	var m summary.Manifest
	if err := json.Unmarshal(withBase["manifest.json"], &m); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(m.Outputs, "changes-00000-of-00001.jsonl") {
		t.Errorf("manifest outputs %v lack changes-00000-of-00001.jsonl", m.Outputs)
	}
	if len(m.Inputs) != 2 || m.Inputs[0].Baseline || !m.Inputs[1].Baseline || !strings.HasSuffix(m.Inputs[1].Path, "samplewiki-20220101-baseline.xml") || m.Inputs[1].DumpDate != "2022-01-01" {
		t.Errorf("manifest inputs %+v, want the sample then the baseline, marked", m.Inputs)
	}
}

// TestBaselineShardsAndOtherWiki splits the changes over three files and
// adds a baseline of another wiki (the Katrina slice, named katrina): its
// pages are counted as of another wiki, and the changes are the same,
// sorted by page and sentence in each file.
func TestBaselineShardsAndOtherWiki(t *testing.T) {
	o := baselineOptions(t, t.TempDir(), []string{sampleInput}, []string{sampleBaseline, "../../testdata/katrina/katrina-slice.xml"})
	o.OutputShards = 3
	files := run(t, o)
	cs := readChanges(t, files)
	if len(cs) != 4 {
		t.Errorf("%d changes, want 4", len(cs))
	}
	b := readSummary(t, files).Baseline
	if b.PagesOtherWiki == 0 || b.PagesOtherWiki != b.PagesKept-5 || b.Changes != 4 {
		t.Errorf("counts.baseline %+v: want the Katrina slice's pages as of another wiki and 4 changes", b)
	}
	checkBaselineAccounting(t, b)
	for i := range 3 {
		if _, ok := files[result.ShardName("changes", i, 3)]; !ok {
			t.Errorf("%s missing", result.ShardName("changes", i, 3))
		}
	}
}

// TestBaselineRefusesAnInputFile refuses a file given both as input and as
// baseline, before any work.
func TestBaselineRefusesAnInputFile(t *testing.T) {
	abs, err := filepath.Abs(sampleInput)
	if err != nil {
		t.Fatal(err)
	}
	o := baselineOptions(t, t.TempDir(), []string{abs}, []string{abs})
	err = o.planAll(context.Background())
	if err == nil || !strings.Contains(err.Error(), "both in --input and in --baseline") {
		t.Errorf("planAll: %v, want the file refused", err)
	}
	if _, statErr := os.Stat(o.RunDir()); statErr == nil {
		t.Error("the run directory was created")
	}
}

// TestBaselineGolden compares real dumps of three wikis with earlier
// revisions of some of their pages: English 2016 (gensim's shortened
// dump) with the 2012 revisions of Anarchism, A, Alabama, Albedo, ASCII
// and Abacus; Greek with the 2012 revision of Αθλητισμός; Ukrainian with
// that of Атом. The wikiclean files have no <siteinfo> and are named
// after their file (enwiki, elwiki, ukwiki): the wiki names must agree
// for any page to be compared.
func TestBaselineGolden(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		baseline []string
		compared int64
	}{
		{"gensim-enwiki", "gensim-wiki/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2", []string{
			"wikiclean-pages/enwiki-20120104-id12.xml", "wikiclean-pages/enwiki-20120104-id290.xml", "wikiclean-pages/enwiki-20120104-id303.xml",
			"wikiclean-pages/enwiki-20120104-id39.xml", "wikiclean-pages/enwiki-20120104-id586.xml", "wikiclean-pages/enwiki-20120104-id655.xml"}, 6},
		{"elwiki", "xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz", []string{"wikiclean-pages/elwiki-test.xml"}, 1},
		{"ukwiki", "xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz", []string{"wikiclean-pages/ukwiki-test.xml"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var base []string
			for _, b := range tt.baseline {
				base = append(base, needShared(t, b))
			}
			files := run(t, baselineOptions(t, t.TempDir(), []string{needShared(t, tt.input)}, base))
			c := readSummary(t, files)
			checkAccounting(t, c)
			checkBaselineAccounting(t, c.Baseline)
			if c.Baseline.PagesCompared != tt.compared || c.Baseline.PagesOtherWiki != 0 {
				t.Errorf("%d pages compared, %d of another wiki; want %d and 0", c.Baseline.PagesCompared, c.Baseline.PagesOtherWiki, tt.compared)
			}
			cs := readChanges(t, files)
			if len(cs) == 0 {
				t.Error("no change found")
			}
			checkGolden(t, "changes-"+tt.name+".txt", changesDigest(cs))
		})
	}
}
