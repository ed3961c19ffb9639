package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neardup/neardup/explore/internal/testrun"
	"github.com/neardup/neardup/transforms/summary"
)

func TestMain(m *testing.M) { os.Exit(testrun.Main(m)) }

// syncBuffer is a buffer the server may write to while a test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "explore: error: --run is required: the run directory OUTPUT/RUN_ID to explore\n"},
		{[]string{"--run", "x", "y"}, 2, `explore: error: unexpected argument "y" (give the run with --run)`},
		{[]string{"--run", "x", "--workers", "-1"}, 2, "explore: error: --workers -1: must be 0 or more"},
		{[]string{"--rnu", "x"}, 2, "flag provided but not defined: -rnu"},
		{[]string{"--run", "s3://bucket/run"}, 2, "explore: error: store: s3://bucket/run: only local paths and gs:// URLs can be explored, not s3://"},
		{[]string{"--help"}, 0, "usage: explore --run OUTPUT/RUN_ID [--addr HOST:PORT] [--check]"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(t.Context(), tc.args, &stdout, &stderr, nil)
		if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("explore %q: exit %d, stderr %q; want %d, %q", tc.args, code, stderr.String(), tc.code, tc.want)
		}
	}
}

// TestCheck runs --check on a real run: it prints the run's counts, as
// summary.json has them, and exits.
func TestCheck(t *testing.T) {
	dir := testrun.Sample(t)
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"--run", dir, "--check"}, &stdout, &stderr, nil); code != 0 || stderr.Len() > 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr.String())
	}
	var doc summary.Document
	b, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	out := stdout.String()
	if !strings.HasPrefix(out, fmt.Sprintf("run run (version dev): %s, ", count(doc.Counts.Clusters, "cluster"))) {
		t.Errorf("--check says %q", out)
	}
	if strings.Contains(out, " 1 clusters") || strings.Contains(out, " 1 sentences") {
		t.Errorf("--check says one in the plural:\n%s", out)
	}
	for kind, c := range doc.Counts.Categories {
		want := fmt.Sprintf("  %-14s %9d %-8s %10d sentences\n", kind, c.Clusters, map[bool]string{true: "cluster", false: "clusters"}[c.Clusters == 1], c.Sentences)
		if !strings.Contains(out, want) {
			t.Errorf("--check does not say %q:\n%s", want, out)
		}
	}
}

// TestCheckNotARun: --check on a directory without manifest.json exits 1
// and says why.
func TestCheckNotARun(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"--run", dir, "--check"}, &stdout, &stderr, nil)
	want := "explore: error: this run did not finish, or this is not a run directory: " + dir + " has no manifest.json"
	if code != 1 || !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("exit %d, stderr %q; want 1, %q", code, stderr.String(), want)
	}
}

// TestCheckOutputDirectory: --run given the output directory rather than
// the run directory inside it explores the run there and says so.
func TestCheckOutputDirectory(t *testing.T) {
	dir := testrun.Sample(t)
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"--run", filepath.Dir(dir), "--check"}, &stdout, &stderr, nil)
	want := "explore: " + filepath.Dir(dir) + " holds one run: exploring " + dir + "\n"
	if code != 0 || stderr.String() != want || !strings.HasPrefix(stdout.String(), "run run (version dev): ") {
		t.Errorf("exit %d, stderr %q, stdout %.40q; want 0, %q and the run's counts", code, stderr.String(), stdout.String(), want)
	}
}

// start runs the command on a free port until the test ends and returns
// its URL and its stderr.
func start(t *testing.T, args ...string) (string, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan int, 1)
	stderr := &syncBuffer{}
	go func() {
		done <- run(ctx, append(args, "--addr", "127.0.0.1:0"), io.Discard, stderr, func(u string) { urls <- u })
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("explore exited with %d: %s", code, stderr.String())
		}
	})
	select {
	case u := <-urls:
		return u, stderr
	case code := <-done:
		done <- code
		t.Fatalf("explore exited with %d: %s", code, stderr.String())
	case <-time.After(time.Minute):
		t.Fatal("explore did not listen within a minute")
	}
	return "", nil
}

// TestServe runs the command: it says where it listens, serves the
// pages, and stops when its context ends.
func TestServe(t *testing.T) {
	url, stderr := start(t, "--run", testrun.Sample(t))
	if !strings.Contains(stderr.String(), " clusters of run run loaded in ") || !strings.Contains(stderr.String(), "; serving "+url+"\n") {
		t.Errorf("stderr: %q", stderr.String())
	}
	for path, want := range map[string]int{"": 200, "cluster/none:1:2:3": 404, "nope": 404, "static/explore.js": 200} {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET /%s: %d, want %d", path, resp.StatusCode, want)
		}
	}
}

// TestServeNotARun: the command serves a page that says why the
// directory cannot be explored.
func TestServeNotARun(t *testing.T) {
	dir := t.TempDir()
	url, stderr := start(t, "--run", dir)
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := "this run did not finish, or this is not a run directory: " + dir + " has no manifest.json"
	if resp.StatusCode != 500 || !strings.Contains(string(body), want) || !strings.Contains(stderr.String(), "explore: error: "+want) {
		t.Errorf("%d %s\nstderr: %s", resp.StatusCode, body, stderr.String())
	}
}

// TestLoopbackHosts serves the loopback's names and refuses any other
// Host, which a DNS rebinding would send.
func TestLoopbackHosts(t *testing.T) {
	h := loopbackHosts(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	for host, want := range map[string]int{
		"localhost:8080": 200, "127.0.0.1:8080": 200, "[::1]:8080": 200, "127.0.0.2": 200, "LOCALHOST": 200,
		"evil.example:8080": 421, "evil.example": 421, "10.0.0.1:8080": 421, "": 421,
	} {
		req := httptest.NewRequest("GET", "/", nil)
		req.Host = host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("Host %q: status %d, want %d", host, rec.Code, want)
		}
	}
}
