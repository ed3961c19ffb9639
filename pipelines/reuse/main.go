// Command reuse finds where web pages copy Wikipedia: it reads Wikipedia
// dumps and web crawls (WARC, WET) or web text corpora (JSON lines, plain
// text), finds the sentences a web page shares with an article with the
// sentence pipeline's MinHash stages, aligns them into passages, and
// writes each (web page, article) pair that shares a passage as a reuse
// case, judged content reuse or structure reuse, with summaries per host,
// per article and of the reuse graph (Alshomary, "Wikipedia text reuse
// within and without", seed 001).
//
// Usage:
//
//	go run ./pipelines/reuse --wiki 'dumps/*.bz2' --web 'crawl/*.warc.gz' --output out/
//
// It runs on Prism, Beam Go's embedded runner, by default, and on Flink,
// Spark and Dataflow with Beam's --runner flags (see deploy/). --help lists
// its own flags by group and the most used Beam flags, --help_beam all of
// Beam's.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/google/uuid"

	"github.com/neardup/neardup/pipelines/internal/launcher"
)

// version and commit are stamped in by the release (-ldflags -X).
var version, commit = "dev", ""

var defaults = DefaultOptions()

// common are the flags every command takes (launcher.RegisterCommon), in
// this pipeline's words where it says more.
var common = launcher.RegisterCommon(flag.CommandLine, commonDefaults(), map[string]string{
	"namespaces":    "comma-separated namespaces of the Wikipedia pages to read, or 'all'",
	"min_passage":   "fewest matched sentences of a passage, and so of a reuse case",
	"output_shards": "files reuse-*.jsonl is written in (1–99999)",
})

var (
	wikiFlag = flag.String("wiki", "", "Wikipedia dumps to read (MediaWiki XML, plain or compressed): a path, glob or gs:// URL, or a comma-separated list of them (required)")
	webFlag  = flag.String("web", "", "web pages to read: WARC or WET files (gzip per record or uncompressed), JSON lines or plain text; a path, glob or gs:// URL, or a comma-separated list (required); "+launcher.StreamedInputHelp)
	maxPairs = flag.Int("max_bucket_pairs", defaults.MaxBucketPairs, "most web × Wikipedia sentence pairs linked in one MinHash bucket; a larger bucket (a template sentence of thousands of articles) links each sentence to one of the other side")
	top      = flag.Int("top", defaults.Top, "hosts, articles and document pairs listed in summary.json")
)

// cli is the command line: --help lists the flags above by group.
var cli = &launcher.CLI{
	Program: "reuse",
	Header:  usageHeader,
	Groups: []launcher.FlagGroup{
		{Title: "Input and output", Names: []string{"wiki", "web", "output", "run_id", "namespaces", "max_page_bytes", "split_bytes"}},
		{Title: "Text", Names: []string{"shingle_length", "min_shingles", "max_shingles"}},
		{Title: "Candidates", Names: []string{"threshold", "recall", "bands", "rows", "seed", "max_bucket_pairs"}},
		{Title: "Verification", Names: []string{"min_jaccard", "max_edit"}},
		{Title: "Passages and cases", Names: []string{"passage_gap", "min_passage", "min_coverage", "top"}},
		{Title: "Execution", Names: []string{"shards", "output_shards", "dofn_workers", "spill_dir", "verbose", "version"}},
	},
}

const usageHeader = `Usage: reuse --wiki PATTERN[,PATTERN...] --web PATTERN[,PATTERN...] --output DIR [flags]

Finds where web pages copy Wikipedia: reads Wikipedia dumps (--wiki) and web
crawls or corpora (--web: WARC, WET, JSON lines, plain text; local paths or
gs:// URLs), and writes each (web page, article) pair that shares a passage
as a reuse case, content or structure reuse, to OUTPUT/RUN_ID/.

Examples:
  reuse --wiki 'dumps/enwiki-*.xml.bz2' --web 'crawl/CC-MAIN-*.warc.gz' --output out/
  reuse --runner=dataflow --project=P --region=R --staging_location=gs://b/staging \
      --worker_binary=reuse --wiki='gs://b/dumps/*.bz2' --web='gs://b/crawl/*.warc.gz' --output=gs://b/out
`

func main() {
	flag.Usage = func() { cli.PrintUsage(flag.CommandLine.Output()) }
	if err := cli.Parse(os.Args[1:]); err != nil {
		if err == launcher.ErrHelp {
			os.Exit(0)
		}
		cli.Exit(err)
	}
	beam.Init()                // on a cluster runner's workers this runs the worker and never returns
	launcher.TuneGC(os.Getenv) // a memory limit, unless GOMEMLIMIT sets one
	if common.Version {
		fmt.Println("reuse", version, launcher.Commit(commit))
		return
	}
	cli.Exit(launch(context.Background()))
}

