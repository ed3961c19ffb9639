package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/neardup/neardup/io/input"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/pipelines/internal/launcher"
	"github.com/neardup/neardup/transforms/reuse"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/summary"
)

// Options are the reuse pipeline's parameters: the flags, resolved. They
// are recorded as summary.json's and manifest.json's "parameters".
type Options struct {
	// Wiki are the Wikipedia dumps, Web the web crawls and corpora (WARC,
	// WET, JSON lines, plain text): expanded, absolute paths or URLs.
	Wiki []string `json:"wiki"`
	Web  []string `json:"web"`
	// Output is the directory whose subdirectory RunID holds the run.
	Output string `json:"output"`
	RunID  string `json:"run_id"`

	Namespaces    []int   `json:"namespaces"`
	MaxPageBytes  int     `json:"max_page_bytes"`
	SplitBytes    int64   `json:"split_bytes"`
	ShingleLength int     `json:"shingle_length"`
	MinShingles   int     `json:"min_shingles"`
	MaxShingles   int     `json:"max_shingles"`
	Threshold     float64 `json:"threshold"`
	Recall        float64 `json:"recall"`
	Bands         int     `json:"bands"`
	Rows          int     `json:"rows"`
	Seed          uint64  `json:"seed"`
	MinJaccard    float64 `json:"min_jaccard"`
	MaxEdit       float64 `json:"max_edit"`
	PassageGap    int     `json:"passage_gap"`
	MinPassage    int     `json:"min_passage"`
	MinCoverage   float64 `json:"min_coverage"`
	// MaxBucketPairs bounds the web × Wikipedia pairs linked in one
	// MinHash bucket (bucket.Cross).
	MaxBucketPairs int `json:"max_bucket_pairs"`
	Top            int `json:"top"`
	Shards         int `json:"shards"`
	OutputShards   int `json:"output_shards"`
	// Runner is Beam's --runner; DofnWorkers the goroutines of each DoFn's
	// pool (0: the cores with the embedded runner, 1 on a cluster).
	Runner      string `json:"runner"`
	DofnWorkers int    `json:"dofn_workers"`
	// Set names the flags given on the command line (nil when the
	// options do not come from flags): --threshold and --recall may not
	// be given beside --bands and --rows.
	Set map[string]bool `json:"-"`

	// Sources are the planned inputs of Wiki and Web together.
	Sources *input.Sources `json:"-"`
	// Run is what the manifest records of the launch.
	Run summary.Manifest `json:"-"`
}

// DefaultOptions are the flags' defaults: the common flags' (the sentence
// pipeline's shingles, MinHash and verification), with passages of one
// sentence.
func DefaultOptions() Options {
	c := commonDefaults()
	return Options{
		Namespaces:     []int{0}, // c.Namespaces
		MaxPageBytes:   c.MaxPageBytes,
		SplitBytes:     c.SplitBytes,
		ShingleLength:  c.ShingleLength,
		MinShingles:    c.MinShingles,
		MaxShingles:    c.MaxShingles,
		Threshold:      c.Threshold,
		Recall:         c.Recall,
		Bands:          c.Bands,
		Rows:           c.Rows,
		Seed:           c.Seed,
		MinJaccard:     c.MinJaccard,
		MaxEdit:        c.MaxEdit,
		PassageGap:     c.PassageGap,
		MinPassage:     c.MinPassage,
		MinCoverage:    c.MinCoverage,
		MaxBucketPairs: 1000,
		Top:            reuse.DefaultTop,
		Shards:         c.Shards,
		OutputShards:   c.OutputShards,
		DofnWorkers:    c.DofnWorkers,
	}
}

// commonDefaults are the common flags' defaults (launcher.DefaultCommon),
// with passages of defaultMinPassage sentences.
func commonDefaults() launcher.Common {
	c := launcher.DefaultCommon()
	c.MinPassage = defaultMinPassage
	return c
}

// defaultMinPassage is how many matched sentences make a reuse case by
// default. One: on the test corpus of internal/webcorpus, passages of two
// lose a fifth of the cases (recall 0.81 against 0.92: a template filled
// for another entity often keeps one sentence above the verification's
// threshold) and passages of one add no false case (precision 1 both); a
// sentence is only compared when it has 75 shingles, over 86 characters,
// which keeps stock phrases out.
const defaultMinPassage = 1

// chooseBanding sets the bands and rows that find pairs at --threshold
// with probability --recall (at most maxBands bands), unless they are set.
func (o *Options) chooseBanding() (err error) {
	o.Bands, o.Rows, err = o.banding().Choose()
	return err
}

// banding is the run's MinHash banding.
func (o Options) banding() launcher.Banding {
	return launcher.Banding{Threshold: o.Threshold, Recall: o.Recall, MaxBands: maxBands, Bands: o.Bands, Rows: o.Rows}
}

// Bounds of the flags that are not the sentence pipeline's too
// (launcher's).
const (
	// maxBucketPairs bounds --max_bucket_pairs: a bucket's pairs are
	// linked in memory.
	maxBucketPairs = 10_000_000
)

// maxBands bounds the bands chosen, as the sentence pipeline's --max_bands
// does by default.
const maxBands = 20

// RunDir is the run's directory.
func (o Options) RunDir() string { return result.Join(o.Output, o.RunID) }

