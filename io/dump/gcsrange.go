package dump

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"cloud.google.com/go/storage"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/gcsx"
)

// openGCSRange opens gs://bucket/object at offset with the storage client's
// range reader, so that a worker reading one byte range of a large dump
// downloads from there on, instead of reading and dropping everything before
// it. Credentials are found as Beam's gcs filesystem finds them (default
// credentials, else unauthenticated; STORAGE_EMULATOR_HOST for an emulator).
func openGCSRange(ctx context.Context, path string, offset int64) (io.ReadCloser, error) {
	bucket, object, err := gcsx.ParseObject(path)
	if err != nil {
		return nil, fmt.Errorf("dump: %s: %w", path, err)
	}
	client, err := gcsx.NewClient(ctx, storage.ScopeReadOnly)
	if err != nil {
		if client, err = gcsx.NewUnauthenticatedClient(ctx); err != nil {
			return nil, fmt.Errorf("dump: GCS client for %s: %w", path, err)
		}
	}
	r, err := client.Bucket(bucket).Object(object).NewRangeReader(ctx, offset, -1)
	if err != nil {
		client.Close()
		return nil, fmt.Errorf("dump: open %s at %d: %w", path, offset, err)
	}
	return &file{r: r, closers: []io.Closer{r, client}}, nil
}

// isGCS reports whether path is a gs:// URL.
func isGCS(path string) bool { return strings.HasPrefix(path, "gs://") }

// ReaderAtCloser reads a file at any offset.
type ReaderAtCloser interface {
	io.ReaderAt
	io.Closer
}

// OpenReaderAt opens path for reads at any offset: a file of a filesystem
// that gives an io.ReaderAt (local files) as it is, and a gs:// object
// through the storage client, one range request per ReadAt. It is an error
// for any other filesystem.
func OpenReaderAt(ctx context.Context, path string) (ReaderAtCloser, error) {
	if isGCS(path) {
		return openGCSReaderAt(ctx, path)
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("dump: %s: %w", path, err)
	}
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		fs.Close()
		return nil, fmt.Errorf("dump: open %s: %w", path, err)
	}
	ra, ok := rc.(io.ReaderAt)
	if !ok {
		rc.Close()
		fs.Close()
		return nil, fmt.Errorf("dump: %s: its filesystem cannot read at an offset", path)
	}
	return &readerAt{ReaderAt: ra, closers: []io.Closer{rc, fs}}, nil
}

type readerAt struct {
	io.ReaderAt
	closers []io.Closer
}

func (r *readerAt) Close() error {
	var errs []error
	for _, c := range r.closers {
		if err := c.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// gcsReaderAt reads a gs:// object by range requests.
type gcsReaderAt struct {
	ctx    context.Context
	path   string
	obj    *storage.ObjectHandle
	client *storage.Client
}

func openGCSReaderAt(ctx context.Context, path string) (*gcsReaderAt, error) {
	bucket, object, err := gcsx.ParseObject(path)
	if err != nil {
		return nil, fmt.Errorf("dump: %s: %w", path, err)
	}
	client, err := gcsx.NewClient(ctx, storage.ScopeReadOnly)
	if err != nil {
		if client, err = gcsx.NewUnauthenticatedClient(ctx); err != nil {
			return nil, fmt.Errorf("dump: GCS client for %s: %w", path, err)
		}
	}
	return &gcsReaderAt{ctx: ctx, path: path, obj: client.Bucket(bucket).Object(object), client: client}, nil
}

// ReadAt reads len(p) bytes at off with one range request; fewer bytes
// than asked mean the object ended (io.EOF).
func (g *gcsReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r, err := g.obj.NewRangeReader(g.ctx, off, int64(len(p)))
	if err != nil {
		return 0, fmt.Errorf("dump: read %s at %d: %w", g.path, off, err)
	}
	defer r.Close()
	n, err := io.ReadFull(r, p)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return n, io.EOF
	}
	if err != nil {
		return n, fmt.Errorf("dump: read %s at %d: %w", g.path, off, err)
	}
	return n, nil
}

func (g *gcsReaderAt) Close() error { return g.client.Close() }
