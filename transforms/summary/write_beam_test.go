package summary

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/neardup/neardup/internal/counters"
)

func init() {
	register.Function1x1(bytesString)
}

func bytesString(b []byte) string { return string(b) }

// TestWriteOnPrism runs Write on the embedded runner: summary.json must
// hold the document with the merged counts and the top pairs, and Write
// must pass on the counts and, for the report, the file's exact bytes.
func TestWriteOnPrism(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.json")
	doc := Document{Version: "v1.2.3", Parameters: json.RawMessage(`{"seed":1}`), CollisionCurve: json.RawMessage(`{}`),
		Wikis: json.RawMessage(`[{"wiki":"enwiki","lang":"en"}]`)}
	top := []PairCount{{WikiA: "enwiki", PageA: 1, WikiB: "enwiki", PageB: 2, TitleA: "A", TitleB: "B", Clusters: 3}}
	near := []DocPair{{A: "enwiki:1:10", TitleA: "A", B: "enwiki:2:20", TitleB: "B", Passages: 1, Matched: 4, ShareA: 0.5, ShareB: 0.25}}
	counts := counters.Counts{PagesRead: 7, Clusters: 2, SentencesInClusters: 4, ClusterSizes: map[int64]int64{2: 2}}

	want := doc
	want.Counts, want.TopArticlePairs, want.NearDuplicates = counts, top, near
	wantBytes, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	wantBytes = append(wantBytes, '\n')

	p, s := beam.NewPipelineWithRoot()
	total := counters.Total(s, beam.Create(s, counters.Counts{PagesRead: 7}, counters.Counts{Clusters: 2, SentencesInClusters: 4, ClusterSizes: map[int64]int64{2: 2}}))
	done, file := Write(s, path, doc, total, beam.Create(s, top), beam.Create(s, near))
	passert.Equals(s, beam.ParDo(s, bytesString, file), string(wantBytes))
	passert.Count(s, done, "done", 1)
	ptest.RunAndValidate(t, p)

	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, wantBytes) {
		t.Errorf("summary.json:\n%s\nwant\n%s", got, wantBytes)
	}
}
