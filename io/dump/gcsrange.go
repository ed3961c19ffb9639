package dump

import (
	"context"
	"fmt"
	"io"
	"strings"

	"cloud.google.com/go/storage"
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
