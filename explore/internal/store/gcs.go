package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"cloud.google.com/go/storage"
	"github.com/neardup/neardup/internal/gcsclient"
	"google.golang.org/api/iterator"
)

// gcs is a prefix of a bucket, read with one storage client. Credentials
// are found as Beam's gcs filesystem finds them (the application default
// credentials, else none; STORAGE_EMULATOR_HOST for an emulator).
type gcs struct {
	dir    string
	prefix string // the object names' prefix, "" or ending in "/"
	bucket *storage.BucketHandle
	client *storage.Client
}

func openGCS(ctx context.Context, dir string) (*gcs, error) {
	bucket, prefix, err := gcsclient.Parse(dir)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if prefix != "" {
		prefix += "/"
	}
	client, err := gcsclient.New(ctx, storage.ScopeReadOnly)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", dir, err)
	}
	return &gcs{dir: dir, prefix: prefix, bucket: client.Bucket(bucket), client: client}, nil
}

func (g *gcs) Dir() string { return g.dir }

func (g *gcs) object(name string) *storage.ObjectHandle { return g.bucket.Object(g.prefix + name) }

// wrap gives a missing object's error fs.ErrNotExist's meaning.
func (g *gcs) wrap(name string, err error) error {
	if errors.Is(err, storage.ErrObjectNotExist) {
		return fmt.Errorf("%s/%s: %w", g.dir, name, fs.ErrNotExist)
	}
	return fmt.Errorf("%s/%s: %w", g.dir, name, err)
}

func (g *gcs) ReadFile(ctx context.Context, name string) ([]byte, error) {
	r, err := g.object(name).NewReader(ctx)
	if err != nil {
		return nil, g.wrap(name, err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, g.wrap(name, err)
	}
	return b, nil
}

func (g *gcs) Size(ctx context.Context, name string) (int64, error) {
	a, err := g.object(name).Attrs(ctx)
	if err != nil {
		return 0, g.wrap(name, err)
	}
	return a.Size, nil
}

func (g *gcs) OpenAt(ctx context.Context, name string, offset int64) (io.ReadCloser, error) {
	r, err := g.object(name).NewRangeReader(ctx, offset, -1)
	if err != nil {
		return nil, g.wrap(name, err)
	}
	return r, nil
}

func (g *gcs) ReadAt(ctx context.Context, name string, p []byte, offset int64) error {
	r, err := g.object(name).NewRangeReader(ctx, offset, int64(len(p)))
	if err != nil {
		return g.wrap(name, err)
	}
	defer r.Close()
	if _, err := io.ReadFull(r, p); err != nil {
		return g.wrap(name, err)
	}
	return nil
}

func (g *gcs) Close() error { return g.client.Close() }

func (g *gcs) subdirs(ctx context.Context) ([]string, error) {
	it := g.bucket.Objects(ctx, &storage.Query{Prefix: g.prefix, Delimiter: "/"})
	var names []string
	for {
		a, err := it.Next()
		if errors.Is(err, iterator.Done) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", g.dir, err)
		}
		if name := strings.TrimSuffix(strings.TrimPrefix(a.Prefix, g.prefix), "/"); a.Prefix != "" && name != "" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names, nil
}
