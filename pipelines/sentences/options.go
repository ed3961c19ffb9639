package main

import (
	"slices"

	"github.com/neardup/neardup/pipelines/internal/launcher"

	"github.com/neardup/neardup/io/input"

	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/io/text"
	"github.com/neardup/neardup/transforms/alias"
	"github.com/neardup/neardup/transforms/cluster"
	"github.com/neardup/neardup/transforms/dedup"
	htmlreport "github.com/neardup/neardup/transforms/report"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/summary"
)

// Options are the pipeline's parameters, as given by the flags. They are
// written to summary.json under "parameters".
type Options struct {
	Input []string `json:"input"` // the files the patterns matched
	// Baseline are the files of --baseline: dumps of the input's wikis
	// taken at an earlier date, whose pages are compared with the input's
	// (changes-*.jsonl). Absent from summary.json when not given.
	Baseline []string `json:"baseline,omitempty"`
	// InputFormat is --input_format: auto (each file's format chosen by
	// its content), mediawiki, jsonl, text or warc, for every file of --input
	// and --baseline.
	InputFormat   string  `json:"input_format"`
	Output        string  `json:"-"` // the output root; results go to Output/RunID
	RunID         string  `json:"-"`
	Namespaces    []int   `json:"namespaces"`
	MaxPageBytes  int     `json:"max_page_bytes"`
	SplitBytes    int64   `json:"split_bytes"`
	ShingleLength int     `json:"shingle_length"`
	MinShingles   int     `json:"min_shingles"`
	MaxShingles   int     `json:"max_shingles"`
	FoldCase      bool    `json:"fold_case"`
	CollapseSpace bool    `json:"collapse_space"`
	Scheme        string  `json:"scheme"`
	Threshold     float64 `json:"threshold"`
	Recall        float64 `json:"recall"`
	MaxBands      int     `json:"max_bands"`
	Bands         int     `json:"bands"`
	Rows          int     `json:"rows"`
	Seed          uint64  `json:"seed"`
	// Simhash holds the parameters of --scheme simhash; it is absent from
	// summary.json with any other scheme.
	Simhash       SimhashOptions `json:"simhash,omitzero"`
	MinJaccard    float64        `json:"min_jaccard"`
	MaxEdit       float64        `json:"max_edit"`
	TopPairs      int            `json:"top_pairs"`
	PassageGap    int            `json:"passage_gap"`
	MinPassage    int            `json:"min_passage"`
	MinCoverage   float64        `json:"min_coverage"`
	PassageText   bool           `json:"passage_text"`
	Shards        int            `json:"shards"`
	Rounds        int            `json:"rounds"`
	OutputShards  int            `json:"output_shards"`
	EmitSentences bool           `json:"emit_sentences"`
	// EmitEdges writes the verified edges to edges-*.jsonl; absent from
	// summary.json when not asked for.
	EmitEdges bool `json:"emit_edges,omitempty"`
	// EmitDuplicates writes duplicates-*.jsonl, what to remove to
	// deduplicate the input (package dedup); DuplicateShare is the share
	// of a document that passages shared with one earlier document must
	// cover for it to be listed. Both are absent from summary.json when
	// not asked for.
	EmitDuplicates bool    `json:"emit_duplicates,omitempty"`
	DuplicateShare float64 `json:"duplicate_share,omitempty"`
	MaxMembers     int     `json:"max_members"`
	// MaxAliases bounds the names the alias table keeps of each wiki
	// (package alias); 0 builds none.
	MaxAliases int      `json:"max_aliases"`
	Formats    []string `json:"formats"`         // jsonl, and parquet if asked for
	Examples   int      `json:"report_examples"` // example clusters of each kind in report.html

	// DofnWorkers is --dofn_workers as given (0: the runner's default);
	// Workers resolves it. It is not in summary.json: the output is the
	// same for any value, on any runner.
	DofnWorkers int `json:"-"`
	// Runner is the --runner flag's value ("" is the embedded runner);
	// Workers' default depends on it.
	Runner string `json:"-"`

	// Sources are the planned input files; Build plans them if they are
	// missing.
	Sources *input.Sources `json:"-"`
	// BaselineSources are the planned baseline files, nil without
	// --baseline; Build plans them if they are missing.
	BaselineSources *input.Sources `json:"-"`
	// Run is what the manifest records beside the parameters.
	Run summary.Manifest `json:"-"`
	// Set names the flags given explicitly on the command line (nil when
	// the options do not come from flags): Validate refuses a flag that
	// does not apply to the scheme only if it was given.
	Set map[string]bool `json:"-"`
}

// SimhashOptions are the parameters of --scheme simhash: random-hyperplane
// signatures of Bits bits over the sentence's Features, sorted under
// Permutations permutations of their bits, each compared with the next
// Window-1 in every order; pairs at most MaxHamming bits apart are
// candidates (-1: chosen from --threshold as a cosine).
type SimhashOptions struct {
	Features     string `json:"features"`
	Bits         int    `json:"bits"`
	Permutations int    `json:"permutations"`
	Window       int    `json:"window"`
	MaxHamming   int    `json:"max_hamming"`
}

