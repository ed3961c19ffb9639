package launcher

// The flags every pipeline command takes.

import (
	"flag"
	"fmt"

	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/passage"
	"github.com/neardup/neardup/transforms/verify"
)

// Common are the values of the flags every pipeline command takes, with
// one name, one default and one meaning in each: where the run writes, what
// it reads of the pages, the shingles, the MinHash banding, the
// verification, the passages and the execution. RegisterCommon defines
// them; each command copies them into its own options, whose order
// summary.json keeps.
type Common struct {
	Output, RunID, Namespaces               string
	MaxPageBytes                            int
	SplitBytes                              int64
	ShingleLength, MinShingles, MaxShingles int
	Threshold, Recall                       float64
	Bands, Rows                             int
	Seed                                    uint64
	MinJaccard, MaxEdit                     float64
	PassageGap, MinPassage                  int
	MinCoverage                             float64
	Shards, OutputShards, DofnWorkers       int
	SpillDir                                string
	Version, Verbose                        bool
}

// DefaultCommon returns the common flags' defaults. Output has none; RunID
// none (a new UUID); Bands, Rows, Shards and DofnWorkers are 0, chosen for
// the run.
func DefaultCommon() Common {
	thresholds, passages := verify.DefaultThresholds(), passage.DefaultConfig()
	return Common{
		Namespaces:    "0",
		MaxPageBytes:  dump.DefaultMaxPageBytes,
		SplitBytes:    64 << 20,
		ShingleLength: 12,
		MinShingles:   75,
		MaxShingles:   600,
		Threshold:     0.8,
		Recall:        0.99,
		Seed:          1,
		MinJaccard:    thresholds.MinJaccard,
		MaxEdit:       thresholds.MaxEdit,
		PassageGap:    passages.Gap,
		MinPassage:    passages.MinMatches,
		MinCoverage:   passages.MinCoverage,
		OutputShards:  1,
	}
}

// commonUsage is what --help says of each common flag, unless the command
// says otherwise.
var commonUsage = map[string]string{
	"output":         "directory to write the results to, in a subdirectory named by the run id (required)",
	"run_id":         `name of this run's directory under --output (default: a new random UUID); a finished run is never overwritten; a plain directory name (no /, \, control characters)`,
	"namespaces":     "comma-separated namespaces of the pages to keep, or 'all'",
	"max_page_bytes": fmt.Sprintf("pages, text documents and WARC records larger than this many bytes are skipped and dead-lettered (1–%d)", MaxPageBytes),
	"split_bytes":    "plain XML files are read in parallel byte ranges of this size (0: read every file whole)",
	"shingle_length": "characters per shingle",
	"min_shingles":   "keep sentences with more than this many shingles",
	"max_shingles":   "keep sentences with fewer than this many shingles",
	"threshold":      "Jaccard similarity at which a pair must collide with probability ≥ --recall (MinHash bands × rows chosen from it)",
	"recall":         "collision probability required at --threshold",
	"bands":          "number of MinHash bands (0: choose from --threshold; give both --bands and --rows, and then neither --threshold nor --recall)",
	"rows":           "minhashes per band (0: choose from --threshold)",
	"seed":           "seed of the hash functions; same seed and input give the same output",
	"min_jaccard":    "verification: accept a candidate pair whose shingle Jaccard similarity is at least this, or whose edit distance is at most --max_edit",
	"max_edit":       "verification: accept a candidate pair whose character edit distance is at most this fraction of the longer sentence, or whose Jaccard similarity is at least --min_jaccard",
	"passage_gap":    "shared passages: how many unmatched in-window sentences a passage may skip between two matches, in either document",
	"min_passage":    "shared passages: the fewest matched sentence pairs of a passage, unless --min_coverage keeps a shorter one",
	"min_coverage":   "shared passages: keep a document pair's runs shorter than --min_passage too when together they cover at least this share of the in-window sentences of the pair's shorter document (0–1; 0: only runs of --min_passage)",
	"shards":         fmt.Sprintf("shards of the shuffles (0: on the embedded runner one per %d MB of input, decompressed, at least %d; %d on any other; at most %d)", EmbeddedShardBytes>>20, EmbeddedShards, ClusterShards, MaxShards),
	"output_shards":  fmt.Sprintf("number of files each output is written in (1–%d)", MaxOutputShards),
	"dofn_workers":   fmt.Sprintf("goroutines in each DoFn's worker pool (0: GOMAXPROCS on the embedded runner, %d on any other, which runs many bundles per process; at most %d)", ClusterDofnWorkers, MaxDofnWorkers),
	"spill_dir":      SpillDirUsage,
	"version":        "print the version and exit",
	"verbose":        "also show the runner's own log lines (the embedded runner's job and worker messages) on stderr, not only its warnings and errors",
}

