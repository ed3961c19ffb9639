// Command explore serves a local web page over a finished neardup run, so
// that a person can browse its clusters: filter them by kind, size, article
// title and cohesion, read a cluster's members side by side with their
// changed words marked, list the clusters of an article, and list the
// document pairs that share passages and read a passage side by side.
//
//	go run ./explore --run out/sample/RUN_ID [--addr 127.0.0.1:8080]
//	go run ./explore --run gs://bucket/out/RUN_ID --check
//
// It reads the run's manifest, summary and cluster indexes at start, never
// the texts, and reads a cluster's line when its page is asked for, so it
// starts in a second or two on millions of clusters, local or on gs://.
// --check loads the run, prints what it holds and exits.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/neardup/neardup/explore/internal/index"
	"github.com/neardup/neardup/explore/internal/store"
	"github.com/neardup/neardup/explore/internal/web"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil))
}

// version and commit are stamped in by the release build (scripts/release.sh).
var version, commit = "dev", "unknown"

// options are the command's flags.
type options struct {
	run     string
	addr    string
	check   bool
	workers int
	textMB  int
	version bool
}

// parse reads the flags.
func parse(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.run, "run", "", "the run directory to explore, OUTPUT/RUN_ID: a local path or gs://bucket/… (required)")
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to serve on (port 0: any free port)")
	fs.BoolVar(&o.check, "check", false, "load the run, print what it holds and exit")
	fs.IntVar(&o.workers, "workers", 0, "goroutines reading the index at start (0: the cores; 16 on gs://)")
	fs.IntVar(&o.textMB, "sentence_index_mb", 1024, "MiB of folded sentence text the sentence search indexes, built in the background after start (-1: none)")
	fs.BoolVar(&o.version, "version", false, "print the version and commit and exit")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: explore --run OUTPUT/RUN_ID [--addr HOST:PORT] [--check]\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case o.version:
		return o, nil
	case fs.NArg() > 0:
		return o, fmt.Errorf("unexpected argument %q (give the run with --run)", fs.Arg(0))
	case o.run == "":
		return o, errors.New("--run is required: the run directory OUTPUT/RUN_ID to explore")
	case o.workers < 0:
		return o, fmt.Errorf("--workers %d: must be 0 or more", o.workers)
	case o.textMB < -1 || o.textMB == 0:
		return o, fmt.Errorf("--sentence_index_mb %d: must be a size in MiB, or -1 for no sentence index", o.textMB)
	}
	return o, nil
}

// run runs the command and returns its exit status: 0, 1 if the run
// cannot be loaded (with --check) or served, 2 for a mistake in the flags.
// listening, if not nil, is told the server's URL once it listens.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, listening func(url string)) int {
	o, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "explore: error: %v\n", err)
		return 2
	}
	if o.version {
		fmt.Fprintln(stdout, "explore", version, commit)
		return 0
	}
	st, err := openRun(ctx, o.run, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "explore: error: %v\n", err)
		return 2
	}
	defer st.Close()
	r, loadErr := index.Load(ctx, st, index.Options{Workers: o.workers, TextBytes: textBytes(o.textMB)})
	if loadErr != nil {
		fmt.Fprintf(stderr, "explore: error: %v\n", loadErr)
	} else {
		for _, w := range r.Warnings {
			fmt.Fprintf(stderr, "explore: warning: %s\n", w)
		}
	}
	if o.check {
		if loadErr != nil {
			return 1
		}
		printCheck(ctx, stdout, r)
		return 0
	}
	if err := serve(ctx, o.addr, r, loadErr, stderr, listening); err != nil {
		fmt.Fprintf(stderr, "explore: error: %v\n", err)
		return 1
	}
	return 0
}

// openRun opens the run directory dir or, when dir holds no manifest.json
// but runs in directories of their own (an --output directory: one run
// directory per run id), the latest of them to finish, saying which.
func openRun(ctx context.Context, dir string, stderr io.Writer) (store.Store, error) {
	st, err := store.Open(ctx, dir)
	if err != nil {
		return nil, err
	}
	if _, err := st.Size(ctx, "manifest.json"); !store.IsNotExist(err) {
		return st, nil // a run, or an error Load will name
	}
	runs, err := index.RunsIn(ctx, st)
	if err != nil || len(runs) == 0 {
		return st, nil // Load says there is no run here
	}
	st.Close()
	latest := st.Dir() + "/" + runs[0].Name
	if len(runs) == 1 {
		fmt.Fprintf(stderr, "explore: %s holds one run: exploring %s\n", dir, latest)
	} else {
		fmt.Fprintf(stderr, "explore: %s holds %d runs: exploring the latest to finish, %s (%s); --run names another\n",
			dir, len(runs), latest, runs[0].Finished.Format(time.RFC3339))
	}
	return store.Open(ctx, latest)
}

