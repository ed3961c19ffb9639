package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/io/input"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/pipelines/internal/launcher"
	"github.com/neardup/neardup/transforms/alias"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/cluster"
	"github.com/neardup/neardup/transforms/component"
	"github.com/neardup/neardup/transforms/minhash"
	"github.com/neardup/neardup/transforms/passage"
	htmlreport "github.com/neardup/neardup/transforms/report"
	"github.com/neardup/neardup/transforms/rereads"
	"github.com/neardup/neardup/transforms/sectionkind"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/summary"
	"github.com/neardup/neardup/transforms/verify"
)

// stages are the options of the stages the reuse pipeline runs too: read,
// clean and split, sign, verify and find shared passages.
func (o Options) stages() launcher.Stages {
	st := launcher.Stages{
		Namespaces: o.Namespaces, MaxPageBytes: o.MaxPageBytes, SplitBytes: o.SplitBytes,
		ShingleLength: o.ShingleLength, MinShingles: o.MinShingles, MaxShingles: o.MaxShingles, Norm: o.norm(),
		Scheme: o.Scheme, Bands: o.Bands, Rows: o.Rows, Seed: o.Seed,
		MinJaccard: o.MinJaccard, MaxEdit: o.MaxEdit,
		PassageGap: o.PassageGap, MinPassage: o.MinPassage, MinCoverage: o.MinCoverage, PassageText: o.PassageText,
		Shards: o.Shards, OutputShards: o.OutputShards, DofnWorkers: o.DofnWorkers, Runner: o.Runner,
	}
	if o.Sources != nil {
		st.Sites = o.Sources.Sites
	}
	return st
}

// norm is the normalization of the text the shingles are taken from.
func (o Options) norm() shingle.Normalization {
	return shingle.Normalization{FoldCase: o.FoldCase, CollapseSpace: o.CollapseSpace}
}

// inputReadOptions are readOptions for the input, whose redirect pages,
// with --max_aliases, make the alias table (SplitRedirects takes them out).
func (o Options) inputReadOptions() dump.ReadOptions {
	r := o.stages().ReadOptions()
	r.Redirects = o.MaxAliases > 0
	return r
}

// inputCleanConfig is cleanConfig for the input, whose pages' links, with
// --max_aliases, make the alias table.
func (o Options) inputCleanConfig() clean.Config {
	c := o.stages().CleanConfig()
	c.Links = o.MaxAliases > 0
	return c
}

// learnAliases builds the table of the names that name one article from
// the input's redirects and cleaned pages (package alias), and returns it
// with its partial counts; with --max_aliases 0, the zero PCollection
// (no name known) and no counts.
func learnAliases(s beam.Scope, o Options, redirects, cleaned beam.PCollection) (names, counts beam.PCollection) {
	if o.MaxAliases == 0 {
		return beam.PCollection{}, beam.CreateList(s, []counters.Counts{})
	}
	return alias.Build(s, redirects, cleaned, alias.Config{Sites: o.Sources.Sites, MaxNames: o.MaxAliases, Shards: o.Shards})
}

// clusterConfig is the part of the options the cluster stage needs.
func (o Options) clusterConfig() cluster.Config {
	cfg := cluster.Config{ComponentShards: o.Shards, MaxMembers: o.MaxMembers, Workers: o.Workers()}
	if o.EmitSentences || o.EmitDuplicates {
		cfg.SentenceShards = o.Shards // the shards of the sentence records
	}
	return cfg
}

// reportConfig is the part of the options report.html's sample needs.
func (o Options) reportConfig() htmlreport.Config {
	return htmlreport.Config{Examples: o.Examples, Seed: o.Seed}
}

// categoryConfig is the part of the options the categories stage needs.
func (o Options) categoryConfig() categorize.Config {
	cfg := categorize.Config{OutputShards: o.OutputShards, Workers: o.Workers()}
	for _, src := range []*input.Sources{o.Sources, o.BaselineSources} {
		if src != nil {
			cfg.Corpora = append(cfg.Corpora, src.Corpora()...)
		}
	}
	return cfg
}

// verifyConfig is the verification stage's config, with the lines of
// edges-*.jsonl if --emit_edges asks for them.
func (o Options) verifyConfig() verify.Config {
	cfg := o.stages().VerifyConfig()
	if o.EmitEdges {
		cfg.LineShards = o.OutputShards
	}
	return cfg
}

