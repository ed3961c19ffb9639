package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/passage"
	"github.com/neardup/neardup/transforms/summary"
)

// katrinaSlice is the committed slice of the Katrina articles
// (testdata/katrina): its pages share passages.
const katrinaSlice = "../../testdata/katrina/katrina-slice.xml"

// readPassages decodes the lines of every passages-*.jsonl of a run, in
// file order.
func readPassages(t *testing.T, files map[string][]byte) []passage.Line {
	t.Helper()
	var names []string
	for n := range files {
		if strings.HasPrefix(n, "passages-") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var out []passage.Line
	for _, name := range names {
		for line := range bytes.Lines(files[name]) {
			var p passage.Line
			if err := json.Unmarshal(line, &p); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out = append(out, p)
		}
	}
	return out
}

// passageDigest is one line per passage: both documents' ids and titles,
// the ordinals of their first and last matches, the matches and their mean
// similarity.
func passageDigest(ps []passage.Line) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "%s %d–%d (%s) ↔ %s %d–%d (%s): %d matched, mean %.4f, spans %d/%d, shares %.4f/%.4f\n",
			p.A.ID, p.A.First, p.A.Last, p.A.Title, p.B.ID, p.B.First, p.B.Last, p.B.Title,
			p.Matched, p.MeanJaccard, p.A.Sentences, p.B.Sentences, p.A.Share, p.B.Share)
	}
	return b.String()
}

// TestGoldenPassages checks the passages of real inputs against their
// goldens (go test -golden rewrites them): the committed Katrina slice,
// which needs nothing else; the Katrina articles; the Ukrainian sample,
// whose year pages share a template's paragraphs; a Common Crawl corpus
// of JSON lines, whose pages of one site share their boilerplate; and a
// dump and a corpus in one run.
func TestGoldenPassages(t *testing.T) {
	tests := []struct {
		name   string
		inputs []string
	}{
		{"katrina-slice", []string{katrinaSlice}},
		{"katrina", []string{"wikiduper/Katrina.xml"}},
		{"ukwiki", []string{"xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz"}},
		{"dolma-cc", []string{"commoncrawl-text/dolma-CC-MAIN-20190717121559-20190717143559-00140.jsonl.gz"}},
		{"mixed", []string{katrinaSlice, "commoncrawl-text/dolma-CC-MAIN-20190717121559-20190717143559-00140.jsonl.gz"}},
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
			ps := readPassages(t, files)
			if len(ps) == 0 {
				t.Fatal("no passage: the golden proves nothing")
			}
			c := readSummary(t, files).Passages
			matched := 0
			for _, p := range ps {
				matched += p.Matched
			}
			if c.Passages != int64(len(ps)) || c.SentencePairs != int64(matched) {
				t.Errorf("counts say %d passages of %d matches; the files hold %d of %d", c.Passages, c.SentencePairs, len(ps), matched)
			}
			checkGolden(t, "passages-"+tt.name+".txt", []byte(passageDigest(ps)))
		})
	}
}

// TestPassagesWithText checks --passage_text on the Katrina slice: every
// match has both texts, as the sentences are in the clusters, and the
// near-duplicate documents of summary.json are the pairs of the passages,
// ranked by the smaller share.
func TestPassagesWithText(t *testing.T) {
	o := testOptions(t, t.TempDir(), katrinaSlice)
	o.PassageText, o.EmitSentences = true, true
	files := run(t, o)
	texts := map[string]string{}
	for line := range bytes.Lines(files["sentences-00000-of-00001.jsonl"]) {
		var s struct{ ID, Text string }
		if err := json.Unmarshal(line, &s); err != nil {
			t.Fatal(err)
		}
		texts[s.ID] = s.Text
	}
	ps := readPassages(t, files)
	if len(ps) == 0 {
		t.Fatal("no passage")
	}
	for _, p := range ps {
		if len(p.Matches) != p.Matched {
			t.Fatalf("%d matches listed, %d matched", len(p.Matches), p.Matched)
		}
		for _, m := range p.Matches {
			a, b := fmt.Sprintf("%s:%d", p.A.ID, m.A), fmt.Sprintf("%s:%d", p.B.ID, m.B)
			if m.TextA == "" || m.TextA != texts[a] || m.TextB != texts[b] {
				t.Errorf("match %s ↔ %s: texts %q, %q; the sentences are %q, %q", a, b, m.TextA, m.TextB, texts[a], texts[b])
			}
		}
	}
	var doc summary.Document
	if err := json.Unmarshal(files["summary.json"], &doc); err != nil {
		t.Fatal(err)
	}
	pairs := map[string]bool{}
	for _, p := range ps {
		pairs[p.A.ID+" "+p.B.ID] = true
	}
	if len(doc.NearDuplicates) != len(pairs) {
		t.Fatalf("%d near-duplicate document pairs, the passages have %d", len(doc.NearDuplicates), len(pairs))
	}
	for i, d := range doc.NearDuplicates {
		if !pairs[d.A+" "+d.B] {
			t.Errorf("near-duplicate pair %s ↔ %s has no passage", d.A, d.B)
		}
		if i > 0 && min(d.ShareA, d.ShareB) > min(doc.NearDuplicates[i-1].ShareA, doc.NearDuplicates[i-1].ShareB) {
			t.Errorf("near-duplicate pairs out of order at %d: %+v", i, doc.NearDuplicates)
		}
	}
}

// TestPassagesOfAPageReadTwice: an input that holds the same pages twice
// (the Katrina slice under two names) gives the passages of one copy.
func TestPassagesOfAPageReadTwice(t *testing.T) {
	data, err := os.ReadFile(katrinaSlice)
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "katrina-slice-copy.xml")
	if err := os.WriteFile(copyPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	once := readPassages(t, run(t, testOptions(t, t.TempDir(), katrinaSlice)))
	twiceFiles := run(t, testOptions(t, t.TempDir(), katrinaSlice, copyPath))
	if c := readSummary(t, twiceFiles); c.PagesDuplicate == 0 {
		t.Fatalf("no duplicate page counted: the test proves nothing (%+v)", c)
	}
	if got, want := passageDigest(readPassages(t, twiceFiles)), passageDigest(once); got != want || want == "" {
		t.Errorf("passages of the slice read twice:\n%s\nwant those of it read once:\n%s", got, want)
	}
}

// TestNoPassages: --min_passage 0 runs no passage stage and writes no
// passages file.
func TestNoPassages(t *testing.T) {
	o := testOptions(t, t.TempDir(), katrinaSlice)
	o.MinPassage = 0
	files := run(t, o)
	for name := range files {
		if strings.HasPrefix(name, "passages-") {
			t.Errorf("wrote %s", name)
		}
	}
	if c := readSummary(t, files).Passages; c.DocumentPairs != 0 || c.Passages != 0 {
		t.Errorf("passage counts %+v, want none", c)
	}
}
