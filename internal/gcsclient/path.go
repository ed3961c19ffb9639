package gcsclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"cloud.google.com/go/storage"
	"google.golang.org/api/googleapi"
)

// IsGCS reports whether name is a gs:// URL.
func IsGCS(name string) bool { return strings.HasPrefix(name, "gs://") }

// Parse splits gs://bucket/object. Unlike a URL parser it takes every
// character after the bucket as part of the object name: `?` and `#` too.
// The object is empty for gs://bucket and gs://bucket/.
func Parse(name string) (bucket, object string, err error) {
	rest, ok := strings.CutPrefix(name, "gs://")
	if !ok {
		return "", "", fmt.Errorf("%s is not a gs:// path", name)
	}
	bucket, object, _ = strings.Cut(rest, "/")
	if bucket == "" {
		return "", "", fmt.Errorf("%s names no bucket", name)
	}
	return bucket, object, nil
}

// Object opens a client of the given scope (as New) and the object a gs://
// URL names; the caller closes the client.
func Object(ctx context.Context, name, scope string) (*storage.Client, *storage.ObjectHandle, error) {
	bucket, object, err := Parse(name)
	if err != nil {
		return nil, nil, err
	}
	if object == "" {
		return nil, nil, fmt.Errorf("%s names no object", name)
	}
	client, err := New(ctx, scope)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return client, client.Bucket(bucket).Object(object), nil
}

// IsPreconditionFailed reports whether a GCS call failed on its
// precondition (another writer changed the object first).
func IsPreconditionFailed(err error) bool {
	var e *googleapi.Error
	return errors.As(err, &e) && e.Code == http.StatusPreconditionFailed
}
