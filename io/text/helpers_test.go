package text

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/klauspost/compress/zstd"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
)

// TestMain runs the package's pipeline tests on ptest's runner, Prism
// unless --runner says otherwise.
func TestMain(m *testing.M) { ptest.Main(m) }

// writeFile writes b to dir/name and returns its path.
func writeFile(t testing.TB, dir, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func gzipped(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zstded(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := zstd.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// drained is everything Drain emitted and counted for one file.
type drained struct {
	pages  []document.Page
	dead   []document.DeadLetter
	counts counters.Counts
}

// drainFile opens src.File with dump.Open and drains it.
func drainFile(t testing.TB, src Source, maxDocBytes int) drained {
	t.Helper()
	rc, err := dump.Open(context.Background(), src.File)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	return drainReader(t, rc, src, maxDocBytes)
}

func drainReader(t testing.TB, r io.Reader, src Source, maxDocBytes int) drained {
	t.Helper()
	var d drained
	err := Drain(r, src, maxDocBytes, &d.counts,
		func(p document.Page) { d.pages = append(d.pages, p) },
		func(l document.DeadLetter) { d.dead = append(d.dead, l) })
	if err != nil {
		t.Fatal(err)
	}
	return d
}
