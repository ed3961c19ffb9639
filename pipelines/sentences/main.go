// Command sentences finds clusters of near-duplicate sentences in MediaWiki
// XML dumps, after Weissman et al. (2015): it cleans each page's wikitext,
// splits it into sentences, computes MinHash signatures over character
// shingles, groups colliding signatures, links them into connected
// components and writes the clusters as JSON lines.
//
// It runs on Beam's embedded Prism runner by default; --runner selects
// another (flink, spark, dataflow, universal) as for any Beam Go pipeline.
//
//	go run ./pipelines/sentences --input 'dumps/*.bz2' --output out/
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/neardup/neardup/pipelines/internal/launcher"
	"github.com/neardup/neardup/pipelines/internal/profile"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/google/uuid"

	"github.com/neardup/neardup/transforms/summary"
)

// version and commit identify the build; the release stamps them in with
// -ldflags "-X main.version=... -X main.commit=...".
var (
	version = "dev"
	commit  = ""
)

// defaults are the flags' defaults (DefaultOptions).
var defaults = DefaultOptions()

// common are the flags every command takes (launcher.RegisterCommon), in
// this pipeline's words where its schemes and outputs say more.
var common = launcher.RegisterCommon(flag.CommandLine, launcher.DefaultCommon(), map[string]string{
	"threshold":     "oph and bands: Jaccard similarity at which a pair must collide with probability ≥ --recall; simhash: the cosine similarity that sets --max_hamming; exact: the Jaccard similarity of the join and of its verification",
	"recall":        "oph and bands schemes: collision probability required at --threshold",
	"bands":         "oph and bands schemes: number of bands (0: choose from --threshold)",
	"rows":          "oph and bands schemes: minhashes per band (0: choose from --threshold)",
	"min_jaccard":   "verification: accept a candidate pair whose shingle Jaccard similarity is at least this, or whose edit distance is at most --max_edit (not with --scheme exact, which accepts exactly the pairs at Jaccard ≥ --threshold)",
	"min_passage":   "shared passages: the fewest matched sentence pairs of a passage in passages-*.jsonl, unless --min_coverage keeps a shorter one (0: find no passages)",
	"output_shards": "number of clusters-*.jsonl (and sentences-*.jsonl) files (1–99999)",
})

var (
	inputFlag      = flag.String("input", "", "files to read (MediaWiki dumps, JSON lines, plain text): a path, glob or gs:// URL, or a comma-separated list of them (required); "+launcher.StreamedInputHelp)
	baseline       = flag.String("baseline", "", "dumps of the same wikis taken at an earlier date (path, glob or gs:// URL, or a comma-separated list): the sentences whose facts changed between a page's revision there and in --input go to changes-*.jsonl")
	inputFormat    = flag.String("input_format", defaults.InputFormat, "format of the input files: auto (each file's by its content: '<' starts MediaWiki XML, 'WARC/1.' a WARC or WET file, '{' JSON lines, other UTF-8 plain text), mediawiki, jsonl, text or warc")
	foldCase       = flag.Bool("fold_case", defaults.FoldCase, "lower-case sentences before shingling")
	collapseSpace  = flag.Bool("collapse_space", defaults.CollapseSpace, "collapse runs of white space to one space before shingling")
	scheme         = flag.String("scheme", defaults.Scheme, "how candidate pairs are found: 'oph' (MinHash, bands×rows chosen from --threshold, from one hash per shingle: one-permutation hashing), 'bands' (the same bands×rows from as many independent hashes: 20× slower signing), 'weissman' (the papers' 20-hash family, 10 signatures of 10), 'simhash' (random-hyperplane signatures sorted in --permutations orders, neighbours within --window compared by Hamming distance) or 'exact' (every pair with shingle Jaccard ≥ --threshold, by a prefix-filtering join)")
	maxBands       = flag.Int("max_bands", defaults.MaxBands, "oph and bands schemes: most band keys per sentence when choosing bands×rows")
	features       = flag.String("features", defaults.Simhash.Features, "simhash: what a signature is made of: 'shingles' (the sentence's character shingles, as MinHash) or 'words' (its words weighted by TF-IDF)")
	simhashBits    = flag.Int("simhash_bits", defaults.Simhash.Bits, "simhash: bits of a signature (1–64)")
	permutations   = flag.Int("permutations", defaults.Simhash.Permutations, "simhash: orders in which the signatures are sorted, each by another permutation of their bits")
	window         = flag.Int("window", defaults.Simhash.Window, "simhash: each signature is compared with the next window-1 of each sorted order")
	maxHamming     = flag.Int("max_hamming", defaults.Simhash.MaxHamming, "simhash: the most bits in which a candidate pair's signatures may differ (-1: ⌊bits·acos(--threshold)/π⌋)")
	topPairs       = flag.Int("top_pairs", defaults.TopPairs, "how many article pairs sharing the most near-duplicate sentences summary.json lists")
	rounds         = flag.Int("rounds", defaults.Rounds, "distributed contraction rounds before the final union-find (0–64)")
	passageText    = flag.Bool("passage_text", defaults.PassageText, "shared passages: write each passage's matched sentence pairs with both texts")
	emitSentences  = flag.Bool("emit_sentences", defaults.EmitSentences, "also write every in-window sentence to sentences-*.jsonl, with the id of its cluster (empty when none)")
	emitEdges      = flag.Bool("emit_edges", defaults.EmitEdges, "also write every verified edge (a pair of sentence ids with its Jaccard similarity and edit distance) to edges-*.jsonl")
	emitDuplicates = flag.Bool("emit_duplicates", defaults.EmitDuplicates, "also write duplicates-*.jsonl, the ids to remove to deduplicate the input: every sentence of a cluster but its first (its id), and every document of which passages shared with one earlier document cover at least --duplicate_share (with --min_passage above 0); and of each JSON-lines file dedup-CORPUS.jsonl.gz, the corpus without the listed sentences")
	duplicateShare = flag.Float64("duplicate_share", defaults.DuplicateShare, "--emit_duplicates: the share of a document's in-window sentences that passages shared with one earlier document must cover for the document to be listed (0–1]")
	formats        = flag.String("formats", strings.Join(defaults.Formats, ","), "output formats: jsonl, or jsonl,parquet to also write clusters-*.parquet, passages-*.parquet (and sentences-*.parquet) beside the JSON lines")
	maxMembers     = flag.Int("max_members", defaults.MaxMembers, "most members a cluster's line lists; a larger cluster lists an even sample and counts the rest in members_omitted (0: all)")
	maxAliases     = flag.Int("max_aliases", defaults.MaxAliases, "most names of each wiki the alias table keeps (learned from the input's redirects and links, the most used; the rest counted in aliases.names_dropped), so that two names of one article are one value (0: no table)")
	quiet          = flag.Bool("quiet", false, "no progress lines on stderr, only warnings and errors (and no runner log lines even with --verbose)")
	progressEvery  = flag.Duration("progress_interval", 5*time.Second, "embedded runner: how often a progress line (stage, pages, input read, counts) goes to stderr (0: never)")
	examples       = flag.Int("report_examples", defaults.Examples, fmt.Sprintf("example clusters of each kind report.html shows, a sample chosen by --seed (0–%d)", maxExamples))
	cpuProfile     = flag.String("cpuprofile", "", "write a CPU profile of this process to this file (embedded runner: covers the workers too)")
	memProfile     = flag.String("memprofile", "", "write a heap profile of this process, taken when its heap was largest, to this file (embedded runner: covers the workers too)")
)

