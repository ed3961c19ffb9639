package dump

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cloud.google.com/go/storage"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs" // register gs://
	"github.com/fsouza/fake-gcs-server/fakestorage"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/testkit/testshared/fakegcs"
)

// The tests in this file read gs:// paths through Beam's gcs filesystem,
// pointed at a fake server (see fakegcs).

const gcsBucket = "neardup-dumps"

// startFakeGCS serves objects on a fresh loopback port and points Beam's gcs
// filesystem at it for the rest of the test.
func startFakeGCS(t *testing.T, objects ...fakestorage.Object) {
	t.Helper()
	fakegcs.Setenv(t, gcsBucket, objects...)
}

// gcsFixture is a local file served from the fake bucket under object.
type gcsFixture struct {
	object string
	local  string
}

func (f gcsFixture) url() string { return "gs://" + gcsBucket + "/" + f.object }

// gcsFixtures returns the sample dump, a bzip2 copy of it, and a real
// bzip2 dump from the shared data when it is there.
func gcsFixtures(t *testing.T) []gcsFixture {
	t.Helper()
	sample := filepath.Join("..", "..", "testdata", "sample", "simplewiki-sample.xml")
	raw, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	fixtures := []gcsFixture{
		{"dumps/simplewiki-sample.xml", sample},
		{"dumps/simplewiki-sample.xml.bz2", writeTemp(t, "simplewiki-sample.xml.bz2", testshared.Bzip2(t, raw))},
	}
	shared := filepath.Join("..", "..", "..", "shared", "data", "gensim-wiki", "enwiki-table-markup.xml.bz2")
	if _, err := os.Stat(shared); err == nil {
		fixtures = append(fixtures, gcsFixture{"dumps/enwiki-table-markup.xml.bz2", shared})
	} else {
		t.Logf("%s not available, reading only the sample from GCS: %v", shared, err)
	}
	return fixtures
}

func fakeObjects(t *testing.T, fixtures []gcsFixture) []fakestorage.Object {
	t.Helper()
	var objects []fakestorage.Object
	for _, f := range fixtures {
		objects = append(objects, fakegcs.FileObject(t, gcsBucket, f.object, f.local))
	}
	return objects
}

func readAllFrom(t *testing.T, path string) []byte {
	t.Helper()
	r, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return b
}

// TestGCSOpen reads plain and bzip2 dumps from a bucket and checks that the
// decompressed bytes and the pages equal those read from the local copies.
func TestGCSOpen(t *testing.T) {
	fixtures := gcsFixtures(t)
	startFakeGCS(t, fakeObjects(t, fixtures)...)
	for _, f := range fixtures {
		t.Run(f.object, func(t *testing.T) {
			got, want := readAllFrom(t, f.url()), readAllFrom(t, f.local)
			if len(want) == 0 || !bytes.Equal(got, want) {
				t.Fatalf("%s: read %d bytes, local copy decodes to %d bytes", f.url(), len(got), len(want))
			}
			gotPages, wantPages := pageTitles(t, f.url()), pageTitles(t, f.local)
			if len(wantPages) == 0 || !slices.Equal(gotPages, wantPages) {
				t.Fatalf("%s: pages %q, local copy has %q", f.url(), gotPages, wantPages)
			}
		})
	}
}

// pageTitles reads every page of the dump at path through Open; dead
// letters are passed over.
func pageTitles(t *testing.T, path string) []string {
	t.Helper()
	res := readFile(t, path, Options{})
	if res.end != io.EOF {
		t.Fatalf("%s: %v", path, res.end)
	}
	return titles(res.pages)
}

// TestGCSOpenFailures checks that a missing object is an error naming it, and
// that a bzip2 object cut short reads as a truncated stream, not as an I/O
// error of the bucket.
func TestGCSOpenFailures(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "sample", "simplewiki-sample.xml"))
	if err != nil {
		t.Fatal(err)
	}
	compressed := testshared.Bzip2(t, raw)
	startFakeGCS(t, fakegcs.Object(gcsBucket, "cut.xml.bz2", compressed[:len(compressed)/2]))
	ctx := context.Background()

	missing := "gs://" + gcsBucket + "/no-such-dump.xml"
	if r, err := Open(ctx, missing); err == nil {
		_, err = io.ReadAll(r)
		r.Close()
		t.Fatalf("Open(%s): no error (read error %v)", missing, err)
	} else if !errors.Is(err, storage.ErrObjectNotExist) || !strings.Contains(err.Error(), missing) {
		t.Fatalf("Open(%s) = %v, want an error naming the path and wrapping storage.ErrObjectNotExist", missing, err)
	}

	cut := "gs://" + gcsBucket + "/cut.xml.bz2"
	r, err := Open(ctx, cut)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n, err := io.Copy(io.Discard, r)
	if !IsDecodeFailure(err) {
		t.Fatalf("reading %s: %d bytes then %v, want a decompression failure", cut, n, err)
	}
}

// TestGCSExpand expands patterns against the bucket: globs, lists, and a
// pattern that matches nothing.
func TestGCSExpand(t *testing.T) {
	fixtures := gcsFixtures(t)
	objects := fakeObjects(t, fixtures)
	objects = append(objects, fakegcs.Object(gcsBucket, "dumps/old/simplewiki-2013.xml", []byte("<mediawiki></mediawiki>")))
	startFakeGCS(t, objects...)
	gs := "gs://" + gcsBucket + "/"
	var all, bz2 []string
	for _, f := range fixtures {
		all = append(all, f.url())
		if strings.HasSuffix(f.object, ".bz2") {
			bz2 = append(bz2, f.url())
		}
	}
	slices.Sort(all)
	slices.Sort(bz2)

	tests := []struct {
		patterns string
		want     []string
	}{
		{gs + "dumps/*", all}, // * does not cross "/": dumps/old/ is not matched
		{gs + "dumps/*.bz2", bz2},
		{gs + "dumps/simplewiki-sample.xml", []string{gs + "dumps/simplewiki-sample.xml"}},
		{gs + "dumps/**.xml", []string{gs + "dumps/old/simplewiki-2013.xml", gs + "dumps/simplewiki-sample.xml"}},
		{gs + "dumps/*.bz2, " + gs + "dumps/*.bz2," + gs + "dumps/simplewiki-sample.xml", all},
	}
	ctx := context.Background()
	for _, tt := range tests {
		got, err := Expand(ctx, tt.patterns)
		if err != nil {
			t.Errorf("Expand(%q): %v", tt.patterns, err)
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Expand(%q) = %q, want %q", tt.patterns, got, tt.want)
		}
	}

	none := gs + "dumps/*.xz"
	if _, err := Expand(ctx, none); err == nil || !strings.Contains(err.Error(), "matches no file") {
		t.Errorf("Expand(%q) = %v, want a 'matches no file' error", none, err)
	}
}

// TestGCSSizes checks the sizes Plan gives gs:// inputs, which the
// manifest records.
func TestGCSSizes(t *testing.T) {
	fixtures := gcsFixtures(t)
	startFakeGCS(t, fakeObjects(t, fixtures)...)
	var urls []string
	for _, f := range fixtures {
		urls = append(urls, f.url())
	}
	got, err := Plan(context.Background(), urls)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(fixtures) {
		t.Fatalf("Plan gave %d entries for %d files", len(got), len(fixtures))
	}
	for i, f := range fixtures {
		st, err := os.Stat(f.local)
		if err != nil {
			t.Fatal(err)
		}
		if got[i].File != f.url() || got[i].Size != st.Size() {
			t.Errorf("Plan[%d] = %+v, want {%s %d}", i, got[i], f.url(), st.Size())
		}
	}
}
