package launcher

import (
	"math"
	"reflect"
	"runtime"
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/minhash"
	"github.com/neardup/neardup/transforms/passage"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/verify"
)

// defaultStages are the common flags' defaults as the stages take them,
// with --shards resolved for a small input on the embedded runner.
func defaultStages() Stages {
	c := DefaultCommon()
	return Stages{
		Namespaces: []int{0}, MaxPageBytes: c.MaxPageBytes, SplitBytes: c.SplitBytes,
		ShingleLength: c.ShingleLength, MinShingles: c.MinShingles, MaxShingles: c.MaxShingles,
		Norm: shingle.DefaultNormalization, Scheme: "oph", Bands: 20, Rows: 9, Seed: c.Seed,
		MinJaccard: c.MinJaccard, MaxEdit: c.MaxEdit, PassageGap: c.PassageGap, MinPassage: c.MinPassage,
		Shards: Shards(c.Shards, "", 0), OutputShards: c.OutputShards, DofnWorkers: c.DofnWorkers,
	}
}

// TestStagesCheck checks each option at its bounds and past them, with
// the exact message a user sees; "" wants the options accepted.
func TestStagesCheck(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*Stages)
		want string
	}{
		{"defaults", func(*Stages) {}, ""},
		{"every namespace", func(s *Stages) { s.Namespaces = nil }, ""},
		{"media and special namespaces", func(s *Stages) { s.Namespaces = []int{-2, -1, 0} }, ""},
		{"namespace", func(s *Stages) { s.Namespaces = []int{0, -3} }, "--namespaces: -3 is not a namespace (MediaWiki's start at -2); give namespace numbers or 'all'"},
		{"max_page_bytes 0", func(s *Stages) { s.MaxPageBytes = 0 }, "--max_page_bytes must be between 1 and 1073741824, got 0"},
		{"max_page_bytes huge", func(s *Stages) { s.MaxPageBytes = 1 << 40 }, "--max_page_bytes must be between 1 and 1073741824, got 1099511627776"},
		{"split_bytes negative", func(s *Stages) { s.SplitBytes = -1 }, "--split_bytes must be between 0 and 9223372036854775807 (0: read every file whole), got -1"},
		{"split_bytes tiny", func(s *Stages) { s.SplitBytes = 1 }, "--split_bytes must be 0 (read every file whole) or at least 4096, got 1"},
		{"split_bytes 0", func(s *Stages) { s.SplitBytes = 0 }, ""},
		{"split_bytes least", func(s *Stages) { s.SplitBytes = MinSplitBytes }, ""},
		{"shingle_length 0", func(s *Stages) { s.ShingleLength = 0 }, "--shingle_length must be between 1 and 1024, got 0"},
		{"shingle_length huge", func(s *Stages) { s.ShingleLength = 1 << 20 }, "--shingle_length must be between 1 and 1024, got 1048576"},
		{"min_shingles negative", func(s *Stages) { s.MinShingles = -1 }, "--min_shingles must be between 0 and 1073741824, got -1"},
		{"max_shingles 1", func(s *Stages) { s.MinShingles, s.MaxShingles = 0, 1 }, "--max_shingles must be between 2 and 1073741824, got 1"},
		// The window min < shingles < max: 0 and 2 keep the sentences
		// of one shingle, 75 and 77 those of 76, while 75 and 76, or 75
		// and 75, keep none. The reuse command used to accept 75 and 75
		// (0 < min ≤ max) and refuse 0 and 2.
		{"min_shingles 0", func(s *Stages) { s.MinShingles, s.MaxShingles = 0, 2 }, ""},
		{"narrowest window", func(s *Stages) { s.MinShingles, s.MaxShingles = 75, 77 }, ""},
		{"empty window", func(s *Stages) { s.MinShingles, s.MaxShingles = 75, 76 }, "--min_shingles 75 and --max_shingles 76 keep no sentence: a sentence is kept when min < shingles < max"},
		{"min equals max", func(s *Stages) { s.MinShingles, s.MaxShingles = 75, 75 }, "--min_shingles 75 and --max_shingles 75 keep no sentence: a sentence is kept when min < shingles < max"},
		{"max below min", func(s *Stages) { s.MinShingles, s.MaxShingles = 700, 600 }, "--min_shingles 700 and --max_shingles 600 keep no sentence: a sentence is kept when min < shingles < max"},
		{"min_jaccard 0 and max_edit 1", func(s *Stages) { s.MinJaccard, s.MaxEdit = 0, 1 }, ""},
		{"min_jaccard NaN", func(s *Stages) { s.MinJaccard = math.NaN() }, "--min_jaccard must be between 0 and 1, got NaN"},
		{"min_jaccard > 1", func(s *Stages) { s.MinJaccard = 1.5 }, "--min_jaccard must be between 0 and 1, got 1.5"},
		{"max_edit < 0", func(s *Stages) { s.MaxEdit = -0.1 }, "--max_edit must be between 0 and 1, got -0.1"},
		{"max_edit Inf", func(s *Stages) { s.MaxEdit = math.Inf(1) }, "--max_edit must be between 0 and 1, got +Inf"},
		{"passage_gap", func(s *Stages) { s.PassageGap = MaxPassageGap + 1 }, "--passage_gap must be between 0 and 1000, got 1001"},
		{"no passages", func(s *Stages) { s.MinPassage = 0 }, ""},
		{"min_passage", func(s *Stages) { s.MinPassage = -2 }, "--min_passage must be between 0 and 1073741824 (0: no shared passages), got -2"},
		{"passages needed", func(s *Stages) { s.MinPassage, s.PassagesNeeded = 1, true }, ""},
		{"passages needed, none asked", func(s *Stages) { s.MinPassage, s.PassagesNeeded = 0, true }, "--min_passage must be between 1 and 1073741824, got 0"},
		{"shards unresolved", func(s *Stages) { s.Shards = 0 }, "--shards must be between 1 and 65536, or 0 for the runner's default, got 0"},
		{"shards negative", func(s *Stages) { s.Shards = -1 }, "--shards must be between 1 and 65536, or 0 for the runner's default, got -1"},
		{"shards most", func(s *Stages) { s.Shards = MaxShards }, ""},
		{"shards huge", func(s *Stages) { s.Shards = 10_000_000 }, "--shards must be between 1 and 65536, or 0 for the runner's default, got 10000000"},
		{"dofn_workers", func(s *Stages) { s.DofnWorkers = -1 }, "--dofn_workers must be between 0 and 1024 (0: the runner's default), got -1"},
		{"dofn_workers huge", func(s *Stages) { s.DofnWorkers, s.Runner = 100_000, "dataflow" }, "--dofn_workers must be between 0 and 1024 (0: the runner's default), got 100000"},
		{"output_shards 0", func(s *Stages) { s.OutputShards = 0 }, "--output_shards must be between 1 and 99999, got 0"},
		{"output_shards max", func(s *Stages) { s.OutputShards = MaxOutputShards }, ""},
		{"output_shards huge", func(s *Stages) { s.OutputShards = 100000 }, "--output_shards must be between 1 and 99999, got 100000"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := defaultStages()
			tt.edit(&s)
			err := s.Check()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Check() = %v, want nil", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Errorf("Check() = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestStagesConfigs checks that each stage gets every option of its own
// from Stages, and the worker pools their resolved size.
func TestStagesConfigs(t *testing.T) {
	s := Stages{
		Namespaces: []int{0, 14}, MaxPageBytes: 1000, SplitBytes: 8192,
		ShingleLength: 5, MinShingles: 3, MaxShingles: 9, Norm: shingle.Normalization{FoldCase: true},
		Scheme: "bands", Bands: 4, Rows: 3, Seed: 7, MinJaccard: 0.6, MaxEdit: 0.1,
		PassageGap: 2, MinPassage: 3, PassageText: true, Shards: 16, OutputShards: 5, DofnWorkers: 2,
		Sites: []document.Site{{Wiki: "viwiki"}, {Wiki: "elwiki"}},
	}
	for _, tt := range []struct {
		name      string
		got, want any
	}{
		{"ReadOptions", s.ReadOptions(), dump.ReadOptions{Namespaces: []int{0, 14}, MaxPageBytes: 1000, SplitBytes: 8192, Workers: 2}},
		{"CleanConfig", s.CleanConfig(), clean.Config{Sites: s.Sites, Workers: 2}},
		{"SignConfig", s.SignConfig(), minhash.Config{
			ShingleLength: 5, MinShingles: 3, MaxShingles: 9, Norm: shingle.Normalization{FoldCase: true},
			Scheme: "bands", Bands: 4, Rows: 3, Seed: 7, BucketShards: 16, RecordShards: 16, Workers: 2,
		}},
		{"VerifyConfig", s.VerifyConfig(), verify.Config{
			ShingleLength: 5, Norm: shingle.Normalization{FoldCase: true}, Thresholds: verify.Thresholds{MinJaccard: 0.6, MaxEdit: 0.1},
			RecordShards: 16, EdgeShards: 16, Workers: 2,
		}},
		{"PassageOptions", s.PassageOptions(), passage.Options{
			Config: passage.Config{Gap: 2, MinMatches: 3}, Text: true, Wikis: []string{"elwiki", "viwiki"},
			PairShards: 16, RecordShards: 16, OutputShards: 5,
		}},
	} {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %+v, want %+v", tt.name, tt.got, tt.want)
		}
	}
	if got := s.PassageOptions().Wikis; s.Sites[0].Wiki != "viwiki" || len(got) != 2 {
		t.Errorf("PassageOptions sorted the sites in place: %v, wikis %v", s.Sites, got)
	}
	for _, tt := range []struct {
		dofnWorkers int
		runner      string
		want        int
	}{{0, "", runtime.GOMAXPROCS(0)}, {0, "dataflow", ClusterDofnWorkers}, {3, "flink", 3}} {
		s.DofnWorkers, s.Runner = tt.dofnWorkers, tt.runner
		if got := s.SignConfig().Workers; got != tt.want {
			t.Errorf("--dofn_workers %d --runner %q: %d workers, want %d", tt.dofnWorkers, tt.runner, got, tt.want)
		}
	}
}
