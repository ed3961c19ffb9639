// Command bench runs the pipeline end to end on the project's sample dumps
// and on a scaled corpus, and prints what it costs next to two baselines:
// decompressing the same input with the command-line tools, and a peer
// (github.com/ekzhu/minhash-lsh in one process, bench/cmd/peer) clustering
// the same sentences, with the recall of both against the exact pairs of
// sentences whose shingle sets have a Jaccard similarity of at least the
// pipeline's threshold. It also measures what the shared-passage stage
// costs, by paired runs with and without it, and runs the pipeline on a
// scaled JSON-lines corpus of Common Crawl documents, and compares the
// candidate schemes (--scheme) on the same inputs: cost, candidates, recall
// of the exact pairs, and the clusters one finds and another misses.
//
// Run it from the repository root, with the public samples in
// ../shared/data:
//
//	go run ./bench/cmd/bench [-work DIR] [-sizes 1,2,4,8] [-peer_sizes 1,8] [-jsonl_copies 33] [-passage_pairs 5] \
//	    [-schemes oph,bands,…] [-scheme_sizes 1,8] [-scheme_langs el,ja,uk,vi]
//
// It builds the pipeline (./pipelines/sentences), bench/cmd/scale and
// bench/cmd/peer into the work directory, writes the scaled corpora there
// (kept and reused when -work names a directory that has them), runs the
// pipeline once per input with --output WORK/out --run_id NAME, and prints
// Markdown tables. The pipeline runs with its defaults; the stage timings
// and the peer take the parameters they share with it (shingles, window,
// scheme, threshold) from its summary.json. Wall time and peak resident
// memory are the pipeline process's own (wait4 rusage); the pipeline runs
// on Beam's embedded Prism runner, in that process. Every command's output
// is in WORK/logs.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Samples, relative to the data directory.
var (
	englishSamples = []string{
		"wikiduper/Katrina.xml",
		"gensim-wiki/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2",
		"dbpedia-minidumps/enwiki-minidump.xml.bz2",
	}
	englishNames      = []string{"enwiki Katrina (wikiduper) .xml", "enwiki gensim sample .bz2", "enwiki DBpedia minidump .bz2"}
	multilingualLangs = []string{"el", "ja", "uk", "vi"}
	// commonCrawl are the Dolma JSON-lines files of Common Crawl documents
	// that the scaled JSON-lines corpus repeats.
	commonCrawl = "commoncrawl-text/*.jsonl.gz"
)

// config is the benchmark's flags.
type config struct {
	repo, data, work string
	keep             bool
	runs             int // pipeline runs per input; the median is reported
	sizes, peerSizes []int
	seed             uint64
	rate             float64
	jsonlCopies      int             // copies of the Common Crawl documents in the JSON-lines corpus; 0: none
	passagePairs     int             // paired runs with and without the passage stage; 0: none
	formatPairs      int             // paired runs with --formats jsonl and jsonl,parquet; 0: none
	schemes          []schemeVariant // candidate schemes to compare; none: no comparison
	schemeSizes      []int           // scaled corpora of the comparison
	schemeLangs      []string        // multilingual samples of the comparison
}

