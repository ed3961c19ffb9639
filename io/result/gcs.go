package result

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"cloud.google.com/go/storage"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/gcsx"
	"google.golang.org/api/googleapi"
)

// isGCS reports whether name is a gs:// URL.
func isGCS(name string) bool { return strings.HasPrefix(name, "gs://") }

// isLocal reports whether name is a local path, as Beam's filesystem layer
// takes it (a name without a scheme).
func isLocal(name string) bool { return !strings.Contains(name, "://") }

// gcsClient opens a storage client as Beam's gcs filesystem does: with the
// application default credentials, else unauthenticated (it follows
// STORAGE_EMULATOR_HOST too).
func gcsClient(ctx context.Context) (*storage.Client, error) {
	client, err := gcsx.NewClient(ctx, storage.ScopeReadWrite)
	if err != nil {
		if client, err = gcsx.NewUnauthenticatedClient(ctx); err != nil {
			return nil, fmt.Errorf("result: cannot create a GCS client: %w", err)
		}
	}
	return client, nil
}

// gcsObject opens a client and the object of a gs:// URL.
func gcsObject(ctx context.Context, name string) (*storage.Client, *storage.ObjectHandle, error) {
	bucket, object, err := gcsx.ParseObject(name)
	if err != nil {
		return nil, nil, fmt.Errorf("result: %s is not a GCS object: %w", name, err)
	}
	client, err := gcsClient(ctx)
	if err != nil {
		return nil, nil, err
	}
	return client, client.Bucket(bucket).Object(object), nil
}

// gcsExists looks the object up by its exact name.
func gcsExists(ctx context.Context, name string) (bool, error) {
	client, obj, err := gcsObject(ctx, name)
	if err != nil {
		return false, err
	}
	defer client.Close()
	switch _, err := obj.Attrs(ctx); {
	case err == nil:
		return true, nil
	case errors.Is(err, storage.ErrObjectNotExist):
		return false, nil
	default:
		return false, fmt.Errorf("result: looking for %s: %w", name, err)
	}
}

// isPreconditionFailed reports whether a GCS call failed on its
// precondition (another writer changed the object first).
func isPreconditionFailed(err error) bool {
	var e *googleapi.Error
	return errors.As(err, &e) && e.Code == http.StatusPreconditionFailed
}
