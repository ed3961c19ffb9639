package main

// Portable submission test of the reuse pipeline, as the sentence
// pipeline's (pipelines/sentences/portable_test.go): the binary submits
// itself to a standalone Prism job server as to Flink (--runner=flink
// --endpoint=HOST:PORT) with LOOPBACK workers and, through the SDK's worker
// pool, EXTERNAL ones, and each run's files must be those of the embedded
// run. The machinery is internal/portabletest's.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/warc"
	"github.com/neardup/neardup/testkit/portabletest"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/wikitext"
)

// portableOutputs is what two runs of the pipeline on the same input write
// alike: every file byte for byte, except summary.json and manifest.json,
// which must be equal but for the parameters that name the run's output
// directory and runner and, in the manifest, the times of the run. The
// embedded run must write them and the dead letters, and find reuse.
var portableOutputs = portabletest.Comparison{
	JSON: map[string]portabletest.JSONDoc{
		"summary.json":  {Ignore: []string{"parameters.output", "parameters.runner"}},
		"manifest.json": {Ignore: []string{"parameters.output", "parameters.runner", "started", "finished"}},
	},
	Required: []string{"summary.json", "manifest.json", "dead_letter-*.jsonl"},
	NonEmpty: "reuse-*.jsonl",
}

// copiedSentences returns the title of the first article of the dump at
// path with n consecutive sentences of at least minLen bytes in a prose
// paragraph, and those sentences, as the pipeline cleans and splits them.
func copiedSentences(t *testing.T, path string, n, minLen int) (string, []string) {
	t.Helper()
	var cleaner clean.Cleaner
	rules := sentence.RulesFor("en")
	for _, p := range testshared.DumpPagesAt(t, path) {
		if strings.Contains(p.Title, ":") {
			continue // not an article
		}
		cp, err := cleaner.Clean(document.Page{Title: p.Title, Text: p.Text})
		if err != nil {
			t.Fatal(err)
		}
		for _, para := range cp.Paragraphs {
			if para.Context != wikitext.Prose {
				continue
			}
			spans := rules.Split(para.Text)
			for i := 0; i+n <= len(spans); i++ {
				run := spans[i : i+n]
				if slices.ContainsFunc(run, func(s sentence.Span) bool { return s.End-s.Start < minLen }) {
					continue
				}
				var out []string
				for _, s := range run {
					out = append(out, para.Text[s.Start:s.End])
				}
				return p.Title, out
			}
		}
	}
	t.Fatalf("%s: no article has %d consecutive sentences of %d bytes or more", path, n, minLen)
	return "", nil
}

// The web pages of the test's WARC.
const (
	copyURL      = "https://storm-notes.example/katrina"
	unrelatedURL = "https://bakery.example/sourdough"
)

// unrelated is the prose of a page that copies nothing.
var unrelated = []string{
	"Our bakery starts every sourdough loaf the evening before, feeding the starter with equal weights of rye flour and lukewarm water so that it is bubbling by morning.",
	"The dough rests for four hours at room temperature, with a fold of the edges towards the middle every half hour, before it is shaped and left in a cold cellar overnight.",
	"We bake the loaves in cast iron pots at a high heat for twenty minutes with the lid on, then another twenty five minutes without it until the crust is dark and crackles.",
}

