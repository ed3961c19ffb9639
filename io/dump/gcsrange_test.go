package dump

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/testkit/testshared/fakegcs"
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
	startFakeGCS(t, fakegcs.Object(gcsBucket, "dumps/Katrina.xml", content))
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

// TestOpenReaderAt reads a local file and the same bytes in a (fake) GCS
// bucket at offsets, up to and past their end.
func TestOpenReaderAt(t *testing.T) {
	content := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	local := filepath.Join(t.TempDir(), "f.bin")
	if err := os.WriteFile(local, content, 0o644); err != nil {
		t.Fatal(err)
	}
	startFakeGCS(t, fakegcs.Object(gcsBucket, "f.bin", content))
	tests := []struct {
		off     int64
		n       int
		want    string
		wantEOF bool
	}{
		{0, 10, "0123456789", false},
		{30, 6, "uvwxyz", false},
		{30, 10, "uvwxyz", true}, // the object ends first
	}
	for _, path := range []string{local, "gs://" + gcsBucket + "/f.bin"} {
		ra, err := OpenReaderAt(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range tests {
			p := make([]byte, tt.n)
			n, err := ra.ReadAt(p, tt.off)
			if string(p[:n]) != tt.want || (err == io.EOF) != tt.wantEOF || (err != nil && err != io.EOF) {
				t.Errorf("%s: ReadAt(%d bytes at %d) = %q, %v; want %q (EOF %v)", path, tt.n, tt.off, p[:n], err, tt.want, tt.wantEOF)
			}
		}
		if err := ra.Close(); err != nil {
			t.Errorf("%s: Close: %v", path, err)
		}
	}
	missing := "gs://" + gcsBucket + "/missing.bin"
	ra, err := OpenReaderAt(t.Context(), missing)
	if err != nil {
		t.Fatal(err)
	}
	defer ra.Close()
	if _, err := ra.ReadAt(make([]byte, 4), 0); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("reading %s: %v, want an error naming it", missing, err)
	}
}
