package launcher

import (
	"os"
	"path/filepath"
	"testing"
)

func TestEmbedded(t *testing.T) {
	for runner, want := range map[string]bool{
		"": true, "prism": true, "PrismRunner": true, "direct": true,
		"flink": false, "spark": false, "dataflow": false, "universal": false, "portable": false, "no-such": false,
	} {
		if got := Embedded(runner); got != want {
			t.Errorf("Embedded(%q) = %v, want %v", runner, got, want)
		}
	}
}

func TestPaths(t *testing.T) {
	for p, want := range map[string]bool{"out/x": true, "/abs": true, "file:///tmp/x": true, "gs://b/o": false} {
		if got := LocalPath(p); got != want {
			t.Errorf("LocalPath(%q) = %v, want %v", p, got, want)
		}
	}
	if got, err := Absolute("gs://b/dumps/*.bz2"); err != nil || got != "gs://b/dumps/*.bz2" {
		t.Errorf("Absolute(gs://…) = %q, %v; want it unchanged", got, err)
	}
	if got, err := Absolute("rel/file.xml"); err != nil || !filepath.IsAbs(got) {
		t.Errorf("Absolute(rel/file.xml) = %q, %v; want an absolute path", got, err)
	}
}

func TestExpandAbsolute(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.xml", "b.xml"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("<mediawiki/>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := ExpandAbsolute(t.Context(), filepath.Join(dir, "*.xml"))
	if err != nil || len(files) != 2 || !filepath.IsAbs(files[0]) {
		t.Errorf("ExpandAbsolute = %v, %v; want the two files, absolute", files, err)
	}
	if _, err := ExpandAbsolute(t.Context(), filepath.Join(dir, "*.missing")); err == nil {
		t.Error("ExpandAbsolute of a pattern matching nothing: no error")
	}
}

func TestRemoveIfEmpty(t *testing.T) {
	empty, full := filepath.Join(t.TempDir(), "run"), t.TempDir()
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(full, "summary.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	RemoveIfEmpty(empty)
	RemoveIfEmpty(full)
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Errorf("the empty run directory is still there: %v", err)
	}
	if _, err := os.Stat(full); err != nil {
		t.Errorf("the run directory holding a file was removed: %v", err)
	}
}
