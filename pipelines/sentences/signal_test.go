package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/io/rundir"
	"github.com/neardup/neardup/pipelines/internal/launcher"
)

// TestSignalRemovesTemps runs, in a child process, a launcher that holds a
// run's claim with a half-written temporary file in the run directory, and
// sends it SIGTERM: it must exit with 143, leaving no temporary file, no
// manifest and no claim.
func TestSignalRemovesTemps(t *testing.T) {
	if dir := os.Getenv("NEARDUP_SIGNAL_CHILD"); dir != "" {
		ctx := context.Background()
		claim, err := rundir.Claim(ctx, dir)
		if err != nil {
			os.Exit(3)
		}
		if err := os.WriteFile(filepath.Join(dir, result.TempPrefix+"clusters-00000-of-00001.jsonl-0123456789abcdef"), []byte("{\"id\":"), 0o644); err != nil {
			os.Exit(4)
		}
		launcher.StopRunOnSignal("sentences", dir, claim, func() {}, os.Stderr)
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		time.Sleep(10 * time.Second)
		os.Exit(5) // the handler did not exit
	}
	dir := filepath.Join(t.TempDir(), "run")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestSignalRemovesTemps$")
	cmd.Env = append(os.Environ(), "NEARDUP_SIGNAL_CHILD="+dir)
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 143 {
		t.Fatalf("child: %v, want exit status 143", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("%s left in the run directory", e.Name())
	}
}
