package main

// The command line: usage, flag errors, the runner and the paths it can
// read, and how the command ends.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strings"

	"github.com/neardup/neardup/internal/launcher"
	"github.com/neardup/neardup/transforms/verify"
)

// flagGroups are the pipeline's own flags, in the order --help lists them.
// TestHelpListsEveryFlag checks that every flag main.go defines is in one.
var flagGroups = []struct {
	title string
	names []string
}{
	{"Input and output", []string{"input", "input_format", "baseline", "output", "run_id", "namespaces", "max_page_bytes", "split_bytes"}},
	{"Text", []string{"shingle_length", "min_shingles", "max_shingles", "fold_case", "collapse_space"}},
	{"Candidates", []string{"scheme", "threshold", "recall", "max_bands", "bands", "rows", "seed"}},
	{"SimHash (--scheme simhash)", []string{"features", "simhash_bits", "permutations", "window", "max_hamming"}},
	{"Verification", []string{"min_jaccard", "max_edit", "top_pairs", "report_examples"}},
	{"Shared passages", []string{"passage_gap", "min_passage", "passage_text"}},
	{"Execution", []string{"shards", "dofn_workers", "rounds", "output_shards", "formats", "max_members", "emit_sentences", "emit_edges", "quiet", "progress_interval", "cpuprofile", "version"}},
}

// commonBeamFlags are the Beam flags --help lists, with what they mean
// here (Beam's own texts say "(required)" of flags only some runners
// need); --help_beam lists all with Beam's texts.
var commonBeamFlags = []struct{ name, usage string }{
	{"runner", "where the pipeline runs: prism (Beam's embedded runner, in this process), direct, flink, spark, dataflow, universal (or portable: any Beam job server)"},
	{"endpoint", "flink, spark, universal (required): the job server, HOST:PORT; prism: use a separate Prism job server"},
	{"environment_type", "flink, spark, universal, prism: where the workers run: LOOPBACK (in this process), EXTERNAL (a worker pool at --environment_config), DOCKER or PROCESS"},
	{"environment_config", "EXTERNAL: the worker pool's HOST:PORT as the runner sees it; DOCKER: the image; PROCESS: the command, as JSON"},
	{"worker_binary", "flink, spark, dataflow: this binary built for the workers (linux/amd64), when this one is not"},
	{"job_name", "the job's name on the cluster"},
	{"async", "cluster runners: submit the job and return without waiting for it"},
	{"project", "dataflow (required): the Google Cloud project"},
	{"region", "dataflow (required): the region to run in"},
	{"staging_location", "dataflow (required): gs:// directory for the worker binary and job files"},
	{"temp_location", "dataflow: gs:// directory for temporary files"},
	{"dry_run", "dataflow: build, check and print the job without submitting it"},
	{"template_location", "dataflow: write the job as a template to this gs:// path instead of running it"},
}

// helpBeam is the argument that lists every Beam flag. It is not a flag
// (the Dataflow template would have to declare it): parseFlags looks for it
// before parsing.
const helpBeam = "help_beam"

const usageHeader = `Usage: sentences --input PATTERN[,PATTERN...] --output DIR [flags]

Finds clusters of near-duplicate sentences in MediaWiki XML dumps, JSON lines
and plain-text files (plain, .bz2, .gz, .xz, .zst; local paths or gs:// URLs)
and writes them to OUTPUT/RUN_ID/; with --baseline, also the sentences whose
facts changed since then (changes-*.jsonl).

Examples:
  sentences --input testdata/sample/simplewiki-sample.xml --output out/sample
  sentences --input 'dumps/enwiki-*-pages-articles*.xml*.bz2' --output out/enwiki --shards 16 --emit_sentences
  sentences --runner=dataflow --project=P --region=R --staging_location=gs://b/staging \
      --worker_binary=sentences --input='gs://b/dumps/*.bz2' --output=gs://b/out
`

// pipelineFlag reports whether name is one of the pipeline's own flags.
func pipelineFlag(name string) bool {
	for _, g := range flagGroups {
		if slices.Contains(g.names, name) {
			return true
		}
	}
	return false
}

// printUsage writes --help: the header, the pipeline's flags by group and
// the most used Beam flags.
func printUsage(w io.Writer) {
	fmt.Fprint(w, usageHeader)
	for _, g := range flagGroups {
		fmt.Fprintf(w, "\n%s:\n", g.title)
		for _, name := range g.names {
			if f := flag.Lookup(name); f != nil {
				printFlag(w, f)
			}
		}
	}
	fmt.Fprintf(w, "\nBeam runner flags (the most used; the pipeline runs on Beam's embedded Prism runner unless --runner says otherwise):\n")
	for _, b := range commonBeamFlags {
		if f := flag.Lookup(b.name); f != nil {
			g := *f
			g.Usage = b.usage
			printFlag(w, &g)
		}
	}
	fmt.Fprintf(w, "\n'sentences --%s' lists all %d of Beam's flags; README.md and deploy/ say which each runner needs.\n", helpBeam, len(beamFlags()))
}

