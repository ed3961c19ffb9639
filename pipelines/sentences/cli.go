package main

// The command line (its usage, flag errors and how the command ends are
// launcher.CLI's), the runner and the paths it can read.

import (
	"flag"
	"fmt"
	"net"
	"slices"
	"strings"

	"github.com/neardup/neardup/pipelines/internal/launcher"
)

// cli is the command line. TestHelpListsEveryFlag checks that every flag
// main.go defines is in one of its groups, which --help lists in this
// order.
var cli = &launcher.CLI{
	Program: "sentences",
	Header:  usageHeader,
	ArgFlag: "input",
	Groups: []launcher.FlagGroup{
		{Title: "Input and output", Names: []string{"input", "input_format", "baseline", "output", "run_id", "namespaces", "max_page_bytes", "split_bytes"}},
		{Title: "Text", Names: []string{"shingle_length", "min_shingles", "max_shingles", "fold_case", "collapse_space"}},
		{Title: "Candidates", Names: []string{"scheme", "threshold", "recall", "max_bands", "bands", "rows", "seed"}},
		{Title: "SimHash (--scheme simhash)", Names: []string{"features", "simhash_bits", "permutations", "window", "max_hamming"}},
		{Title: "Verification", Names: []string{"min_jaccard", "max_edit", "top_pairs", "report_examples"}},
		{Title: "Shared passages", Names: []string{"passage_gap", "min_passage", "min_coverage", "passage_text"}},
		{Title: "Execution", Names: []string{"shards", "dofn_workers", "rounds", "output_shards", "formats", "max_members", "max_aliases", "emit_sentences", "emit_edges", "emit_duplicates", "duplicate_share", "quiet", "verbose", "progress_interval", "cpuprofile", "memprofile", "spill_dir", "version"}},
	},
}

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
	r, err := launcher.CanonicalRunner(runnerName())
	if err != nil {
		return launch{}, err
	}
	return launch{r, flagValue("endpoint"), strings.ToUpper(flagValue("environment_type"))}, nil
}

// workersHere reports whether the workers run in this process
// (launcher.WorkersHere).
func (l launch) workersHere() bool {
	return launcher.WorkersHere(l.runner, l.endpoint, l.environment)
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
				return launcher.UsageError("--%s is a Dataflow flag: it needs --runner=dataflow", name)
			}
		}
	}
	if (flagIsTrue("async") || flagIsTrue("execute_async")) && l.workersHere() {
		return launcher.UsageError("--async: the workers of --runner=%s run in this process, and would stop with it; wait for the run, or submit to a cluster", l.runner)
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
			return launcher.UsageError("%s %s is a local path, but with --runner=%s %s", names[i], p, l.runner, where)
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
