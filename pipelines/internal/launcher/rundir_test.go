package launcher

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/neardup/neardup/io/rundir"
)

func init() { register.Function1x1(failFn) }

func TestMain(m *testing.M) { ptest.Main(m) }

// TestSecondLauncherIsRefused holds the claim of a run directory as another
// launcher would, and checks that a launch of the same run is refused with
// a message naming the holder, then allowed once the claim is released; a
// finished run is refused and its claim given back.
func TestSecondLauncherIsRefused(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "r[1]")
	first, err := rundir.Claim(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = ClaimRunDir(ctx, dir, "r[1]")
	var claimed *rundir.ClaimedError
	if !errors.As(err, &claimed) || !strings.Contains(err.Error(), "is being written by another process") {
		t.Fatalf("second launcher: %v, want a ClaimedError", err)
	}
	if err := first.Release(ctx); err != nil {
		t.Fatal(err)
	}
	_, claim, err := ClaimRunDir(ctx, dir, "r[1]")
	if err != nil {
		t.Fatalf("after the release: %v", err)
	}
	claim.Release(ctx)

	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "run r[1] already finished (" + filepath.Join(dir, "manifest.json") + " exists); choose another --run_id or remove that directory"
	if _, _, err := ClaimRunDir(ctx, dir, "r[1]"); err == nil || err.Error() != want {
		t.Fatalf("finished run: %v, want %q", err, want)
	}
	again, err := rundir.Claim(ctx, dir)
	if err != nil {
		t.Fatalf("the refused launcher kept its claim: %v", err)
	}
	again.Release(ctx)
}

// TestFailedLaunchRemovesItsDirectory runs launches that fail after the
// claim (a spill directory gone since the flags were checked, a watch that
// cannot start, a pipeline that fails) and checks that each removes the
// run directory it made, leaves one that existed before, and that a run
// that wrote something keeps its directory.
func TestFailedLaunchRemovesItsDirectory(t *testing.T) {
	ctx := context.Background()
	gone := filepath.Join(t.TempDir(), "gone")
	failingWatch := func() (func(), error) { return nil, errors.New("cannot profile") }
	for _, tt := range []struct {
		name     string
		spillDir string
		watch    func() (func(), error)
		want     string
	}{
		{"spill dir gone", gone, nil, "--spill_dir: "},
		{"watch fails", "off", failingWatch, "cannot profile"},
		{"pipeline fails", "off", nil, "pipeline failed: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, existed := range []bool{false, true} {
				dir := filepath.Join(t.TempDir(), "run")
				if existed {
					if err := os.Mkdir(dir, 0o755); err != nil {
						t.Fatal(err)
					}
				}
				l := Launch{Program: "test", RunID: "run", Dir: dir, SpillDir: tt.spillDir, WorkersHere: true}
				err := l.Run(ctx, failingPipeline(), tt.watch)
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("existed %v: Run = %v, want %q", existed, err, tt.want)
				}
				if _, serr := os.Stat(dir); (serr == nil) != existed {
					t.Errorf("existed %v: after the failed launch, stat %s: %v", existed, dir, serr)
				}
			}
		})
	}

	// A run that wrote something keeps its directory, for its next launch.
	dir := filepath.Join(t.TempDir(), "run")
	l := Launch{Program: "test", RunID: "run", Dir: dir, SpillDir: "off"}
	wrote := func() (func(), error) { return func() {}, os.WriteFile(filepath.Join(dir, "part.tmp"), nil, 0o644) }
	if err := l.Run(ctx, failingPipeline(), wrote); err == nil {
		t.Fatal("the failing pipeline ran")
	}
	if _, err := os.Stat(filepath.Join(dir, "part.tmp")); err != nil {
		t.Errorf("a run that wrote a file lost it: %v", err)
	}
}

// failingPipeline is a pipeline whose one DoFn fails.
func failingPipeline() *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	beam.ParDo0(s, failFn, beam.Create(s, 1))
	return p
}

func failFn(int) error { return errors.New("boom") }
