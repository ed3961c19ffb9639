package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/pipelines/internal/launcher"
	"github.com/neardup/neardup/testkit/testshared"
)

// TestShardsSizedByInput checks that --shards 0 is sized by the input on
// the embedded runner, as the sentence pipeline's is (it was 4 whatever
// the input's size), that every shuffle stage gets that many, and that
// summary.json still records --shards as given.
func TestShardsSizedByInput(t *testing.T) {
	data := testshared.Path(t, "data")
	var wiki []string
	for _, w := range []string{"el", "ja", "uk", "vi"} {
		wiki = append(wiki, filepath.Join(data, "xztextfilter-wiki-truncated", w+"wiki-truncated-100k.xml.xz"))
	}
	web := []string{filepath.Join(data, "commoncrawl-warc", "dolma-sample-0000.warc.gz")}
	o := testOptions(t, wiki, web)
	if err := o.plan(t.Context()); err != nil {
		t.Fatal(err)
	}
	// 10,310,412 bytes of xz (×5) and 214,006 of gzip (×4): 52,408,084
	// bytes of text, 6.2 shards of 8 MiB.
	if got := o.Sources.TextBytes(); got != 52_408_084 {
		t.Fatalf("the input's estimated text: %d bytes, want 52408084", got)
	}
	if err := o.chooseBanding(); err != nil {
		t.Fatal(err)
	}
	st := o.stages()
	sign, verify, passages, cases := st.SignConfig(), st.VerifyConfig(), st.PassageOptions(), o.reuseOptions()
	for name, got := range map[string]int{
		"sign buckets": sign.BucketShards, "sign records": sign.RecordShards, "verify records": verify.RecordShards,
		"verify edges": verify.EdgeShards, "passage pairs": passages.PairShards, "passage records": passages.RecordShards, "reuse": cases.Shards,
	} {
		if got != 7 {
			t.Errorf("%s: %d shards, want 7", name, got)
		}
	}
	params, err := o.parameters()
	if err != nil || !strings.Contains(string(params), `"shards":0,`) {
		t.Errorf("parameters %s (%v): want --shards as given, 0", params, err)
	}
	for _, tt := range []struct {
		shards int
		runner string
		want   int
	}{{0, "dataflow", launcher.ClusterShards}, {3, "", 3}, {0, "flink", launcher.ClusterShards}} {
		o.Shards, o.Runner = tt.shards, tt.runner
		if got := o.shards(); got != tt.want {
			t.Errorf("--shards %d --runner %q: %d shards, want %d", tt.shards, tt.runner, got, tt.want)
		}
	}
}

// TestFailedLaunchRemovesRunDir launches a run whose --spill_dir was
// removed after the flags were checked: the launch fails after claiming
// the run directory, and must remove the directory it made (the reuse
// command used to leave it behind; only the sentence pipeline removed
// it). A run directory that existed before stays.
func TestFailedLaunchRemovesRunDir(t *testing.T) {
	data := testshared.Path(t, "data")
	wiki := []string{filepath.Join(data, "wikiduper", "Katrina.xml")}
	web := []string{filepath.Join(data, "commoncrawl-warc", "whirlwind.warc.gz")}
	gone := filepath.Join(t.TempDir(), "spill")
	for _, existed := range []bool{false, true} {
		o := testOptions(t, wiki, web)
		if existed {
			if err := os.Mkdir(o.RunDir(), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		err := start(t.Context(), o, gone)
		if err == nil || !strings.HasPrefix(err.Error(), "--spill_dir: ") {
			t.Fatalf("existed %v: start = %v, want a --spill_dir error", existed, err)
		}
		_, serr := os.Stat(o.RunDir())
		if existed && serr != nil || !existed && !errors.Is(serr, os.ErrNotExist) {
			t.Errorf("existed %v: after the failed launch, stat %s: %v", existed, o.RunDir(), serr)
		}
	}
}
