package launcher

// The run directory: taken for one launcher, checked before any work, and
// removed again by a launch that made it and then failed.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/io/rundir"
)

// CheckRunDir refuses to overwrite a finished run (its manifest.json
// exists) and checks that the run directory is writable, which creates it
// on a local file system. created reports whether it did not exist before,
// so that a failed launch can remove it.
func CheckRunDir(ctx context.Context, dir, runID string) (created bool, err error) {
	manifest := result.Join(dir, "manifest.json")
	switch done, err := result.Exists(ctx, manifest); {
	case err != nil:
		return false, err
	case done:
		return false, fmt.Errorf("run %s already finished (%s exists); choose another --run_id or remove that directory", runID, manifest)
	}
	created = missing(dir)
	if err := result.CheckWritable(ctx, dir); err != nil {
		return false, err
	}
	return created, nil
}

// ClaimRunDir takes the run directory for this process (rundir.Claim: a
// second launcher of the same run is refused while this one lives), then
// checks it (CheckRunDir). A check that fails gives the claim back and
// removes the directory if the claim made it and it is empty. created
// reports whether the directory did not exist before.
func ClaimRunDir(ctx context.Context, dir, runID string) (created bool, claim *rundir.RunClaim, err error) {
	created = missing(dir)
	if claim, err = rundir.Claim(ctx, dir); err != nil {
		return false, nil, err
	}
	if _, err := CheckRunDir(ctx, dir, runID); err != nil {
		claim.Release(context.WithoutCancel(ctx))
		if created {
			RemoveIfEmpty(dir)
		}
		return false, nil, err
	}
	return created, claim, nil
}

// missing reports whether dir is a local path that does not exist; a URL
// (gs://…) is never missing, since its directories are only names.
func missing(dir string) bool {
	if !LocalPath(dir) {
		return false
	}
	_, err := os.Stat(strings.TrimPrefix(dir, "file://"))
	return errors.Is(err, fs.ErrNotExist)
}

// RemoveIfEmpty removes a local run directory that a failed launch left
// empty; one holding anything stays, as an unfinished run.
func RemoveIfEmpty(dir string) {
	if !LocalPath(dir) {
		return
	}
	dir = strings.TrimPrefix(dir, "file://")
	if entries, err := os.ReadDir(dir); err == nil && len(entries) == 0 {
		os.Remove(dir)
	}
}
