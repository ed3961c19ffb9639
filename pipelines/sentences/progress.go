package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/neardup/neardup/internal/progress"
)

// watchProgress starts Prism's job service in this process, points the
// runner at it (as Prism would by itself) and prints the job's progress to
// w every interval until the returned function is called. It does nothing,
// and returns a no-op, unless the launch runs Prism here without an
// --endpoint. Progress is a courtesy: when the service cannot start, the
// runner starts its own and the run goes on without progress lines.
func watchProgress(ctx context.Context, l launch, interval time.Duration, totalBytes int64, w io.Writer) (stop func()) {
	if l.runner != "prism" || l.endpoint != "" || interval <= 0 {
		return func() {}
	}
	port, err := unusedPort()
	if err != nil {
		fmt.Fprintf(w, "progress: no free port for the job service (%v); no progress lines\n", err)
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	jobs, err := prism.CreateJobServer(ctx, prism.Options{Port: port})
	if err != nil {
		cancel()
		fmt.Fprintf(w, "progress: starting the job service: %v; no progress lines\n", err)
		return func() {}
	}
	*jobopts.Endpoint = fmt.Sprintf("localhost:%d", port)
	if *jobopts.EnvironmentType == "" {
		*jobopts.EnvironmentType = "loopback"
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		progress.Watch(ctx, jobs, interval, totalBytes, w)
	}()
	return func() { cancel(); <-done }
}

// unusedPort returns a TCP port that was free a moment ago.
func unusedPort() (int, error) {
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
