package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/verify"
)

const sampleDump = "../../testdata/sample/simplewiki-sample.xml"

// pageRE matches one <page> element of a dump.
var pageRE = regexp.MustCompile(`(?s)<page>.*?</page>`)

// rewritePages writes to dir/name the dump from, with each page replaced by
// edit(index, page); a page for which edit returns "" is left out.
func rewritePages(t *testing.T, from, dir, name string, edit func(i int, page string) string) string {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	out := pageRE.ReplaceAllStringFunc(string(b), func(page string) string {
		defer func() { i++ }()
		return edit(i, page)
	})
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var (
	revIDRE   = regexp.MustCompile(`(<revision>\s*<id>)(\d+)(</id>)`)
	textOpen  = regexp.MustCompile(`<text[^>]*>`)
	dbnameRE  = regexp.MustCompile(`<dbname>[^<]*</dbname>`)
	addedLead = "A sentence added at the top of the newer revision moves every other sentence of the page one place down.\n\n"
)

// newerRevision returns page as a later revision would hold it: a new
// revision id, a sentence added before the text (so that the ordinals of
// all its sentences shift: sentence 5 of one revision is sentence 6 of the
// other) and one word changed.
func newerRevision(t *testing.T, page string) string {
	t.Helper()
	m := revIDRE.FindStringSubmatchIndex(page)
	if m == nil {
		t.Fatalf("page without a revision id: %.80s", page)
	}
	rev, _ := strconv.ParseInt(page[m[4]:m[5]], 10, 64)
	page = page[:m[4]] + strconv.FormatInt(rev+1_000_000, 10) + page[m[5]:]
	loc := textOpen.FindStringIndex(page)
	page = page[:loc[1]] + addedLead + page[loc[1]:]
	return strings.Replace(page, " the ", " a ", 1)
}

// TestSamePagesTwice reads the sample and a copy of it under another name
// in one run: every page is met twice with the same revision, so the
// result must be the sample's own, byte for byte, with every page counted
// as a duplicate.
func TestSamePagesTwice(t *testing.T) {
	copied := rewritePages(t, sampleDump, t.TempDir(), "simplewiki-sample-copy.xml", func(_ int, p string) string { return p })
	a := testOptions(t, t.TempDir(), sampleDump)
	a.EmitSentences = true
	b := a
	b.Input, b.Output = []string{sampleDump, copied}, t.TempDir()
	filesA, filesB := run(t, a), run(t, b)
	for _, name := range []string{"clusters-00000-of-00001.jsonl", "sentences-00000-of-00001.jsonl", "dead_letter-00000-of-00001.jsonl"} {
		if !bytes.Equal(filesA[name], filesB[name]) {
			t.Errorf("%s of the sample read twice differs from the sample's", name)
		}
	}
	ca, cb := readSummary(t, filesA), readSummary(t, filesB)
	checkAccounting(t, cb)
	if ca.Clusters == 0 || ca.PagesDuplicate != 0 {
		t.Fatalf("sample alone: %d clusters, %d duplicates", ca.Clusters, ca.PagesDuplicate)
	}
	if cb.PagesRead != 2*ca.PagesRead || cb.PagesDuplicate != ca.PagesKept || cb.PagesKept != ca.PagesKept ||
		cb.Sentences != ca.Sentences || cb.SentencesInWindow != ca.SentencesInWindow || cb.Signatures != ca.Signatures ||
		cb.Clusters != ca.Clusters || cb.EdgesVerified != ca.EdgesVerified {
		t.Errorf("read twice: %+v\nonce: %+v", cb, ca)
	}
}

// TestTwoRevisionsOfOnePage reads the sample with a later dump of it in
// which every other page has a newer revision (a sentence added at the top,
// a word changed) and the rest are unchanged. Sentence ids carry the
// revision, so no cluster may join sentences that only share a page and a
// position: every member has a near duplicate among the others. Unchanged
// pages count once.
func TestTwoRevisionsOfOnePage(t *testing.T) {
	dir := t.TempDir()
	later := rewritePages(t, sampleDump, dir, "later.xml", func(i int, p string) string {
		if i%2 == 1 {
			return newerRevision(t, p)
		}
		return p
	})
	unchanged := rewritePages(t, sampleDump, dir, "unchanged.xml", func(i int, p string) string {
		if i%2 == 1 {
			return ""
		}
		return p
	})
	both := testOptions(t, t.TempDir(), sampleDump, later)
	files := run(t, both)
	c := readSummary(t, files)
	earlier := readSummary(t, run(t, testOptions(t, t.TempDir(), sampleDump)))
	newer := readSummary(t, run(t, testOptions(t, t.TempDir(), later)))
	same := readSummary(t, run(t, testOptions(t, t.TempDir(), unchanged)))
	if c.PagesDuplicate != same.PagesKept || c.PagesKept != earlier.PagesKept+newer.PagesKept-same.PagesKept ||
		c.SentencesInWindow != earlier.SentencesInWindow+newer.SentencesInWindow-same.SentencesInWindow {
		t.Errorf("both dumps: %d duplicates, %d pages, %d sentences in window; want %d, %d+%d-%d, %d+%d-%d",
			c.PagesDuplicate, c.PagesKept, c.SentencesInWindow, same.PagesKept,
			earlier.PagesKept, newer.PagesKept, same.PagesKept,
			earlier.SentencesInWindow, newer.SentencesInWindow, same.SentencesInWindow)
	}
	clusters := readClusters(t, files)
	checker := verify.NewChecker(both.ShingleLength, shingle.Normalization{FoldCase: both.FoldCase, CollapseSpace: both.CollapseSpace},
		verify.Thresholds{MinJaccard: both.MinJaccard, MaxEdit: both.MaxEdit})
	revisions := 0
	for _, cl := range clusters {
		revs := map[int64]map[int64]bool{} // page -> its revisions among the members
		for i, m := range cl.Members {
			if revs[m.PageID] == nil {
				revs[m.PageID] = map[int64]bool{}
			}
			revs[m.PageID][m.RevID] = true
			if !hasNearDuplicate(checker, cl, i) {
				t.Errorf("cluster %s: member %s (%q) is a near duplicate of no other member", cl.ID, m.ID, m.Text)
			}
		}
		for _, r := range revs {
			if len(r) > 1 {
				revisions++
				break
			}
		}
	}
	if revisions == 0 {
		t.Error("no cluster joins two revisions of a page: the test proves nothing")
	}
}

// hasNearDuplicate reports whether member i of c is accepted as a near
// duplicate of another member.
func hasNearDuplicate(checker *verify.Checker, c categorize.Cluster, i int) bool {
	for j, o := range c.Members {
		if _, ok := checker.Compare(c.Members[i].Text, o.Text); j != i && ok {
			return true
		}
	}
	return false
}

// TestTwoWikis reads the sample and a copy of it that says it is another
// wiki: the same revision ids in two wikis are different documents, every
// sentence of the sample now has its twin in the other wiki, and the
// clusters of each wiki, taken alone, are the sample's.
func TestTwoWikis(t *testing.T) {
	other := rewritePages(t, sampleDump, t.TempDir(), "otherwiki.xml", func(_ int, p string) string { return p })
	b, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, dbnameRE.ReplaceAll(b, []byte("<dbname>otherwiki</dbname>")), 0o644); err != nil {
		t.Fatal(err)
	}
	alone := readClusters(t, run(t, testOptions(t, t.TempDir(), sampleDump)))
	files := run(t, testOptions(t, t.TempDir(), sampleDump, other))
	c := readSummary(t, files)
	if c.PagesDuplicate != 0 {
		t.Errorf("%d pages taken for duplicates across wikis", c.PagesDuplicate)
	}
	together := readClusters(t, files)
	for _, wiki := range []string{"samplewiki", "otherwiki"} {
		got, want := projectClusters(together, wiki), projectClusters(alone, "samplewiki")
		if got != strings.ReplaceAll(want, "samplewiki:", wiki+":") {
			t.Errorf("clusters of %s in the joint run:\n%s\nwant the sample's:\n%s", wiki, got, want)
		}
	}
	if c.SentencesInClusters != c.SentencesInWindow || len(alone) == 0 {
		t.Errorf("%d of %d sentences in clusters; every one has its twin in the other wiki", c.SentencesInClusters, c.SentencesInWindow)
	}
}