// launch checks the flags and plans the input, then runs the pipeline
// (start).
func launch(ctx context.Context) error {
	opts, err := optionsFromFlags(ctx)
	if err != nil {
		return launcher.Usage(err)
	}
	return start(ctx, opts, common.SpillDir)
}

// start builds the pipeline of opts, claims the run directory and runs the
// pipeline (launcher.Launch), spilling its shuffles under spillDir; a
// launch that fails removes the run directory it made if it is empty.
func start(ctx context.Context, opts Options, spillDir string) error {
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, opts); err != nil {
		return launcher.Usage(err)
	}
	dir := opts.RunDir()
	run := launcher.Launch{Program: "reuse", RunID: opts.RunID, Dir: dir, SpillDir: spillDir,
		WorkersHere: launcher.WorkersHere(opts.Runner, launcher.FlagValue("endpoint"), launcher.FlagValue("environment_type"))}
	if err := run.Run(ctx, p, func() (func(), error) {
		launcher.RunnerLogging(common.Verbose)
		log.Printf("run %s: %d Wikipedia file(s), %d web file(s); MinHash %d bands × %d rows", opts.RunID, len(opts.Wiki), len(opts.Web), opts.Bands, opts.Rows)
		return func() {}, nil
	}); err != nil {
		return err
	}
	return printResults(ctx, dir)
}

// optionsFromFlags resolves the flags into Options and plans the input, so
// that a mistake stops the run before any work.
func optionsFromFlags(ctx context.Context) (Options, error) {
	o, c := defaults, common
	var err error
	if *wikiFlag == "" || *webFlag == "" || c.Output == "" {
		return o, errors.New("--wiki, --web and --output are required (see --help)")
	}
	if f := flag.Lookup("runner"); f != nil {
		if _, err := launcher.CanonicalRunner(f.Value.String()); err != nil {
			return o, err
		}
		o.Runner = f.Value.String()
	}
	if o.Wiki, err = launcher.ExpandAbsolute(ctx, *wikiFlag); err != nil {
		return o, fmt.Errorf("--wiki: %w", err)
	}
	if o.Web, err = launcher.ExpandAbsolute(ctx, *webFlag); err != nil {
		return o, fmt.Errorf("--web: %w", err)
	}
	if o.Output, err = launcher.Absolute(c.Output); err != nil {
		return o, err
	}
	if o.Namespaces, err = launcher.ParseNamespaces(c.Namespaces); err != nil {
		return o, err
	}
	o.RunID = c.RunID
	if o.RunID == "" {
		o.RunID = uuid.NewString()
	}
	o.MaxPageBytes, o.SplitBytes = c.MaxPageBytes, c.SplitBytes
	o.ShingleLength, o.MinShingles, o.MaxShingles = c.ShingleLength, c.MinShingles, c.MaxShingles
	o.Threshold, o.Recall, o.Bands, o.Rows, o.Seed = c.Threshold, c.Recall, c.Bands, c.Rows, c.Seed
	o.MinJaccard, o.MaxEdit, o.PassageGap, o.MinPassage, o.MinCoverage = c.MinJaccard, c.MaxEdit, c.PassageGap, c.MinPassage, c.MinCoverage
	o.Top, o.Shards, o.OutputShards, o.DofnWorkers = *top, c.Shards, c.OutputShards, c.DofnWorkers
	o.MaxBucketPairs = *maxPairs
	o.Set = launcher.GivenFlags(flag.CommandLine)
	if err := o.Validate(); err != nil {
		return o, err
	}
	if err := o.chooseBanding(); err != nil {
		return o, err
	}
	if err := launcher.CheckSpillDir(c.SpillDir); err != nil {
		return o, err
	}
	if err := refuseLocalPaths(o.Runner, map[string]string{"wiki": *wikiFlag, "web": *webFlag, "output": c.Output}); err != nil {
		return o, err
	}
	o.Run.Commit, o.Run.Started = launcher.Commit(commit), time.Now().UTC()
	return o, o.plan(ctx)
}

// refuseLocalPaths refuses, with --runner=dataflow, a local path in the
// flags' values (comma-separated): Dataflow's workers cannot read it, and
// Dataflow itself would refuse it only at submission.
func refuseLocalPaths(runner string, flags map[string]string) error {
	if launcher.RunnerAliases[runner] != "dataflow" {
		return nil
	}
	for _, name := range []string{"wiki", "web", "output"} {
		for _, p := range strings.Split(flags[name], ",") {
			if p = strings.TrimSpace(p); p != "" && launcher.LocalPath(p) {
				return fmt.Errorf("--%s %s is a local path, but with --runner=dataflow Dataflow's workers cannot read it: use gs:// URLs", name, p)
			}
		}
	}
	return nil
}