// printBeamUsage writes every Beam flag (--help_beam).
func printBeamUsage(w io.Writer) {
	fmt.Fprintf(w, "Beam runner flags (each runner reads its own; '(required)' means required by that runner):\n")
	for _, f := range beamFlags() {
		printFlag(w, f)
	}
}

// beamFlags are the flags that are not the pipeline's own: Beam's and its
// runners'.
func beamFlags() []*flag.Flag {
	var fs []*flag.Flag
	flag.VisitAll(func(f *flag.Flag) {
		if !pipelineFlag(f.Name) && !strings.HasPrefix(f.Name, "test.") {
			fs = append(fs, f)
		}
	})
	return fs
}

// printFlag writes one flag as flag.PrintDefaults does.
func printFlag(w io.Writer, f *flag.Flag) {
	var b strings.Builder
	fmt.Fprintf(&b, "  -%s", f.Name)
	name, usage := flag.UnquoteUsage(f)
	if name != "" {
		b.WriteString(" " + name)
	}
	b.WriteString("\n    \t")
	b.WriteString(strings.ReplaceAll(usage, "\n", "\n    \t"))
	switch {
	case name == "string" && f.DefValue != "":
		fmt.Fprintf(&b, " (default %q)", f.DefValue)
	case name != "string" && f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false":
		fmt.Fprintf(&b, " (default %v)", f.DefValue)
	}
	fmt.Fprintln(w, b.String())
}

// exitError is an error with the command's exit status: 2 for a mistake on
// the command line, 1 for a failed run.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }

// usageError is a mistake on the command line (exit status 2).
func usageError(format string, args ...any) error {
	return exitError{2, fmt.Errorf(format, args...)}
}

// exit ends the command: nothing for a nil error; a command-line mistake
// or failure is printed to stderr as "sentences: error: …" (unknown flags,
// already phrased, as they are) with status 2 or 1.
func exit(err error) {
	if err == nil {
		os.Exit(0)
	}
	code := 1
	var e exitError
	if errors.As(err, &e) {
		code = e.code
	}
	var u unknownFlagError
	if errors.As(err, &u) {
		fmt.Fprintln(os.Stderr, "sentences:", err)
	} else {
		fmt.Fprintln(os.Stderr, "sentences: error:", err)
	}
	os.Exit(code)
}

// unknownFlagError is a flag that neither the pipeline nor Beam defines.
type unknownFlagError struct{ name, suggestion string }

func (e unknownFlagError) Error() string {
	if e.suggestion != "" {
		return fmt.Sprintf("unknown flag --%s; did you mean --%s?", e.name, e.suggestion)
	}
	return fmt.Sprintf("unknown flag --%s ('sentences --help' lists the flags)", e.name)
}

// parseFlags parses the command line into flag.CommandLine. It returns
// errHelp after printing --help or --help_beam, and an exitError (status 2)
// for an unknown flag, naming the nearest known one, or a bad value,
// without the whole usage.
func parseFlags(args []string) error {
	for _, a := range args {
		if a == "--" {
			break
		}
		if strings.TrimLeft(a, "-") == helpBeam && strings.HasPrefix(a, "-") {
			printBeamUsage(os.Stdout)
			return errHelp
		}
	}
	fs := flag.CommandLine
	fs.Init("sentences", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the flag package's messages and usage: ours are below
	err := fs.Parse(args)
	fs.SetOutput(nil)
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		printUsage(os.Stdout)
		return errHelp
	default:
		if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: "); ok {
			name = strings.TrimLeft(name, "-")
			return exitError{2, unknownFlagError{name, nearestFlag(name)}}
		}
		return exitError{2, fmt.Errorf("%v ('sentences --help' lists the flags)", err)}
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q: the command takes only flags (--input %q?)", fs.Arg(0), fs.Arg(0))
	}
	return nil
}

// errHelp ends the command with status 0 after --help.
var errHelp = errors.New("help printed")

// nearestFlag returns the defined flag (or help_beam) nearest to name by
// edit distance, if it is near enough to be a typo.
func nearestFlag(name string) string {
	names := []string{helpBeam}
	flag.VisitAll(func(f *flag.Flag) {
		if !strings.HasPrefix(f.Name, "test.") {
			names = append(names, f.Name)
		}
	})
	return nearest(name, names)
}

// nearest returns the candidate nearest to s by edit distance (the first
// of equals), or "" if even that one differs in more than a third of s's
// characters (at least 2 edits are always allowed).
func nearest(s string, candidates []string) string {
	best, bestDist := "", 0
	for _, c := range candidates {
		if d := verify.EditDistance([]rune(strings.ToLower(s)), []rune(strings.ToLower(c)), -1); best == "" || d < bestDist {
			best, bestDist = c, d
		}
	}
	if bestDist > max(2, len([]rune(s))/3) {
		return ""
	}
	return best
}

// knownRunners are the canonical runner names, as error messages list them.
var knownRunners = []string{"prism", "direct", "flink", "spark", "dataflow", "universal", "portable", "dot"}

