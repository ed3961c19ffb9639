package gcsclient

import (
	"io"
	"testing"

	"cloud.google.com/go/storage"
	"github.com/neardup/neardup/testkit/testshared/fakegcs"
)

// TestNewFollowsTheEmulator opens a read-only and a read-write client with
// STORAGE_EMULATOR_HOST set, as the tests of every gs:// reader do, and
// reads and writes through them.
func TestNewFollowsTheEmulator(t *testing.T) {
	srv := fakegcs.Setenv(t, "bucket", fakegcs.Object("bucket", "in/a.txt", []byte("hello")))
	ctx := t.Context()
	ro, err := New(ctx, storage.ScopeReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	r, err := ro.Bucket("bucket").Object("in/a.txt").NewReader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	r.Close()
	if err != nil || string(got) != "hello" {
		t.Fatalf("read %q, %v; want hello", got, err)
	}
	rw, err := New(ctx, storage.ScopeReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Close()
	w := rw.Bucket("bucket").Object("out/b.txt").NewWriter(ctx)
	if _, err := w.Write([]byte("written")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if objs := srv.Objects(t, "out/"); len(objs) != 1 || objs[0] != "out/b.txt" {
		t.Errorf("objects under out/: %v, want [out/b.txt]", objs)
	}
}
