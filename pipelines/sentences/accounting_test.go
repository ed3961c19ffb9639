package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dumpFiles lists every MediaWiki dump in ../shared/data: plain, bz2 and xz,
// whole, split, truncated, corrupt and UTF-16.
func dumpFiles(t *testing.T) []string {
	t.Helper()
	root := needShared(t, ".")
	var files []string
	for _, dir := range []string{"wikiduper", "gensim-wiki", "dbpedia-minidumps", "wikipedia2vec", "dumpster-dive",
		"wikiclean-pages", "wikimedia-dumps-testfiles", "xztextfilter-wiki-truncated", "zxmeng-wikidump"} {
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if n := e.Name(); strings.HasSuffix(n, ".xml") || strings.HasSuffix(n, ".bz2") || strings.HasSuffix(n, ".xz") {
				files = append(files, filepath.Join(root, dir, n))
			}
		}
	}
	return files
}

// TestAccountingOnEveryRealFile runs the pipeline on each real dump alone,
// every namespace kept, and checks that every page and sentence is
// accounted for.
// conflictingIDs are the real files whose pages share revision ids (all of
// tinywiki's hand-made pages have page id 1 and revision 29433), with the
// error that must stop their runs: sentence ids would mix their texts.
var conflictingIDs = map[string][]string{
	"tinywiki-latest-pages-articles.xml": {`"Hello" at offset 990 of `, `tinywiki-latest-pages-articles.xml and "Duplicate title" at offset 4692 of `,
		"have the same wiki and revision id but different texts"},
}

func TestAccountingOnEveryRealFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the pipeline once per real file")
	}
	files := dumpFiles(t)
	if len(files) < 50 {
		t.Fatalf("found only %d dump files in ../shared/data", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			o := testOptions(t, t.TempDir(), f)
			o.Namespaces = nil
			if want, bad := conflictingIDs[filepath.Base(f)]; bad {
				err := runCtx(context.Background(), t, o)
				for _, w := range want {
					if err == nil || !strings.Contains(err.Error(), w) {
						t.Fatalf("run error %v, want one containing %q", err, w)
					}
				}
				return
			}
			out := run(t, o)
			c := readSummary(t, out)
			checkAccounting(t, c)
			dead := readDeadLetters(t, out)
			if int64(len(dead)) != c.DeadLetters || c.DeadLetters != deadLetterSum(c) {
				t.Errorf("%d dead-letter lines, counts say %d = failed %d + truncated %d + not dumps %d",
					len(dead), c.DeadLetters, c.PagesFailed, c.FilesTruncated, c.FilesNotDumps)
			}
			if c.FilesRead != 1 {
				t.Errorf("files read = %d, want 1", c.FilesRead)
			}
		})
	}
}
