package warc

import (
	"slices"
	"testing"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs" // register gs://
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/testkit/testshared/fakegcs"
)

// TestGCS plans and reads WARC files from gs:// (a fake server behind
// Beam's gcs filesystem): a record-per-member file in splits, each opened
// at its own offset with a range read, and a plain one, give the pages of
// the local read.
func TestGCS(t *testing.T) {
	const bucket = "neardup-crawl"
	members, _ := writeCorpus(t, corpusRecords(), true)
	plain, _ := writeCorpus(t, corpusRecords(), false)
	fakegcs.Setenv(t, bucket,
		fakegcs.Object(bucket, "crawl/m.warc.gz", members),
		fakegcs.Object(bucket, "crawl/p.warc", plain))
	local := t.TempDir()
	writeFile(t, local+"/m.warc.gz", members)
	writeFile(t, local+"/p.warc", plain)

	titles := func(files []string) []string {
		srcs, err := Plan(t.Context(), files, 700, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(srcs) < 4 {
			t.Fatalf("%d sources, want the files split", len(srcs))
		}
		var out []string
		for _, s := range srcs {
			r, err := Open(t.Context(), s, ReadOptions{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var c counters.Counts
			err = Drain(r, s, &c, func(p document.Page) { out = append(out, p.Wiki+" "+p.URL+" "+p.Title) },
				func(d document.DeadLetter) { t.Errorf("dead letter %+v", d) })
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		slices.Sort(out)
		return out
	}
	remote := titles([]string{"gs://" + bucket + "/crawl/m.warc.gz", "gs://" + bucket + "/crawl/p.warc"})
	want := titles([]string{local + "/m.warc.gz", local + "/p.warc"})
	if len(want) != 6 || !slices.Equal(remote, want) {
		t.Errorf("from gs://: %q\nlocal: %q", remote, want)
	}
}