// canonicalRunner returns the canonical name of a runner Beam Go knows, or
// an error suggesting the nearest one. Beam itself would only exit with
// "Runner X not registered. Forgot to _ import it?" once the pipeline is
// built.
func canonicalRunner(runner string) (string, error) {
	if c, ok := launcher.RunnerAliases[runner]; ok {
		return c, nil
	}
	hint := ""
	if n := nearest(runner, knownRunners); n != "" {
		hint = fmt.Sprintf("did you mean --runner=%s? ", n)
	}
	return "", usageError("unknown runner %q; %sBeam Go's runners are %s", runner, hint, strings.Join(knownRunners, ", "))
}

// workerMode reports whether Beam's container boot program started this
// process as a worker (--worker): beam.Init then runs the worker, and the
// launcher's checks do not apply.
func workerMode() bool {
	f := flag.Lookup("worker")
	return f != nil && f.Value.String() == "true"
}

// flagValue is the value of a flag, "" if it is not defined.
func flagValue(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// flagIsTrue reports whether a boolean flag is set to true, or a string flag
// to anything.
func flagIsTrue(name string) bool {
	v := flagValue(name)
	return v != "" && v != "false"
}

// launch describes how the runner runs the job, as far as the launcher
// needs to know: where the workers are and what Run's return means.
type launch struct {
	runner      string // canonical name
	endpoint    string // --endpoint
	environment string // --environment_type, upper-cased
}

func currentLaunch() (launch, error) {
	r, err := canonicalRunner(runnerName())
	if err != nil {
		return launch{}, err
	}
	return launch{r, flagValue("endpoint"), strings.ToUpper(flagValue("environment_type"))}, nil
}

// workersHere reports whether the workers run in this process: Prism
// started by the launcher (no --endpoint), the direct runner, or any
// portable runner with --environment_type=LOOPBACK.
func (l launch) workersHere() bool {
	switch {
	case l.runner == "direct" || l.runner == "dot":
		return true
	case l.runner == "prism" && l.endpoint == "":
		return true
	case l.runner != "dataflow" && l.environment == "LOOPBACK":
		return true
	}
	return false
}

// localJobServer reports whether the portable job server (--endpoint) is on
// this machine.
func (l launch) localJobServer() bool {
	if l.endpoint == "" {
		return true
	}
	host, _, err := net.SplitHostPort(l.endpoint)
	if err != nil {
		host = l.endpoint
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkLaunch refuses what the runner cannot do: Dataflow's submission
// flags with another runner, --async with the workers in this process
// (they would end with it), and local --input or --output paths that the
// workers cannot read.
//
// Local paths are accepted when the workers run in this process or on this
// machine's job server (--endpoint=localhost:PORT, as deploy/'s compose
// files run Flink and Spark, with the data mounted at the same path in
// every container); Dataflow's workers never see them, nor do a remote job
// server's: those need gs:// URLs.
func (l launch) check(inputPatterns, output string) error {
	if l.runner != "dataflow" {
		for _, name := range []string{"dry_run", "template_location"} {
			if flagIsTrue(name) {
				return usageError("--%s is a Dataflow flag: it needs --runner=dataflow", name)
			}
		}
	}
	if (flagIsTrue("async") || flagIsTrue("execute_async")) && l.workersHere() {
		return usageError("--async: the workers of --runner=%s run in this process, and would stop with it; wait for the run, or submit to a cluster", l.runner)
	}
	var where string
	switch {
	case l.workersHere():
		return nil
	case l.runner == "dataflow":
		where = "Dataflow's workers cannot read it: use gs:// URLs"
	case l.localJobServer():
		return nil
	default:
		where = fmt.Sprintf("the workers of the job server at %s run elsewhere: use gs:// URLs, or --environment_type=LOOPBACK, or run the job server on this machine (--endpoint=localhost:PORT) with the files at the same path on its workers", l.endpoint)
	}
	paths := strings.Split(inputPatterns, ",")
	names := slices.Repeat([]string{"--input"}, len(paths))
	paths, names = append(paths, output), append(names, "--output")
	for i, p := range paths {
		if p = strings.TrimSpace(p); p != "" && launcher.LocalPath(p) {
			return usageError("%s %s is a local path, but with --runner=%s %s", names[i], p, l.runner, where)
		}
	}
	return nil
}

// outcome is what the command prints when Run returns without error:
// whether the job ran, was only submitted, or was not run at all.
func (l launch) outcome(runID, dir string) (msg string, finished bool) {
	switch {
	case l.runner == "dataflow" && flagIsTrue("dry_run"):
		return fmt.Sprintf("job not run (dry run): the job above was built and checked, nothing was submitted; run %s would write to %s", runID, dir), false
	case l.runner == "dataflow" && flagIsTrue("template_location"):
		return fmt.Sprintf("job not run: its template was written to %s; each launch of it writes to %s", flagValue("template_location"), dir), false
	case flagIsTrue("async") || flagIsTrue("execute_async"):
		return fmt.Sprintf("job submitted (--async): run %s writes its results to %s; manifest.json appears there when it finishes", runID, dir), false
	}
	return "", true
}
