package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/dedup"
	"github.com/neardup/neardup/transforms/passage"
)

func init() {
	register.Function3x1(lineStrings)
}

// dedupFixture is the committed corpus of testdata/dedup: real documents,
// one crawled twice, one copied in part and one edited.
const dedupFixture = "../../testdata/dedup/corpus.jsonl"

// duplicateLine is a line of duplicates-*.jsonl, either kind.
type duplicateLine struct {
	ID          string  `json:"id"`
	Kind        string  `json:"kind"`
	DuplicateOf string  `json:"duplicate_of"`
	ClusterID   string  `json:"cluster_id"`
	Wiki        string  `json:"wiki"`
	PageID      int64   `json:"page_id"`
	RevID       int64   `json:"rev_id"`
	Sentence    int     `json:"sentence"`
	Share       float64 `json:"share"`
}

// readDuplicates decodes every duplicates-*.jsonl of a run, in file order.
func readDuplicates(t *testing.T, files map[string][]byte) []duplicateLine {
	t.Helper()
	var out []duplicateLine
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if !strings.HasPrefix(name, "duplicates-") {
			continue
		}
		for line := range bytes.Lines(files[name]) {
			var d duplicateLine
			dec := json.NewDecoder(bytes.NewReader(line))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&d); err != nil {
				t.Fatalf("%s: %v: %s", name, err, line)
			}
			out = append(out, d)
		}
	}
	return out
}

// duplicateDigest is a line per removal: what, of what, why.
func duplicateDigest(ds []duplicateLine) string {
	var b strings.Builder
	for _, d := range ds {
		switch d.Kind {
		case "document":
			fmt.Fprintf(&b, "document %s of %s, share %.4f\n", d.ID, d.DuplicateOf, d.Share)
		default:
			fmt.Fprintf(&b, "%s %s of %s (cluster %s)\n", d.Kind, d.ID, d.DuplicateOf, d.ClusterID)
		}
	}
	return b.String()
}

// TestDuplicatesOfTheFixture lists what deduplicating the fixture removes,
// exactly: the notice crawled twice (the second copy's sentences, and the
// document), the document made of others' paragraphs (their sentences,
// not the document: 5 of its 8 in-window sentences are the Spanish post's,
// a share of 0.625), and the edited copy (the sentences close enough to be
// near duplicates, and the document). Sentences too short to be compared
// (the titles, "Sep 17, 2014 by") are never listed. At --duplicate_share
// 0.6 the document of others' paragraphs is listed too.
func TestDuplicatesOfTheFixture(t *testing.T) {
	o := testOptions(t, t.TempDir(), dedupFixture)
	o.EmitDuplicates, o.EmitSentences = true, true
	files := run(t, o)
	ds := readDuplicates(t, files)
	got := duplicateDigest(ds)
	want := `document corpus:4:0 of corpus:1:0, share 1.0000
document corpus:6:0 of corpus:3:0, share 1.0000
sentence corpus:4:0:1 of corpus:1:0:1 (cluster corpus:1:0:1)
sentence corpus:4:0:2 of corpus:1:0:2 (cluster corpus:1:0:2)
sentence corpus:4:0:3 of corpus:1:0:3 (cluster corpus:1:0:3)
sentence corpus:5:0:0 of corpus:3:0:2 (cluster corpus:3:0:2)
sentence corpus:5:0:1 of corpus:3:0:3 (cluster corpus:3:0:3)
sentence corpus:5:0:3 of corpus:3:0:5 (cluster corpus:3:0:5)
sentence corpus:5:0:4 of corpus:3:0:6 (cluster corpus:3:0:6)
sentence corpus:5:0:5 of corpus:3:0:7 (cluster corpus:3:0:7)
sentence corpus:5:0:6 of corpus:2:0:2 (cluster corpus:2:0:2)
sentence corpus:6:0:2 of corpus:3:0:2 (cluster corpus:3:0:2)
sentence corpus:6:0:3 of corpus:3:0:3 (cluster corpus:3:0:3)
sentence corpus:6:0:5 of corpus:3:0:5 (cluster corpus:3:0:5)
sentence corpus:6:0:6 of corpus:3:0:6 (cluster corpus:3:0:6)
sentence corpus:6:0:7 of corpus:3:0:7 (cluster corpus:3:0:7)
`
	if got != want {
		t.Errorf("duplicates:\n%s\nwant:\n%s", got, want)
	}
	// Every sentence line is a member of its cluster, not its first.
	clusterOf := map[string]string{}
	for line := range bytes.Lines(files["sentences-00000-of-00001.jsonl"]) {
		var s struct {
			ID        string `json:"id"`
			ClusterID string `json:"cluster_id"`
		}
		if err := json.Unmarshal(line, &s); err != nil {
			t.Fatal(err)
		}
		clusterOf[s.ID] = s.ClusterID
	}
	var sentences, documents int64
	for _, d := range ds {
		if d.Kind == "document" {
			documents++
			continue
		}
		sentences++
		if c := clusterOf[d.ID]; c != d.ClusterID || c == d.ID || d.DuplicateOf != c {
			t.Errorf("%s: cluster %q, listed under %q of %q", d.ID, c, d.ClusterID, d.DuplicateOf)
		}
	}
	c := readSummary(t, files).Duplicates
	if c.Sentences != sentences || c.Documents != documents {
		t.Errorf("summary counts %+v; the file lists %d sentences and %d documents", c, sentences, documents)
	}

	o.Output, o.DuplicateShare = t.TempDir(), 0.6
	var docs []string
	for _, d := range readDuplicates(t, run(t, o)) {
		if d.Kind == "document" {
			docs = append(docs, fmt.Sprintf("%s of %s, share %.4f", d.ID, d.DuplicateOf, d.Share))
		}
	}
	if want := []string{"corpus:4:0 of corpus:1:0, share 1.0000", "corpus:5:0 of corpus:3:0, share 0.6250", "corpus:6:0 of corpus:3:0, share 1.0000"}; !slices.Equal(docs, want) {
		t.Errorf("documents listed at --duplicate_share 0.6: %q, want %q", docs, want)
	}
}

