// Package portabletest runs a pipeline binary through Beam's portable
// runner in tests. A pipeline's test builds the binary and Beam's
// standalone Prism job server, submits the binary to Prism exactly as it
// would to a Flink or Spark job server (--runner=flink --endpoint=HOST:PORT,
// LOOPBACK workers) and, with --environment_type=EXTERNAL, to workers
// started by the Go SDK's container boot program in --worker_pool mode, as
// in the worker-pool sidecar of deploy/flink and deploy/spark; it then
// compares each run's files with those of the embedded run on the same
// input. Out-of-process workers catch unregistered functions and global
// state that in-process runs hide.
//
// The package holds what every pipeline's portable test needs (building,
// starting and stopping the servers, running the pipeline, reading and
// comparing the run directories); what differs by pipeline (its inputs and
// flags, and which of its files hold run-specific values) is the test's.
package portabletest

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

// WorkerPoolPort is where the SDK's boot program serves its worker pool in
// --worker_pool mode; Beam 2.77 hard-codes it (container/boot.go).
const WorkerPoolPort = 50000

// RunTimeout bounds one pipeline run of a test.
const RunTimeout = 2 * time.Minute

// BuildGo builds the Go package pkg into dir/name and returns the path.
func BuildGo(t testing.TB, dir, name, pkg string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", out, pkg)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

// BuildWorker builds the pipeline package pkg into dir under a unique name
// and returns the path: the worker pool stages the binary in /tmp/staged
// under that name, and CleanupWorkerFiles removes exactly that file.
func BuildWorker(t testing.TB, dir, pkg string) string {
	t.Helper()
	return BuildGo(t, dir, fmt.Sprintf("neardup-test-worker-%d", time.Now().UnixNano()), pkg)
}

// BuildPrism builds Beam's standalone Prism job server into dir and
// returns the path.
func BuildPrism(t testing.TB, dir string) string {
	t.Helper()
	return BuildGo(t, dir, "prism", "github.com/apache/beam/sdks/v2/go/cmd/prism")
}

// FlagNames runs the binary with --help and returns the names of its
// flags. It fails the test if any of required is not among them.
func FlagNames(t testing.TB, bin string, required ...string) map[string]bool {
	t.Helper()
	out, _ := exec.Command(bin, "--help").CombinedOutput() // exits 0 or 2 depending on the flag package's mood
	names := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if f, ok := strings.CutPrefix(line, "  -"); ok {
			names[strings.Fields(f)[0]] = true
		}
	}
	for _, r := range required {
		if !names[r] {
			t.Fatalf("%s --help does not list all of --%s:\n%s", bin, strings.Join(required, ", --"), out)
		}
	}
	return names
}

// FreePort returns a TCP port on the loopback interface that was free a
// moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// WaitForPort waits until something accepts connections on localhost:port,
// or the process exits.
func WaitForPort(t testing.TB, port int, proc *exec.Cmd, exited <-chan struct{}, logFile string) {
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

// StartServer starts a long-running helper process in dir with its output
// in dir/NAME.log, and stops it when the test ends. It returns the process,
// a channel closed when it exits and the log file's path.
func StartServer(t testing.TB, dir, name string, argv ...string) (*exec.Cmd, <-chan struct{}, string) {
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
			t.Logf("%s log:\n%s", name, Tail(log, 4000))
		}
	})
	return cmd, exited, logFile
}

// Tail returns the last n bytes of b, or b if it is shorter.
func Tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// StartPrism starts Beam's standalone Prism job server, the binary prism
// (BuildPrism), on a free loopback port with its log in dir, and returns
// the port. It shuts itself down if left idle, so that a killed test leaves
// nothing running for long.
func StartPrism(t testing.TB, prism, dir string) int {
	t.Helper()
	port := FreePort(t)
	cmd, exited, logFile := StartServer(t, dir, "prism", prism,
		fmt.Sprintf("--job_port=%d", port), "--serve_http=false", "--idle_shutdown_timeout=2m", "--log_level=warn")
	WaitForPort(t, port, cmd, exited, logFile)
	return port
}

