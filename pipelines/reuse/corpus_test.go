package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/neardup/neardup/internal/testshared"
	"github.com/neardup/neardup/internal/webcorpus"
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
	// The figures of the README's "Web reuse" section: every case found
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
