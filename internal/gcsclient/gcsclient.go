// Package gcsclient opens Google Cloud Storage clients as Beam's gcs
// filesystem does, so that every reader and writer of gs:// paths finds the
// same credentials: the application default credentials, else an
// unauthenticated client (public buckets), and the emulator that
// STORAGE_EMULATOR_HOST names, if any.
package gcsclient

import (
	"context"
	"fmt"

	"cloud.google.com/go/storage"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/gcsx"
)

// New returns a client of the given scope (storage.ScopeReadOnly or
// storage.ScopeReadWrite), to be closed by the caller.
func New(ctx context.Context, scope string) (*storage.Client, error) {
	client, err := gcsx.NewClient(ctx, scope)
	if err == nil {
		return client, nil
	}
	if client, err = gcsx.NewUnauthenticatedClient(ctx); err != nil {
		return nil, fmt.Errorf("GCS client: %w", err)
	}
	return client, nil
}