// StartWorkerPool starts the Go SDK's boot program in --worker_pool mode on
// WorkerPoolPort, with its log in a new temporary directory, for runs of
// the worker binary bin (BuildWorker) whose bundles run in workers of
// their own; boot is built into dir. It returns the flags of such a run
// besides --runner and --endpoint. It skips the test where the pool cannot
// run: on a system other than linux, or when the port is taken.
func StartWorkerPool(t testing.TB, dir, bin string) []string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the SDK's worker pool stages binaries in /tmp and runs linux workers")
	}
	lockWorkerPool(t)
	if l, err := net.Listen("tcp", fmt.Sprintf(":%d", WorkerPoolPort)); err != nil {
		t.Skipf("the SDK's worker pool needs port %d, which Beam 2.77 hard-codes, and it is taken: %v", WorkerPoolPort, err)
	} else {
		l.Close()
	}
	boot := BuildGo(t, dir, "boot", "github.com/apache/beam/sdks/v2/go/container")
	CleanupWorkerFiles(t, bin)
	poolDir := t.TempDir() // the boot program writes pipeline_options.json in its working directory
	argv := []string{boot, "--worker_pool"}
	if timeout, err := exec.LookPath("timeout"); err == nil {
		// If the test binary itself is killed, the pool still exits
		// soon instead of holding port 50000.
		argv = append([]string{timeout, "170"}, argv...)
	}
	cmd, exited, logFile := StartServer(t, poolDir, "worker-pool", argv...)
	WaitForPort(t, WorkerPoolPort, cmd, exited, logFile)
	return []string{"--environment_type=EXTERNAL", fmt.Sprintf("--environment_config=localhost:%d", WorkerPoolPort), "--worker_binary=" + bin}
}

// lockWorkerPool waits for, and holds until the test ends, a lock that
// every test starting a worker pool takes: the pool's port is fixed, and
// the packages of `go test ./...` (the sentence and the reuse pipelines')
// run at the same time.
func lockWorkerPool(t testing.TB) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "neardup-worker-pool.lock"), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		t.Fatalf("worker pool lock: %v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		t.Fatalf("worker pool lock: %v", err)
	}
	t.Cleanup(func() { f.Close() }) // closing the file releases the lock
}

// RunPipeline runs the binary with args in a new temporary directory and
// fails the test if it fails or takes longer than RunTimeout.
func RunPipeline(t testing.TB, bin string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = t.TempDir()
	// Beam's portable launcher leaves an empty TMPDIR/beamloopbackworker-*
	// file behind for every LOOPBACK submission: keep it in the test's dir.
	cmd.Env = append(os.Environ(), "TMPDIR="+cmd.Dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, Tail(out, 6000))
	}
}