// textBytes is the budget of the sentence index of --sentence_index_mb.
func textBytes(mb int) int64 {
	if mb < 0 {
		return -1
	}
	return int64(mb) << 20
}

// printCheck prints what a loaded run holds, once its sentence index is
// built.
func printCheck(ctx context.Context, w io.Writer, r *index.Run) {
	fmt.Fprintf(w, "run %s (version %s): %s, %s, loaded in %s\n", r.Manifest.RunID, r.Version(),
		count(int64(r.Len()), "cluster"), count(int64(r.Articles()), "article"), r.LoadTime.Round(time.Millisecond))
	for _, k := range r.Kinds() {
		fmt.Fprintf(w, "  %-14s %9d %-8s %10d %s\n", k.Kind, k.Clusters, noun(k.Clusters, "cluster"), k.Sentences, noun(k.Sentences, "sentence"))
	}
	if r.HasPassages() {
		fmt.Fprintf(w, "  %s shared by %s\n", count(int64(r.PassageCount()), "passage"), count(int64(r.PairCount()), "document pair"))
	}
	switch st := r.WaitTexts(ctx); {
	case st.Disabled:
	case st.Err != nil:
		fmt.Fprintf(w, "  sentence index: %v\n", st.Err)
	case st.Ready:
		fmt.Fprintf(w, "  sentence index: %.1f MB of clusters read in %s into %.1f MB of folded text", float64(st.Of)/1e6,
			st.Took.Round(time.Millisecond), float64(st.Bytes)/1e6)
		if st.Left > 0 {
			fmt.Fprintf(w, "; %s over --sentence_index_mb, not searched", count(int64(st.Left), "cluster"))
		}
		fmt.Fprintln(w)
	}
}

// noun is one in the singular, other numbers in the plural.
func noun(n int64, one string) string {
	if n == 1 {
		return one
	}
	return one + "s"
}

// count writes n and its noun: "1 cluster", "3 clusters".
func count(n int64, one string) string { return fmt.Sprintf("%d %s", n, noun(n, one)) }

// serve serves the explorer of r (or of loadErr) on addr until ctx ends.
func serve(ctx context.Context, addr string, r *index.Run, loadErr error, stderr io.Writer, listening func(string)) error {
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }
	h, err := web.New(r, loadErr, logf)
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	url := "http://" + l.Addr().String() + "/"
	if ip := l.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		fmt.Fprintf(stderr, "explore: warning: listening on %s: anyone who can reach this machine can read the run\n", l.Addr())
	}
	if r != nil {
		fmt.Fprintf(stderr, "explore: %d clusters of run %s loaded in %s; serving %s\n",
			r.Len(), r.Manifest.RunID, r.LoadTime.Round(time.Millisecond), url)
	} else {
		fmt.Fprintf(stderr, "explore: serving the error at %s\n", url)
	}
	if listening != nil {
		listening(url)
	}
	var handler http.Handler = h
	if ip := l.Addr().(*net.TCPAddr).IP; ip.IsLoopback() {
		handler = loopbackHosts(h)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute,
		IdleTimeout: time.Minute, MaxHeaderBytes: 64 << 10}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(shut)
	}
}

// loopbackHosts serves only requests whose Host names this machine's
// loopback (localhost, 127.0.0.1, [::1], with any port): a page of another
// site whose name a DNS rebinding points at 127.0.0.1 cannot read the run.
func loopbackHosts(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if hp, _, err := net.SplitHostPort(host); err == nil {
			host = hp
		}
		host = strings.Trim(host, "[]")
		if ip := net.ParseIP(host); !strings.EqualFold(host, "localhost") && (ip == nil || !ip.IsLoopback()) {
			http.Error(w, "explore: the explorer listens on the loopback only: ask for localhost or 127.0.0.1, not "+r.Host, http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}