// RegisterCommon defines the common flags on fs, with the values of
// defaults as their defaults and usage's text for a flag where the
// command gives one, and returns the Common that parsing fs fills.
func RegisterCommon(fs *flag.FlagSet, defaults Common, usage map[string]string) *Common {
	c := &defaults
	text := func(name string) string {
		if u, ok := usage[name]; ok {
			return u
		}
		return commonUsage[name]
	}
	fs.StringVar(&c.Output, "output", c.Output, text("output"))
	fs.StringVar(&c.RunID, "run_id", c.RunID, text("run_id"))
	fs.StringVar(&c.Namespaces, "namespaces", c.Namespaces, text("namespaces"))
	fs.IntVar(&c.MaxPageBytes, "max_page_bytes", c.MaxPageBytes, text("max_page_bytes"))
	fs.Int64Var(&c.SplitBytes, "split_bytes", c.SplitBytes, text("split_bytes"))
	fs.IntVar(&c.ShingleLength, "shingle_length", c.ShingleLength, text("shingle_length"))
	fs.IntVar(&c.MinShingles, "min_shingles", c.MinShingles, text("min_shingles"))
	fs.IntVar(&c.MaxShingles, "max_shingles", c.MaxShingles, text("max_shingles"))
	fs.Float64Var(&c.Threshold, "threshold", c.Threshold, text("threshold"))
	fs.Float64Var(&c.Recall, "recall", c.Recall, text("recall"))
	fs.IntVar(&c.Bands, "bands", c.Bands, text("bands"))
	fs.IntVar(&c.Rows, "rows", c.Rows, text("rows"))
	fs.Uint64Var(&c.Seed, "seed", c.Seed, text("seed"))
	fs.Float64Var(&c.MinJaccard, "min_jaccard", c.MinJaccard, text("min_jaccard"))
	fs.Float64Var(&c.MaxEdit, "max_edit", c.MaxEdit, text("max_edit"))
	fs.IntVar(&c.PassageGap, "passage_gap", c.PassageGap, text("passage_gap"))
	fs.IntVar(&c.MinPassage, "min_passage", c.MinPassage, text("min_passage"))
	fs.Float64Var(&c.MinCoverage, "min_coverage", c.MinCoverage, text("min_coverage"))
	fs.IntVar(&c.Shards, "shards", c.Shards, text("shards"))
	fs.IntVar(&c.OutputShards, "output_shards", c.OutputShards, text("output_shards"))
	fs.IntVar(&c.DofnWorkers, "dofn_workers", c.DofnWorkers, text("dofn_workers"))
	fs.StringVar(&c.SpillDir, "spill_dir", c.SpillDir, text("spill_dir"))
	fs.BoolVar(&c.Version, "version", c.Version, text("version"))
	fs.BoolVar(&c.Verbose, "verbose", c.Verbose, text("verbose"))
	return c
}

// CommonFlags names the common flags, sorted.
func CommonFlags() []string {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	RegisterCommon(fs, DefaultCommon(), nil)
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// GivenFlags names the flags given on fs's command line, once it is
// parsed.
func GivenFlags(fs *flag.FlagSet) map[string]bool {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}
