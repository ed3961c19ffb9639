package launcher

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/rundir"
)

// SpillDirUsage is the help of the --spill_dir flag both pipelines have.
const SpillDirUsage = "with the workers in this process (embedded runner, LOOPBACK): write the shuffles' batches under this directory while the run lasts, instead of holding them in memory (empty: the system's temporary directory; off: hold them in memory)"

// Spill makes the run's shuffles write their batches under dir
// (shuffle.SpillTo; the system's temporary directory if dir is empty), or
// does nothing if dir is "off". Call it only when the workers run in this
// process (WorkersHere). The function it returns removes the batches; it
// may be called more than once, from any goroutine.
func Spill(dir, runID string) (unspill func(), err error) {
	if dir == "off" {
		return func() {}, nil
	}
	removeStaleSpills(dir, runID)
	s, err := shuffle.SpillTo(dir, "neardup-"+runID)
	if err != nil {
		return nil, fmt.Errorf("--spill_dir: %w", err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if err := s.Close(); err != nil {
				log.Print(err)
			}
		})
	}, nil
}

// removeStaleSpills removes the spill directories a killed launcher of the
// same run left under dir (SIGKILL runs no clean-up): the caller holds the
// run's claim, so no live launcher of the run spills there.
func removeStaleSpills(dir, runID string) {
	if dir == "" {
		dir = os.TempDir()
	}
	stale, _ := filepath.Glob(filepath.Join(dir, "neardup-"+runID+"-spill-*"))
	for _, d := range stale {
		if err := os.RemoveAll(d); err != nil {
			log.Printf("removing the spill directory of a killed run: %v", err)
		}
	}
}

// CheckSpillDir checks a --spill_dir before any work, so that a mistake
// is a command-line error (status 2) that leaves no run directory: "" (the
// system's temporary directory) and "off" are fine; any other must be a
// directory this process can create files in.
func CheckSpillDir(dir string) error {
	if dir == "" || dir == "off" {
		return nil
	}
	info, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("--spill_dir: %w", err)
	case !info.IsDir():
		return fmt.Errorf("--spill_dir %s is not a directory", dir)
	}
	probe, err := os.MkdirTemp(dir, ".neardup-probe-")
	if err != nil {
		return fmt.Errorf("--spill_dir %s is not writable: %w", dir, err)
	}
	return os.Remove(probe)
}

// CleanUpOnSignal makes SIGINT and SIGTERM run cleanup and then exit the
// process with status 130 or 143. It returns the function that stops
// watching.
func CleanUpOnSignal(cleanup func(os.Signal)) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			cleanup(sig)
			code := 130
			if sig == syscall.SIGTERM {
				code = 143
			}
			os.Exit(code)
		case <-done:
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}

// StopRunOnSignal makes SIGINT and SIGTERM end a run cleanly before the
// process exits with status 130 or 143: the run's temporary files are
// removed from dir, its claim released and cleanup run (which removes the
// spilled shuffles), and one line to stderr says so, naming an error only
// if there was one. The run directory then holds no manifest, no claim
// and no half-written file. It returns the function that stops watching.
func StopRunOnSignal(program, dir string, claim *rundir.RunClaim, cleanup func(), stderr io.Writer) (stop func()) {
	return CleanUpOnSignal(func(sig os.Signal) {
		ctx := context.Background()
		removed, err := rundir.RemoveTemps(ctx, dir)
		if rerr := claim.Release(ctx); err == nil {
			err = rerr
		}
		cleanup()
		msg := fmt.Sprintf("%s: %v: run stopped; removed %d temporary file(s) from %s; no manifest.json was written", program, sig, len(removed), dir)
		if err != nil {
			msg += fmt.Sprintf(" (error: %v)", err)
		}
		fmt.Fprintln(stderr, msg)
	})
}
