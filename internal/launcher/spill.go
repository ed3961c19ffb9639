package launcher

import (
	"fmt"
	"log"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/neardup/neardup/internal/shuffle"
)

// SpillDirUsage is the help of the --spill_dir flag both pipelines have.
const SpillDirUsage = "with the workers in this process (embedded runner, LOOPBACK): write the shuffles' batches under this directory while the run lasts, instead of holding them in memory (empty: the system's temporary directory; off: hold them in memory)"

// Spill makes the run's shuffles write their batches under dir
// (shuffle.SpillTo; the system's temporary directory if dir is empty), or
// does nothing if dir is "off". Call it only when the workers run in this
// process (WorkersHere). The function it returns removes the batches; it
// may be called more than once, from any goroutine.
func Spill(dir, runID string) (unspill func(), err error) {
	if dir == "off" {
		return func() {}, nil
	}
	s, err := shuffle.SpillTo(dir, "neardup-"+runID)
	if err != nil {
		return nil, fmt.Errorf("--spill_dir: %w", err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if err := s.Close(); err != nil {
				log.Print(err)
			}
		})
	}, nil
}

// CleanUpOnSignal makes SIGINT and SIGTERM run cleanup and then exit the
// process with status 130 or 143. It returns the function that stops
// watching.
func CleanUpOnSignal(cleanup func(os.Signal)) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			cleanup(sig)
			code := 130
			if sig == syscall.SIGTERM {
				code = 143
			}
			os.Exit(code)
		case <-done:
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}
