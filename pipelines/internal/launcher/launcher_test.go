package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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

// TestExpandAbsoluteRefusesStreams refuses a pipe, a named FIFO (without
// opening it: that would wait for a writer), a device and a directory
// before any work, naming the file and what it is.
func TestExpandAbsoluteRefusesStreams(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "dump.xml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	pipe := fmt.Sprintf("/proc/self/fd/%d", pr.Fd())
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ file, what string }{
		{fifo, "a pipe or FIFO"},
		{pipe, "a pipe or FIFO"},
		{"/dev/null", "a device"},
		{sub, "a directory"},
	} {
		_, err := ExpandAbsolute(t.Context(), tt.file)
		want := fmt.Sprintf("input %s is %s: inputs must be regular files", tt.file, tt.what)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("ExpandAbsolute(%s) = %v, want an error starting %q", tt.file, err, want)
		}
	}
}

// TestExpandBracketName reads a file whose name holds brackets when they
// are escaped, and says how to escape them when they are not.
func TestExpandBracketName(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "dump[1].xml")
	if err := os.WriteFile(name, []byte("<mediawiki/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if files, err := ExpandAbsolute(t.Context(), filepath.Join(dir, `dump\[1\].xml`)); err != nil || len(files) != 1 || files[0] != name {
		t.Errorf("escaped: %v, %v; want [%s]", files, err, name)
	}
	_, err := ExpandAbsolute(t.Context(), name)
	if err == nil || !strings.HasSuffix(err.Error(), `(a name holding "[" is read as a glob's character class: write \[ and \] for the characters themselves)`) {
		t.Errorf("unescaped: %v; want the hint", err)
	}
}
