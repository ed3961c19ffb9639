package rundir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"cloud.google.com/go/storage"
	"github.com/neardup/neardup/internal/gcsclient"
	"github.com/neardup/neardup/io/result"
	"google.golang.org/api/iterator"
)

// Clean removes every file directly in the run directory runDir (a local
// path or gs://bucket/dir) whose name is not in keep, except the claim file,
// and returns the paths it removed. Called just before the manifest is
// written, with the manifest's outputs as keep, it leaves the directory
// holding exactly what the manifest lists: no shard of an earlier attempt
// with another --output_shards, no temporary file of a killed run.
//
// Names are compared exactly (glob characters are ordinary), only files
// directly in runDir are looked at (not subdirectories, nor on gs:// objects
// under DIR/sub/, nor anything beside DIR such as DIR2/), and symbolic links
// are removed, not followed.
func Clean(ctx context.Context, runDir string, keep []string) (removed []string, err error) {
	return removeIn(ctx, runDir, func(name string) bool {
		return name != ClaimName && !slices.Contains(keep, name)
	})
}

// RemoveTemps removes the temporary files (result.TempPrefix…) of writes that did
// not finish from the run directory and returns their paths: for a signal
// handler once the process's own writers have stopped (with the embedded
// runner), or a run's cleanup after a failure.
func RemoveTemps(ctx context.Context, runDir string) (removed []string, err error) {
	return removeIn(ctx, runDir, func(name string) bool { return strings.HasPrefix(name, result.TempPrefix) })
}

func removeIn(ctx context.Context, dir string, remove func(name string) bool) ([]string, error) {
	switch {
	case gcsclient.IsGCS(dir):
		return removeInGCS(ctx, dir, remove)
	case isLocal(dir):
		return removeInLocal(dir, remove)
	}
	return nil, fmt.Errorf("rundir: cannot clean %s: only local paths and gs:// are supported", dir)
}

func removeInLocal(dir string, remove func(string) bool) ([]string, error) {
	if dir == "" || filepath.Clean(dir) == string(filepath.Separator) {
		return nil, fmt.Errorf("rundir: refusing to clean %q: not a run directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("rundir: listing run directory %s: %w", dir, err)
	}
	var removed []string
	for _, e := range entries {
		if e.IsDir() || !remove(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("rundir: removing %s: %w", p, err)
		}
		removed = append(removed, p)
	}
	return removed, nil
}

func removeInGCS(ctx context.Context, dir string, remove func(string) bool) ([]string, error) {
	bucket, object, err := gcsclient.Parse(dir)
	if err != nil {
		return nil, err
	}
	prefix := strings.TrimSuffix(object, "/")
	if prefix == "" {
		return nil, fmt.Errorf("rundir: refusing to clean %s: not a run directory", dir)
	}
	prefix += "/"
	client, err := gcsclient.New(ctx, storage.ScopeReadWrite)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	b := client.Bucket(bucket)
	it := b.Objects(ctx, &storage.Query{Prefix: prefix, Delimiter: "/"})
	var names []string
	for {
		attrs, err := it.Next()
		if errors.Is(err, iterator.Done) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("rundir: listing run directory %s: %w", dir, err)
		}
		name := strings.TrimPrefix(attrs.Name, prefix)
		if attrs.Name == "" || name == "" || strings.Contains(name, "/") || !remove(name) {
			continue // a "subdirectory" (attrs.Prefix), or kept
		}
		names = append(names, attrs.Name)
	}
	var removed []string
	for _, n := range names {
		p := "gs://" + bucket + "/" + n
		if err := b.Object(n).Delete(ctx); err != nil && !errors.Is(err, storage.ErrObjectNotExist) {
			return removed, fmt.Errorf("rundir: removing %s: %w", p, err)
		}
		removed = append(removed, p)
	}
	return removed, nil
}
