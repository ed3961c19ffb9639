//go:build unix

package rundir

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestClaimExcludesSecondClaim claims a run directory twice from one
// process (two open file descriptions of the lock file conflict): the second
// claim fails with an error naming the holder, until the first is released.
func TestClaimExcludesSecondClaim(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "out", "run[1]")
	c1, err := Claim(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ClaimName)); err != nil {
		t.Fatalf("claim file: %v", err)
	}
	_, err = Claim(ctx, dir)
	var claimed *ClaimedError
	if !errors.As(err, &claimed) {
		t.Fatalf("second Claim(%s) = %v, want a *ClaimedError", dir, err)
	}
	host, _ := os.Hostname()
	if claimed.Owner.PID != os.Getpid() || claimed.Owner.Host != host || claimed.Owner.Started.IsZero() {
		t.Errorf("holder = %+v, want this process (host %s, pid %d)", claimed.Owner, host, os.Getpid())
	}
	want := fmt.Sprintf("run %s is being written by another process (host %s, pid %d, since ", dir, host, os.Getpid())
	if msg := err.Error(); !strings.HasPrefix(msg, want) || !strings.HasSuffix(msg, "); wait for it or choose another --run_id") {
		t.Errorf("error = %q, want %q…; wait for it or choose another --run_id", msg, want)
	}
	if err := c1.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c1.Release(ctx); err != nil {
		t.Errorf("second Release = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ClaimName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("claim file after Release: %v, want it removed", err)
	}
	claimFree(t, dir, "Release")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("run directory holds %d entries after the claims, want none", len(entries))
	}
}

// TestClaimOneHolderAtATime has goroutines claim and release one directory
// over and over: never are two claims held at once (a claim file removed by
// its releaser while another process had it open is not taken for a claim).
func TestClaimOneHolderAtATime(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	var holders, wins atomic.Int32
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			for range 60 {
				c, err := Claim(ctx, dir)
				var claimed *ClaimedError
				if errors.As(err, &claimed) {
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				wins.Add(1)
				if n := holders.Add(1); n != 1 {
					t.Errorf("%d claims held at once", n)
				}
				time.Sleep(100 * time.Microsecond)
				holders.Add(-1)
				if err := c.Release(ctx); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if wins.Load() == 0 {
		t.Error("no claim ever succeeded")
	}
}

const helperEnv = "NEARDUP_CLAIM_HELPER_DIR"

// TestClaimHelperProcess is not a test: run by TestClaimExcludesOtherProcess
// as a child process, it claims the directory it is given, says so, and
// waits to be killed.
func TestClaimHelperProcess(t *testing.T) {
	dir := os.Getenv(helperEnv)
	if dir == "" {
		t.Skip("helper process for TestClaimExcludesOtherProcess")
	}
	if _, err := Claim(t.Context(), dir); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("claimed")
	time.Sleep(time.Minute)
	os.Exit(1)
}

// TestClaimExcludesOtherProcess claims a directory from a child process:
// this process cannot claim it, and can once the child is killed (SIGKILL:
// the kernel drops its lock; its claim file stays but is not a claim).
func TestClaimExcludesOtherProcess(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "a[b]")
	cmd := exec.Command(os.Args[0], "-test.run=^TestClaimHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "claimed\n" {
		t.Fatalf("helper said %q, %v", line, err)
	}

	_, err = Claim(ctx, dir)
	var claimed *ClaimedError
	if !errors.As(err, &claimed) {
		t.Fatalf("Claim(%s) held by pid %d = %v, want a *ClaimedError", dir, cmd.Process.Pid, err)
	}
	if claimed.Owner.PID != cmd.Process.Pid || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", cmd.Process.Pid)) {
		t.Errorf("error %q names %+v, want pid %d", err, claimed.Owner, cmd.Process.Pid)
	}

	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(dir, ClaimName)); err != nil {
		t.Fatalf("the killed process's claim file: %v (want it left behind, to prove a leftover file is no claim)", err)
	}
	claimFree(t, dir, "the holder was killed")
}

// TestClaimUnwritable checks that a claim on a directory that cannot be
// created fails with an error naming it.
func TestClaimUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(file, "run")
	if _, err := Claim(t.Context(), dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("Claim(%s) = %v, want an error naming it", dir, err)
	}
}

// TestClaimFileReplacedWhileOpening opens the claim file, then lets its
// holder release it (removing it) and a third claimant create and lock a
// new one before locking the file it opened: that lock, on a removed file,
// is no claim, and the claim fails naming the third claimant.
func TestClaimFileReplacedWhileOpening(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	first, err := Claim(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	var third *RunClaim
	afterOpenClaim = func() {
		afterOpenClaim = nil
		if err := first.Release(ctx); err != nil {
			t.Error(err)
		}
		var terr error
		if third, terr = Claim(ctx, dir); terr != nil {
			t.Errorf("third Claim: %v", terr)
		}
	}
	defer func() { afterOpenClaim = nil }()
	c, err := Claim(ctx, dir)
	if third == nil {
		t.Fatal("the race was not run")
	}
	defer third.Release(ctx)
	if err == nil {
		c.Release(ctx)
		t.Fatal("two claims held at once: the second locked a removed claim file")
	}
	var claimed *ClaimedError
	if !errors.As(err, &claimed) || claimed.Owner != third.Owner() {
		t.Errorf("Claim = %v, want a *ClaimedError naming %+v", err, third.Owner())
	}
}
