package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/sentence"
)

// nonEnglishDumps are the dumps in ../shared/data of wikis other than the
// English Wikipedia (DBpedia's de and fr minidumps say they are enwiki; they
// are read as such, and their German and French links must go all the same).
var nonEnglishDumps = []string{
	"xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz",
	"xztextfilter-wiki-truncated/jawiki-truncated-100k.xml.xz",
	"xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz",
	"xztextfilter-wiki-truncated/viwiki-truncated-100k.xml.xz",
	"gensim-wiki/bgwiki-latest-pages-articles-shortened.xml.bz2",
	"dbpedia-minidumps/dewiki-minidump.xml.bz2",
	"dbpedia-minidumps/frwiki-minidump.xml.bz2",
	"dumpster-dive/smallwiki-latest-pages-articles.xml",
	"wikiclean-pages/brwiki-test.xml",
	"wikiclean-pages/cawiki-test.xml",
	"wikiclean-pages/dewiki-20130602-id1.xml",
	"wikiclean-pages/dewiki-20130602-id111.xml",
	"wikiclean-pages/dewiki-20130602-id5.xml",
	"wikiclean-pages/dewiki-20130602-id81.xml",
	"wikiclean-pages/dewiki-20130602-id89.xml",
	"wikiclean-pages/elwiki-test.xml",
	"wikiclean-pages/eowiki-test.xml",
	"wikiclean-pages/eswiki-test.xml",
	"wikiclean-pages/frwiki-20121230-id3.xml",
	"wikiclean-pages/glwiki-test.xml",
	"wikiclean-pages/itwiki-test.xml",
	"wikiclean-pages/knwiki-20180614-id1.xml",
	"wikiclean-pages/nlwiki-test.xml",
	"wikiclean-pages/plwiki-test.xml",
	"wikiclean-pages/ptwiki-test.xml",
	"wikiclean-pages/ruwiki-test.xml",
	"wikiclean-pages/ukwiki-test.xml",
	"wikiclean-pages/zhwiki-20150423-id13.xml",
}

// wikiGroup is the files of one wiki and what the run's planning found of it.
type wikiGroup struct {
	site  document.Site
	files []string
}

// groupByWiki reads the header of each file and groups the files by wiki.
func groupByWiki(t *testing.T, files []string) []wikiGroup {
	t.Helper()
	byWiki := map[string]*wikiGroup{}
	var names []string
	for _, f := range files {
		s, err := dump.ReadSite(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		g := byWiki[s.Wiki]
		if g == nil {
			g = &wikiGroup{site: s}
			byWiki[s.Wiki] = g
			names = append(names, s.Wiki)
		}
		g.files = append(g.files, f)
	}
	slices.Sort(names)
	var out []wikiGroup
	for _, n := range names {
		out = append(out, *byWiki[n])
	}
	return out
}

// debrisMarks are strings that only link debris puts in a sentence: the
// wiki's own names of its file, media and category namespaces followed by
// ':', the canonical ones, and image options.
func debrisMarks(s document.Site) []string {
	marks := []string{"thumb|", "Category:", "File:", "Image:"}
	names := s.Names()
	for _, key := range []int{-2, 6, 14} {
		for _, n := range names[key] {
			marks = append(marks, n+":")
		}
	}
	return marks
}

// debris returns the first mark found in text, or "". A mark followed by
// "//" starts a URL (jawiki has the plain text "ファイル:///C:/Users/…" in a
// reference), not a link.
func debris(text string, marks []string) string {
	for _, m := range marks {
		for rest := text; ; {
			i := strings.Index(rest, m)
			if i < 0 {
				break
			}
			rest = rest[i+len(m):]
			if !strings.HasPrefix(rest, "//") {
				return m
			}
		}
	}
	return ""
}

// notLinks are sentences of the real dumps that hold a namespace name as
// plain text in the source, outside any link: nothing the cleaner removes.
var notLinks = map[string]bool{
	// ukwiki's sample was pre-processed: a gallery's line "|File:Flag of
	// Belarus (1918, 1991-1995).svg|" is bare text in the paragraph.
	"ukwiki:1080:39352960:24": true,
}

// TestEveryWiki runs each non-English wiki of ../shared/data alone, checks
// that no sentence holds link debris (a namespace-prefixed link text or an
// image option), logs the table of the issue note (go test -v -run
// TestEveryWiki), then runs all of them together and checks that each wiki
// has the clusters it had alone.
func TestEveryWiki(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the pipeline once per wiki")
	}
	var files []string
	for _, f := range nonEnglishDumps {
		files = append(files, needShared(t, f))
	}
	groups := groupByWiki(t, files)
	var table bytes.Buffer
	fmt.Fprintf(&table, "\n| wiki | lang | files | pages | sentences | in window | too long | clusters | debris clusters |\n|---|---|---|---|---|---|---|---|---|\n")
	alone := map[string]string{}
	for _, g := range groups {
		o := testOptions(t, t.TempDir(), g.files...)
		o.EmitSentences = true
		out := run(t, o)
		c := readSummary(t, out)
		marks := debrisMarks(g.site)
		for line := range bytes.Lines(out["sentences-00000-of-00001.jsonl"]) {
			var s sentence.View
			if err := json.Unmarshal(line, &s); err != nil {
				t.Fatal(err)
			}
			if m := debris(s.Text, marks); m != "" && !notLinks[s.ID] {
				t.Errorf("%s: sentence %s holds %q: %q", g.site.Wiki, s.ID, m, s.Text)
			}
		}
		clusters := readClusters(t, out)
		bad := 0
		for _, cl := range clusters {
			if slices.ContainsFunc(cl.Members, func(m sentence.View) bool { return debris(m.Text, marks) != "" && !notLinks[m.ID] }) {
				bad++
			}
		}
		fmt.Fprintf(&table, "| %s | %s | %d | %d | %d | %d | %d | %d | %d |\n", g.site.Wiki, g.site.Lang, len(g.files),
			c.PagesKept, c.Sentences, c.SentencesInWindow, c.SentencesTooLong, c.Clusters, bad)
		alone[g.site.Wiki] = projectClusters(clusters, g.site.Wiki)
	}
	t.Log(table.String())

	together := readClusters(t, run(t, testOptions(t, t.TempDir(), files...)))
	for _, g := range groups {
		if got := projectClusters(together, g.site.Wiki); got != alone[g.site.Wiki] {
			t.Errorf("%s: clusters in the run of every wiki differ from its own run's:\n%s\nalone:\n%s", g.site.Wiki, got, alone[g.site.Wiki])
		}
	}
	cross := 0
	for _, cl := range together {
		wikis := map[string]bool{}
		for _, m := range cl.Members {
			wikis[m.Wiki] = true
		}
		if len(wikis) > 1 {
			cross++
			t.Logf("a cluster across wikis (text copied between them): %s %q", cl.ID, cl.Members[0].Text)
		}
	}
	t.Logf("%d clusters in the joint run of %d wikis (%d files), %d across wikis", len(together), len(groups), len(files), cross)
}
