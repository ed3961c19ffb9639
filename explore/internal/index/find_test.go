package index

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/neardup/neardup/explore/internal/store"
)

// TestRunsIn lists the finished runs of an output directory, the latest
// first: a directory without a manifest, or with one that does not read,
// is no run, and a file is no directory.
func TestRunsIn(t *testing.T) {
	out := t.TempDir()
	for name, manifest := range map[string]string{
		"r-old":     `{"run_id": "r-old", "finished": "2026-11-01T10:00:00Z"}`,
		"r-new":     `{"run_id": "r-new", "finished": "2026-11-27T10:00:00Z"}`,
		"r-new-tie": `{"run_id": "r-new-tie", "finished": "2026-11-27T10:00:00Z"}`,
		"r-broken":  `{"run_id": `,
		"r-running": "",
	} {
		os.Mkdir(filepath.Join(out, name), 0o755)
		if manifest != "" {
			if err := os.WriteFile(filepath.Join(out, name, "manifest.json"), []byte(manifest), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	os.WriteFile(filepath.Join(out, "notes.txt"), nil, 0o644)
	st, err := store.Open(t.Context(), out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := RunsIn(t.Context(), st)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range runs {
		names = append(names, r.Name)
	}
	if want := []string{"r-new", "r-new-tie", "r-old"}; !slices.Equal(names, want) {
		t.Errorf("RunsIn = %q, want %q", names, want)
	}
	empty, _ := store.Open(t.Context(), filepath.Join(out, "none"))
	if runs, err := RunsIn(t.Context(), empty); len(runs) != 0 || err != nil {
		t.Errorf("RunsIn of a missing directory = %v, %v; want nothing", runs, err)
	}
}