// Build adds the sentence near-duplicate pipeline to s: it validates opts
// (Options.Validate), chooses the banding if resolve has not, reads
// opts.Input and writes to opts.RunDir() the files clusters-*.jsonl,
// cluster_index-*.tsv, dead_letter-*.jsonl, sentences-*.jsonl (with
// opts.EmitSentences), summary.json, report.html and, once everything else
// is written, manifest.json. The stages are those of the diagram in docs/architecture.md:
// parse, clean, split, sign, buckets, verify, components, clusters,
// categories, outputs.
func Build(s beam.Scope, opts Options) error {
	if err := opts.Validate(); err != nil {
		return err
	}
	if err := opts.chooseBanding(); err != nil {
		return err
	}
	scheme, err := opts.stages().SignConfig().NewScheme()
	if err != nil {
		return err
	}
	if opts.Sources == nil || (len(opts.Baseline) > 0 && opts.BaselineSources == nil) {
		if err := opts.planAll(context.Background()); err != nil {
			return err
		}
		if opts.Run.Inputs == nil {
			opts.Run.Inputs = opts.inputs()
		}
	}
	doc, err := summaryDocument(opts, scheme)
	if err != nil {
		return err
	}
	pages, dead, readCounts := opts.Sources.Read(s, opts.inputReadOptions())
	pages, redirects := dump.SplitRedirects(s, pages)
	cleaned := clean.Pages(s, pages, opts.inputCleanConfig())
	split := sentence.Pages(s, cleaned, opts.stages().CleanConfig())
	entries, records, infos, signCounts := minhash.Sign(s, split, opts.stages().SignConfig())
	dupCounts := rereads.Count(s, infos)
	candidates, bucketCounts := findCandidates(s, opts, entries, records)
	edges, sims, needed, edgeLines, verifyCounts := verify.Edges(s, candidates, records, opts.verifyConfig())
	// A kept sentence has more than MinShingles shingles, so at least
	// MinShingles+ShingleLength bytes: that bounds the graph's nodes.
	depth := component.Depth(opts.Sources.TextBytes() / int64(opts.MinShingles+opts.ShingleLength))
	labels := component.Labels(s, edges, opts.Rounds, depth, opts.Shards, opts.Shards)
	clusters, pairs, memberships, clusterCounts := cluster.Assemble(s, labels, needed, sims, opts.clusterConfig())
	sections, sectionCounts := sectionkind.Learn(s, cleaned, categorize.IsCitation, sectionkind.Config{Shards: opts.Shards, Workers: opts.Workers()})
	names, aliasCounts := learnAliases(s, opts, redirects, cleaned)
	lines, categoryCounts := categorize.Clusters(s, clusters, categorize.Learned{Sections: sections, Entities: names}, opts.categoryConfig())

	partials := []beam.PCollection{readCounts, signCounts, dupCounts, bucketCounts, verifyCounts, clusterCounts, categoryCounts, aliasCounts, sectionCounts}
	out := outputs{clusters: lines, dead: dead, sentences: records, memberships: memberships, pairs: pairs, edges: edgeLines}
	if opts.MinPassage > 0 {
		passages, docPairs, passageCounts := passage.Find(s, sims, infos, needed, opts.stages().PassageOptions())
		out.passages, out.docPairs = &passages, docPairs
		out.reportPassages = htmlreport.CollectPassages(s, passages, docPairs, sims, needed, opts.stages().PassageOptions().Wikis)
		partials = append(partials, passageCounts)
	} else {
		out.docPairs = beam.CreateList(s, []passage.DocPair{})
		out.reportPassages = htmlreport.NoPassages(s)
	}
	if opts.EmitDuplicates {
		dups, copies, dupCounts := duplicates(s, opts, records, memberships, out.docPairs)
		out.duplicates, out.copies = &dups, copies
		partials = append(partials, dupCounts)
	}
	if len(opts.Baseline) > 0 {
		changed, baseDead, baseCounts := compareBaseline(s, opts, split, names)
		out.changes, out.dead = &changed, beam.Flatten(s, dead, baseDead)
		partials = append(partials, baseCounts...)
	}
	out.total = counters.Total(s, partials...)
	writeOutputs(s, opts, doc, out)
	return nil
}

// outputs are the collections a run writes.
type outputs struct {
	clusters  shuffle.Lines
	dead      beam.PCollection // of document.DeadLetter
	sentences shuffle.Sentences
	// memberships are the cluster ids of the sentences in clusters
	// (cluster.Assemble), for the sentences' lines.
	memberships shuffle.Lines
	pairs       shuffle.PagePairs
	passages    *shuffle.Lines   // the lines of passages-*.jsonl; nil with --min_passage 0
	docPairs    beam.PCollection // of passage.DocPair
	// reportPassages are what report.html's passages section shows.
	reportPassages htmlreport.Passages
	total          beam.PCollection // the one counters.Counts
	// changes are the lines of changes-*.jsonl; nil without --baseline.
	changes *shuffle.Lines
	// edges are the lines of edges-*.jsonl, written with --emit_edges.
	edges shuffle.Lines
	// duplicates are the lines of duplicates-*.jsonl; nil without
	// --emit_duplicates.
	duplicates *shuffle.Lines
	// copies says when the deduplicated copies of the JSON-lines corpora
	// are written (PCollection<int>); with --emit_duplicates only.
	copies beam.PCollection
}

