package result

import (
	"bufio"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"cloud.google.com/go/storage"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs" // register gs://
	"github.com/neardup/neardup/testkit/testshared/fakegcs"
)

// The tests in this file write gs:// paths through Beam's gcs filesystem,
// pointed at an in-process fake server (see fakegcs).

const gcsBucket = "neardup-results"

// startFakeGCS starts an empty bucket on a fresh loopback port and points
// Beam's gcs filesystem at it for the rest of the test.
func startFakeGCS(t *testing.T) *fakegcs.Server {
	t.Helper()
	return fakegcs.Setenv(t, gcsBucket)
}

// TestGCSWriteRead writes sharded lines and a summary to a bucket, reads them
// back, and checks that only the final names remain (each file was written
// to .tmp-NAME and renamed).
func TestGCSWriteRead(t *testing.T) {
	srv := startFakeGCS(t)
	ctx := context.Background()
	dir := "gs://" + gcsBucket + "/out/run-1"

	lines := [][]byte{[]byte(`{"id":"1:0","size":2}`), []byte(`{"id":"7:3","text":"Ünïcode <b>"}`), {}}
	clusters := Join(dir, ShardName("clusters", 0, 1))
	if err := WriteFile(ctx, clusters, lines); err != nil {
		t.Fatal(err)
	}
	summary := Join(dir+"/", "summary.json")
	if err := WriteBytes(ctx, summary, []byte(`{"counts":{}}`)); err != nil {
		t.Fatal(err)
	}

	tests := []struct{ name, want string }{
		{clusters, "{\"id\":\"1:0\",\"size\":2}\n{\"id\":\"7:3\",\"text\":\"Ünïcode <b>\"}\n\n"},
		{summary, `{"counts":{}}`},
	}
	for _, tt := range tests {
		got, err := ReadFile(ctx, tt.name)
		if err != nil {
			t.Fatalf("ReadFile(%s): %v", tt.name, err)
		}
		if string(got) != tt.want {
			t.Errorf("ReadFile(%s) = %q, want %q", tt.name, got, tt.want)
		}
		obj, err := srv.GetObject(gcsBucket, strings.TrimPrefix(tt.name, "gs://"+gcsBucket+"/"))
		if err != nil || string(obj.Content) != tt.want {
			t.Errorf("bucket holds %q (%v) under %s, want %q", obj.Content, err, tt.name, tt.want)
		}
	}
	want := []string{"out/run-1/clusters-00000-of-00001.jsonl", "out/run-1/summary.json"}
	if got := srv.Objects(t, ""); !slices.Equal(got, want) {
		t.Errorf("bucket holds %q, want exactly %q (no temporary files)", got, want)
	}

	// Writing again replaces the file whole.
	if err := WriteFile(ctx, clusters, lines[:1]); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(ctx, clusters); err != nil || string(got) != "{\"id\":\"1:0\",\"size\":2}\n" {
		t.Errorf("after rewrite ReadFile(%s) = %q, %v", clusters, got, err)
	}
}

// TestGCSFailedWriteIsNotPublished checks that a write that fails midway
// never appears under the final name.
func TestGCSFailedWriteIsNotPublished(t *testing.T) {
	srv := startFakeGCS(t)
	ctx := context.Background()
	name := "gs://" + gcsBucket + "/out/run-2/clusters-00000-of-00001.jsonl"
	errCrash := errors.New("worker lost")
	err := writeAtomically(ctx, name, func(w *bufio.Writer) error {
		w.WriteString("{\"id\":\"1:0\"}\n")
		return errCrash
	})
	if !errors.Is(err, errCrash) {
		t.Fatalf("writeAtomically = %v, want it to wrap %v", err, errCrash)
	}
	if done, err := Exists(ctx, name); err != nil || done {
		t.Fatalf("Exists(%s) = %v, %v after a failed write, want false", name, done, err)
	}
	if _, err := ReadFile(ctx, name); !errors.Is(err, storage.ErrObjectNotExist) {
		t.Fatalf("ReadFile(%s) = %v, want storage.ErrObjectNotExist", name, err)
	}
	for _, o := range srv.Objects(t, "") {
		if !strings.HasPrefix(o[strings.LastIndex(o, "/")+1:], ".tmp-") {
			t.Errorf("failed write left %s, which does not look temporary", o)
		}
	}
}

// TestGCSExistsAndCheckWritable checks the two calls a run makes on its
// output directory before any work: whether it already finished, and whether
// it can be written.
func TestGCSExistsAndCheckWritable(t *testing.T) {
	srv := startFakeGCS(t)
	ctx := context.Background()
	dir := "gs://" + gcsBucket + "/out/run-3"
	manifest := Join(dir, "manifest.json")
	if err := WriteBytes(ctx, Join(dir, "manifest.json.bak"), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if done, err := Exists(ctx, manifest); err != nil || done {
		t.Fatalf("Exists(%s) = %v, %v with only manifest.json.bak there, want false", manifest, done, err)
	}
	if err := WriteBytes(ctx, manifest, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if done, err := Exists(ctx, manifest); err != nil || !done {
		t.Fatalf("Exists(%s) = %v, %v, want true", manifest, done, err)
	}

	if err := CheckWritable(ctx, dir); err != nil {
		t.Fatalf("CheckWritable(%s): %v", dir, err)
	}
	want := []string{"out/run-3/manifest.json", "out/run-3/manifest.json.bak"}
	if got := srv.Objects(t, ""); !slices.Equal(got, want) {
		t.Errorf("after CheckWritable the bucket holds %q, want %q (probe removed)", got, want)
	}

	missing := "gs://no-such-bucket/out"
	if err := CheckWritable(ctx, missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("CheckWritable(%s) = %v, want an error naming it", missing, err)
	}
}
