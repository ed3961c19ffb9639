package rundir

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/neardup/neardup/io/result"
)

// globNames are run ids and output roots that are glob patterns, some of
// which match other names.
var globNames = []string{"a[b]", "r[1]", "star*", "what?", "{x,y}", "[", "]", "r1"}

// writeManifests writes the manifest.json of each run id under root,
// checking that Exists finds it once written and not before.
func writeManifests(t *testing.T, root string, ids []string) {
	t.Helper()
	for _, id := range ids {
		manifest := result.Join(result.Join(root, id), "manifest.json")
		if ok, err := result.Exists(t.Context(), manifest); ok || err != nil {
			t.Errorf("result.Exists(%s) = %v, %v before it was written, want false", manifest, ok, err)
		}
		if err := result.WriteBytes(t.Context(), manifest, []byte("{}")); err != nil {
			t.Fatal(err)
		}
		if ok, err := result.Exists(t.Context(), manifest); !ok || err != nil {
			t.Errorf("result.Exists(%s) = %v, %v, want true", manifest, ok, err)
		}
	}
}

// TestExistsTakesNamesLiterally checks that a finished run is found
// whatever its name: Exists looks the file up, it does not list a pattern.
func TestExistsTakesNamesLiterally(t *testing.T) {
	ctx := t.Context()
	root := filepath.Join(t.TempDir(), "out[put]")
	writeManifests(t, root, globNames)
	// "r?" matches r1 as a pattern, but no run is called r?.
	for _, id := range []string{"r?", "r*", "r[0-9]"} {
		manifest := result.Join(result.Join(root, id), "manifest.json")
		if ok, err := result.Exists(ctx, manifest); ok || err != nil {
			t.Errorf("result.Exists(%s) = %v, %v, want false (only a pattern matching it exists)", manifest, ok, err)
		}
	}
}

// TestCleanKeepsOnlyListed fills a run directory (named with glob
// characters) with what a killed run and its rerun leave, and checks that
// Clean leaves exactly the kept files and the claim, and nothing outside
// the directory is touched.
func TestCleanKeepsOnlyListed(t *testing.T) {
	ctx := t.Context()
	root := t.TempDir()
	dir := filepath.Join(root, "r[1]")
	files := map[string]bool{ // name: kept
		"clusters-00000-of-00002.jsonl":      true,
		"clusters-00001-of-00002.jsonl":      true,
		"summary.json":                       true,
		ClaimName:                            true,
		"clusters-00000-of-00001.jsonl":      false, // an earlier attempt's shard
		".tmp-summary.json-0123456789abcdef": false,
		".neardup-write-check":               false,
		"r[1]":                               false,
		"*":                                  false,
	}
	for name := range files {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Beside and below the directory, and behind a link: all kept.
	outside := []string{filepath.Join(root, "r1", "x.jsonl"), filepath.Join(root, "r[1]x", "y.jsonl"), filepath.Join(dir, "sub", "z.jsonl"), filepath.Join(root, "target")}
	for _, p := range outside {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "target"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	files["link"] = false

	// Names in keep are no patterns either, nor paths.
	keep := []string{"clusters-00000-of-00002.jsonl", "clusters-00001-of-00002.jsonl", "summary.json", "manifest.json", "clusters-*", "../target", "/"}
	removed, err := Clean(ctx, dir, keep)
	if err != nil {
		t.Fatal(err)
	}
	var wantRemoved []string
	for name, kept := range files {
		_, err := os.Lstat(filepath.Join(dir, name))
		if kept != (err == nil) {
			t.Errorf("%s: kept %v, want %v", name, err == nil, kept)
		}
		if !kept {
			wantRemoved = append(wantRemoved, filepath.Join(dir, name))
		}
	}
	slices.Sort(removed)
	slices.Sort(wantRemoved)
	if !slices.Equal(removed, wantRemoved) {
		t.Errorf("Clean removed %q, want %q", removed, wantRemoved)
	}
	for _, p := range outside {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("Clean removed %s, outside the run directory: %v", p, err)
		}
	}
	if removed, err := Clean(ctx, filepath.Join(root, "missing"), nil); err != nil || len(removed) != 0 {
		t.Errorf("Clean(missing directory) = %q, %v", removed, err)
	}
	if _, err := Clean(ctx, "/", nil); err == nil {
		t.Error("Clean(/) was accepted")
	}
}

// TestRemoveTemps checks that RemoveTemps removes only temporary files,
// such as those a write interrupted by a full disk or a signal leaves.
func TestRemoveTemps(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "{x,y}")
	os.MkdirAll(dir, 0o755)
	for _, name := range []string{"clusters-00000-of-00001.jsonl", ".tmp-clusters-00000-of-00001.jsonl-00ff", ".tmp-summary.json", ClaimName} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := RemoveTemps(ctx, dir)
	slices.Sort(removed)
	want := []string{filepath.Join(dir, ".tmp-clusters-00000-of-00001.jsonl-00ff"), filepath.Join(dir, ".tmp-summary.json")}
	if err != nil || !slices.Equal(removed, want) {
		t.Errorf("RemoveTemps = %q, %v, want %q", removed, err, want)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d files left, want the shard and the claim", len(entries))
	}
}
