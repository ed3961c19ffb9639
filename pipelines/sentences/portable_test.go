package main

// Portable submission tests: the pipeline binary submits itself through
// Beam's Job API to a standalone Prism job server, exactly as it would to a
// Flink or Spark job server (--runner=flink --endpoint=HOST:PORT), and its
// output must be byte-identical to the embedded run's. With
// --environment_type=EXTERNAL the bundles run in separate worker processes
// started by the Go SDK's container boot program in --worker_pool mode, as
// in the worker-pool sidecar of deploy/flink and deploy/spark; that catches
// unregistered functions and global state that in-process runs hide. The
// machinery is internal/portabletest's.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/neardup/neardup/testkit/portabletest"
)

// The helpers of internal/portabletest that the package's other tests
// (cli, deploy, flex, progress) use by their old names.
const (
	runTimeout     = portabletest.RunTimeout
	workerPoolPort = portabletest.WorkerPoolPort
)

var (
	buildGo = portabletest.BuildGo
	tail    = portabletest.Tail
)

// flagNames runs the binary with --help and returns the names of its flags;
// it fails the test if they lack --input, --output or --runner.
func flagNames(t *testing.T, bin string) map[string]bool {
	t.Helper()
	return portabletest.FlagNames(t, bin, "input", "output", "runner")
}

// reportStarted is the element of report.html that says when the run
// started.
var reportStarted = regexp.MustCompile(`<time datetime="[^"]*">[^<]*</time>`)

// sameOutputs is what two runs of the pipeline on the same input write
// alike: every file byte for byte, except summary.json and manifest.json
// (which also hold times), whose counts and parameters must be equal, and
// report.html, which must be equal but for the time the run started. The
// embedded run must write summary.json and find a cluster.
var sameOutputs = portabletest.Comparison{
	JSON: map[string]portabletest.JSONDoc{
		"summary.json":  {Fields: []string{"counts", "parameters"}},
		"manifest.json": {Fields: []string{"counts", "parameters"}},
	},
	Masked:   map[string]*regexp.Regexp{"report.html": reportStarted},
	Required: []string{"summary.json"},
	NonEmpty: "clusters-*",
}

// testInput is a dump the portable runs read, by absolute path: workers
// started by a job server do not share the launcher's working directory.
type testInput struct{ name, path string }

func portableInputs(t *testing.T) []testInput {
	t.Helper()
	sample, err := filepath.Abs("../../testdata/sample/simplewiki-sample.xml")
	if err != nil {
		t.Fatal(err)
	}
	inputs := []testInput{{"sample", sample}}
	katrina, err := filepath.Abs(filepath.Join("../../../shared/data", "wikiduper", "Katrina.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(katrina); err == nil {
		inputs = append(inputs, testInput{"katrina", katrina})
	} else {
		t.Logf("skipping Katrina.xml: %v", err)
	}
	return inputs
}

// TestPortableRunners submits the pipeline binary to a standalone Prism job
// server as to Flink (--runner=flink, LOOPBACK workers) and, once, with
// out-of-process workers from the SDK's worker pool (EXTERNAL), and checks
// each output against the embedded run on the same input.
func TestPortableRunners(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and a job server and runs the pipeline several times; skipped with -short")
	}
	tmp := t.TempDir()
	bin := portabletest.BuildWorker(t, tmp, ".")
	prism := portabletest.BuildPrism(t, tmp)
	// Two output shards and every sentence: more files to compare.
	common := []string{"--shards=8", "--output_shards=2", "--emit_sentences"}
	if flagNames(t, bin)["run_id"] {
		common = append(common, "--run_id=portable-test")
	}
	pipelineArgs := func(input, output string, more ...string) []string {
		return slices.Concat([]string{"--input=" + input, "--output=" + output}, common, more)
	}
	jobPort := portabletest.StartPrism(t, prism, tmp)
	endpoint := fmt.Sprintf("--endpoint=localhost:%d", jobPort)

	inputs := portableInputs(t)
	embedded := map[string]map[string][]byte{}
	for _, in := range inputs {
		t.Run("loopback/"+in.name, func(t *testing.T) {
			out := t.TempDir()
			portabletest.RunPipeline(t, bin, pipelineArgs(in.path, out)...)
			embedded[in.name] = portabletest.OutputFiles(t, out)

			flink := t.TempDir()
			portabletest.RunPipeline(t, bin, pipelineArgs(in.path, flink, "--runner=flink", endpoint, "--environment_type=LOOPBACK")...)
			portabletest.CompareOutputs(t, embedded[in.name], portabletest.OutputFiles(t, flink), "--runner=flink --environment_type=LOOPBACK", sameOutputs)
		})
	}

	t.Run("external/sample", func(t *testing.T) {
		want, ok := embedded["sample"]
		if !ok {
			t.Skip("the embedded run on the sample failed")
		}
		external := portabletest.StartWorkerPool(t, tmp, bin)
		out := t.TempDir()
		portabletest.RunPipeline(t, bin, pipelineArgs(inputs[0].path, out, slices.Concat([]string{"--runner=flink", endpoint}, external)...)...)
		portabletest.CompareOutputs(t, want, portabletest.OutputFiles(t, out), "--runner=flink --environment_type=EXTERNAL", sameOutputs)
	})
}
