package launcher

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neardup/neardup/io/rundir"
)

func TestSpill(t *testing.T) {
	unspill, err := Spill("off", "r")
	if err != nil {
		t.Fatal(err)
	}
	unspill()
	dir := t.TempDir()
	unspill, err = Spill(dir, "run-1")
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name()[:len("neardup-run-1-spill-")] != "neardup-run-1-spill-" {
		t.Fatalf("spill directory holds %v, want one neardup-run-1-spill-*", entries)
	}
	if _, err := Spill(dir, "run-2"); err == nil {
		t.Error("a second run spilled in the same process")
	}
	unspill()
	unspill() // twice is fine
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("after unspill the directory holds %v", entries)
	}
	if _, err := Spill("/nonexistent/dir", "r"); err == nil {
		t.Error("spilling under a missing directory succeeded")
	}
}

// TestCheckSpillDir refuses, before any work, a --spill_dir that is
// missing, a file or not writable, and accepts the defaults.
func TestCheckSpillDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ dir, want string }{
		{"", ""}, {"off", ""}, {dir, ""},
		{"/nonexistent", "--spill_dir: stat /nonexistent: no such file or directory"},
		{file, "--spill_dir " + file + " is not a directory"},
		{"/proc/self", "--spill_dir /proc/self is not writable: mkdir /proc/self/.neardup-probe-"},
	} {
		err := CheckSpillDir(tt.dir)
		if got := fmt.Sprint(err); tt.want == "" && err != nil || tt.want != "" && !strings.HasPrefix(got, tt.want) {
			t.Errorf("CheckSpillDir(%q) = %v, want %q", tt.dir, err, tt.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the probe was left: %v", entries)
	}
}

// TestSpillRemovesStale removes the spill directory a killed launcher of
// the same run left, and not another run's.
func TestSpillRemovesStale(t *testing.T) {
	dir := t.TempDir()
	stale, other := filepath.Join(dir, "neardup-r1-spill-123"), filepath.Join(dir, "neardup-r2-spill-456")
	for _, d := range []string{stale, other} {
		if err := os.MkdirAll(filepath.Join(d, "batches"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	unspill, err := Spill(dir, "r1")
	if err != nil {
		t.Fatal(err)
	}
	defer unspill()
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the killed run's spill directory is still there: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another run's spill directory was removed: %v", err)
	}
}

// TestStopRunOnSignal sends SIGINT to a child holding a run's claim: it
// exits with 130, leaving no claim, and says so in one line without a nil
// error.
func TestStopRunOnSignal(t *testing.T) {
	if dir := os.Getenv("NEARDUP_STOP_CHILD"); dir != "" {
		claim, err := rundir.Claim(context.Background(), dir)
		if err != nil {
			os.Exit(3)
		}
		StopRunOnSignal("reuse", dir, claim, func() {}, os.Stderr)
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		time.Sleep(10 * time.Second)
		os.Exit(5)
	}
	dir := filepath.Join(t.TempDir(), "run")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestStopRunOnSignal$")
	cmd.Env = append(os.Environ(), "NEARDUP_STOP_CHILD="+dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("child: %v, want exit status 130", err)
	}
	want := "reuse: interrupt: run stopped; removed 0 temporary file(s) from " + dir + "; no manifest.json was written\n"
	if stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left in the run directory: %v", entries)
	}
}
