package summary

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/result"
)

func init() {
	register.DoFn3x1[context.Context, int, func(counters.Counts), error](&writeShardFn{})
	register.DoFn3x1[context.Context, int, func(int), error](&writeSummaryFn{})
	register.Emitter1[counters.Counts]()
	register.Emitter1[int]()
}

// writeShardFn stands for an output stage: after a pause, so that a
// manifest that did not wait would be written first, it writes its listed
// output and a stray file that the manifest's cleaning must remove, and
// emits its counts.
type writeShardFn struct{ Dir string }

func (f *writeShardFn) ProcessElement(ctx context.Context, n int, emit func(counters.Counts)) error {
	time.Sleep(300 * time.Millisecond)
	if err := result.WriteBytes(ctx, result.Join(f.Dir, "clusters-00000-of-00001.jsonl"), []byte("{}\n")); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(f.Dir, "stray-from-a-stage.jsonl"), nil, 0o644); err != nil {
		return err
	}
	emit(counters.Counts{Clusters: int64(n), SentencesInClusters: 2 * int64(n), ClusterSizes: map[int64]int64{2: int64(n)}})
	return nil
}

// writeSummaryFn writes summary.json after a pause and passes on its
// element, which summary.Done turns into zero counts.
type writeSummaryFn struct{ Dir string }

func (f *writeSummaryFn) ProcessElement(ctx context.Context, n int, emit func(int)) error {
	time.Sleep(300 * time.Millisecond)
	if err := result.WriteBytes(ctx, result.Join(f.Dir, "summary.json"), []byte("{}\n")); err != nil {
		return err
	}
	emit(n)
	return nil
}

// TestWriteManifestOnPrism runs WriteManifest on the embedded runner after
// three collections: counts from a stage that writes an output and a stray
// file, a collection waited for through Done whose stage writes
// summary.json, and plain counts. manifest.json must hold the given fields
// and the merged counts, byte for byte as MarshalIndent writes them, and the
// run directory exactly the listed outputs: the stray file written during
// the run, after the manifest's stage was built, is gone, which it can only
// be if the cleaning ran after that stage.
func TestWriteManifestOnPrism(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run-7")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// A shard of an earlier attempt with another shard count.
	if err := os.WriteFile(filepath.Join(dir, "clusters-00000-of-00002.jsonl"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	started := time.Date(2026, 3, 1, 12, 30, 5, 123456789, time.UTC)
	m := Manifest{
		RunID:      "run-7",
		Version:    "v0.2.0",
		Commit:     "ef720bf",
		Parameters: json.RawMessage(`{"shingle_length": 12, "scheme": "oph"}`),
		Inputs: []document.Input{
			{Path: "/dumps/hywiki-20260301-pages-articles.xml.bz2", Bytes: 123456, DumpDate: "2026-03-01", DBName: "hywiki",
				Checksum: "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
			{Path: "gs://b/Katrina.xml", Bytes: 9, Checksum: "crc32c:e3069283", MD5: "25f9e794323b453885f5181f1b624d0b"},
		},
		Outputs: []string{"clusters-00000-of-00001.jsonl", "summary.json", "manifest.json"},
		Started: started,
	}

	before := time.Now().UTC()
	p, s := beam.NewPipelineWithRoot()
	shardCounts := beam.ParDo(s, &writeShardFn{Dir: dir}, beam.Create(s, 3))
	summaryDone := Done(s, beam.ParDo(s, &writeSummaryFn{Dir: dir}, beam.Create(s, 1)))
	plain := beam.Create(s, counters.Counts{EdgesVerified: 4, CandidateEdges: 5}, counters.Counts{EdgesRejected: 1, ClusterSizes: map[int64]int64{2: 1, 5: 1}})
	WriteManifest(s, result.Join(dir, "manifest.json"), m, shardCounts, summaryDone, plain)
	ptest.RunAndValidate(t, p)
	after := time.Now().UTC()

	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := slices.Clone(m.Outputs)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("run directory holds %q, want exactly the outputs %q", names, want)
	}

	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatalf("manifest.json: %v\n%s", err, b)
	}
	wantCounts := counters.Counts{
		Clusters: 3, SentencesInClusters: 6, ClusterSizes: map[int64]int64{2: 4, 5: 1},
		CandidateEdges: 5, EdgesVerified: 4, EdgesRejected: 1,
	}
	wantFields := map[string]string{
		"run_id":     `"run-7"`,
		"version":    `"v0.2.0"`,
		"commit":     `"ef720bf"`,
		"parameters": `{"shingle_length":12,"scheme":"oph"}`,
		"inputs": `[{"path":"/dumps/hywiki-20260301-pages-articles.xml.bz2","bytes":123456,"dump_date":"2026-03-01","dbname":"hywiki",` +
			`"checksum":"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},` +
			`{"path":"gs://b/Katrina.xml","bytes":9,"checksum":"crc32c:e3069283","md5":"25f9e794323b453885f5181f1b624d0b"}]`,
		"outputs": `["clusters-00000-of-00001.jsonl","summary.json","manifest.json"]`,
		"started": `"2026-03-01T12:30:05.123456789Z"`,
		"counts":  mustJSON(t, wantCounts),
	}
	for name, raw := range fields {
		if name == "finished" {
			continue
		}
		var got bytes.Buffer
		if err := json.Compact(&got, raw); err != nil {
			t.Fatal(err)
		}
		if w, ok := wantFields[name]; !ok {
			t.Errorf("manifest has an unexpected field %q: %s", name, raw)
		} else if got.String() != w {
			t.Errorf("manifest %q = %s, want %s", name, got.String(), w)
		}
	}
	for name := range wantFields {
		if _, ok := fields[name]; !ok {
			t.Errorf("manifest has no field %q", name)
		}
	}
	var finished time.Time
	if err := json.Unmarshal(fields["finished"], &finished); err != nil {
		t.Fatalf("manifest finished = %s: %v", fields["finished"], err)
	}
	if finished.Location() != time.UTC || finished.Before(before) || finished.After(after) {
		t.Errorf("manifest finished = %v, want a UTC time within the run, [%v, %v]", finished, before, after)
	}

	// The whole file, as WriteManifest formats it.
	wm := m
	wm.Counts, wm.Finished = wantCounts, finished
	wb, err := json.MarshalIndent(wm, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, append(wb, '\n')) {
		t.Errorf("manifest.json =\n%s\nwant\n%s", b, wb)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
