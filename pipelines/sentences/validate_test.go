package main

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/neardup/neardup/pipelines/internal/launcher"
)

// validOptions are the command's defaults on the embedded runner, before
// resolve.
func validOptions() Options {
	o := DefaultOptions()
	o.Input, o.Output = []string{sampleDump}, "out"
	o.Shards = launcher.Shards(o.Shards, o.Runner, 0)
	return o
}

// TestValidate gives Options.Validate every kind of bad value, one at a
// time, and checks the exact message. Before it, --min_shingles -1
// panicked a worker, --max_page_bytes -5 read with 64 MiB, --threshold NaN
// chose -9.2e18 bands and --scheme weissman ignored --bands.
func TestValidate(t *testing.T) {
	set := func(names ...string) map[string]bool {
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	tests := []struct {
		name string
		edit func(o *Options)
		want string
	}{
		{"no input", func(o *Options) { o.Input = nil }, "--input and --output are required (try --input 'dumps/*.bz2' --output out/)"},
		{"no output", func(o *Options) { o.Output = "" }, "--input and --output are required (try --input 'dumps/*.bz2' --output out/)"},
		{"run id", func(o *Options) { o.RunID = "a/b" }, `--run_id "a/b" must be a plain directory name`},
		{"run id dots", func(o *Options) { o.RunID = ".." }, `--run_id ".." must be a plain directory name`},
		{"input format", func(o *Options) { o.InputFormat = "xml" }, `--input_format: unknown input format "xml" (want auto, mediawiki, jsonl, text or warc)`},
		{"namespace", func(o *Options) { o.Namespaces = []int{0, -3} }, "--namespaces: -3 is not a namespace (MediaWiki's start at -2); give namespace numbers or 'all'"},
		{"max_page_bytes", func(o *Options) { o.MaxPageBytes = -5 }, "--max_page_bytes must be between 1 and 1073741824, got -5"},
		{"max_page_bytes 0", func(o *Options) { o.MaxPageBytes = 0 }, "--max_page_bytes must be between 1 and 1073741824, got 0"},
		{"split_bytes", func(o *Options) { o.SplitBytes = -1 }, "--split_bytes must be between 0 and 9223372036854775807 (0: read every file whole), got -1"},
		{"shingle_length", func(o *Options) { o.ShingleLength = 0 }, "--shingle_length must be between 1 and 1024, got 0"},
		{"min_shingles", func(o *Options) { o.MinShingles = -1 }, "--min_shingles must be between 0 and 1073741824, got -1"},
		{"empty window", func(o *Options) { o.MinShingles, o.MaxShingles = 75, 76 }, "--min_shingles 75 and --max_shingles 76 keep no sentence: a sentence is kept when min < shingles < max"},
		{"max below min", func(o *Options) { o.MinShingles, o.MaxShingles = 75, 10 }, "--min_shingles 75 and --max_shingles 10 keep no sentence: a sentence is kept when min < shingles < max"},
		{"scheme", func(o *Options) { o.Scheme = "minhash" }, `--scheme must be 'oph', 'bands', 'weissman', 'simhash' or 'exact', got "minhash"`},
		{"weissman --bands", func(o *Options) { o.Scheme, o.Bands, o.Set = "weissman", 3, set("bands") },
			"--scheme weissman has a fixed banding (10 bands × 10 rows): --bands does not apply"},
		{"weissman --threshold --recall", func(o *Options) { o.Scheme, o.Set = "weissman", set("threshold", "recall", "seed") },
			"--scheme weissman has a fixed banding (10 bands × 10 rows): --threshold, --recall do not apply"},
		{"weissman --max_bands", func(o *Options) { o.Scheme, o.Set = "weissman", set("max_bands") },
			"--scheme weissman has a fixed banding (10 bands × 10 rows): --max_bands does not apply"},
		{"weissman bands in code", func(o *Options) { o.Scheme, o.Bands = "weissman", 3 },
			"--scheme weissman has a fixed banding (10 bands × 10 rows), got --bands 3 --rows 0"},
		{"negative bands", func(o *Options) { o.Bands, o.Rows = -1, 5 }, "--bands and --rows must be at least 0 (0: chosen from --threshold), got -1 and 5"},
		{"bands without rows", func(o *Options) { o.Bands = 3 }, "give both --bands and --rows, or neither, got --bands 3 --rows 0"},
		{"rows without bands", func(o *Options) { o.Rows = 3 }, "give both --bands and --rows, or neither, got --bands 0 --rows 3"},
		{"too many bins", func(o *Options) { o.Bands, o.Rows = 100, 100 }, "--bands × --rows must be at most 4096, got 100 × 100"},
		{"overflowing bins", func(o *Options) { o.Bands, o.Rows = math.MaxInt32, math.MaxInt32 }, "--bands × --rows must be at most 4096, got 2147483647 × 2147483647"},
		{"bands and threshold", func(o *Options) { o.Bands, o.Rows, o.Set = 20, 5, set("bands", "rows", "threshold") },
			"--bands and --rows set the banding by hand: --threshold does not apply"},
		{"threshold NaN", func(o *Options) { o.Threshold = math.NaN() }, "--threshold must be between 0 and 1 (exclusive), got NaN"},
		{"threshold Inf", func(o *Options) { o.Threshold = math.Inf(1) }, "--threshold must be between 0 and 1 (exclusive), got +Inf"},
		{"threshold 1", func(o *Options) { o.Threshold = 1 }, "--threshold must be between 0 and 1 (exclusive), got 1"},
		{"threshold 0", func(o *Options) { o.Threshold = 0 }, "--threshold must be between 0 and 1 (exclusive), got 0"},
		{"recall NaN", func(o *Options) { o.Recall = math.NaN() }, "--recall must be between 0 and 1 (exclusive), got NaN"},
		{"recall 1", func(o *Options) { o.Recall = 1 }, "--recall must be between 0 and 1 (exclusive), got 1"},
		{"recall -Inf", func(o *Options) { o.Recall = math.Inf(-1) }, "--recall must be between 0 and 1 (exclusive), got -Inf"},
		{"max_bands 0", func(o *Options) { o.MaxBands = 0 }, "--max_bands must be between 1 and 4096, got 0"},
		{"max_bands huge", func(o *Options) { o.MaxBands = 5000 }, "--max_bands must be between 1 and 4096, got 5000"},
		{"min_jaccard NaN", func(o *Options) { o.MinJaccard = math.NaN() }, "--min_jaccard must be between 0 and 1, got NaN"},
		{"min_jaccard > 1", func(o *Options) { o.MinJaccard = 1.5 }, "--min_jaccard must be between 0 and 1, got 1.5"},
		{"max_edit < 0", func(o *Options) { o.MaxEdit = -0.1 }, "--max_edit must be between 0 and 1, got -0.1"},
		{"max_edit Inf", func(o *Options) { o.MaxEdit = math.Inf(1) }, "--max_edit must be between 0 and 1, got +Inf"},
		{"duplicate_share 0", func(o *Options) { o.EmitDuplicates, o.DuplicateShare = true, 0 }, "--duplicate_share must be above 0 and at most 1, got 0"},
		{"duplicate_share > 1", func(o *Options) { o.EmitDuplicates, o.DuplicateShare = true, 1.5 }, "--duplicate_share must be above 0 and at most 1, got 1.5"},
		{"duplicate_share NaN", func(o *Options) { o.EmitDuplicates, o.DuplicateShare = true, math.NaN() }, "--duplicate_share must be above 0 and at most 1, got NaN"},
		{"top_pairs", func(o *Options) { o.TopPairs = 0 }, "--top_pairs must be between 1 and 100000, got 0"},
		{"passage_gap", func(o *Options) { o.PassageGap = -1 }, "--passage_gap must be between 0 and 1000, got -1"},
		{"min_passage", func(o *Options) { o.MinPassage = -2 }, "--min_passage must be between 0 and 1073741824 (0: no shared passages), got -2"},
		{"shards", func(o *Options) { o.Shards = -1 }, "--shards must be between 1 and 65536, or 0 for the runner's default, got -1"},
		{"shards unresolved", func(o *Options) { o.Shards = 0 }, "--shards must be between 1 and 65536, or 0 for the runner's default, got 0"},
		{"dofn_workers", func(o *Options) { o.DofnWorkers = -1 }, "--dofn_workers must be between 0 and 1024 (0: the runner's default), got -1"},
		{"dofn_workers on a cluster", func(o *Options) { o.DofnWorkers, o.Runner = -4, "dataflow" }, "--dofn_workers must be between 0 and 1024 (0: the runner's default), got -4"},
		{"rounds", func(o *Options) { o.Rounds = -1 }, "--rounds must be between 0 and 64, got -1"},
		{"output_shards", func(o *Options) { o.OutputShards = 0 }, "--output_shards must be between 1 and 99999, got 0"},
		{"output_shards huge", func(o *Options) { o.OutputShards = 100000 }, "--output_shards must be between 1 and 99999, got 100000"},
		{"shards huge", func(o *Options) { o.Shards = 10_000_000 }, "--shards must be between 1 and 65536, or 0 for the runner's default, got 10000000"},
		{"shards 2e9", func(o *Options) { o.Shards = 2_000_000_000 }, "--shards must be between 1 and 65536, or 0 for the runner's default, got 2000000000"},
		{"dofn_workers huge", func(o *Options) { o.DofnWorkers = 100_000 }, "--dofn_workers must be between 0 and 1024 (0: the runner's default), got 100000"},
		{"rounds huge", func(o *Options) { o.Rounds = 1000 }, "--rounds must be between 0 and 64, got 1000"},
		{"max_page_bytes huge", func(o *Options) { o.MaxPageBytes = 1 << 40 }, "--max_page_bytes must be between 1 and 1073741824, got 1099511627776"},
		{"split_bytes tiny", func(o *Options) { o.SplitBytes = 1 }, "--split_bytes must be 0 (read every file whole) or at least 4096, got 1"},
		{"shingle_length huge", func(o *Options) { o.ShingleLength = 1 << 20 }, "--shingle_length must be between 1 and 1024, got 1048576"},
		{"top_pairs huge", func(o *Options) { o.TopPairs = 1 << 30 }, "--top_pairs must be between 1 and 100000, got 1073741824"},
		{"passage_gap huge", func(o *Options) { o.PassageGap = 1 << 30 }, "--passage_gap must be between 0 and 1000, got 1073741824"},
		{"run id newline", func(o *Options) { o.RunID = "a\nb" }, `--run_id "a\nb" must be a plain directory name: it holds a control character`},
		{"max_members", func(o *Options) { o.MaxMembers = -1 }, "--max_members must be between 0 and 1073741824 (0: every member), got -1"},
		{"report_examples", func(o *Options) { o.Examples = -1 }, "--report_examples must be between 0 and 5, got -1"},
		{"report_examples huge", func(o *Options) { o.Examples = 6 }, "--report_examples must be between 0 and 5, got 6"},
		{"simhash flag with oph", func(o *Options) { o.Set = set("window", "features") },
			"--features, --window do not apply to --scheme oph, only to --scheme simhash"},
		{"simhash flag with exact", func(o *Options) { o.Scheme, o.Set = "exact", set("max_hamming") },
			"--max_hamming does not apply to --scheme exact, only to --scheme simhash"},
		{"simhash --bands", func(o *Options) { o.Scheme, o.Set = "simhash", set("bands", "rows") }, "--scheme simhash has no bands: --bands, --rows do not apply"},
		{"exact --recall", func(o *Options) { o.Scheme, o.Set = "exact", set("recall") }, "--scheme exact has no bands: --recall does not apply"},
		{"exact threshold 0", func(o *Options) { o.Scheme, o.Threshold = "exact", 0 }, "--threshold must be between 0 and 1 (exclusive), got 0"},
		{"exact --min_jaccard", func(o *Options) { o.Scheme, o.Set = "exact", set("min_jaccard") },
			"--scheme exact verifies its pairs at Jaccard ≥ --threshold: --min_jaccard does not apply"},
		{"exact --max_edit --min_jaccard", func(o *Options) { o.Scheme, o.Set = "exact", set("max_edit", "min_jaccard") },
			"--scheme exact verifies its pairs at Jaccard ≥ --threshold: --min_jaccard, --max_edit do not apply"},
		{"simhash threshold 1", func(o *Options) { o.Scheme, o.Threshold = "simhash", 1 }, "--threshold must be between 0 and 1 (exclusive), got 1"},
		{"features", func(o *Options) { o.Scheme, o.Simhash.Features = "simhash", "embeddings" }, `--features must be 'shingles' or 'words', got "embeddings"`},
		{"simhash_bits", func(o *Options) { o.Scheme, o.Simhash.Bits = "simhash", 65 }, "--simhash_bits must be between 1 and 64, got 65"},
		{"permutations", func(o *Options) { o.Scheme, o.Simhash.Permutations = "simhash", 0 }, "--permutations must be between 1 and 64, got 0"},
		{"window", func(o *Options) { o.Scheme, o.Simhash.Window = "simhash", 1 }, "--window must be between 2 and 1000, got 1"},
		{"max_hamming", func(o *Options) { o.Scheme, o.Simhash.MaxHamming = "simhash", 65 }, "--max_hamming must be between 0 and --simhash_bits (64), or -1 (from --threshold), got 65"},
		{"max_hamming and threshold", func(o *Options) {
			o.Scheme, o.Simhash.MaxHamming, o.Set = "simhash", 3, set("max_hamming", "threshold")
		}, "--max_hamming sets the Hamming limit by hand: --threshold does not apply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := validOptions()
			tt.edit(&o)
			err := o.Validate()
			if err == nil || err.Error() != tt.want {
				t.Errorf("Validate() = %v\nwant %s", err, tt.want)
			}
			if err := o.resolve(); err == nil || err.Error() != tt.want {
				t.Errorf("resolve() = %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestValidateAccepts checks values at the edges of the ranges, and that
// resolve's result passes Validate again (Build calls it).
func TestValidateAccepts(t *testing.T) {
	tests := []struct {
		name string
		edit func(o *Options)
	}{
		{"defaults", func(o *Options) {}},
		{"every namespace", func(o *Options) { o.Namespaces = nil }},
		{"media and special namespaces", func(o *Options) { o.Namespaces = []int{-2, -1, 0} }},
		{"whole files", func(o *Options) { o.SplitBytes = 0 }},
		{"min_shingles 0", func(o *Options) { o.MinShingles, o.MaxShingles = 0, 2 }},
		{"verification bounds", func(o *Options) { o.MinJaccard, o.MaxEdit = 0, 1 }},
		{"rounds 0", func(o *Options) { o.Rounds = 0 }},
		{"dofn_workers", func(o *Options) { o.DofnWorkers = 3 }},
		{"dofn_workers on a cluster", func(o *Options) { o.Runner = "flink" }},
		{"any seed", func(o *Options) { o.Seed = math.MaxUint64 }},
		{"bands by hand", func(o *Options) { o.Bands, o.Rows, o.Set = 64, 64, map[string]bool{"bands": true, "rows": true} }},
		{"bands scheme", func(o *Options) { o.Scheme = "bands" }},
		{"weissman", func(o *Options) { o.Scheme = "weissman" }},
		{"weissman, seed set", func(o *Options) { o.Scheme, o.Set = "weissman", map[string]bool{"seed": true} }},
		{"weissman resolved", func(o *Options) { o.Scheme, o.Bands, o.Rows = "weissman", 10, 10 }},
		{"output_shards max", func(o *Options) { o.OutputShards = 99999 }},
		{"no report examples", func(o *Options) { o.Examples = 0 }},
		{"most report examples", func(o *Options) { o.Examples = 5 }},
		{"simhash", func(o *Options) { o.Scheme = "simhash" }},
		{"simhash by hand", func(o *Options) {
			o.Scheme, o.Simhash, o.Set = "simhash", SimhashOptions{Features: "words", Bits: 1, Permutations: 64, Window: 1000, MaxHamming: 0}, map[string]bool{"max_hamming": true}
		}},
		{"exact", func(o *Options) { o.Scheme = "exact" }},
		{"exact at 1", func(o *Options) { o.Scheme, o.Threshold = "exact", 1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := validOptions()
			tt.edit(&o)
			if err := o.Validate(); err != nil {
				t.Fatalf("Validate() = %v", err)
			}
			if err := o.resolve(); err != nil {
				t.Fatalf("resolve() = %v", err)
			}
			switch o.Scheme {
			case "simhash", "exact":
				if o.Bands != 0 || o.Rows != 0 || o.Recall != 0 || o.MaxBands != 0 || (o.Scheme == "simhash") != (o.Simhash != SimhashOptions{}) {
					t.Errorf("%s resolved to %d bands × %d rows, recall %v, max bands %d, simhash %+v", o.Scheme, o.Bands, o.Rows, o.Recall, o.MaxBands, o.Simhash)
				}
				if o.Scheme == "exact" && (o.MinJaccard != o.Threshold || o.MaxEdit != 0) {
					t.Errorf("exact at %v resolved to --min_jaccard %v --max_edit %v, want %v and 0", o.Threshold, o.MinJaccard, o.MaxEdit, o.Threshold)
				}
				if o.Scheme == "simhash" && o.Simhash.MaxHamming < 0 {
					t.Errorf("simhash resolved to --max_hamming %d", o.Simhash.MaxHamming)
				}
			default:
				if o.Bands < 1 || o.Rows < 1 || o.Simhash != (SimhashOptions{}) {
					t.Errorf("resolved to %d bands × %d rows, simhash %+v", o.Bands, o.Rows, o.Simhash)
				}
			}
			if err := o.Validate(); err != nil {
				t.Errorf("Validate() after resolve = %v", err)
			}
		})
	}
}

// TestRunDirectoryNotCreatedBeforeValidation checks that a bad input (a
// dangling symlink, a directory) fails before the run directory exists:
// prepareRun used to create it first and leave it empty.
func TestRunDirectoryNotCreatedBeforeValidation(t *testing.T) {
	tmp := t.TempDir()
	dangling, dir := badInputs(t, tmp)
	for _, in := range []string{dangling, dir} {
		out := filepath.Join(tmp, "out-"+filepath.Base(in))
		o := validOptions()
		o.Input, o.Output = []string{in}, out
		if err := o.resolve(); err != nil {
			t.Fatal(err)
		}
		if err := o.prepareRun(t.Context(), ""); err == nil {
			t.Errorf("%s: prepareRun accepted it", in)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			entries, _ := os.ReadDir(out)
			t.Errorf("%s: the failed run left %s (%d entries)", in, out, len(entries))
		}
	}
}
