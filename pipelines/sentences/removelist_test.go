package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/dedup"
)

// gunzip decompresses a deduplicated copy.
func gunzip(t *testing.T, name string, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// dedupCopies writes the deduplicated copies of a run's JSON-lines
// corpora to dir, uncompressed and named after their corpora, and
// returns their paths.
func dedupCopies(t *testing.T, files map[string][]byte, dir string) []string {
	t.Helper()
	var paths []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		corpus, ok := strings.CutPrefix(name, "dedup-")
		if !ok {
			continue
		}
		corpus, _ = strings.CutSuffix(corpus, ".jsonl.gz")
		path := filepath.Join(dir, corpus+".jsonl")
		if err := os.WriteFile(path, gunzip(t, name, files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	if len(paths) == 0 {
		t.Fatal("no deduplicated copy written")
	}
	return paths
}

// checkNoCluster runs the pipeline on inputs and fails unless it finds no
// cluster and lists nothing to remove.
func checkNoCluster(t *testing.T, inputs []string) {
	t.Helper()
	o := testOptions(t, t.TempDir(), inputs...)
	o.EmitDuplicates = true
	files := run(t, o)
	c := readSummary(t, files)
	if c.Clusters != 0 || c.Duplicates.Sentences != 0 || c.Duplicates.Documents != 0 {
		t.Errorf("the deduplicated input has %d clusters, %d sentences and %d documents to remove, want none",
			c.Clusters, c.Duplicates.Sentences, c.Duplicates.Documents)
		for _, cl := range readClusters(t, files) {
			var texts []string
			for _, m := range cl.Members {
				texts = append(texts, m.ID+" "+m.Text)
			}
			t.Logf("cluster %s:\n  %s", cl.ID, strings.Join(texts, "\n  "))
		}
	}
	if c.SentencesInWindow == 0 {
		t.Error("no sentence left: the test proves nothing")
	}
}

// TestRemoveListLeavesNoCluster deduplicates JSON-lines corpora with
// --emit_duplicates (dedup-*.jsonl.gz: the listed sentences removed) and
// runs the pipeline on the copies: it finds no cluster. The fixture (a
// page crawled twice, an edited copy, a document of others' paragraphs)
// needs nothing else; the Common Crawl corpora of ../shared/data are real
// web text with boilerplate shared by a site's pages.
func TestRemoveListLeavesNoCluster(t *testing.T) {
	tests := []struct {
		name   string
		inputs []string
	}{
		{"fixture", []string{dedupFixture}},
		{"dolma-cc", []string{"commoncrawl-text/dolma-CC-MAIN-20190717121559-20190717143559-00140.jsonl.gz"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in []string
			for _, rel := range tt.inputs {
				if strings.HasPrefix(rel, "../../testdata/") {
					in = append(in, rel)
				} else {
					in = append(in, needShared(t, rel))
				}
			}
			o := testOptions(t, t.TempDir(), in...)
			o.EmitDuplicates = true
			files := run(t, o)
			c := readSummary(t, files)
			if c.Clusters == 0 || c.Duplicates.Sentences == 0 {
				t.Fatalf("%d clusters, %d sentences to remove: the test proves nothing", c.Clusters, c.Duplicates.Sentences)
			}
			t.Logf("%d clusters; removed %d sentences, dropped %d of %d documents",
				c.Clusters, c.Duplicates.CopySentencesRemoved, c.Duplicates.CopyDocumentsDropped, c.Duplicates.CopyDocuments+c.Duplicates.CopyDocumentsDropped)
			if c.Duplicates.CopySentencesRemoved != c.Duplicates.Sentences {
				t.Errorf("the copies lose %d sentences; %d are listed", c.Duplicates.CopySentencesRemoved, c.Duplicates.Sentences)
			}
			checkNoCluster(t, dedupCopies(t, files, t.TempDir()))
		})
	}
}

// TestDedupCopyOfTheFixture checks the fixture's copy line by line: the
// three source documents as they are (byte for byte); the page crawled
// twice dropped (nothing it holds is compared and not a duplicate); the
// document of others' paragraphs reduced to its own paragraph and a
// sentence too short to be compared; and the edited copy to what the run
// could not match: its short lines and the one edited sentence that the
// edit made long enough to be compared, while its original is too short.
// Every other field of a line is kept byte for byte.
func TestDedupCopyOfTheFixture(t *testing.T) {
	o := testOptions(t, t.TempDir(), dedupFixture)
	o.EmitDuplicates = true
	files := run(t, o)
	got := gunzip(t, "dedup-corpus.jsonl.gz", files["dedup-corpus.jsonl.gz"])
	in, err := os.ReadFile(dedupFixture)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(in, []byte("\n"))
	quote := `{"id":"quote-0001","text":` + jsonString(t, "En algunos casos es tan fácil como conservar el de la palabra en su idioma original.\n\n"+
		"L'Ajuntament de Palafrugell ofereix tot un seguit d'aplicacions per a dispositius mòbils. A la taula següent podeu consultar les diferents aplicacions, amb indicació de la plataforma per a la qual estan disponibles.") +
		`,"source":"fixture"}` + "\n"
	edited, err := dedup.SetText(bytes.TrimSuffix(lines[5], []byte("\n")),
		"Préstamos lingüísticos y género...\n\nSep 18, 2014 by\n\nEn algunos casos es tan sencillo como conservar el de la palabra en su idioma original.\n\nread more")
	if err != nil {
		t.Fatal(err)
	}
	want := string(lines[0]) + string(lines[1]) + string(lines[2]) + quote + string(edited) + "\n"
	if string(got) != want {
		t.Errorf("copy:\n%s\nwant:\n%s", got, want)
	}
	c := readSummary(t, files).Duplicates
	if c.CopyDocuments != 5 || c.CopyDocumentsDropped != 1 || c.CopySentencesRemoved != c.Sentences || c.CopyLinesUnread != 0 || c.CopyLinesTooLong != 0 {
		t.Errorf("copy counts %+v, want 5 documents written, 1 dropped, every listed sentence removed", c)
	}
}

func jsonString(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// TestRemoveListOfAWikiLeavesNoCluster applies the sentence lines of
// duplicates-*.jsonl to wiki dumps: of each page it keeps the in-window
// sentences (sentences-*.jsonl) that are not listed, writes them as a
// JSON-lines corpus (a document per page, a sentence per paragraph, in the
// wiki's language) and runs the pipeline on it. No two of the kept
// sentences are in a cluster. The run may cluster pieces of them, though:
// a wiki's references are split by rules that cut no citation, and the
// plain-text rules of the copy cut some ("Упорядк." ends a sentence there),
// into pieces no run of the dump compared. Every cluster of the copy has
// such a piece, and the test says how many there are. The committed
// Katrina slice needs nothing else; the whole Katrina export and the
// Ukrainian sample are in ../shared/data.
func TestRemoveListOfAWikiLeavesNoCluster(t *testing.T) {
	tests := []struct {
		name   string
		inputs []string
		pieces int64 // clusters of pieces of a kept sentence, all of references
	}{
		{"katrina-slice", []string{katrinaSlice}, 1},
		{"katrina", []string{"wikiduper/Katrina.xml"}, 1},
		{"ukwiki", []string{"xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz"}, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in []string
			for _, rel := range tt.inputs {
				if strings.HasPrefix(rel, "../../testdata/") {
					in = append(in, rel)
				} else {
					in = append(in, needShared(t, rel))
				}
			}
			o := testOptions(t, t.TempDir(), in...)
			o.EmitDuplicates, o.EmitSentences = true, true
			files := run(t, o)
			removed := map[string]bool{}
			for _, d := range readDuplicates(t, files) {
				if d.Kind == "sentence" {
					removed[d.ID] = true
				}
			}
			if c := readSummary(t, files); c.Clusters == 0 || len(removed) == 0 {
				t.Fatalf("%d clusters, %d sentences to remove: the test proves nothing", c.Clusters, len(removed))
			}
			corpus := filepath.Join(t.TempDir(), tt.name+"-dedup.jsonl")
			kept := writeKeptSentences(t, files, removed, corpus)
			t.Logf("%d sentences removed; %d pages keep some", len(removed), len(kept))

			again := testOptions(t, t.TempDir(), corpus)
			again.EmitDuplicates = true
			after := run(t, again)
			var pieces int64
			for _, cl := range readClusters(t, after) {
				whole := 0
				var texts []string
				for _, m := range cl.Members {
					if kept[m.PageID][m.Text] {
						whole++
					}
					texts = append(texts, m.Text)
				}
				if whole == len(cl.Members) {
					t.Errorf("kept sentences still near duplicates:\n  %s", strings.Join(texts, "\n  "))
					continue
				}
				pieces++
				t.Logf("a cluster of pieces:\n  %s", strings.Join(texts, "\n  "))
			}
			if c := readSummary(t, after); c.Clusters != tt.pieces || pieces != tt.pieces {
				t.Errorf("%d clusters, %d of pieces of a kept sentence; want %d, all of pieces", c.Clusters, pieces, tt.pieces)
			}
		})
	}
}

// writeKeptSentences writes the in-window sentences of a run that are not
// removed as a JSON-lines corpus at path, a document per page in the order
// of the sentences' files, and returns the texts it kept by line number
// (the page id of the corpus's run).
func writeKeptSentences(t *testing.T, files map[string][]byte, removed map[string]bool, path string) map[int64]map[string]bool {
	t.Helper()
	var doc struct {
		Wikis []struct{ Wiki, Lang string } `json:"wikis"`
	}
	if err := json.Unmarshal(files["summary.json"], &doc); err != nil {
		t.Fatal(err)
	}
	lang := map[string]string{}
	for _, w := range doc.Wikis {
		lang[w.Wiki] = w.Lang
	}
	type page struct {
		id, wiki, title string
		sentences       []string
	}
	var pages []*page
	byID := map[string]*page{}
	kept := map[int64]map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if !strings.HasPrefix(name, "sentences-") {
			continue
		}
		for line := range bytes.Lines(files[name]) {
			var s struct {
				ID     string `json:"id"`
				Wiki   string `json:"wiki"`
				PageID int64  `json:"page_id"`
				RevID  int64  `json:"rev_id"`
				Title  string `json:"title"`
				Text   string `json:"text"`
			}
			if err := json.Unmarshal(line, &s); err != nil {
				t.Fatal(err)
			}
			if removed[s.ID] {
				continue
			}
			id := s.ID[:strings.LastIndexByte(s.ID, ':')]
			p := byID[id]
			if p == nil {
				p = &page{id: id, wiki: s.Wiki, title: s.Title}
				byID[id] = p
				pages = append(pages, p)
			}
			p.sentences = append(p.sentences, s.Text)
		}
	}
	var out bytes.Buffer
	for i, p := range pages {
		kept[int64(i+1)] = map[string]bool{}
		for _, s := range p.sentences {
			kept[int64(i+1)][s] = true
		}
		line, err := json.Marshal(map[string]string{"id": p.id, "title": p.title, "lang": lang[p.wiki], "text": strings.Join(p.sentences, "\n\n")})
		if err != nil {
			t.Fatal(err)
		}
		out.Write(append(line, '\n'))
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return kept
}
