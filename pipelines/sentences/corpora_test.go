package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/input"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/text"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/summary"
)

// The committed text corpora (testdata/text/README.md).
const webSample = "../../testdata/text/web-sample.jsonl"

var plainSample = []string{"../../testdata/text/plain/a.txt", "../../testdata/text/plain/b.txt", "../../testdata/text/plain/c.txt"}

// clusterMembers lists the member ids of each cluster, one cluster a line,
// sorted.
func clusterMembers(clusters []categorize.Cluster) []string {
	var out []string
	for _, c := range clusters {
		var ids []string
		for _, m := range c.Members {
			ids = append(ids, m.ID)
		}
		out = append(out, strings.Join(ids, " "))
	}
	slices.Sort(out)
	return out
}

// memberTitles maps each member id of the clusters to its title.
func memberTitles(clusters []categorize.Cluster) map[string]string {
	out := map[string]string{}
	for _, c := range clusters {
		for _, m := range c.Members {
			out[m.ID] = m.Title
		}
	}
	return out
}

// member returns the member of the clusters with the given id.
func member(t *testing.T, clusters []categorize.Cluster, id string) sentence.View {
	t.Helper()
	for _, c := range clusters {
		for _, m := range c.Members {
			if m.ID == id {
				return m
			}
		}
	}
	t.Fatalf("no member %s", id)
	return sentence.View{}
}