// TestDuplicatesFlagOff: --emit_duplicates adds its file and counts and
// changes no other output.
func TestDuplicatesFlagOff(t *testing.T) {
	off := testOptions(t, t.TempDir(), katrinaSlice, dedupFixture)
	on := off
	on.Output, on.EmitDuplicates = t.TempDir(), true
	filesOff, filesOn := run(t, off), run(t, on)
	for name, content := range filesOff {
		if name == "summary.json" || name == "report.html" || name == "manifest.json" {
			continue
		}
		if !bytes.Equal(content, filesOn[name]) {
			t.Errorf("%s differs with --emit_duplicates", name)
		}
	}
	var extra []string
	for name := range filesOn {
		if _, ok := filesOff[name]; !ok {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	if want := []string{"dedup-corpus.jsonl.gz", "duplicates-00000-of-00001.jsonl"}; !slices.Equal(extra, want) {
		t.Errorf("--emit_duplicates added %v, want %v", extra, want)
	}
	countsOff, countsOn := readSummary(t, filesOff), readSummary(t, filesOn)
	if (countsOff.Duplicates != counters.Duplicates{}) {
		t.Errorf("counted duplicates without the flag: %+v", countsOff.Duplicates)
	}
	if countsOn.Duplicates.Sentences == 0 || countsOn.Duplicates.Documents == 0 {
		t.Errorf("counts with the flag %+v: the test proves nothing", countsOn.Duplicates)
	}
	countsOn.Duplicates = countsOff.Duplicates
	jOff, _ := json.Marshal(countsOff)
	jOn, _ := json.Marshal(countsOn)
	if !bytes.Equal(jOff, jOn) {
		t.Errorf("other counts differ:\n%s\n%s", jOff, jOn)
	}
	for _, field := range []string{`"duplicates"`, `"emit_duplicates"`, `"duplicate_share"`} {
		if bytes.Contains(filesOff["summary.json"], []byte(field)) {
			t.Errorf("summary.json without the flag has %s", field)
		}
		if !bytes.Contains(filesOn["summary.json"], []byte(field)) {
			t.Errorf("summary.json with the flag has no %s", field)
		}
	}
}

// lineStrings decodes a batch of output lines into "shard line" strings.
func lineStrings(shard int, b []byte, emit func(string)) error {
	return shuffle.KindLines.Records(b, func(rec []byte) error {
		emit(fmt.Sprintf("%d %s", shard, rec[8:]))
		return nil
	})
}

// TestDuplicateDocumentsTransform runs the document half of the stage on
// document pairs: a document covered by two earlier ones is listed once,
// under the one covering most; a pair below the share lists nothing, and
// an earlier document inside a later one stays.
func TestDuplicateDocumentsTransform(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	pairs := beam.CreateList(s, []passage.DocPair{
		{A: "web:1:0", B: "web:9:0", ShareA: 0.5, ShareB: 0.85},
		{A: "web:2:0", B: "web:9:0", ShareA: 0.6, ShareB: 0.95},
		{A: "web:3:0", B: "web:4:0", ShareA: 1, ShareB: 0.3},
		{A: "web:5:0", B: "web:6:0", ShareA: 0.7, ShareB: 0.7},
		{A: "enwiki:20:300", B: "enwiki:10:500", ShareA: 1, ShareB: 1},
	})
	lines, _ := duplicateDocuments(s, 2, dedup.DefaultMinShare, pairs)
	got := beam.ParDo(s, lineStrings, lines.Raw())
	passert.Equals(s, got,
		`0 {"id":"web:9:0","kind":"document","duplicate_of":"web:2:0","wiki":"web","page_id":9,"rev_id":0,"share":0.95}`,
		`0 {"id":"enwiki:20:300","kind":"document","duplicate_of":"enwiki:10:500","wiki":"enwiki","page_id":20,"rev_id":300,"share":1}`,
	)
	ptest.RunAndValidate(t, p)
}