func main() {
	flag.Usage = func() { cli.PrintUsage(flag.CommandLine.Output()) }
	if err := cli.Parse(os.Args[1:]); err != nil {
		if err == launcher.ErrHelp {
			os.Exit(0)
		}
		cli.Exit(err)
	}
	if err := flexDefaults(os.Getenv, flag.CommandLine); err != nil {
		cli.Exit(err)
	}
	var l launch
	if !workerMode() {
		var err error
		if l, err = currentLaunch(); err != nil {
			cli.Exit(err)
		}
	}
	beam.Init()                // on a cluster runner's workers this runs the worker and never returns
	launcher.TuneGC(os.Getenv) // a memory limit, unless GOMEMLIMIT sets one
	if common.Version {
		fmt.Println("sentences", version, launcher.Commit(commit))
		return
	}
	cli.Exit(launchRun(context.Background(), l))
}

// launchRun checks the flags and the input, builds the pipeline, and only
// then claims the run directory and runs the pipeline (launcher.Launch). A
// mistake found before the run leaves nothing behind; a failed launch
// removes the run directory it created if nothing was written to it.
func launchRun(ctx context.Context, l launch) error {
	if err := l.check(*inputFlag, common.Output); err != nil {
		return err
	}
	opts, err := optionsFromFlags(ctx)
	if err != nil {
		return launcher.Usage(err)
	}
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, opts); err != nil {
		return launcher.Usage(err)
	}
	run := launcher.Launch{Program: "sentences", RunID: opts.RunID, Dir: opts.RunDir(), SpillDir: common.SpillDir, WorkersHere: l.workersHere()}
	if err := run.Run(ctx, p, func() (func(), error) { return watch(ctx, l, opts) }); err != nil {
		return err
	}
	msg, finished := l.outcome(opts.RunID, opts.RunDir())
	if !finished {
		fmt.Println("sentences:", msg)
		return nil
	}
	printResults(ctx, os.Stdout, opts.RunDir())
	return nil
}

// watch starts what watches the run: the runner's log level (its own lines
// only with --verbose), the log line that starts it (not with --quiet), the profiles and
// the progress lines; stop stops them.
func watch(ctx context.Context, l launch, opts Options) (stop func(), err error) {
	launcher.RunnerLogging(common.Verbose && !*quiet)
	if !*quiet {
		log.Printf("run %s: reading %d file(s), scheme %s: %d bands × %d rows", opts.RunID, len(opts.Input), opts.Scheme, opts.Bands, opts.Rows)
	}
	stopProfile, err := profile.StartCPU(*cpuProfile)
	if err != nil {
		return nil, launcher.Usage(err)
	}
	stopHeap, err := profile.StartPeakHeap(*memProfile, 250*time.Millisecond)
	if err != nil {
		stopProfile()
		return nil, launcher.Usage(err)
	}
	stopProgress := func() {}
	if !*quiet {
		stopProgress = watchProgress(ctx, l, *progressEvery, opts.inputBytes(), os.Stderr)
	}
	return func() {
		stopProgress()
		stopProfile()
		if err := stopHeap(); err != nil {
			log.Print(err)
		}
	}, nil
}

