package launcher

// The stages both pipelines run the same way, and their options.

import (
	"fmt"
	"math"
	"slices"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/minhash"
	"github.com/neardup/neardup/transforms/passage"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/verify"
)

// Stages are the options of the stages every pipeline runs the same way:
// read, clean and split, sign, verify and find shared passages. Each
// pipeline builds them from its own options (whose fields keep the order
// summary.json records them in); Check checks them, and ReadOptions,
// CleanConfig, SignConfig, VerifyConfig and PassageOptions give each
// stage its part.
type Stages struct {
	Namespaces   []int // the namespaces kept; nil keeps every one
	MaxPageBytes int
	SplitBytes   int64
	// A sentence is signed when it has more than MinShingles and fewer
	// than MaxShingles shingles of ShingleLength characters.
	ShingleLength, MinShingles, MaxShingles int
	Norm                                    shingle.Normalization
	Scheme                                  string // minhash.Config.Scheme
	Bands, Rows                             int
	Seed                                    uint64
	MinJaccard, MaxEdit                     float64
	PassageGap, MinPassage                  int
	// MinCoverage keeps a document pair's runs shorter than MinPassage
	// when they cover this share of its shorter document
	// (passage.Config.MinCoverage).
	MinCoverage float64
	// PassageText asks for the texts of each passage's matched sentences.
	PassageText bool
	// PassagesNeeded says the run's results are its shared passages (the
	// reuse pipeline's cases): --min_passage 0, which elsewhere turns
	// passages off, is refused.
	PassagesNeeded bool
	// Shards are the shuffles' shards, resolved (Shards: a --shards of 0
	// is the runner's default, never 0 here).
	Shards, OutputShards int
	// DofnWorkers is --dofn_workers as given, Runner --runner: Workers
	// resolves them.
	DofnWorkers int
	Runner      string
	// Sites are the run's wikis (input.Sources.Sites), nil before the
	// input is planned.
	Sites []document.Site
}

// Check returns the error of the first option out of its range, with the
// flag's name and its range: it does no I/O, and refuses NaN and
// infinities. The banding is checked apart (Banding.Check), since each
// pipeline chooses it from flags of its own.
func (s Stages) Check() error {
	for _, n := range s.Namespaces {
		if n < MinNamespace {
			return fmt.Errorf("--namespaces: %d is not a namespace (MediaWiki's start at %d); give namespace numbers or 'all'", n, MinNamespace)
		}
	}
	if err := CheckRanges(
		Range{Flag: "max_page_bytes", Value: int64(s.MaxPageBytes), Min: 1, Max: MaxPageBytes},
		Range{Flag: "split_bytes", Value: s.SplitBytes, Min: 0, Max: math.MaxInt64, Note: " (0: read every file whole)"},
		Range{Flag: "shingle_length", Value: int64(s.ShingleLength), Min: 1, Max: MaxShingleLength},
		Range{Flag: "min_shingles", Value: int64(s.MinShingles), Min: 0, Max: MaxPageBytes},
		Range{Flag: "max_shingles", Value: int64(s.MaxShingles), Min: 2, Max: MaxPageBytes},
	); err != nil {
		return err
	}
	if s.SplitBytes > 0 && s.SplitBytes < MinSplitBytes {
		return fmt.Errorf("--split_bytes must be 0 (read every file whole) or at least %d, got %d", MinSplitBytes, s.SplitBytes)
	}
	// Kept when min < shingles < max: no whole number lies between min
	// and min+1.
	if s.MaxShingles < s.MinShingles+2 {
		return fmt.Errorf("--min_shingles %d and --max_shingles %d keep no sentence: a sentence is kept when min < shingles < max", s.MinShingles, s.MaxShingles)
	}
	switch {
	case !(s.MinJaccard >= 0 && s.MinJaccard <= 1):
		return fmt.Errorf("--min_jaccard must be between 0 and 1, got %v", s.MinJaccard)
	case !(s.MaxEdit >= 0 && s.MaxEdit <= 1):
		return fmt.Errorf("--max_edit must be between 0 and 1, got %v", s.MaxEdit)
	case !(s.MinCoverage >= 0 && s.MinCoverage <= 1):
		return fmt.Errorf("--min_coverage must be between 0 and 1 (0: only passages of --min_passage), got %v", s.MinCoverage)
	}
	minPassage := Range{Flag: "min_passage", Value: int64(s.MinPassage), Min: 0, Max: MaxPageBytes, Note: " (0: no shared passages)"}
	if s.PassagesNeeded {
		minPassage.Min, minPassage.Note = 1, ""
	}
	return CheckRanges(
		Range{Flag: "passage_gap", Value: int64(s.PassageGap), Min: 0, Max: MaxPassageGap},
		minPassage,
		Range{Flag: "shards", Value: int64(s.Shards), Min: 1, Max: MaxShards, Note: ", or 0 for the runner's default"},
		Range{Flag: "dofn_workers", Value: int64(s.DofnWorkers), Min: 0, Max: MaxDofnWorkers, Note: " (0: the runner's default)"},
		Range{Flag: "output_shards", Value: int64(s.OutputShards), Min: 1, Max: MaxOutputShards},
	)
}

// Workers is how many goroutines each DoFn's worker pool runs
// (--dofn_workers resolved for the runner).
func (s Stages) Workers() int { return Workers(s.DofnWorkers, s.Runner) }

// ReadOptions are the readers' options.
func (s Stages) ReadOptions() dump.ReadOptions {
	return dump.ReadOptions{Namespaces: s.Namespaces, MaxPageBytes: s.MaxPageBytes, SplitBytes: s.SplitBytes, Workers: s.Workers()}
}

// CleanConfig is the cleaning and splitting stages' config.
func (s Stages) CleanConfig() clean.Config {
	return clean.Config{Sites: s.Sites, Workers: s.Workers()}
}

// SignConfig is the MinHash stage's config.
func (s Stages) SignConfig() minhash.Config {
	return minhash.Config{
		ShingleLength: s.ShingleLength,
		MinShingles:   s.MinShingles,
		MaxShingles:   s.MaxShingles,
		Norm:          s.Norm,
		Scheme:        s.Scheme,
		Bands:         s.Bands,
		Rows:          s.Rows,
		Seed:          s.Seed,
		BucketShards:  s.Shards,
		RecordShards:  s.Shards,
		Workers:       s.Workers(),
	}
}

// VerifyConfig is the verification stage's config; it writes no
// edges-*.jsonl (LineShards 0).
func (s Stages) VerifyConfig() verify.Config {
	return verify.Config{
		ShingleLength: s.ShingleLength,
		Norm:          s.Norm,
		Thresholds:    verify.Thresholds{MinJaccard: s.MinJaccard, MaxEdit: s.MaxEdit},
		RecordShards:  s.Shards,
		EdgeShards:    s.Shards,
		Workers:       s.Workers(),
	}
}

// PassageOptions are the shared-passage stage's options.
func (s Stages) PassageOptions() passage.Options {
	return passage.Options{
		Config:       passage.Config{Gap: s.PassageGap, MinMatches: s.MinPassage, MinCoverage: s.MinCoverage},
		Text:         s.PassageText,
		Wikis:        s.Wikis(),
		PairShards:   s.Shards,
		RecordShards: s.Shards,
		OutputShards: s.OutputShards,
	}
}

// Wikis are the names of the run's wikis, sorted: a wiki's index in the
// sentence ids is its rank (sentence.NewWikis).
func (s Stages) Wikis() []string {
	var wikis []string
	for _, site := range s.Sites {
		wikis = append(wikis, site.Wiki)
	}
	slices.Sort(wikis)
	return wikis
}
