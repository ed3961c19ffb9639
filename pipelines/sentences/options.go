package main

import (
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/summary"
)

// Options are the pipeline's parameters, as given by the flags. They are
// written to summary.json under "parameters".
type Options struct {
	Input         []string `json:"input"` // the files the patterns matched
	Output        string   `json:"-"`     // the output root; results go to Output/RunID
	RunID         string   `json:"-"`
	Namespaces    []int    `json:"namespaces"`
	MaxPageBytes  int      `json:"max_page_bytes"`
	SplitBytes    int64    `json:"split_bytes"`
	ShingleLength int      `json:"shingle_length"`
	MinShingles   int      `json:"min_shingles"`
	MaxShingles   int      `json:"max_shingles"`
	FoldCase      bool     `json:"fold_case"`
	CollapseSpace bool     `json:"collapse_space"`
	Scheme        string   `json:"scheme"`
	Threshold     float64  `json:"threshold"`
	Recall        float64  `json:"recall"`
	MaxBands      int      `json:"max_bands"`
	Bands         int      `json:"bands"`
	Rows          int      `json:"rows"`
	Seed          uint64   `json:"seed"`
	MinJaccard    float64  `json:"min_jaccard"`
	MaxEdit       float64  `json:"max_edit"`
	TopPairs      int      `json:"top_pairs"`
	Shards        int      `json:"shards"`
	Rounds        int      `json:"rounds"`
	OutputShards  int      `json:"output_shards"`
	EmitSentences bool     `json:"emit_sentences"`
	MaxMembers    int      `json:"max_members"`

	// Sources are the planned input files; Build plans them if they are
	// missing.
	Sources *sources `json:"-"`
	// Run is what the manifest records beside the parameters.
	Run summary.Manifest `json:"-"`
	// Set names the flags given explicitly on the command line (nil when
	// the options do not come from flags): Validate refuses a flag that
	// does not apply to the scheme only if it was given.
	Set map[string]bool `json:"-"`
}

// RunDir is the directory the run writes to.
func (o Options) RunDir() string { return result.Join(o.Output, o.RunID) }

// outputs lists the files a run writes, in the order the manifest gives them.
func (o Options) outputs() []string {
	var names []string
	for i := range o.OutputShards {
		names = append(names, result.ShardName("clusters", i, o.OutputShards))
	}
	names = append(names, result.ShardName("dead_letter", 0, 1))
	if o.EmitSentences {
		for i := range o.OutputShards {
			names = append(names, result.ShardName("sentences", i, o.OutputShards))
		}
	}
	return append(names, "summary.json", "manifest.json")
}