// runnerName is the --runner flag's value ("" selects the embedded runner).
func runnerName() string {
	if f := flag.Lookup("runner"); f != nil {
		return f.Value.String()
	}
	return ""
}

// optionsFromFlags validates the flags, chooses the banding, expands the
// input patterns and plans the sources, so that a mistake stops the run
// before any work and before the run directory exists (checkRunDir creates
// it).
func optionsFromFlags(ctx context.Context) (Options, error) {
	if *inputFlag == "" || common.Output == "" {
		return Options{}, fmt.Errorf("--input and --output are required (try --input 'dumps/*.bz2' --output out/)")
	}
	if *progressEvery < 0 {
		return Options{}, fmt.Errorf("--progress_interval must be 0 (no progress lines) or more, got %v", *progressEvery)
	}
	if err := launcher.CheckSpillDir(common.SpillDir); err != nil {
		return Options{}, err
	}
	ns, err := launcher.ParseNamespaces(common.Namespaces)
	if err != nil {
		return Options{}, err
	}
	runner := runnerName()
	o := Options{
		Input: []string{*inputFlag}, InputFormat: *inputFormat, Output: common.Output, RunID: common.RunID, Namespaces: ns, MaxPageBytes: common.MaxPageBytes, SplitBytes: common.SplitBytes,
		ShingleLength: common.ShingleLength, MinShingles: common.MinShingles, MaxShingles: common.MaxShingles,
		FoldCase: *foldCase, CollapseSpace: *collapseSpace,
		Scheme: *scheme, Threshold: common.Threshold, Recall: common.Recall, MaxBands: *maxBands, Bands: common.Bands, Rows: common.Rows, Seed: common.Seed,
		Simhash:    SimhashOptions{Features: *features, Bits: *simhashBits, Permutations: *permutations, Window: *window, MaxHamming: *maxHamming},
		MinJaccard: common.MinJaccard, MaxEdit: common.MaxEdit, TopPairs: *topPairs,
		PassageGap: common.PassageGap, MinPassage: common.MinPassage, MinCoverage: common.MinCoverage, PassageText: *passageText,
		Shards: launcher.Shards(common.Shards, runner, 0), Rounds: *rounds, OutputShards: common.OutputShards, EmitSentences: *emitSentences, EmitEdges: *emitEdges,
		EmitDuplicates: *emitDuplicates, DuplicateShare: *duplicateShare,
		MaxMembers: *maxMembers, MaxAliases: *maxAliases, Formats: parseFormats(*formats), Examples: *examples, DofnWorkers: common.DofnWorkers, Runner: runner,
		Set: launcher.GivenFlags(flag.CommandLine),
	}
	if err := o.resolve(); err != nil {
		return Options{}, err
	}
	// Only now the file systems: the patterns, then each file's header.
	if o.Input, err = launcher.ExpandAbsolute(ctx, *inputFlag); err != nil {
		return Options{}, err
	}
	if *baseline != "" {
		if o.Baseline, err = launcher.ExpandAbsolute(ctx, *baseline); err != nil {
			return Options{}, fmt.Errorf("--baseline: %w", err)
		}
		if err := checkBaseline(o.Input, o.Baseline); err != nil {
			return Options{}, err
		}
	}
	if o.Output, err = launcher.Absolute(common.Output); err != nil {
		return Options{}, err
	}
	if err := o.nameRun(ctx, common.RunID); err != nil {
		return Options{}, err
	}
	o.Shards = launcher.Shards(common.Shards, runner, o.Sources.TextBytes())
	return o, nil
}

// prepareRun names the run and plans its sources (nameRun), then refuses to
// overwrite a finished run and checks the run directory is writable
// (launcher.CheckRunDir), in that order, so that a bad input leaves no
// directory.
func (o *Options) prepareRun(ctx context.Context, id string) error {
	if err := o.nameRun(ctx, id); err != nil {
		return err
	}
	_, err := launcher.CheckRunDir(ctx, o.RunDir(), o.RunID)
	return err
}

// nameRun names the run (id, or a new UUID), plans the sources if they are
// not planned yet, and records what the manifest needs. It writes nothing.
func (o *Options) nameRun(ctx context.Context, id string) error {
	if id == "" {
		id = uuid.NewString()
	}
	if err := checkRunID(id); err != nil {
		return err
	}
	o.RunID = id
	if err := o.planAll(ctx); err != nil {
		return err
	}
	o.Run = summary.Manifest{Commit: launcher.Commit(commit), Inputs: o.inputs(), Started: time.Now().UTC()}
	return nil
}
