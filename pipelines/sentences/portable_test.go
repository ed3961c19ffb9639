package main

// Portable submission tests: the pipeline binary submits itself through
// Beam's Job API to a standalone Prism job server, exactly as it would to a
// Flink or Spark job server (--runner=flink --endpoint=HOST:PORT), and its
// output must be byte-identical to the embedded run's. With
// --environment_type=EXTERNAL the bundles run in separate worker processes
// started by the Go SDK's container boot program in --worker_pool mode, as
// in the worker-pool sidecar of deploy/flink and deploy/spark; that catches
// unregistered functions and global state that in-process runs hide.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// workerPoolPort is where the SDK's boot program serves its worker pool in
// --worker_pool mode; Beam 2.77 hard-codes it (container/boot.go).
const workerPoolPort = 50000

// runTimeout bounds one pipeline run of a test.
const runTimeout = 2 * time.Minute

// buildGo builds the Go package pkg into dir/name and returns the path.
func buildGo(t *testing.T, dir, name, pkg string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", out, pkg)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

// flagNames runs the binary with --help and returns the names of its flags.
func flagNames(t *testing.T, bin string) map[string]bool {
	t.Helper()
	out, _ := exec.Command(bin, "--help").CombinedOutput() // exits 0 or 2 depending on the flag package's mood
	names := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if f, ok := strings.CutPrefix(line, "  -"); ok {
			names[strings.Fields(f)[0]] = true
		}
	}
	if !names["input"] || !names["output"] || !names["runner"] {
		t.Fatalf("%s --help lists no --input, --output or --runner:\n%s", bin, out)
	}
	return names
}

// freePort returns a TCP port on the loopback interface that was free a
// moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitForPort waits until something accepts connections on localhost:port,
// or the process exits.
func waitForPort(t *testing.T, port int, proc *exec.Cmd, exited <-chan struct{}, logFile string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			log, _ := os.ReadFile(logFile)
			t.Fatalf("%s exited before serving port %d:\n%s", proc.Path, port, log)
		default:
		}
		c, err := net.DialTimeout("tcp", fmt.Sprintf("localhost:%d", port), time.Second)
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s does not serve port %d after 30 s", proc.Path, port)
}

// startServer starts a long-running helper process in dir with its output in
// dir/NAME.log, and stops it when the test ends.
func startServer(t *testing.T, dir, name string, argv ...string) (*exec.Cmd, <-chan struct{}, string) {
	t.Helper()
	logFile := filepath.Join(dir, name+".log")
	logOut, err := os.Create(logFile)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, logOut, logOut
	if err := cmd.Start(); err != nil {
		logOut.Close()
		t.Fatalf("starting %s: %v", name, err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		logOut.Close()
		close(exited)
	}()
	t.Cleanup(func() {
		// SIGTERM first: a timeout(1) wrapper passes it on to its child.
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			log, _ := os.ReadFile(logFile)
			t.Logf("%s log:\n%s", name, tail(log, 4000))
		}
	})
	return cmd, exited, logFile
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// startPrism starts Beam's standalone Prism job server on a free loopback
// port and returns the port. It shuts itself down if left idle, so that a
// killed test leaves nothing running for long.
func startPrism(t *testing.T, prism, dir string) int {
	t.Helper()
	port := freePort(t)
	cmd, exited, logFile := startServer(t, dir, "prism", prism,
		fmt.Sprintf("--job_port=%d", port), "--serve_http=false", "--idle_shutdown_timeout=2m", "--log_level=warn")
	waitForPort(t, port, cmd, exited, logFile)
	return port
}

// runPipeline runs the binary with args and fails the test if it fails.
func runPipeline(t *testing.T, bin string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = t.TempDir()
	// Beam's portable launcher leaves an empty TMPDIR/beamloopbackworker-*
	// file behind for every LOOPBACK submission: keep it in the test's dir.
	cmd.Env = append(os.Environ(), "TMPDIR="+cmd.Dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, tail(out, 6000))
	}
}

// outputFiles reads every file under dir, by slash-separated path relative
// to dir, so that it works whatever the run directory layout.
func outputFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// jsonField decodes the top-level field key of a JSON document.
func jsonField(t *testing.T, name string, doc []byte, key string) any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m[key]
}

// reportStarted is the element of report.html that says when the run
// started.
var reportStarted = regexp.MustCompile(`<time datetime="[^"]*">[^<]*</time>`)

