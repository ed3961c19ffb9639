package result

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// globNames are run ids and output roots that are glob patterns, some of
// which match other names.
var globNames = []string{"a[b]", "r[1]", "star*", "what?", "{x,y}", "[", "]", "r1"}

// writeManifests writes the manifest.json of each run id under root,
// checking that Exists finds it once written and not before.
func writeManifests(t *testing.T, root string, ids []string) {
	t.Helper()
	for _, id := range ids {
		manifest := Join(Join(root, id), "manifest.json")
		if ok, err := Exists(t.Context(), manifest); ok || err != nil {
			t.Errorf("Exists(%s) = %v, %v before it was written, want false", manifest, ok, err)
		}
		if err := WriteBytes(t.Context(), manifest, []byte("{}")); err != nil {
			t.Fatal(err)
		}
		if ok, err := Exists(t.Context(), manifest); !ok || err != nil {
			t.Errorf("Exists(%s) = %v, %v, want true", manifest, ok, err)
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
		manifest := Join(Join(root, id), "manifest.json")
		if ok, err := Exists(ctx, manifest); ok || err != nil {
			t.Errorf("Exists(%s) = %v, %v, want false (only a pattern matching it exists)", manifest, ok, err)
		}
	}
}

// TestConcurrentWritersOfOneName has several writers write the same file
// at once, as two runs (or a bundle and its retry) do: each writes its own
// temporary file, so the file ends up as one writer's bytes whole, and no
// write fails.
func TestConcurrentWritersOfOneName(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	name := Join(dir, "clusters-00000-of-00001.jsonl")
	contents := make([][][]byte, 4)
	for w := range contents {
		for i := range 2000 {
			contents[w] = append(contents[w], fmt.Appendf(nil, `{"writer":%d,"line":%d,"pad":"%s"}`, w, i, strings.Repeat("x", 100)))
		}
	}
	var wg sync.WaitGroup
	for w := range contents {
		wg.Go(func() {
			for range 15 {
				if err := WriteFile(ctx, name, contents[w]); err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
				runtime.Gosched()
			}
		})
	}
	wg.Wait()
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	whole := false
	for _, c := range contents {
		whole = whole || bytes.Equal(got, append(bytes.Join(c, []byte("\n")), '\n'))
	}
	if !whole {
		t.Errorf("%s holds %d bytes that are no writer's whole file", name, len(got))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files left, want only %s", len(entries), name)
	}
	if a, b := tempName(name), tempName(name); a == b || !strings.HasPrefix(filepath.Base(a), TempPrefix+"clusters-00000-of-00001.jsonl-") || filepath.Dir(a) != dir {
		t.Errorf("tempName(%s) = %s, then %s: want unique names beside it starting %s", name, a, b, TempPrefix)
	}
}

// TestWriteErrorNamesFile checks that a failed write says which file it
// was writing and leaves no temporary file.
func TestWriteErrorNamesFile(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	name := Join(dir, "summary.json")
	errDisk := errors.New("no space left on device")
	err := writeAtomically(ctx, name, func(w *bufio.Writer) error {
		w.WriteString("{")
		return errDisk
	})
	if !errors.Is(err, errDisk) || !strings.Contains(err.Error(), name) {
		t.Errorf("failed write = %v, want an error naming %s and wrapping %v", err, name, errDisk)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed write left %d files", len(entries))
	}
	blocked := Join(Join(dir, "file"), "clusters-00000-of-00001.jsonl")
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o644)
	if err := WriteFile(ctx, blocked, nil); err == nil || !strings.Contains(err.Error(), blocked) {
		t.Errorf("WriteFile(%s) under a regular file = %v, want an error naming it", blocked, err)
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
