package dump

import (
	"os"
	"reflect"
	"testing"

	"github.com/fsouza/fake-gcs-server/fakestorage"
	"github.com/neardup/neardup/internal/testshared"
)

// TestSplitReadingOnGCS reads a real dump stored in a (fake) GCS bucket in
// byte ranges, each opened with a range read, and checks the ranges give
// exactly the pages of the local file read whole.
func TestSplitReadingOnGCS(t *testing.T) {
	local := testshared.Data(t, "wikiduper/Katrina.xml")
	content, err := os.ReadFile(local)
	if err != nil {
		t.Fatal(err)
	}
	startFakeGCS(t, []fakestorage.Object{{
		ObjectAttrs: fakestorage.ObjectAttrs{BucketName: gcsBucket, Name: "dumps/Katrina.xml"},
		Content:     content,
	}})
	srcs, err := Plan(t.Context(), []string{local, "gs://" + gcsBucket + "/dumps/Katrina.xml"})
	if err != nil {
		t.Fatal(err)
	}
	if !srcs[1].Splittable || srcs[1].Size != int64(len(content)) {
		t.Fatalf("planned %+v, want a splittable object of %d bytes", srcs[1], len(content))
	}
	wantPages, wantDead, _ := readSplits(t, srcs[0], 0)
	pages, dead, counts := readSplits(t, srcs[1], 100_000)
	for i := range pages {
		pages[i].File = srcs[0].File
	}
	if len(pages) == 0 || !reflect.DeepEqual(pages, wantPages) || len(dead) != len(wantDead) {
		t.Errorf("%d pages in ranges read from GCS (counts %+v), want the %d of the local file", len(pages), counts, len(wantPages))
	}
}