// readDocument decodes summary.json or manifest.json of a run.
func readDocument(t *testing.T, files map[string][]byte, name string, v any) {
	t.Helper()
	if err := json.Unmarshal(files[name], v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestJSONLCorpus runs the pipeline on a JSON-lines corpus: the file is a
// corpus named after it, in the wiki slot of the ids; page ids are line
// numbers, titles the "title" field (or Dolma's metadata.title) or else the
// id; a hard-wrapped sentence is joined again; a German document is split
// by German rules ("z. B." ends no sentence); an empty text is counted.
func TestJSONLCorpus(t *testing.T) {
	files := run(t, testOptions(t, t.TempDir(), webSample))
	c := readSummary(t, files)
	checkAccounting(t, c)
	if c.FilesRead != 1 || c.PagesRead != 7 || c.PagesKept != 6 || c.PagesEmpty != 1 || c.DeadLetters != 0 {
		t.Errorf("counts: %d files, %d documents read, %d kept, %d empty, %d dead letters; want 1, 7, 6, 1, 0",
			c.FilesRead, c.PagesRead, c.PagesKept, c.PagesEmpty, c.DeadLetters)
	}
	clusters := readClusters(t, files)
	want := []string{
		"web-sample:1:0:0 web-sample:2:0:1", // the harbour, Monday/Tuesday
		"web-sample:1:0:2 web-sample:4:0:1", // the lighthouse path
		"web-sample:1:0:3 web-sample:3:0:1", // the market, hard-wrapped in line 3
		"web-sample:6:0:0 web-sample:7:0:1", // the ferry, in German
	}
	if got := clusterMembers(clusters); !reflect.DeepEqual(got, want) {
		t.Fatalf("clusters:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantTitles := map[string]string{
		"web-sample:1:0:0": "Harbour reopens", "web-sample:2:0:1": "news-002", "web-sample:1:0:2": "Harbour reopens",
		"web-sample:4:0:1": "4", "web-sample:1:0:3": "Harbour reopens", "web-sample:3:0:1": "Council notes",
		"web-sample:6:0:0": "Fähre", "web-sample:7:0:1": "de-2",
	}
	if got := memberTitles(clusters); !reflect.DeepEqual(got, wantTitles) {
		t.Errorf("titles %v, want %v", got, wantTitles)
	}
	if a, b := member(t, clusters, "web-sample:1:0:3"), member(t, clusters, "web-sample:3:0:1"); a.Text != b.Text || b.PageID != 3 || b.RevID != 0 || b.Wiki != "web-sample" {
		t.Errorf("the hard-wrapped sentence %+v, want it joined as %q", b, a.Text)
	}
	if m := member(t, clusters, "web-sample:6:0:0"); !strings.HasPrefix(m.Text, "Die Fähre nach Olden fährt z. B. im Winter") {
		t.Errorf("German sentence %q, cut at its abbreviation", m.Text)
	}
	var doc struct {
		Wikis []wikiSummary `json:"wikis"`
	}
	readDocument(t, files, "summary.json", &doc)
	if want := []wikiSummary{{Wiki: "web-sample"}}; !reflect.DeepEqual(doc.Wikis, want) {
		t.Errorf("summary wikis %+v, want %+v", doc.Wikis, want)
	}
	var m summary.Manifest
	readDocument(t, files, "manifest.json", &m)
	if len(m.Inputs) != 1 || m.Inputs[0].Path != webSample || m.Inputs[0].Format != "jsonl" || m.Inputs[0].Corpus != "web-sample" ||
		m.Inputs[0].Bytes == 0 || !strings.HasPrefix(m.Inputs[0].Checksum, "sha256:") {
		t.Errorf("manifest inputs %+v", m.Inputs)
	}
}

// TestPlainTextCorpus runs the pipeline on plain-text files: one corpus,
// "text", whose page ids are the files' ranks by path and whose titles are
// the paths; sentences wrapped over lines are joined again.
func TestPlainTextCorpus(t *testing.T) {
	files := run(t, testOptions(t, t.TempDir(), plainSample...))
	c := readSummary(t, files)
	checkAccounting(t, c)
	if c.FilesRead != 3 || c.PagesRead != 3 || c.PagesKept != 3 || c.DeadLetters != 0 {
		t.Errorf("counts %+v", c)
	}
	clusters := readClusters(t, files)
	want := []string{
		"text:1:0:1 text:2:0:1", // the valley road, wrapped over three lines in a.txt
		"text:2:0:2 text:3:0:1", // the bus, twice or three times a day
	}
	if got := clusterMembers(clusters); !reflect.DeepEqual(got, want) {
		t.Fatalf("clusters:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	a, b := member(t, clusters, "text:1:0:1"), member(t, clusters, "text:2:0:1")
	if a.Text != b.Text || a.Title != plainSample[0] || b.Title != plainSample[1] || a.Wiki != "text" {
		t.Errorf("members %+v and %+v: want one text, titled by the files' paths", a, b)
	}
	if cl := clusters[slices.IndexFunc(clusters, func(c categorize.Cluster) bool { return c.ID == "text:2:0:2" })]; cl.Category != "factual_drift" {
		t.Errorf("the bus timetable is %s, want factual_drift (twice → three times)", cl.Category)
	}
}

// TestMixedDumpAndJSONL reads the sample dump and the JSON-lines corpus in
// one run: each keeps its own ids (wiki slot), the clusters of each alone
// are found again, and the sentence the corpus copied from the dump joins
// the dump's cluster under its own id.
func TestMixedDumpAndJSONL(t *testing.T) {
	dumpAlone := readClusters(t, run(t, testOptions(t, t.TempDir(), sampleDump)))
	webAlone := readClusters(t, run(t, testOptions(t, t.TempDir(), webSample)))
	files := run(t, testOptions(t, t.TempDir(), sampleDump, webSample))
	c := readSummary(t, files)
	checkAccounting(t, c)
	if c.PagesDuplicate != 0 || c.FilesRead != 2 {
		t.Errorf("%d duplicates, %d files read", c.PagesDuplicate, c.FilesRead)
	}
	together := readClusters(t, files)
	for _, wiki := range []string{"samplewiki", "web-sample"} {
		alone := dumpAlone
		if wiki == "web-sample" {
			alone = webAlone
		}
		if got, want := projectClusters(together, wiki), projectClusters(alone, wiki); got != want || want == "" {
			t.Errorf("clusters of %s in the joint run:\n%s\nwant those of its run alone:\n%s", wiki, got, want)
		}
	}
	wantMarren := "samplewiki:104:40117:1 samplewiki:110:40151:1 samplewiki:113:40168:1 web-sample:2:0:2"
	if got := clusterMembers(together); !slices.Contains(got, wantMarren) {
		t.Errorf("clusters:\n%s\nwant one of\n%s", strings.Join(got, "\n"), wantMarren)
	}
}

// TestJSONLRepeatedID reads the JSON-lines corpus with a line added that
// repeats the id of its first: a dead letter naming the file, the line's
// offset and number and the id, counted; nothing else changes.
func TestJSONLRepeatedID(t *testing.T) {
	data, err := os.ReadFile(webSample)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "web-sample.jsonl")
	repeated := `{"id":"news-001","text":"Another text under the id of the first line, long enough to be a sentence in the window of the run."}` + "\n"
	if err := os.WriteFile(path, append(bytes.Clone(data), repeated...), 0o644); err != nil {
		t.Fatal(err)
	}
	orig, files := run(t, testOptions(t, t.TempDir(), webSample)), run(t, testOptions(t, t.TempDir(), path))
	want := fmt.Sprintf(`{"file":%q,"offset":%d,"line":8,"reason":"id \"news-001\" repeats line 1"}`+"\n", path, len(data))
	if got := string(files["dead_letter-00000-of-00001.jsonl"]); got != want {
		t.Errorf("dead letters:\n%s\nwant\n%s", got, want)
	}
	c, o := readSummary(t, files), readSummary(t, orig)
	checkAccounting(t, c)
	if c.PagesRead != o.PagesRead+1 || c.PagesFailed != 1 || c.DeadLetters != 1 || c.PagesKept != o.PagesKept {
		t.Errorf("counts %+v, want the original's %+v and one document failed", c, o)
	}
	if !bytes.Equal(files["clusters-00000-of-00001.jsonl"], orig["clusters-00000-of-00001.jsonl"]) {
		t.Error("the clusters differ from those of the file without the repeated id")
	}
}

// TestDolmaCorpus runs the pipeline on the three Dolma samples of
// ../shared/data: three corpora, every line a document (717), the empty
// ones counted (27), no dead letter, and the boilerplate the pages share is
// found.
func TestDolmaCorpus(t *testing.T) {
	var in []string
	for _, f := range []string{"dolma-CC-MAIN-20190717121559-20190717143559-00140.jsonl.gz", "dolma-cc_en_head-0091.jsonl.gz", "dolma-cc_en_head-0174.jsonl.gz"} {
		in = append(in, needShared(t, "commoncrawl-text/"+f))
	}
	files := run(t, testOptions(t, t.TempDir(), in...))
	c := readSummary(t, files)
	checkAccounting(t, c)
	want := counters.Counts{FilesRead: 3, PagesRead: 717, PagesKept: 690, PagesEmpty: 27}
	if got := (counters.Counts{FilesRead: c.FilesRead, PagesRead: c.PagesRead, PagesKept: c.PagesKept, PagesEmpty: c.PagesEmpty,
		PagesFailed: c.PagesFailed, DeadLetters: c.DeadLetters}); !reflect.DeepEqual(got, want) {
		t.Errorf("counts %+v, want %+v", got, want)
	}
	clusters := readClusters(t, files)
	if len(clusters) == 0 {
		t.Fatal("no cluster")
	}
	for _, cl := range clusters {
		for _, m := range cl.Members {
			if !strings.HasPrefix(m.Wiki, "dolma-") || m.RevID != 0 || m.PageID < 1 || m.PageID > 697 || !strings.HasPrefix(m.ID, m.Wiki+":") {
				t.Fatalf("member %+v", m)
			}
		}
	}
}

// TestPlanTextInputs plans inputs of every format: files are sorted by
// content (or by --input_format), text corpora get their sites, the
// manifest lists every file, and what cannot be read as asked is refused
// with the file's name before any work.
func TestPlanTextInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	web := write("web.jsonl", []byte(`{"id":1,"text":"x"}`+"\n"))
	doc := write("doc.md", []byte("# Notes\n\nPlain text.\n"))
	binary := write("blob.bin", []byte("GIF89a\x00\x01"))
	named := write("samplewiki.jsonl", []byte(`{"id":1,"text":"x"}`))

	type planned struct {
		dumps, texts, sites []string
	}
	describe := func(src input.Sources) planned {
		var p planned
		for _, d := range src.Dumps {
			p.dumps = append(p.dumps, filepath.Base(d.File))
		}
		for _, t := range src.Texts {
			p.texts = append(p.texts, fmt.Sprintf("%s:%s:%d", filepath.Base(t.File), t.Corpus, t.Rank))
		}
		for _, s := range src.Sites {
			p.sites = append(p.sites, s.Wiki)
		}
		return p
	}
	tests := []struct {
		name   string
		files  []string
		format text.Format
		want   planned
		err    string
	}{
		{"by content", []string{sampleDump, web, doc}, text.Auto,
			planned{[]string{"simplewiki-sample.xml"}, []string{"doc.md:text:1", "web.jsonl:web:0"}, []string{"samplewiki", "text", "web"}}, ""},
		{"all as text", []string{sampleDump, web}, text.Plain,
			planned{nil, []string{"simplewiki-sample.xml:text:1", "web.jsonl:text:2"}, []string{"text"}}, ""},
		{"all as dumps", []string{web}, text.MediaWiki, planned{[]string{"web.jsonl"}, nil, []string{"web"}}, ""},
		{"binary", []string{web, binary}, text.Auto, planned{}, binary + ` is not UTF-8 text: a NUL byte at offset 6 of its first KB (first bytes: "GIF89a\x00\x01")`},
		{"binary given as JSON lines", []string{binary}, text.JSONL, planned{}, binary + " is not UTF-8 text"},
		{"two corpora of one name", []string{web, write("other/web.jsonl", []byte(`{"id":2,"text":"y"}`))}, text.Auto, planned{},
			`are both corpus "web"`},
		{"a corpus named like a wiki", []string{sampleDump, named}, text.Auto, planned{},
			"text corpus samplewiki (" + named + ") has the name of a wiki of the input: their ids would mix; rename the file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, err := input.Plan(t.Context(), tt.files, tt.format)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(src); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("planned %+v, want %+v", got, tt.want)
			}
			if len(src.Inputs()) != len(tt.files) {
				t.Errorf("manifest inputs %+v, want one per file", src.Inputs())
			}
		})
	}
}

// TestPlanTooManyCorpora refuses more wikis and corpora than sentence ids
// can tell apart.
func TestPlanTooManyCorpora(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 1025 {
		p := filepath.Join(dir, fmt.Sprintf("part-%04d.jsonl", i))
		if err := os.WriteFile(p, []byte(`{"id":1,"text":"x"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	_, err := input.Plan(t.Context(), files, text.Auto)
	if err == nil || err.Error() != "1025 wikis and text corpora in one run (each JSON-lines file is a corpus); sentence ids tell at most 1024 apart" {
		t.Errorf("error %v", err)
	}
}
