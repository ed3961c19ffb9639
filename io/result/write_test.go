package result

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

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
