package dump

import (
	"context"
	"fmt"
	"io"

	"cloud.google.com/go/storage"
	"github.com/neardup/neardup/internal/gcsclient"
)

// openGCSRange opens gs://bucket/object at offset with the storage client's
// range reader, so that a worker reading one byte range of a large dump
// downloads from there on, instead of reading and dropping everything before
// it. Credentials are found as Beam's gcs filesystem finds them (default
// credentials, else unauthenticated; STORAGE_EMULATOR_HOST for an emulator).
func openGCSRange(ctx context.Context, path string, offset int64) (io.ReadCloser, error) {
	client, obj, err := gcsObject(ctx, path)
	if err != nil {
		return nil, err
	}
	r, err := obj.NewRangeReader(ctx, offset, -1)
	if err != nil {
		client.Close()
		return nil, fmt.Errorf("dump: open %s at %d: %w", path, offset, err)
	}
	return &file{r: r, closers: []io.Closer{r, client}}, nil
}

// gcsObject returns a read-only storage client, to be closed by the caller,
// and the handle of the object gs://bucket/object at path.
func gcsObject(ctx context.Context, path string) (*storage.Client, *storage.ObjectHandle, error) {
	client, obj, err := gcsclient.Object(ctx, path, storage.ScopeReadOnly)
	if err != nil {
		return nil, nil, fmt.Errorf("dump: %w", err)
	}
	return client, obj, nil
}

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
	if gcsclient.IsGCS(path) {
		return openGCSReaderAt(ctx, path)
	}
	rc, closers, err := openFile(ctx, path)
	if err != nil {
		return nil, err
	}
	ra, ok := rc.(io.ReaderAt)
	if !ok {
		closeAll(closers)
		return nil, fmt.Errorf("dump: %s: its filesystem cannot read at an offset", path)
	}
	return &readerAt{ReaderAt: ra, closers: closers}, nil
}

// readerAt is an open local file and what closes it.
type readerAt struct {
	io.ReaderAt
	closers []io.Closer
}

func (r *readerAt) Close() error { return closeAll(r.closers) }

// gcsReaderAt reads a gs:// object by range requests.
type gcsReaderAt struct {
	ctx    context.Context
	path   string
	obj    *storage.ObjectHandle
	client *storage.Client
}

func openGCSReaderAt(ctx context.Context, path string) (*gcsReaderAt, error) {
	client, obj, err := gcsObject(ctx, path)
	if err != nil {
		return nil, err
	}
	return &gcsReaderAt{ctx: ctx, path: path, obj: obj, client: client}, nil
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