// DefaultOptions returns every parameter's default: the flags take theirs
// from it, and the tests start from it. Input and Output have none. Shards
// and DofnWorkers are 0, the runner's default: optionsFromFlags resolves
// Shards (shardsFor), Workers resolves DofnWorkers.
func DefaultOptions() Options {
	c, norm := launcher.DefaultCommon(), shingle.DefaultNormalization
	return Options{
		InputFormat:    text.Auto.String(),
		Namespaces:     []int{0}, // c.Namespaces
		MaxPageBytes:   c.MaxPageBytes,
		SplitBytes:     c.SplitBytes,
		ShingleLength:  c.ShingleLength,
		MinShingles:    c.MinShingles,
		MaxShingles:    c.MaxShingles,
		FoldCase:       norm.FoldCase,
		CollapseSpace:  norm.CollapseSpace,
		Scheme:         "oph",
		Threshold:      c.Threshold,
		Recall:         c.Recall,
		MaxBands:       20,
		Bands:          c.Bands,
		Rows:           c.Rows,
		Seed:           c.Seed,
		Simhash:        SimhashOptions{Features: "shingles", Bits: 64, Permutations: 10, Window: 10, MaxHamming: -1},
		MinJaccard:     c.MinJaccard,
		MaxEdit:        c.MaxEdit,
		TopPairs:       20,
		PassageGap:     c.PassageGap,
		MinPassage:     c.MinPassage,
		MinCoverage:    c.MinCoverage,
		Shards:         c.Shards,
		Rounds:         2,
		OutputShards:   c.OutputShards,
		DofnWorkers:    c.DofnWorkers,
		MaxMembers:     cluster.DefaultMaxMembers,
		MaxAliases:     alias.DefaultMaxNames,
		Formats:        []string{formatJSONL},
		Examples:       htmlreport.DefaultExamples,
		DuplicateShare: dedup.DefaultMinShare,
	}
}

// Workers is how many goroutines each DoFn's worker pool runs (--dofn_workers resolved for the runner).
func (o Options) Workers() int { return launcher.Workers(o.DofnWorkers, o.Runner) }

// maxExamples is the most example clusters of each kind report.html may
// show (--report_examples).
const maxExamples = htmlreport.MaxExamples

// RunDir is the directory the run writes to.
func (o Options) RunDir() string { return result.Join(o.Output, o.RunID) }

// outputs lists the files a run writes, in the order the manifest gives them.
func (o Options) outputs() []string {
	var names []string
	for i := range o.OutputShards {
		names = append(names, result.ShardName("clusters", i, o.OutputShards))
	}
	for i := range o.OutputShards {
		names = append(names, result.IndexName("cluster_index", i, o.OutputShards))
	}
	if o.parquet() {
		for i := range o.OutputShards {
			names = append(names, result.ParquetName("clusters", i, o.OutputShards))
		}
	}
	names = append(names, result.ShardName("dead_letter", 0, 1))
	if o.MinPassage > 0 {
		for i := range o.OutputShards {
			names = append(names, result.ShardName("passages", i, o.OutputShards))
		}
		if o.parquet() {
			for i := range o.OutputShards {
				names = append(names, result.ParquetName("passages", i, o.OutputShards))
			}
		}
	}
	if len(o.Baseline) > 0 {
		for i := range o.OutputShards {
			names = append(names, result.ShardName("changes", i, o.OutputShards))
		}
	}
	if o.EmitEdges {
		for i := range o.OutputShards {
			names = append(names, result.ShardName("edges", i, o.OutputShards))
		}
	}
	if o.EmitDuplicates {
		for i := range o.OutputShards {
			names = append(names, result.ShardName("duplicates", i, o.OutputShards))
		}
		for _, corpus := range o.jsonlCorpora() {
			names = append(names, dedupCorpusName(corpus))
		}
	}
	if o.EmitSentences {
		for i := range o.OutputShards {
			names = append(names, result.ShardName("sentences", i, o.OutputShards))
		}
		if o.parquet() {
			for i := range o.OutputShards {
				names = append(names, result.ParquetName("sentences", i, o.OutputShards))
			}
		}
	}
	return append(names, "summary.json", "report.html", "manifest.json")
}

// parquet reports whether the run writes Parquet files beside the JSON
// lines.
func (o Options) parquet() bool { return slices.Contains(o.Formats, formatParquet) }

// parquetTable is table if the run writes Parquet files, "" otherwise.
func (o Options) parquetTable(table string) string {
	if o.parquet() {
		return table
	}
	return ""
}

// The output formats of --formats.
const (
	formatJSONL   = "jsonl"
	formatParquet = "parquet"
)

// inputBytes is the size of the files whose bytes the readers count as
// they read them (progress.Meter): the dumps and text files, not the
// multistream indexes.
func (o Options) inputBytes() int64 {
	if o.Sources == nil {
		return 0
	}
	n := o.Sources.ReadBytes()
	if b := o.BaselineSources; b != nil {
		n += b.ReadBytes()
	}
	return n
}

// inputFormat is --input_format parsed; Validate has checked it.
func (o Options) inputFormat() text.Format {
	f, _ := text.ParseFormat(o.InputFormat)
	return f
}