// OutputFiles reads every file under dir, by slash-separated path relative
// to dir, so that it works whatever the run directory layout.
func OutputFiles(t testing.TB, dir string) map[string][]byte {
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

// JSONField decodes the top-level field key of the JSON document doc, named
// name in messages.
func JSONField(t testing.TB, name string, doc []byte, key string) any {
	t.Helper()
	return jsonDoc(t, name, doc)[key]
}

func jsonDoc(t testing.TB, name string, doc []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// JSONDoc says how a JSON document that also holds run-specific values
// (times, the runner, the output directory) is compared.
type JSONDoc struct {
	// Fields, if not empty, are the top-level fields compared, each on its
	// own; the others are not.
	Fields []string
	// Ignore are the fields left out of the comparison of the whole
	// document when Fields is empty, as dot-separated paths of object keys
	// ("started", "parameters.output").
	Ignore []string
}

// Comparison says what of a pipeline's run directory differs by run and
// what must be there. Files are named by base name or by a path.Match
// pattern of it ("reuse-*.jsonl").
type Comparison struct {
	// JSON are the JSON files compared by their values, as JSONDoc says,
	// by base name.
	JSON map[string]JSONDoc
	// Masked are the files compared byte for byte after every match of the
	// expression is removed (a time stamp in an HTML page), by base name.
	Masked map[string]*regexp.Regexp
	// Required are patterns each of which some file of the reference run
	// must match.
	Required []string
	// NonEmpty, if not "", is a pattern that some non-empty file of the
	// reference run, compared byte for byte, must match: without one the
	// comparison proves nothing.
	NonEmpty string
}

// CompareOutputs checks that two runs wrote the same files (OutputFiles):
// got, the run described by what, and want, the embedded run's. Every file
// must be equal byte for byte, except those c.JSON and c.Masked name, which
// are compared as they say.
func CompareOutputs(t testing.TB, want, got map[string][]byte, what string, c Comparison) {
	t.Helper()
	if w, g := slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got)); !slices.Equal(w, g) {
		t.Fatalf("%s wrote %q, the embedded run %q", what, g, w)
	}
	var nonEmpty bool
	for name, w := range want {
		g := got[name]
		base := path.Base(name)
		if doc, ok := c.JSON[base]; ok {
			compareJSON(t, name, w, g, what, doc)
			continue
		}
		if re, ok := c.Masked[base]; ok {
			if !bytes.Equal(re.ReplaceAll(w, nil), re.ReplaceAll(g, nil)) {
				t.Errorf("%s: %s differs from the embedded run's but for %s", what, name, re)
			}
			continue
		}
		nonEmpty = nonEmpty || c.NonEmpty != "" && match(c.NonEmpty, base) && len(w) > 0
		if !bytes.Equal(w, g) {
			t.Errorf("%s: %s differs from the embedded run's (%d vs %d bytes)", what, name, len(g), len(w))
		}
	}
	names := slices.Sorted(maps.Keys(want))
	for _, r := range c.Required {
		if !slices.ContainsFunc(names, func(n string) bool { return match(r, path.Base(n)) }) {
			t.Errorf("the embedded run wrote no %s: %q", r, names)
		}
	}
	if c.NonEmpty != "" && !nonEmpty {
		t.Errorf("the embedded run wrote no non-empty %s: the comparison proves nothing", c.NonEmpty)
	}
}

// match reports whether the base name matches pattern (path.Match).
func match(pattern, base string) bool {
	ok, err := path.Match(pattern, base)
	return err == nil && ok
}

// compareJSON compares the JSON documents w and g of the file name as doc
// says.
func compareJSON(t testing.TB, name string, w, g []byte, what string, doc JSONDoc) {
	t.Helper()
	if len(doc.Fields) > 0 {
		for _, key := range doc.Fields {
			wv, gv := JSONField(t, name, w, key), JSONField(t, name, g, key)
			if !reflect.DeepEqual(wv, gv) {
				t.Errorf("%s: %s %q = %v, embedded run %v", what, name, key, gv, wv)
			}
		}
		return
	}
	wm, gm := jsonDoc(t, name, w), jsonDoc(t, name, g)
	for _, p := range doc.Ignore {
		deletePath(wm, p)
		deletePath(gm, p)
	}
	for _, key := range slices.Sorted(maps.Keys(wm)) {
		if !reflect.DeepEqual(wm[key], gm[key]) {
			t.Errorf("%s: %s %q = %v, embedded run %v", what, name, key, gm[key], wm[key])
		}
	}
	for _, key := range slices.Sorted(maps.Keys(gm)) {
		if _, ok := wm[key]; !ok {
			t.Errorf("%s: %s has %q, the embedded run's does not", what, name, key)
		}
	}
}

// deletePath deletes the value at the dot-separated path of object keys
// from m, if it is there.
func deletePath(m map[string]any, p string) {
	keys := strings.Split(p, ".")
	for _, k := range keys[:len(keys)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			return
		}
		m = next
	}
	delete(m, keys[len(keys)-1])
}

// CleanupWorkerFiles removes, when the test ends, what the SDK's boot
// program leaves in /tmp for each worker it starts from the worker binary
// bin: the staged binary /tmp/staged/N-NAME and a copy of it in a new
// /tmp/binNNN directory. Neither place can be changed: the worker pool passes
// no --semi_persist_dir, and the copy's directory is hard-coded.
func CleanupWorkerFiles(t testing.TB, bin string) {
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
