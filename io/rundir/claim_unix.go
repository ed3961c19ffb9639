//go:build unix

package rundir

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// localClaim holds an flock(2) lock on the claim file through its open
// file. flock locks belong to an open file description, so two opens of
// the file conflict even in one process, and the kernel drops the lock when
// the process ends.
type localClaim struct {
	path string
	f    *os.File
}

func claimLocal(dir string, owner Owner) (claimImpl, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("rundir: cannot create run directory %s: %w", dir, err)
	}
	path := filepath.Join(dir, ClaimName)
	// A holder removes the file while it holds the lock, so the file locked
	// here may have been removed (or replaced) in between: then lock again.
	for range 100 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("rundir: cannot create claim file %s (is the output directory writable?): %w", path, err)
		}
		if afterOpenClaim != nil {
			afterOpenClaim()
		}
		if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			if errors.Is(err, syscall.EWOULDBLOCK) {
				holder := readHolder(f)
				f.Close()
				return nil, &ClaimedError{Dir: dir, Owner: holder}
			}
			f.Close()
			return nil, fmt.Errorf("rundir: cannot lock claim file %s: %w", path, err)
		}
		if !sameFile(f, path) {
			f.Close()
			continue
		}
		err = f.Truncate(0)
		if err == nil {
			_, err = f.WriteAt(owner.encode(), 0)
		}
		if err == nil {
			err = f.Sync()
		}
		if err != nil {
			os.Remove(path)
			f.Close()
			return nil, fmt.Errorf("rundir: writing claim file %s: %w", path, err)
		}
		return &localClaim{path: path, f: f}, nil
	}
	return nil, fmt.Errorf("rundir: cannot claim %s: its claim file %s keeps being replaced", dir, path)
}

// afterOpenClaim, if set, runs between opening the claim file and locking
// it: the tests use it to release and re-claim the directory in between.
var afterOpenClaim func()

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// sameFile reports whether f is still the file at path.
func sameFile(f *os.File, path string) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	pi, err := os.Stat(path)
	return err == nil && os.SameFile(fi, pi)
}

// readHolder reads who holds the lock on f. The holder writes itself just
// after it locks, so an empty file is read again for a moment.
func readHolder(f *os.File) Owner {
	for range 20 {
		b, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<16))
		if err == nil {
			if o, ok := decodeOwner(b); ok {
				return o
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return Owner{}
}

func (c *localClaim) release(context.Context) error {
	// Remove while locked, then unlock by closing: a process that opened the
	// old file meanwhile finds it removed once it locks it, and starts over.
	err := os.Remove(c.path)
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("rundir: releasing claim file %s: %w", c.path, err)
	}
	return nil
}
