package summary

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/io/rundir"
)

// TestManifestCleansRunDir writes a manifest into a run directory that a
// killed run with another shard count left files in: the manifest's
// directory then holds exactly what it lists (and the claim).
func TestManifestCleansRunDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r[1]")
	os.MkdirAll(dir, 0o755)
	outputs := []string{"clusters-00000-of-00002.jsonl", "clusters-00001-of-00002.jsonl", "summary.json", "manifest.json"}
	for _, name := range append([]string{"clusters-00000-of-00001.jsonl", ".tmp-summary.json-00ff", rundir.ClaimName}, outputs[:3]...) {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fn := &manifestFn{Path: result.Join(dir, "manifest.json"), Manifest: Manifest{RunID: "r[1]", Outputs: outputs}}
	if err := fn.ProcessElement(t.Context(), counters.Counts{Clusters: 3}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := append(slices.Clone(outputs), rundir.ClaimName)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("run directory holds %q, want %q", got, want)
	}
	var m Manifest
	b, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err := json.Unmarshal(b, &m); err != nil || m.Counts.Clusters != 3 || m.Finished.IsZero() {
		t.Errorf("manifest %s: %v", b, err)
	}

	// Outputs that do not name the manifest are no list of the directory.
	other := filepath.Join(dir, "other.txt")
	os.WriteFile(other, nil, 0o644)
	fn.Manifest.Outputs = nil
	if err := fn.ProcessElement(t.Context(), counters.Counts{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a manifest without outputs removed %s", other)
	}
}