// Validate checks the options a run needs, and returns every mistake
// found.
func (o Options) Validate() error {
	var errs []error
	check := func(ok bool, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	check(len(o.Wiki) > 0, "--wiki: no Wikipedia dump given")
	check(len(o.Web) > 0, "--web: no web crawl or corpus given")
	check(o.Output != "", "--output: required")
	errs = append(errs, o.stages().Check(), launcher.CheckRanges(
		launcher.Range{Flag: "top", Value: int64(o.Top), Min: 1, Max: launcher.MaxTop},
		launcher.Range{Flag: "max_bucket_pairs", Value: int64(o.MaxBucketPairs), Min: 1, Max: maxBucketPairs},
	))
	errs = append(errs, o.banding().Check(o.Set))
	if o.RunID != "" {
		errs = append(errs, launcher.CheckRunID(o.RunID))
	}
	return errors.Join(errs...)
}

// Workers is how many goroutines each DoFn's worker pool runs (--dofn_workers resolved for the runner).
func (o Options) Workers() int { return launcher.Workers(o.DofnWorkers, o.Runner) }

// shards is --shards, or the runner's default for the planned input
// (launcher.Shards); Options.Shards, as summary.json records it, stays as
// given.
func (o Options) shards() int {
	var textBytes int64
	if o.Sources != nil {
		textBytes = o.Sources.TextBytes()
	}
	return launcher.Shards(o.Shards, o.Runner, textBytes)
}

// webIndexes says, for each wiki index of the run's sentence ids (the
// sites sorted by name), whether it is a web corpus.
func (o Options) webIndexes() []bool {
	web := o.Sources.Corpora()
	out := make([]bool, len(o.Sources.Sites))
	for i, site := range o.Sources.Sites {
		out[i] = slices.Contains(web, site.Wiki)
	}
	return out
}

// checkSides refuses a run whose --wiki holds something else than
// MediaWiki dumps or whose --web holds one: a dump given as web text
// would be compared with itself as a crawl.
func (o Options) checkSides() error {
	isWeb := map[string]bool{}
	for _, t := range o.Sources.Texts {
		isWeb[t.File] = true
	}
	for _, w := range o.Sources.WARCs {
		isWeb[w.File] = true
	}
	for _, f := range o.Wiki {
		if isWeb[f] {
			return fmt.Errorf("--wiki %s is not a MediaWiki dump (it reads as %s)", f, describe(o.Sources, f))
		}
	}
	for _, f := range o.Web {
		switch {
		case isWeb[f]:
		case namedWARC(f):
			return fmt.Errorf("--web %s is named as a WARC file but does not start with a WARC record: it is empty, or not WARC (its content would be read as a MediaWiki dump)", f)
		default:
			return fmt.Errorf("--web %s is a MediaWiki dump: give it to --wiki", f)
		}
	}
	return nil
}

// namedWARC reports whether a file's name says it is a WARC, WAT or WET
// file (CC-MAIN-….warc.gz, x.warc, x.warc.wet.gz).
func namedWARC(file string) bool {
	base := strings.ToLower(path.Base(file))
	return strings.Contains(base, ".warc") || strings.Contains(base, ".wet") || strings.Contains(base, ".wat")
}

// describe says how a file of the input is read.
func describe(src *input.Sources, file string) string {
	for _, in := range src.Inputs() {
		if in.Path == file && in.Format != "" {
			return in.Format
		}
	}
	return "text"
}

// stages are the options of the stages the sentence pipeline runs too:
// read, clean and split, sign (oph, the text normalized as by default),
// verify and find shared passages, with their texts, which a reuse case
// shows.
func (o Options) stages() launcher.Stages {
	st := launcher.Stages{
		Namespaces: o.Namespaces, MaxPageBytes: o.MaxPageBytes, SplitBytes: o.SplitBytes,
		ShingleLength: o.ShingleLength, MinShingles: o.MinShingles, MaxShingles: o.MaxShingles, Norm: shingle.DefaultNormalization,
		Scheme: "oph", Bands: o.Bands, Rows: o.Rows, Seed: o.Seed,
		MinJaccard: o.MinJaccard, MaxEdit: o.MaxEdit,
		PassageGap: o.PassageGap, MinPassage: o.MinPassage, MinCoverage: o.MinCoverage, PassageText: true, PassagesNeeded: true,
		Shards: o.shards(), OutputShards: o.OutputShards, DofnWorkers: o.DofnWorkers, Runner: o.Runner,
	}
	if o.Sources != nil {
		st.Sites = o.Sources.Sites
	}
	return st
}

// reuseOptions are the reuse stage's options.
func (o Options) reuseOptions() reuse.Options {
	return reuse.Options{Web: o.Sources.Corpora(), Shards: o.shards(), OutputShards: o.OutputShards, TopHosts: o.Top, TopArticles: o.Top}
}

// outputs are the files a finished run holds besides manifest.json.
func (o Options) outputs() []string {
	var names []string
	for i := range o.OutputShards {
		names = append(names, result.ShardName("reuse", i, o.OutputShards))
	}
	return append(names, result.ShardName("dead_letter", 0, 1), "summary.json")
}

// site is what summary.json says of each wiki and web corpus of the run.
type site struct {
	Wiki string `json:"wiki"`
	Lang string `json:"lang,omitempty"`
	Web  bool   `json:"web"`
}

// sites lists the run's wikis and web corpora, by name, for summary.json.
func (o Options) sites() (json.RawMessage, error) {
	web := o.Sources.Corpora()
	out := []site{}
	for _, s := range o.Sources.Sites {
		out = append(out, site{Wiki: s.Wiki, Lang: s.Lang, Web: slices.Contains(web, s.Wiki)})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("encoding wikis: %w", err)
	}
	return b, nil
}

// parameters is the options as summary.json records them.
func (o Options) parameters() (json.RawMessage, error) {
	b, err := json.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("encoding parameters: %w", err)
	}
	return b, nil
}
