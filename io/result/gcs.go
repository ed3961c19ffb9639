package result

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"cloud.google.com/go/storage"
	"github.com/neardup/neardup/internal/gcsclient"
)

// isLocal reports whether name is a local path, as Beam's filesystem layer
// takes it (a name without a scheme).
func isLocal(name string) bool { return !strings.Contains(name, "://") }

// gcsObject opens a client and the object of a gs:// URL.
func gcsObject(ctx context.Context, name string) (*storage.Client, *storage.ObjectHandle, error) {
	client, obj, err := gcsclient.Object(ctx, name, storage.ScopeReadWrite)
	if err != nil {
		return nil, nil, fmt.Errorf("result: %w", err)
	}
	return client, obj, nil
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

// gcsWrite writes an object directly under its name: an upload becomes
// visible only once complete, and a failed one (its context cancelled)
// leaves nothing, so no temporary object is needed; of two writers of one
// name, the last to finish wins whole.
func gcsWrite(ctx context.Context, name string, write func(*bufio.Writer) error) error {
	client, obj, err := gcsObject(ctx, name)
	if err != nil {
		return err
	}
	defer client.Close()
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := obj.NewWriter(wctx)
	bw := bufio.NewWriterSize(w, 1<<20)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		cancel() // abandons the upload
		w.Close()
		return fmt.Errorf("result: writing %s: %w", name, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("result: writing %s: %w", name, err)
	}
	return nil
}

// gcsRead reads a whole object.
func gcsRead(ctx context.Context, name string) ([]byte, error) {
	client, obj, err := gcsObject(ctx, name)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	r, err := obj.NewReader(ctx)
	if err != nil {
		return nil, fmt.Errorf("result: reading %s: %w", name, err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("result: reading %s: %w", name, err)
	}
	return b, nil
}

// gcsRemove removes an object; one already gone is no error.
func gcsRemove(ctx context.Context, name string) error {
	client, obj, err := gcsObject(ctx, name)
	if err != nil {
		return err
	}
	defer client.Close()
	if err := obj.Delete(ctx); err != nil && !errors.Is(err, storage.ErrObjectNotExist) {
		return fmt.Errorf("result: removing %s: %w", name, err)
	}
	return nil
}
