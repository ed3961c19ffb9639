package web

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsouza/fake-gcs-server/fakestorage"
	"github.com/neardup/neardup/explore/internal/index"
	"github.com/neardup/neardup/explore/internal/store"
	"github.com/neardup/neardup/explore/internal/testrun"
	"github.com/neardup/neardup/testkit/testshared/fakegcs"
	"github.com/neardup/neardup/transforms/categorize"
)

// TestGCS serves the sample run uploaded to a fake GCS server: the list
// and the cluster pages are those of the local copy, read by range
// requests.
func TestGCS(t *testing.T) {
	local := testrun.Of(t, "testdata/sample/simplewiki-sample.xml", "--output_shards", "2")
	entries, err := os.ReadDir(local)
	if err != nil {
		t.Fatal(err)
	}
	var objects []fakestorage.Object
	for _, e := range entries {
		objects = append(objects, fakegcs.FileObject(t, "neardup-runs", "out/sample/"+e.Name(), filepath.Join(local, e.Name())))
	}
	fakegcs.Setenv(t, "neardup-runs", objects...)

	remote, _ := serve(t, "gs://neardup-runs/out/sample")
	here, _ := serve(t, local)
	rows := readIndex(t, local)
	listed, count := listAll(t, remote, "/")
	if len(listed) != len(rows) || count != thousands(int64(len(rows))) {
		t.Errorf("gs:// lists %d clusters (%s), the index has %d", len(listed), count, len(rows))
	}
	drift := 0
	for _, r := range rows {
		path := clusterPath(r.digest.ID)
		want := mustGet(t, here, path)
		got := mustGet(t, remote, path)
		got = strings.ReplaceAll(got, "gs://neardup-runs/out/sample", local) // the header names the directory
		if got != want {
			t.Errorf("%s differs on gs://:\n%s\nlocally:\n%s", path, got, want)
		}
		if (r.digest.Category == categorize.FactualDrift || r.digest.Category == categorize.Template) && strings.Contains(got, "<mark>") {
			drift++
		}
	}
	if drift == 0 {
		t.Error("no factual_drift or template cluster with marked words")
	}

	st, err := store.Open(t.Context(), "gs://neardup-runs/out/nothing")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var nr *index.NotRunError
	if _, err := index.Load(t.Context(), st, index.Options{}); !errors.As(err, &nr) ||
		!strings.Contains(err.Error(), "this run did not finish, or this is not a run directory: gs://neardup-runs/out/nothing has no manifest.json") {
		t.Errorf("a prefix without a run: %v", err)
	}
}