// projectClusters lists, one cluster a line, the member ids of wiki in each
// cluster that has at least two of them, sorted.
func projectClusters(clusters []categorize.Cluster, wiki string) string {
	var lines []string
	for _, cl := range clusters {
		var ids []string
		for _, m := range cl.Members {
			if m.Wiki == wiki {
				ids = append(ids, m.ID)
			}
		}
		if len(ids) >= 2 {
			lines = append(lines, strings.Join(ids, " "))
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// TestMalformedSiteinfo reads the sample with a broken <namespaces>: the
// run goes on with the canonical names, and summary.json says what was
// wrong, once.
func TestMalformedSiteinfo(t *testing.T) {
	b, err := os.ReadFile(sampleDump)
	if err != nil {
		t.Fatal(err)
	}
	broken := bytes.Replace(b, []byte(`<namespace key="14" case="first-letter">Category</namespace>`),
		[]byte(`<namespace key="fourteen">Category</namespace>`), 1)
	path := filepath.Join(t.TempDir(), "broken.xml")
	if err := os.WriteFile(path, broken, 0o644); err != nil {
		t.Fatal(err)
	}
	files := run(t, testOptions(t, t.TempDir(), path))
	var doc struct {
		Wikis []struct {
			Wiki     string   `json:"wiki"`
			Problems []string `json:"problems"`
		} `json:"wikis"`
	}
	if err := json.Unmarshal(files["summary.json"], &doc); err != nil {
		t.Fatal(err)
	}
	want := `broken.xml: namespace with a malformed key "fourteen" ignored`
	if len(doc.Wikis) != 1 || doc.Wikis[0].Wiki != "samplewiki" || !slices.Equal(doc.Wikis[0].Problems, []string{want}) {
		t.Errorf("summary wikis = %+v, want samplewiki with the problem %q", doc.Wikis, want)
	}
	want0 := readClusters(t, run(t, testOptions(t, t.TempDir(), sampleDump)))
	if got := readClusters(t, files); len(got) != len(want0) || len(got) == 0 {
		t.Errorf("%d clusters with the broken header, %d with the sample's", len(got), len(want0))
	}
}
