// Package store reads the files of a run directory, local or on Google Cloud
// Storage, through one small interface: whole small files, sizes, sequential
// reads from an offset and exact range reads. The explorer needs nothing
// else, and reading a cluster's line must cost one range read, never a
// download of its file.
package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/neardup/neardup/internal/gcsclient"
)

// Store reads the files of one directory by name.
type Store interface {
	// Dir is the directory as it was given (a path or gs://bucket/prefix).
	Dir() string
	// ReadFile reads a whole file.
	ReadFile(ctx context.Context, name string) ([]byte, error)
	// Size returns a file's size in bytes. A missing file gives an error
	// matching fs.ErrNotExist.
	Size(ctx context.Context, name string) (int64, error)
	// OpenAt opens a file for reading from offset to its end.
	OpenAt(ctx context.Context, name string, offset int64) (io.ReadCloser, error)
	// ReadAt reads exactly len(p) bytes at offset; fewer (the file ended)
	// give io.ErrUnexpectedEOF or io.EOF.
	ReadAt(ctx context.Context, name string, p []byte, offset int64) error
	// Close releases the store's connections.
	Close() error
}

// Open returns the store of dir: a gs://bucket/prefix URL or a local path.
func Open(ctx context.Context, dir string) (Store, error) {
	dir = strings.TrimSuffix(dir, "/")
	if gcsclient.IsGCS(dir) {
		return openGCS(ctx, dir)
	}
	if i := strings.Index(dir, "://"); i >= 0 {
		return nil, fmt.Errorf("store: %s: only local paths and gs:// URLs can be explored, not %s://", dir, dir[:i])
	}
	return openLocal(dir), nil
}

// IsNotExist reports whether err says a file does not exist.
func IsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// Subdirs lists the names of the directories directly inside a store's
// directory, sorted, or nothing if it has none or does not exist.
func Subdirs(ctx context.Context, st Store) ([]string, error) {
	switch s := st.(type) {
	case local:
		return s.subdirs()
	case *gcs:
		return s.subdirs(ctx)
	}
	return nil, fmt.Errorf("store: %s: cannot list", st.Dir())
}