// writeWeb writes a WARC file to dir holding two HTML pages: one that
// copies the sentences (and says a little of its own around them) and one
// that copies nothing; it returns the file's path.
func writeWeb(t *testing.T, dir string, copied []string) string {
	t.Helper()
	page := func(title string, paras ...string) []byte {
		var b strings.Builder
		fmt.Fprintf(&b, "<!DOCTYPE html><html><head><title>%s</title></head><body><article><h1>%s</h1>", html.EscapeString(title), html.EscapeString(title))
		for _, p := range paras {
			fmt.Fprintf(&b, "<p>%s</p>", html.EscapeString(p))
		}
		b.WriteString("</article></body></html>")
		return []byte(b.String())
	}
	var out bytes.Buffer
	w := warc.NewWriter(&out, true)
	records := []warc.Record{{Type: "warcinfo", Fields: []warc.Field{
		{Name: "WARC-Date", Value: "2024-05-20T12:00:00Z"},
		{Name: "WARC-Filename", Value: "web.warc.gz"},
		{Name: "WARC-Record-ID", Value: "<urn:uuid:00000000-0000-4000-8000-000000000000>"},
		{Name: "Content-Type", Value: "application/warc-fields"},
	}, Block: []byte("software: neardup pipelines/reuse portable test\r\nformat: WARC File Format 1.1\r\n")}}
	for i, p := range []struct {
		url  string
		body []byte
	}{
		{copyURL, page("Notes on the storm", append(append([]string{"These are my notes on the storm, copied from elsewhere for a class."}, strings.Join(copied, " ")), "That is all for today.")...)},
		{unrelatedURL, page("Sourdough at our bakery", unrelated...)},
	} {
		records = append(records, warc.Record{Type: "response", Fields: []warc.Field{
			{Name: "WARC-Target-URI", Value: p.url},
			{Name: "WARC-Date", Value: fmt.Sprintf("2024-05-20T12:%02d:00Z", i+1)},
			{Name: "WARC-Record-ID", Value: fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", i+1)},
			{Name: "Content-Type", Value: "application/http; msgtype=response"},
		}, Block: warc.HTTPResponse(200, []warc.Field{{Name: "Content-Type", Value: "text/html; charset=utf-8"}}, p.body)})
	}
	for _, r := range records {
		if _, err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "web.warc.gz")
	if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// caseURLs returns the web pages of the reuse cases in a run's files
// (portabletest.OutputFiles), and their articles' titles.
func caseURLs(t *testing.T, files map[string][]byte) map[string][]string {
	t.Helper()
	urls := map[string][]string{}
	for name, b := range files {
		if ok, _ := path.Match("reuse-*.jsonl", path.Base(name)); !ok {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var c struct {
				URL     string `json:"url"`
				Article struct {
					Title string `json:"title"`
				} `json:"article"`
			}
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatalf("%s: %v: %s", name, err, sc.Bytes())
			}
			urls[c.URL] = append(urls[c.URL], c.Article.Title)
		}
	}
	return urls
}

// TestPortableRunners submits the pipeline binary to a standalone Prism job
// server as to Flink (--runner=flink, LOOPBACK workers) and with
// out-of-process workers from the SDK's worker pool (EXTERNAL), on
// Katrina.xml and a WARC file whose one page copies three sentences of one
// of its articles, and checks each output against the embedded run's.
func TestPortableRunners(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and a job server and runs the pipeline several times; skipped with -short")
	}
	tmp := t.TempDir()
	wiki := testshared.Katrina(t)
	title, copied := copiedSentences(t, wiki, 3, 100)
	t.Logf("the web page copies %q of %s", copied, title)
	web := writeWeb(t, tmp, copied)

	bin := portabletest.BuildWorker(t, tmp, ".")
	portabletest.FlagNames(t, bin, "wiki", "web", "output", "run_id", "runner")
	prism := portabletest.BuildPrism(t, tmp)
	pipelineArgs := func(output string, more ...string) []string {
		return slices.Concat([]string{"--wiki=" + wiki, "--web=" + web, "--output=" + output,
			"--run_id=portable-test", "--shards=8", "--output_shards=2"}, more)
	}
	jobPort := portabletest.StartPrism(t, prism, tmp)
	flink := []string{"--runner=flink", fmt.Sprintf("--endpoint=localhost:%d", jobPort)}

	out := t.TempDir()
	portabletest.RunPipeline(t, bin, pipelineArgs(out)...)
	embedded := portabletest.OutputFiles(t, out)
	urls := caseURLs(t, embedded)
	if len(urls[copyURL]) == 0 {
		t.Fatalf("the embedded run found no reuse of %s by %s: cases %v", title, copyURL, urls)
	}
	if len(urls[unrelatedURL]) > 0 {
		t.Errorf("the embedded run found reuse by %s, which copies nothing: %v", unrelatedURL, urls[unrelatedURL])
	}
	t.Logf("the embedded run found %s reusing %q", copyURL, urls[copyURL])

	t.Run("loopback", func(t *testing.T) {
		out := t.TempDir()
		portabletest.RunPipeline(t, bin, pipelineArgs(out, slices.Concat(flink, []string{"--environment_type=LOOPBACK"})...)...)
		portabletest.CompareOutputs(t, embedded, portabletest.OutputFiles(t, out), "--runner=flink --environment_type=LOOPBACK", portableOutputs)
	})
	t.Run("external", func(t *testing.T) {
		external := portabletest.StartWorkerPool(t, tmp, bin)
		out := t.TempDir()
		portabletest.RunPipeline(t, bin, pipelineArgs(out, slices.Concat(flink, external)...)...)
		portabletest.CompareOutputs(t, embedded, portabletest.OutputFiles(t, out), "--runner=flink --environment_type=EXTERNAL", portableOutputs)
	})
}
