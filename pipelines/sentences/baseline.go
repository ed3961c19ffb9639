package main

// --baseline: dumps of the input's wikis taken at an earlier date, whose
// pages are compared with the input's (package changes).

import (
	"context"
	"fmt"
	"log"
	"slices"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/input"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/changes"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/sentence"
)

// checkBaseline refuses a file given both as input and as baseline: its
// pages would be compared with themselves.
func checkBaseline(input, baseline []string) error {
	for _, f := range baseline {
		if slices.Contains(input, f) {
			return fmt.Errorf("%s is given both in --input and in --baseline; a baseline is a dump of another date", f)
		}
	}
	return nil
}

// planAll plans the input's sources and, with --baseline, the baseline's,
// where they are not planned yet, and warns of a baseline wiki that no
// input file holds (its pages cannot be compared).
func (o *Options) planAll(ctx context.Context) error {
	if o.Sources == nil {
		src, err := input.Plan(ctx, o.Input, o.inputFormat())
		if err != nil {
			return err
		}
		o.Sources = &src
	}
	if len(o.Baseline) == 0 || o.BaselineSources != nil {
		return nil
	}
	if err := checkBaseline(o.Input, o.Baseline); err != nil {
		return err
	}
	src, err := input.Plan(ctx, o.Baseline, o.inputFormat())
	if err != nil {
		return fmt.Errorf("--baseline: %w", err)
	}
	o.BaselineSources = &src
	for _, w := range otherWikis(o.Sources.Sites, src.Sites) {
		log.Printf("warning: --baseline: wiki %s is in no --input file; its pages are not compared (counted in baseline.pages_other_wiki)", w)
	}
	return nil
}

// otherWikis returns the names of the baseline's wikis that are not the
// input's.
func otherWikis(input, baseline []document.Site) []string {
	var out []string
	for _, b := range baseline {
		if !slices.ContainsFunc(input, func(s document.Site) bool { return s.Wiki == b.Wiki }) {
			out = append(out, b.Wiki)
		}
	}
	return out
}

// inputs lists every file the run reads, for the manifest: the input's,
// then the baseline's, marked so.
func (o Options) inputs() []document.Input {
	in := o.Sources.Inputs()
	if o.BaselineSources != nil {
		for _, f := range o.BaselineSources.Inputs() {
			f.Baseline = true
			in = append(in, f)
		}
	}
	return in
}

// summarySites are the wikis summary.json lists: the input's, with the
// problems of the baseline's files of the same wiki (each naming its
// file) added to theirs.
func (o Options) summarySites() []document.Site {
	if o.BaselineSources == nil {
		return o.Sources.Sites
	}
	out := slices.Clone(o.Sources.Sites)
	for i := range out {
		out[i].Problems = slices.Clone(out[i].Problems)
		for _, b := range o.BaselineSources.Sites {
			if b.Wiki != out[i].Wiki {
				continue
			}
			for _, p := range b.Problems {
				if !slices.Contains(out[i].Problems, p) {
					out[i].Problems = append(out[i].Problems, "baseline: "+p)
				}
			}
		}
	}
	return out
}

// changesConfig is the part of the options the changes stage needs.
func (o Options) changesConfig() changes.BeamConfig {
	return changes.BeamConfig{
		Config:       o.comparerConfig(),
		Wikis:        o.stages().Wikis(),
		Shards:       o.Shards,
		OutputShards: o.OutputShards,
		Workers:      o.Workers(),
	}
}

// comparerConfig says what two versions of a sentence are: what the run's
// verification says.
func (o Options) comparerConfig() changes.Config {
	v := o.stages().VerifyConfig()
	return changes.Config{ShingleLength: v.ShingleLength, Norm: v.Norm, Thresholds: v.Thresholds}
}

// compareBaseline reads, cleans and splits the baseline's pages (of the
// input's wikis, by the input's sites) and compares them with the input's
// split pages, knowing the names the input says are one article (names,
// alias.Build's table; the zero PCollection for none). It returns the
// lines of changes-*.jsonl, the baseline's dead letters and its partial
// counts, all under counts.baseline. The baseline's pages go nowhere else:
// they are neither signed nor clustered.
func compareBaseline(s beam.Scope, opts Options, current, names beam.PCollection) (lines shuffle.Lines, dead beam.PCollection, counts []beam.PCollection) {
	s = s.Scope("Baseline")
	st := opts.stages()
	pages, dead, readCounts := opts.BaselineSources.Read(s, st.ReadOptions())
	cfg := opts.changesConfig()
	pages, otherCounts := changes.KeepWikis(s, pages, cfg.Wikis)
	split := sentence.Pages(s, clean.Pages(s, pages, st.CleanConfig()), st.CleanConfig())
	lines, compareCounts := changes.CompareWith(s, split, current, names, cfg)
	return lines, dead, []beam.PCollection{changes.ReadCounts(s, readCounts), otherCounts, compareCounts}
}

// baselineLine is the console's line on the baseline, "" without one.
func baselineLine(b counters.Baseline) string {
	if b.FilesRead == 0 {
		return ""
	}
	return fmt.Sprintf("baseline: pages read %d, compared %d, unchanged %d, not in the input %d; sentences unchanged %d, pairs compared %d (copy edits %d); changes %d (replaced %d, added %d, removed %d, added and removed %d)",
		b.PagesRead, b.PagesCompared, b.PagesUnchanged, b.PagesUnmatched+b.PagesOtherWiki, b.SentencesUnchanged, b.PairsCompared, b.PairsCopyEdit,
		b.Changes, b.ChangesReplaced, b.ChangesAdded, b.ChangesRemoved, b.ChangesAddedRemoved)
}
