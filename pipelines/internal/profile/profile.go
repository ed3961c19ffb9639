// Package profile writes the CPU and heap profiles of a run. With the
// embedded runner the workers run in the launching process, so the profiles
// cover the whole pipeline. The heap profile is the one taken when the heap
// was largest, since a run's memory is bounded by its peak, not its end.
package profile

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"time"
)

// StartCPU starts writing a CPU profile to path, if it is not empty, and
// returns the function that stops it.
func StartCPU(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			log.Printf("--cpuprofile %s: %v", path, err)
		}
	}, nil
}

// heapMetric is the bytes of heap objects found live by the last
// collection: what the heap profile describes, too.
const heapMetric = "/gc/heap/live:bytes"

// StartPeakHeap samples the heap every interval and, each time it has grown
// by a tenth over the largest heap profiled so far, takes a heap profile.
// The stop function it returns writes the last one (the peak's) to path.
// An empty path does nothing.
func StartPeakHeap(path string, interval time.Duration) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--memprofile: %w", err)
	}
	p := &peak{done: make(chan struct{})}
	p.wg.Add(1)
	go p.watch(interval)
	return func() error {
		close(p.done)
		p.wg.Wait()
		if p.profile.Len() == 0 {
			p.take(0)
		}
		_, err := f.Write(p.profile.Bytes())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("--memprofile %s: %w", path, err)
		}
		return nil
	}, nil
}

// peak holds the heap profile of the largest heap seen.
type peak struct {
	done    chan struct{}
	wg      sync.WaitGroup
	max     uint64
	profile bytes.Buffer
}

func (p *peak) watch(interval time.Duration) {
	defer p.wg.Done()
	sample := []metrics.Sample{{Name: heapMetric}}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-tick.C:
		}
		metrics.Read(sample)
		if heap := sample[0].Value.Uint64(); heap > p.max+p.max/10 {
			p.take(heap)
		}
	}
}

// take replaces the profile with one of the heap now.
func (p *peak) take(heap uint64) {
	p.max = heap
	p.profile.Reset()
	if err := pprof.Lookup("heap").WriteTo(&p.profile, 0); err != nil {
		log.Printf("--memprofile: %v", err)
		p.profile.Reset()
	}
}