func main() {
	var cfg config
	var sizes, peerSizes, schemes, schemeSizes, schemeLangs string
	flag.StringVar(&cfg.repo, "repo", ".", "root of the neardup repository")
	flag.StringVar(&cfg.data, "data", "", "directory of the public samples (default REPO/../shared/data)")
	flag.StringVar(&cfg.work, "work", "", "work directory for binaries, corpora, outputs and logs (default: a new temporary directory, removed at the end)")
	flag.BoolVar(&cfg.keep, "keep", false, "keep the temporary work directory")
	flag.IntVar(&cfg.runs, "runs", 1, "runs of the pipeline on each input; the one with the median wall time is reported (the machines are noisy)")
	flag.StringVar(&sizes, "sizes", "1,2,4,8", "copies of the English samples in the scaled corpora")
	flag.StringVar(&peerSizes, "peer_sizes", "1,8", "scaled corpora on which to run the peer and the exact pairs")
	flag.Uint64Var(&cfg.seed, "seed", 1, "seed of the scaled corpus's edits")
	flag.Float64Var(&cfg.rate, "rate", 0.05, "probability that a word or number of a copy is edited")
	flag.IntVar(&cfg.jsonlCopies, "jsonl_copies", 33, "copies of the Common Crawl documents in the scaled JSON-lines corpus (33: 103 MB); 0: no such corpus")
	flag.IntVar(&cfg.passagePairs, "passage_pairs", 5, "paired runs with and without the passage stage on the largest scaled XML corpus and the JSON-lines corpus; 0: none")
	flag.IntVar(&cfg.formatPairs, "format_pairs", formatRuns, "paired runs with --formats jsonl and jsonl,parquet on the largest scaled XML corpus (at least -runs); 0: none")
	flag.StringVar(&schemes, "schemes", schemeIDs(candidateSchemes), "candidate schemes to compare on the inputs of -scheme_sizes and -scheme_langs, each run with and without --emit_edges --emit_sentences; empty: no comparison")
	flag.StringVar(&schemeSizes, "scheme_sizes", "1,8", "scaled corpora (of -sizes) on which to compare the candidate schemes; the 1× corpus is the English samples with fresh ids")
	flag.StringVar(&schemeLangs, "scheme_langs", strings.Join(multilingualLangs, ","), "multilingual .xz samples on which to compare the candidate schemes")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("bench: ")
	var err error
	if cfg.runs < 1 {
		log.Fatalf("-runs %d: need at least 1", cfg.runs)
	}
	if cfg.jsonlCopies < 0 || cfg.passagePairs < 0 || cfg.formatPairs < 0 {
		log.Fatalf("-jsonl_copies %d, -passage_pairs %d, -format_pairs %d: need 0 or more", cfg.jsonlCopies, cfg.passagePairs, cfg.formatPairs)
	}
	if cfg.sizes, err = parseInts(sizes); err != nil {
		log.Fatalf("-sizes: %v", err)
	}
	if cfg.peerSizes, err = parseInts(peerSizes); err != nil {
		log.Fatalf("-peer_sizes: %v", err)
	}
	if cfg.schemes, err = parseSchemes(schemes); err != nil {
		log.Fatalf("-schemes: %v", err)
	}
	if cfg.schemeSizes, err = parseInts(schemeSizes); err != nil {
		log.Fatalf("-scheme_sizes: %v", err)
	}
	if cfg.schemeLangs, err = parseLangs(schemeLangs); err != nil {
		log.Fatalf("-scheme_langs: %v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, cfg config) error {
	if _, err := os.Stat(filepath.Join(cfg.repo, "go.mod")); err != nil {
		return fmt.Errorf("run from the repository root, or give -repo: %w", err)
	}
	if cfg.data == "" {
		cfg.data = filepath.Join(cfg.repo, "..", "shared", "data")
	}
	if _, err := os.Stat(cfg.data); err != nil {
		return fmt.Errorf("the public samples are needed: %w", err)
	}
	if cfg.work == "" {
		dir, err := os.MkdirTemp("", "neardup-bench-")
		if err != nil {
			return err
		}
		cfg.work = dir
		if !cfg.keep {
			defer os.RemoveAll(dir)
		}
	}
	for _, d := range []string{"bin", "logs", "out", "scaled"} {
		if err := os.MkdirAll(filepath.Join(cfg.work, d), 0o755); err != nil {
			return err
		}
	}
	b := &bench{cfg: cfg, ctx: ctx, start: time.Now()}
	return b.all()
}

// bench holds the state of one benchmark run.
type bench struct {
	cfg   config
	ctx   context.Context
	start time.Time
	bin   map[string]string // program name -> built binary
}

func (b *bench) all() error {
	fmt.Printf("# neardup benchmark\n\n%s\n\n", machine())
	if err := b.build(); err != nil {
		return err
	}
	if err := b.scale(); err != nil {
		return err
	}
	if err := b.scaleJSONL(); err != nil {
		return err
	}
	inputs := b.inputs()
	results := make([]runResult, len(inputs))
	for i, in := range inputs {
		results[i] = b.pipeline(in)
	}
	var rows [][]string
	for _, r := range results {
		rows = append(rows, runRow(r))
	}
	fmt.Printf("## Pipeline runs (Prism, defaults; median of %d run(s) each)\n\n%s\n", b.cfg.runs, table(runColumns, rows))
	fmt.Println("`decompress s`: `bzip2 -dc`/`xz -dc`/`gzip -dc` of the same files to /dev/null, one after the other; " +
		"`input MB`: decompressed input (XML or JSON lines); `sentences/s` counts in-window sentences; `documents`: pages or JSON lines read. " +
		"The .xz samples are cut on purpose (xz reports an unexpected end).")
	fmt.Println()

	b.stages(results)

	for _, series := range [][]string{{".xml"}, {"multistream .bz2"}} {
		var scaled []runResult
		for _, r := range results {
			if strings.HasPrefix(r.Input.Name, "scaled ") && strings.HasSuffix(r.Input.Name, series[0]) {
				scaled = append(scaled, r)
			}
		}
		if len(scaled) > 1 {
			fmt.Printf("## Scaling, %s (cost per sentence against the first size)\n\n%s\n%s\n\n", series[0], table(scalingColumns, scalingRows(scaled)), scalingVerdict(scaled))
		}
	}
	if v := decompressVerdict(results); v != "" {
		fmt.Printf("%s\n\n", v)
	}
	if in, ok := b.largestScaledXML(); ok && b.cfg.formatPairs > 0 {
		if t, err := b.formatsCost(in); err != nil {
			log.Printf("output formats on %s: %v", in.Name, err)
		} else {
			fmt.Printf("## Output formats, %s (paired runs; report.html is written by both)\n\n%s\n", in.Name, t)
		}
	}
	b.passages()
	for _, k := range b.cfg.peerSizes {
		c, err := b.peer(k, results)
		if err != nil {
			log.Printf("peer on scaled %d×: %v", k, err)
			continue
		}
		fmt.Printf("## Peer on %s\n\n%s\n%s\n\n", c.Input, table(peerColumns, peerRows(c)), peerSummary(c))
	}
	b.compareSchemes()
	fmt.Println("Pipeline time is the whole run: process start, Prism, reading and cleaning the XML, splitting, signing, " +
		"clustering, writing the results. Peer time is MinHash signatures (on all cores), LSH index and queries and union-find " +
		"on sentences already extracted (reading them is not counted).")
	fmt.Printf("\nTotal benchmark time %.0f s; %s; work directory %s\n", time.Since(b.start).Seconds(), loadAverage(), b.cfg.work)
	return nil
}

// largestScaledXML is the input of the largest scaled plain-XML corpus.
func (b *bench) largestScaledXML() (input, bool) {
	if len(b.cfg.sizes) == 0 {
		return input{}, false
	}
	k := slices.Max(b.cfg.sizes)
	for _, in := range b.inputs() {
		if len(in.Files) == 1 && in.Files[0] == b.scaledXML(k) {
			return in, true
		}
	}
	return input{}, false
}

// passages prints the cost of the passage stage on the largest scaled XML
// corpus and on the JSON-lines corpus.
func (b *bench) passages() {
	if b.cfg.passagePairs == 0 {
		return
	}
	var ins []input
	if in, ok := b.largestScaledXML(); ok {
		ins = append(ins, in)
	}
	if in, ok := b.jsonlInput(); ok {
		ins = append(ins, in)
	}
	for _, in := range ins {
		t, summary, err := b.passageCost(in)
		if err != nil {
			log.Printf("passage stage on %s: %v", in.Name, err)
			continue
		}
		fmt.Printf("## Passage stage, %s (paired runs, defaults and `--min_passage 0`, alternating)\n\n%s\n%s\n\n", in.Name, t, summary)
	}
}

// stages prints the per-stage times of the scaled XML runs: each stage
// before the first shuffle timed alone on the same file, against the
// pipeline's CPU time.
func (b *bench) stages(results []runResult) {
	for _, r := range results {
		if !strings.HasPrefix(r.Input.Name, "scaled ") || !strings.HasSuffix(r.Input.Name, ".xml") || len(r.Input.Files) != 1 {
			continue
		}
		if r.Err != nil {
			continue
		}
		st, err := measureStages(b.ctx, r.Input.Files[0], r.Params)
		if err != nil {
			log.Printf("stages of %s: %v", r.Input.Name, err)
			continue
		}
		fmt.Printf("## Stages, %s (%d in-window sentences; pipeline CPU %.2f s)\n\n%s\n", r.Input.Name, st.InWindow,
			r.Run.CPU.Seconds(), table(stageColumns, stageRows(st, r.Params, r.Run.CPU)))
	}
}

// build builds the pipeline and the helper programs.
func (b *bench) build() error {
	b.bin = map[string]string{}
	for name, pkg := range map[string]string{"sentences": "./pipelines/sentences", "scale": "./bench/cmd/scale", "peer": "./bench/cmd/peer"} {
		out := filepath.Join(b.cfg.work, "bin", name)
		cmd := exec.CommandContext(b.ctx, "go", "build", "-o", out, pkg)
		cmd.Dir = b.cfg.repo
		if msg, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %w\n%s", pkg, err, msg)
		}
		b.bin[name] = out
	}
	return nil
}

// scale writes the scaled corpora, unless the work directory holds them
// already for the same parameters.
func (b *bench) scale() error {
	dir := filepath.Join(b.cfg.work, "scaled")
	var samples []string
	for _, s := range englishSamples {
		samples = append(samples, filepath.Join(b.cfg.data, s))
	}
	args := append([]string{"-out", dir, "-sizes", joinInts(b.cfg.sizes), "-seed", fmt.Sprint(b.cfg.seed), "-rate", fmt.Sprint(b.cfg.rate)}, samples...)
	stampPath := filepath.Join(dir, "STAMP")
	stamp := strings.Join(args, " ")
	if old, err := os.ReadFile(stampPath); err == nil && string(old) == stamp {
		log.Printf("reusing the scaled corpora in %s", dir)
		return nil
	}
	log.Printf("writing the scaled corpora (%s copies)", joinInts(b.cfg.sizes))
	m, err := measure(b.ctx, filepath.Join(b.cfg.work, "logs", "scale.log"), nil, b.bin["scale"], args...)
	if err != nil {
		return err
	}
	log.Printf("scaled corpora written in %.1f s", m.Wall.Seconds())
	return os.WriteFile(stampPath, []byte(stamp), 0o644)
}

// scaleJSONL writes the scaled JSON-lines corpus, unless the work
// directory holds it already for the same parameters or -jsonl_copies is
// 0. Its documents are those of the Common Crawl samples.
func (b *bench) scaleJSONL() error {
	if b.cfg.jsonlCopies == 0 {
		return nil
	}
	files, err := filepath.Glob(filepath.Join(b.cfg.data, commonCrawl))
	if err != nil || len(files) == 0 {
		log.Printf("no JSON-lines corpus: no %s in %s", commonCrawl, b.cfg.data)
		b.cfg.jsonlCopies = 0
		return nil
	}
	dir := filepath.Join(b.cfg.work, "scaled")
	args := append([]string{"-out", dir, "-format", "jsonl", "-sizes", strconv.Itoa(b.cfg.jsonlCopies),
		"-seed", fmt.Sprint(b.cfg.seed), "-rate", fmt.Sprint(b.cfg.rate)}, files...)
	stampPath := filepath.Join(dir, "STAMP-jsonl")
	stamp := strings.Join(args, " ")
	if old, err := os.ReadFile(stampPath); err == nil && string(old) == stamp {
		log.Printf("reusing the scaled JSON-lines corpus in %s", dir)
		return nil
	}
	log.Printf("writing the scaled JSON-lines corpus (%d copies of %d files)", b.cfg.jsonlCopies, len(files))
	m, err := measure(b.ctx, filepath.Join(b.cfg.work, "logs", "scale-jsonl.log"), nil, b.bin["scale"], args...)
	if err != nil {
		return err
	}
	log.Printf("scaled JSON-lines corpus written in %.1f s", m.Wall.Seconds())
	return os.WriteFile(stampPath, []byte(stamp), 0o644)
}

// jsonlInput is the input of the scaled JSON-lines corpus, if there is one.
func (b *bench) jsonlInput() (input, bool) {
	if b.cfg.jsonlCopies == 0 {
		return input{}, false
	}
	k := b.cfg.jsonlCopies
	return input{fmt.Sprintf("Common Crawl %d× .jsonl", k), []string{filepath.Join(b.cfg.work, "scaled", fmt.Sprintf("scaled-%dx.jsonl", k))}}, true
}

// inputs lists the rows of the benchmark.
func (b *bench) inputs() []input {
	var in []input
	for i, s := range englishSamples {
		in = append(in, input{englishNames[i], []string{filepath.Join(b.cfg.data, s)}})
	}
	in = append(in, b.multilingualInputs(multilingualLangs)...)
	for _, k := range b.cfg.sizes {
		in = append(in, input{fmt.Sprintf("scaled %d× .xml", k), []string{b.scaledXML(k)}})
	}
	for _, k := range b.cfg.sizes {
		in = append(in, input{fmt.Sprintf("scaled %d× multistream .bz2", k), []string{filepath.Join(b.cfg.work, "scaled", fmt.Sprintf("scaled-%dx-multistream.xml.bz2", k))}})
	}
	if j, ok := b.jsonlInput(); ok {
		in = append(in, j)
	}
	return in
}

// multilingualInputs are the truncated .xz samples of the languages langs.
func (b *bench) multilingualInputs(langs []string) []input {
	var in []input
	for _, lang := range langs {
		in = append(in, input{lang + "wiki 100k lines .xz", []string{filepath.Join(b.cfg.data, "xztextfilter-wiki-truncated", lang+"wiki-truncated-100k.xml.xz")}})
	}
	return in
}

func (b *bench) scaledXML(k int) string {
	return filepath.Join(b.cfg.work, "scaled", fmt.Sprintf("scaled-%dx.xml", k))
}

// pipeline runs the pipeline on one input, then the decompression
// baseline.
func (b *bench) pipeline(in input, extra ...string) runResult {
	id := slug(in.Name)
	if len(extra) > 0 {
		id += "-emit"
	}
	log.Printf("running the pipeline on %s", in.Name)
	r := b.runPipeline(in, id, b.cfg.runs, extra...)
	if r.Err != nil {
		return r
	}
	var err error
	r.Baseline, r.Tools, r.XMLBytes, err = baseline(b.ctx, in.Files)
	switch {
	case errors.Is(err, errNoTool):
		log.Printf("%s: no baseline: %v", in.Name, err)
	case err != nil:
		r.Err = err
	}
	return r
}

// runPipeline runs the pipeline on in, with its defaults and the extra
// flags, runs times into WORK/out/ID (its log in WORK/logs/ID.log), and
// returns the run with the median wall time and the counts and parameters
// of its summary.json.
func (b *bench) runPipeline(in input, id string, runs int, extra ...string) runResult {
	r := runResult{Input: in}
	outDir := filepath.Join(b.cfg.work, "out")
	args := append([]string{"--input", strings.Join(in.Files, ","), "--output", outDir, "--run_id", id}, extra...)
	r.Run, r.Err = medianRun(runs, func() (measurement, error) {
		if err := os.RemoveAll(filepath.Join(outDir, id)); err != nil {
			return measurement{}, err
		}
		return measure(b.ctx, filepath.Join(b.cfg.work, "logs", id+".log"), nil, b.bin["sentences"], args...)
	})
	if r.Err != nil {
		return r
	}
	r.Counts, r.Params, r.Err = readSummary(filepath.Join(outDir, id, "summary.json"))
	return r
}

// peer compares the pipeline with the peer on the scaled corpus of k
// copies: the pipeline runs again with --emit_sentences to give the peer
// its sentences; the pipeline time compared is that of the run without.
func (b *bench) peer(k int, results []runResult) (peerComparison, error) {
	name := fmt.Sprintf("scaled %d× .xml", k)
	c := peerComparison{Input: name}
	for _, r := range results {
		if r.Input.Name == name && r.Err == nil {
			c.Pipeline = r.Run.Wall
		}
	}
	if c.Pipeline == 0 {
		return c, fmt.Errorf("no successful pipeline run on %s", name)
	}
	emit := b.pipeline(input{name, []string{b.scaledXML(k)}}, "--emit_sentences")
	if emit.Err != nil {
		return c, emit.Err
	}
	// The peer shingles and compares as the pipeline run did.
	p := emit.Params
	if !p.FoldCase || !p.CollapseSpace || p.Threshold <= 0 {
		return c, fmt.Errorf("the peer folds case, collapses white space and needs a threshold; the pipeline ran with fold_case %v, collapse_space %v, threshold %v",
			p.FoldCase, p.CollapseSpace, p.Threshold)
	}
	run := filepath.Join(b.cfg.work, "out", slug(name)+"-emit")
	log.Printf("running the peer and the exact pairs on %s", name)
	logPath := filepath.Join(b.cfg.work, "logs", "peer-"+slug(name)+".log")
	var out strings.Builder
	_, err := measure(b.ctx, logPath, &out, b.bin["peer"],
		"-sentences", filepath.Join(run, "sentences-*.jsonl"), "-clusters", filepath.Join(run, "clusters-*.jsonl"), "-exact",
		"-shingle_length", strconv.Itoa(p.ShingleLength), "-threshold", strconv.FormatFloat(p.Threshold, 'g', -1, 64))
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal([]byte(out.String()), &c.Report); err != nil {
		return c, fmt.Errorf("peer output %q: %w", out.String(), err)
	}
	return c, nil
}

// machine describes where the benchmark runs.
func machine() string {
	model := "unknown CPU"
	if info, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(info), "\n") {
			if name, ok := strings.CutPrefix(line, "model name"); ok {
				model = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":"))
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d cores, %s %s/%s, %s, started %s", model, runtime.NumCPU(), runtime.Version(),
		runtime.GOOS, runtime.GOARCH, loadAverage(), time.Now().UTC().Format(time.RFC3339))
}

// loadAverage reports the load averages, which show whether other work
// shared the machine.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "load average unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "load average unknown"
	}
	return "load average " + strings.Join(f[:3], " ")
}

// parseInts parses a comma-separated list of positive integers.
func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}