// compareOutputs checks that two runs wrote the same files: every file byte
// for byte, except summary.json and manifest.json (which also hold times),
// whose counts and parameters must be equal, and report.html, which must be
// equal but for the time the run started.
func compareOutputs(t *testing.T, want, got map[string][]byte, what string) {
	t.Helper()
	if w, g := slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got)); !slices.Equal(w, g) {
		t.Fatalf("%s wrote %q, the embedded run %q", what, g, w)
	}
	var clusters bool
	for name, w := range want {
		g := got[name]
		switch base := path.Base(name); base {
		case "summary.json", "manifest.json":
			for _, key := range []string{"counts", "parameters"} {
				wv, gv := jsonField(t, name, w, key), jsonField(t, name, g, key)
				if !reflect.DeepEqual(wv, gv) {
					t.Errorf("%s: %s %q = %v, embedded run %v", what, name, key, gv, wv)
				}
			}
		case "report.html":
			if !bytes.Equal(reportStarted.ReplaceAll(w, nil), reportStarted.ReplaceAll(g, nil)) {
				t.Errorf("%s: %s differs from the embedded run's but for the start time", what, name)
			}
		default:
			clusters = clusters || strings.HasPrefix(base, "clusters-") && len(w) > 0
			if !bytes.Equal(w, g) {
				t.Errorf("%s: %s differs from the embedded run's (%d vs %d bytes)", what, name, len(g), len(w))
			}
		}
	}
	if !slices.ContainsFunc(slices.Collect(maps.Keys(want)), func(n string) bool { return path.Base(n) == "summary.json" }) {
		t.Errorf("the embedded run wrote no summary.json: %q", slices.Sorted(maps.Keys(want)))
	}
	if !clusters {
		t.Errorf("the embedded run found no cluster: the comparison proves nothing")
	}
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
	// The worker binary gets a unique name: the worker pool stages it in
	// /tmp/staged under that name, and cleanup removes exactly that file.
	workerName := fmt.Sprintf("neardup-test-worker-%d", time.Now().UnixNano())
	bin := buildGo(t, tmp, workerName, ".")
	prism := buildGo(t, tmp, "prism", "github.com/apache/beam/sdks/v2/go/cmd/prism")
	// Two output shards and every sentence: more files to compare.
	common := []string{"--shards=8", "--output_shards=2", "--emit_sentences"}
	if flagNames(t, bin)["run_id"] {
		common = append(common, "--run_id=portable-test")
	}
	pipelineArgs := func(input, output string, more ...string) []string {
		return slices.Concat([]string{"--input=" + input, "--output=" + output}, common, more)
	}
	jobPort := startPrism(t, prism, tmp)
	endpoint := fmt.Sprintf("--endpoint=localhost:%d", jobPort)

	inputs := portableInputs(t)
	embedded := map[string]map[string][]byte{}
	for _, in := range inputs {
		t.Run("loopback/"+in.name, func(t *testing.T) {
			out := t.TempDir()
			runPipeline(t, bin, pipelineArgs(in.path, out)...)
			embedded[in.name] = outputFiles(t, out)

			flink := t.TempDir()
			runPipeline(t, bin, pipelineArgs(in.path, flink, "--runner=flink", endpoint, "--environment_type=LOOPBACK")...)
			compareOutputs(t, embedded[in.name], outputFiles(t, flink), "--runner=flink --environment_type=LOOPBACK")
		})
	}

	t.Run("external/sample", func(t *testing.T) {
		want, ok := embedded["sample"]
		if !ok {
			t.Skip("the embedded run on the sample failed")
		}
		if runtime.GOOS != "linux" {
			t.Skip("the SDK's worker pool stages binaries in /tmp and runs linux workers")
		}
		if l, err := net.Listen("tcp", fmt.Sprintf(":%d", workerPoolPort)); err != nil {
			t.Skipf("the SDK's worker pool needs port %d, which Beam 2.77 hard-codes, and it is taken: %v", workerPoolPort, err)
		} else {
			l.Close()
		}
		boot := buildGo(t, tmp, "boot", "github.com/apache/beam/sdks/v2/go/container")
		cleanupWorkerFiles(t, bin)
		poolDir := t.TempDir() // the boot program writes pipeline_options.json in its working directory
		argv := []string{boot, "--worker_pool"}
		if timeout, err := exec.LookPath("timeout"); err == nil {
			// If the test binary itself is killed, the pool still exits
			// soon instead of holding port 50000.
			argv = append([]string{timeout, "170"}, argv...)
		}
		cmd, exited, logFile := startServer(t, poolDir, "worker-pool", argv...)
		waitForPort(t, workerPoolPort, cmd, exited, logFile)

		out := t.TempDir()
		runPipeline(t, bin, pipelineArgs(inputs[0].path, out, "--runner=flink", endpoint, "--environment_type=EXTERNAL",
			fmt.Sprintf("--environment_config=localhost:%d", workerPoolPort), "--worker_binary="+bin)...)
		compareOutputs(t, want, outputFiles(t, out), "--runner=flink --environment_type=EXTERNAL")
	})
}

// cleanupWorkerFiles removes, when the test ends, what the SDK's boot
// program leaves in /tmp for each worker it starts from the worker binary
// bin: the staged binary /tmp/staged/N-NAME and a copy of it in a new
// /tmp/binNNN directory. Neither place can be changed: the worker pool passes
// no --semi_persist_dir, and the copy's directory is hard-coded.
func cleanupWorkerFiles(t *testing.T, bin string) {
	t.Helper()
	st, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	workerName, workerSize := filepath.Base(bin), st.Size()
	before, _ := filepath.Glob("/tmp/bin*")
	_, stagedErr := os.Stat("/tmp/staged")
	t.Cleanup(func() {
		staged, _ := filepath.Glob("/tmp/staged/*-" + workerName)
		for _, f := range staged {
			if err := os.Remove(f); err != nil {
				t.Errorf("removing staged worker: %v", err)
			}
		}
		if errors.Is(stagedErr, fs.ErrNotExist) {
			os.Remove("/tmp/staged") // only if empty
		}
		after, _ := filepath.Glob("/tmp/bin*")
		for _, dir := range after {
			if slices.Contains(before, dir) {
				continue
			}
			copied, err := os.Stat(filepath.Join(dir, "worker"))
			if entries, _ := os.ReadDir(dir); err != nil || len(entries) != 1 || copied.Size() != workerSize {
				continue // not a copy of this test's worker
			}
			if err := os.RemoveAll(dir); err != nil {
				t.Errorf("removing worker copy: %v", err)
			}
		}
	})
}
