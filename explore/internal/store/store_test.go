package store

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/testshared/fakegcs"
)

// TestStores reads the same files from a local directory and from a fake
// GCS bucket.
func TestStores(t *testing.T) {
	dir := t.TempDir()
	content := "0123456789abcdef"
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	fakegcs.Setenv(t, "b", fakegcs.Object("b", "runs/r1/f.txt", []byte(content)))
	for _, d := range []string{dir, "gs://b/runs/r1", "gs://b/runs/r1/"} {
		t.Run(d, func(t *testing.T) {
			st, err := Open(t.Context(), d)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if b, err := st.ReadFile(t.Context(), "f.txt"); err != nil || string(b) != content {
				t.Errorf("ReadFile: %q, %v", b, err)
			}
			if n, err := st.Size(t.Context(), "f.txt"); err != nil || n != int64(len(content)) {
				t.Errorf("Size: %d, %v", n, err)
			}
			rc, err := st.OpenAt(t.Context(), "f.txt", 10)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(rc)
			rc.Close()
			if err != nil || string(b) != "abcdef" {
				t.Errorf("OpenAt 10: %q, %v", b, err)
			}
			p := make([]byte, 4)
			if err := st.ReadAt(t.Context(), "f.txt", p, 3); err != nil || string(p) != "3456" {
				t.Errorf("ReadAt 3: %q, %v", p, err)
			}
			if err := st.ReadAt(t.Context(), "f.txt", p, 14); err == nil || !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("ReadAt past the end: %v", err)
			}
			for _, op := range []func() error{
				func() error { _, err := st.ReadFile(t.Context(), "none"); return err },
				func() error { _, err := st.Size(t.Context(), "none"); return err },
				func() error { return st.ReadAt(t.Context(), "none", p, 0) },
			} {
				if err := op(); !IsNotExist(err) {
					t.Errorf("a missing file: %v", err)
				}
			}
		})
	}
	if _, err := Open(t.Context(), "s3://bucket/run"); err == nil || !strings.Contains(err.Error(), "only local paths and gs:// URLs") {
		t.Errorf("s3: %v", err)
	}
	st, _ := Open(t.Context(), dir)
	if _, err := st.Size(t.Context(), "sub"); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
}

// TestLocalRefusesSymlinkOut reads a file linked inside the run directory
// and refuses one linked out of it (report.html → /etc/passwd was served).
func TestLocalRefusesSymlinkOut(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "summary.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "report.html")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("summary.json", filepath.Join(dir, "inside.json")); err != nil {
		t.Fatal(err)
	}
	st, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if b, err := st.ReadFile(t.Context(), "inside.json"); err != nil || string(b) != "{}" {
		t.Errorf("a link inside: %q, %v", b, err)
	}
	want := filepath.Join(dir, "report.html") + ": statat report.html: path escapes from parent"
	if b, err := st.ReadFile(t.Context(), "report.html"); err == nil || err.Error() != want {
		t.Errorf("ReadFile of a link out: %q, %v; want the error %q", b, err, want)
	}
	if rc, err := st.OpenAt(t.Context(), "report.html", 0); err == nil {
		rc.Close()
		t.Error("OpenAt of a link out: no error")
	}
	if _, err := st.Size(t.Context(), "report.html"); err == nil {
		t.Error("Size of a link out: no error")
	}
}

// TestSubdirs lists the directories in a local directory and under a gs://
// prefix alike: files and deeper directories are not listed.
func TestSubdirs(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"r1/manifest.json", "r2/sub/x", "f"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), nil, 0o644)
	}
	fakegcs.Setenv(t, "b",
		fakegcs.Object("b", "out/r1/manifest.json", nil),
		fakegcs.Object("b", "out/r2/sub/x", nil),
		fakegcs.Object("b", "out/f", nil),
		fakegcs.Object("b", "other/r3/manifest.json", nil))
	for _, d := range []string{dir, "gs://b/out", "gs://b/out/"} {
		st, err := Open(t.Context(), d)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Subdirs(t.Context(), st)
		st.Close()
		if want := []string{"r1", "r2"}; err != nil || !slices.Equal(got, want) {
			t.Errorf("Subdirs(%s) = %q, %v; want %q", d, got, err, want)
		}
	}
}
