package main

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/io/input"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/io/text"
	"github.com/neardup/neardup/transforms/bucket"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/minhash"
	"github.com/neardup/neardup/transforms/passage"
	"github.com/neardup/neardup/transforms/rereads"
	"github.com/neardup/neardup/transforms/reuse"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/summary"
	"github.com/neardup/neardup/transforms/verify"
)

func init() {
	register.DoFn2x0[document.Page, func(string)](&webURLFn{})
	register.Emitter1[string]()
}

// plan plans o.Wiki and o.Web together (each file read by its content)
// and checks that each side holds what it should.
func (o *Options) plan(ctx context.Context) error {
	o.Wiki, o.Web = unique(o.Wiki), unique(o.Web)
	for _, f := range o.Wiki {
		if slices.Contains(o.Web, f) {
			return fmt.Errorf("%s is given to both --wiki and --web", f)
		}
	}
	src, err := input.Plan(ctx, slices.Concat(o.Wiki, o.Web), text.Auto)
	if err != nil {
		return err
	}
	o.Sources = &src
	if err := o.checkSides(); err != nil {
		return err
	}
	if o.Run.Inputs == nil {
		o.Run.Inputs = src.Inputs()
	}
	return nil
}

// unique returns files sorted, each once: a file matched by two patterns
// is read once.
func unique(files []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(files)))
}

// Build adds the reuse pipeline to s: it validates opts, plans the input
// if it is not planned, and reads the dumps and the web. The sentence
// pipeline's stages (clean, split, MinHash, verification) find the
// sentences a web page shares with an article, its buckets linking every
// pair of a web sentence and a Wikipedia sentence and no other
// (bucket.CrossCandidates); package passage aligns them into passages, and
// package reuse turns each (web page, article) pair with a passage into a
// reuse case. A page revision read twice counts once, and two different
// pages claiming one revision stop the run (package rereads). It writes
// reuse-*.jsonl, dead_letter-*.jsonl, summary.json and, last,
// manifest.json to opts.RunDir().
func Build(s beam.Scope, opts Options) error {
	if err := opts.Validate(); err != nil {
		return err
	}
	if err := opts.chooseBanding(); err != nil {
		return err
	}
	if opts.Sources == nil {
		if err := opts.plan(context.Background()); err != nil {
			return err
		}
	}
	params, err := opts.parameters()
	if err != nil {
		return err
	}
	st := opts.stages()
	pages, dead, readCounts := opts.Sources.Read(s, st.ReadOptions())
	cleaned := clean.Pages(s, pages, st.CleanConfig())
	split := sentence.Pages(s, cleaned, st.CleanConfig())
	entries, records, infos, signCounts := minhash.Sign(s, split, st.SignConfig())
	dupCounts := rereads.Count(s, infos)
	candidates, bucketCounts := bucket.CrossCandidates(s, entries, opts.webIndexes(), opts.MaxBucketPairs, opts.shards(), opts.Workers())
	_, sims, needed, _, verifyCounts := verify.Edges(s, candidates, records, st.VerifyConfig())
	passages, docPairs, passageCounts := passage.Find(s, sims, infos, needed, st.PassageOptions())
	urls := beam.ParDo(s, &webURLFn{Web: opts.Sources.Corpora()}, pages)
	lines, reuseSummary, reuseCounts := reuse.Cases(s, passages, docPairs, urls, opts.reuseOptions())
	total := counters.Total(s, readCounts, signCounts, dupCounts, bucketCounts, verifyCounts, passageCounts, reuseCounts)

	dir := opts.RunDir()
	written := []beam.PCollection{
		result.Write(s, dir, "reuse", opts.OutputShards, lines),
		result.Write(s, dir, "dead_letter", 1, dump.DeadLetterLines(s, dead)),
	}
	wikis, err := opts.sites()
	if err != nil {
		return err
	}
	doc := summary.Document{Version: version, Parameters: params, Wikis: wikis}
	near := passage.TopDocPairs(s, docPairs, opts.Top)
	summaryDone, _ := summary.WriteWithReuse(s, result.Join(dir, "summary.json"), doc, total,
		beam.CreateList(s, [][]summary.PairCount{}), near, reuseSummary)
	done := []beam.PCollection{summaryDone}
	for _, w := range written {
		done = append(done, summary.Done(s, w))
	}
	m := opts.Run
	m.RunID, m.Version, m.Parameters, m.Outputs = opts.RunID, version, params, opts.outputs()
	summary.WriteManifest(s, result.Join(dir, "manifest.json"), m, done...)
	return nil
}

// webURLFn emits the URL of every web page read (its corpus's name when it
// has none), for the share of each host's pages that reuse Wikipedia.
type webURLFn struct {
	Web []string
}

func (f *webURLFn) ProcessElement(p document.Page, emit func(string)) {
	for _, w := range f.Web {
		if p.Wiki == w {
			emit(cmp.Or(p.URL, fmt.Sprintf("%s:%d", p.Wiki, p.ID)))
			return
		}
	}
}
