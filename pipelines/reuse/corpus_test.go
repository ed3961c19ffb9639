package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/neardup/neardup/testkit/corpus/webcorpus"
	"github.com/neardup/neardup/testkit/testshared"
)

// TestReuseCorpus runs the pipeline on the test corpus of internal/webcorpus
// (web pages written to copy passages of real articles in five languages,
// verbatim and lightly edited, pages filling an article's template for
// another entity, and real and shuffled pages that copy nothing) and
// scores its cases against the corpus's labels.
func TestReuseCorpus(t *testing.T) {
	data := testshared.Path(t, "data")
	corpus, err := webcorpus.Build(webcorpus.DefaultConfig(data))
	if err != nil {
		t.Fatal(err)
	}
	web := filepath.Join(t.TempDir(), "web.warc.gz")
	if err := os.WriteFile(web, corpus.WARC, 0o644); err != nil {
		t.Fatal(err)
	}
	var wiki []string
	for _, s := range corpus.Sources {
		wiki = append(wiki, filepath.Join(data, s.File))
	}
	files := run(t, testOptions(t, wiki, []string{web}))
	var found []webcorpus.Found
	for _, c := range cases(t, files) {
		found = append(found, webcorpus.Found{URL: c.URL, Wiki: c.Article.Wiki, PageID: c.Article.PageID, Kind: webcorpus.Kind(c.Kind)})
	}
	sc := webcorpus.Score(corpus.Labels, found)
	t.Logf("labelled %d, found %d, correct %d, recalled %d: precision %.3f recall %.3f; kind accuracy %.3f %+v",
		sc.Labelled, sc.Found, sc.Correct, sc.Recalled, sc.Precision, sc.Recall, sc.KindAccuracy, sc.PerKind)
	for _, f := range sc.FalsePositives {
		t.Logf("false positive: %+v", f)
	}
	for _, c := range sc.FalseNegatives {
		t.Logf("false negative: %+v", c)
	}
	for _, f := range sc.WrongKind {
		t.Logf("wrong kind: %+v", f)
	}
	// The figures of docs/reuse.md: every case found
	// is true and of the right kind; the cases missed are templates
	// filled for another entity whose sentences fall below the
	// verification's threshold (the corpus's labels record their
	// similarity: 0.46–0.47) and one copied passage of the German
	// Berlin article.
	if sc.Precision != 1 || sc.Recall < 0.9 || sc.KindAccuracy != 1 {
		t.Errorf("precision %.3f, recall %.3f, kind accuracy %.3f; want 1, at least 0.9, 1", sc.Precision, sc.Recall, sc.KindAccuracy)
	}
	counts, summary := summaryOf(t, files)
	if counts.Reuse.Cases != int64(sc.Found) || summary.Totals.Cases != counts.Reuse.Cases {
		t.Errorf("%d cases in reuse-*.jsonl, %d in counts.reuse, %d in reuse.totals", sc.Found, counts.Reuse.Cases, summary.Totals.Cases)
	}
	// The dead letters are the truncated dumps' last pages and their
	// truncation (two each for uk and el), none of the web's.
	dead := files["dead_letter-00000-of-00001.jsonl"]
	if want := int64(len(corpus.Labels)); counts.Web.HTMLPages != want || counts.DeadLetters != 4 || bytes.Contains(dead, []byte("web.warc.gz")) {
		t.Errorf("%d HTML pages read and %d dead letters, want %d and the 4 of the truncated dumps:\n%s", counts.Web.HTMLPages, counts.DeadLetters, want, dead)
	}
}

// TestReuseRealSamples runs the pipeline on every real web sample of
// ../shared/data (the Common Crawl WARC samples, English Wikipedia's Main
// Page of 2012, a WET file and the Common Crawl JSON-lines corpora) against
// the English Wikipedia dumps: none of those pages copies an article of
// those dumps, and every web document must be read without a dead letter.
func TestReuseRealSamples(t *testing.T) {
	data := testshared.Path(t, "data")
	var wiki, web []string
	for _, f := range []string{"wikiduper/Katrina.xml", "dbpedia-minidumps/enwiki-minidump.xml.bz2",
		"gensim-wiki/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2",
		"wikipedia2vec/enwiki-pages-articles-sample.xml.bz2"} {
		wiki = append(wiki, filepath.Join(data, f))
	}
	for _, f := range []string{"dolma-sample-0000.warc.gz", "dolma-sample-0001.warc.gz", "resiliparse-warcfile.warc.gz",
		"ukwa-wikipedia-main-page-2012.warc.gz", "whirlwind.warc.gz", "whirlwind.warc.wet.gz"} {
		web = append(web, filepath.Join(data, "commoncrawl-warc", f))
	}
	texts, err := filepath.Glob(filepath.Join(data, "commoncrawl-text", "*.jsonl.gz"))
	if err != nil || len(texts) != 3 {
		t.Fatalf("commoncrawl-text: %v %v", texts, err)
	}
	files := run(t, testOptions(t, wiki, append(web, texts...)))
	counts, summary := summaryOf(t, files)
	w := counts.Web
	if w.Records != 289 || w.Responses != 124 || w.HTMLPages != 55 || w.Conversions != 1 || w.NotHTML != 69 || w.BadRecords != 0 || w.TooLarge != 0 {
		t.Errorf("web counts %+v: want 289 records, 124 responses, 55 HTML pages, 1 conversion, 69 not HTML, none bad", w)
	}
	if counts.DeadLetters != 0 || counts.Reuse.Cases != 0 || len(cases(t, files)) != 0 {
		t.Errorf("%d dead letters, %d cases: want none", counts.DeadLetters, counts.Reuse.Cases)
	}
	// The web's documents with text: 47 HTML pages and the WET page (8 HTML
	// pages have no main content), and 690 of the 717 JSON lines (27 have
	// an empty text).
	if summary.Totals.PagesRead != 48+690 || counts.PagesEmpty != 8+27 {
		t.Errorf("%d web documents read and %d empty, want %d and %d", summary.Totals.PagesRead, counts.PagesEmpty, 48+690, 8+27)
	}
}