// writeOutputs writes the run's files to opts.RunDir(): report.html once
// summary.json is written, and the manifest once every other file is.
func writeOutputs(s beam.Scope, opts Options, doc summary.Document, out outputs) {
	dir := opts.RunDir()
	written := []beam.PCollection{
		result.WriteFiles(s, dir, "clusters", opts.OutputShards, out.clusters, result.Files{Index: "cluster_index", Parquet: opts.parquetTable(result.ParquetClusters)}),
		result.Write(s, dir, "dead_letter", 1, dump.DeadLetterLines(s, out.dead)),
	}
	if out.passages != nil {
		files := result.Files{Parquet: opts.parquetTable(result.ParquetPassages)}
		written = append(written, result.WriteFiles(s, dir, "passages", opts.OutputShards, *out.passages, files))
	}
	if out.changes != nil {
		written = append(written, result.Write(s, dir, "changes", opts.OutputShards, *out.changes))
	}
	if opts.EmitEdges {
		written = append(written, result.Write(s, dir, "edges", opts.OutputShards, out.edges))
	}
	if out.duplicates != nil {
		written = append(written, result.Write(s, dir, "duplicates", opts.OutputShards, *out.duplicates), out.copies)
	}
	if opts.EmitSentences {
		lines := sentence.Lines(s, out.sentences, out.memberships, opts.OutputShards)
		files := result.Files{Unique: true, Parquet: opts.parquetTable(result.ParquetSentences)}
		written = append(written, result.WriteFiles(s, dir, "sentences", opts.OutputShards, lines, files))
	}
	top := summary.TopPairs(s, out.pairs, opts.TopPairs)
	near := passage.TopDocPairs(s, out.docPairs, opts.TopPairs)
	summaryDone, summaryFile := summary.Write(s, result.Join(dir, "summary.json"), doc, out.total, top, near)
	stats := htmlreport.Collect(s, out.clusters, out.dead, opts.reportConfig())
	info := htmlreport.Info{RunID: opts.RunID, Commit: opts.Run.Commit, Started: opts.Run.Started, Inputs: opts.Run.Inputs}
	page := htmlreport.Write(s, result.Join(dir, "report.html"), info, opts.reportConfig(), summaryFile, stats, out.reportPassages)
	done := []beam.PCollection{summaryDone, summary.Done(s, page)}
	for _, w := range written {
		done = append(done, summary.Done(s, w))
	}
	m := opts.Run
	m.RunID, m.Version, m.Parameters, m.Outputs = opts.RunID, version, doc.Parameters, opts.outputs()
	summary.WriteManifest(s, result.Join(dir, "manifest.json"), m, done...)
}

// summaryDocument is summary.json without its counts.
func summaryDocument(opts Options, scheme *minhash.Scheme) (summary.Document, error) {
	if !opts.EmitDuplicates {
		opts.DuplicateShare = 0 // not a parameter of the run
	}
	params, err := json.Marshal(opts)
	if err != nil {
		return summary.Document{}, fmt.Errorf("encoding parameters: %w", err)
	}
	curve, err := candidateCurve(opts, scheme)
	if err != nil {
		return summary.Document{}, fmt.Errorf("encoding collision curve: %w", err)
	}
	wikis, err := json.Marshal(wikiSummaries(opts.summarySites()))
	if err != nil {
		return summary.Document{}, fmt.Errorf("encoding wikis: %w", err)
	}
	return summary.Document{Version: version, Parameters: params, CollisionCurve: curve, Wikis: wikis}, nil
}

// wikiSummary is what summary.json says of each wiki of the run.
type wikiSummary struct {
	Wiki     string   `json:"wiki"`
	Lang     string   `json:"lang"`
	Base     string   `json:"base,omitempty"`
	Problems []string `json:"problems,omitempty"`
}

func wikiSummaries(sites []document.Site) []wikiSummary {
	out := make([]wikiSummary, 0, len(sites))
	for _, s := range sites {
		out = append(out, wikiSummary{Wiki: s.Wiki, Lang: s.Lang, Base: s.Base, Problems: s.Problems})
	}
	return out
}
