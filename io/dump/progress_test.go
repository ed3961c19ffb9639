package dump

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/progress"
)

// TestProgressCounters reads two plain files, one in byte ranges, and a
// gzip file on the embedded runner: the live Beam counters report every
// page read, as pages_read counts them, and every byte of the files as
// they are stored (compressed bytes for the gzip file), once.
func TestProgressCounters(t *testing.T) {
	sample := filepath.Join("..", "..", "testdata", "sample", "simplewiki-sample.xml")
	katrina := filepath.Join("..", "..", "testdata", "katrina", "katrina-slice.xml")
	gz := gzipFile(t, sample)
	files := []string{sample, katrina, gz}
	srcs, err := Plan(t.Context(), files)
	if err != nil {
		t.Fatal(err)
	}
	var stored int64
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		stored += fi.Size()
	}
	p, s := beam.NewPipelineWithRoot()
	_, _, counts := Read(s, beam.CreateList(s, srcs), ReadOptions{SplitBytes: 16 << 10})
	counters.Total(s, counts)
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, c := range res.Metrics().Query(func(r metrics.SingleResult) bool { return r.Namespace() == counters.Namespace }).Counters() {
		got[c.Name()] += c.Result()
	}
	if got[progress.PagesCounter] != got["pages_read"] || got["pages_read"] == 0 {
		t.Errorf("%s = %d, pages_read = %d; want them equal and not 0", progress.PagesCounter, got[progress.PagesCounter], got["pages_read"])
	}
	if b := got[progress.BytesCounter]; b != stored {
		t.Errorf("%s = %d, want the %d bytes of the files", progress.BytesCounter, b, stored)
	}
}

// gzipFile writes a gzip copy of path to the test's temp dir.
func gzipFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), filepath.Base(path)+".gz")
	if err := os.WriteFile(out, gzipMembers(t, b), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}
