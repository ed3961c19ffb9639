// Package orderedpool runs a function over a stream of inputs on several
// goroutines and hands the results back in the order the inputs came.
//
// Beam's embedded runner (Prism) gives each stage one bundle and splits it
// only when it sees no progress for a while, so a DoFn that emits steadily
// keeps one core busy however many the machine has. A DoFn that owns a Pool
// hashes, compares or classifies on every core while its bundle goroutine
// stays the only one that emits, and because results come back in input
// order its output is exactly what the serial DoFn would have produced. On a
// cluster runner, which runs many bundles at once, the pool costs a few idle
// goroutines.
package orderedpool

import (
	"cmp"
	"fmt"
	"runtime"
	"sync"
)

// Pool applies a function to inputs on its workers. Submit and Flush must be
// called from one goroutine (the bundle's); the workers are the only other
// goroutines that touch the inputs.
type Pool[In, Out any] struct {
	jobs    chan job[In, Out]
	pending []chan result[Out] // results not yet delivered, oldest first
	depth   int
	inline  func(In) (Out, error) // set when there is a single worker: no goroutines
	done    sync.WaitGroup
}

type job[In, Out any] struct {
	in  In
	out chan result[Out]
}

type result[Out any] struct {
	out Out
	err error
}

// New starts a pool of workers goroutines (GOMAXPROCS if workers < 1). Each
// worker gets its own function from newWorker, so that functions may keep
// scratch buffers. At most depth inputs (at least workers) are in flight;
// Submit waits for the oldest result beyond that. With one worker the
// function runs on the caller's goroutine.
func New[In, Out any](workers, depth int, newWorker func() func(In) (Out, error)) *Pool[In, Out] {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	depth = max(depth, workers)
	p := &Pool[In, Out]{depth: depth}
	if workers == 1 {
		p.inline = newWorker()
		return p
	}
	p.jobs = make(chan job[In, Out], depth)
	p.done.Add(workers)
	for range workers {
		fn := newWorker()
		go func() {
			defer p.done.Done()
			for j := range p.jobs {
				j.out <- call(fn, j.in)
			}
		}()
	}
	return p
}

// call runs fn, turning a panic into an error so that a bad input fails its
// bundle instead of the whole worker process.
func call[In, Out any](fn func(In) (Out, error), in In) (r result[Out]) {
	defer func() {
		if v := recover(); v != nil {
			r.err = fmt.Errorf("ordered: worker panicked: %v", v)
		}
	}()
	r.out, r.err = fn(in)
	return r
}

// Submit queues in and delivers, in input order, every result that is
// ready, waiting for the oldest while depth inputs are in flight. It
// returns the first error of a worker or of deliver, after discarding the
// results queued behind it: the bundle has failed, and the pool is ready
// for the next one.
func (p *Pool[In, Out]) Submit(in In, deliver func(Out) error) error {
	if p.inline != nil {
		r := call(p.inline, in)
		if r.err != nil {
			return r.err
		}
		return deliver(r.out)
	}
	out := make(chan result[Out], 1)
	p.jobs <- job[In, Out]{in, out}
	p.pending = append(p.pending, out)
	for len(p.pending) > 0 {
		var r result[Out]
		if len(p.pending) >= p.depth {
			r = <-p.pending[0]
		} else {
			select {
			case r = <-p.pending[0]:
			default:
				return nil
			}
		}
		p.pending = p.pending[1:]
		if err := deliverResult(r, deliver); err != nil {
			p.Discard()
			return err
		}
	}
	return nil
}

// Flush waits for every queued input and delivers its result in input
// order, stopping at the first error (and discarding what is queued behind
// it).
func (p *Pool[In, Out]) Flush(deliver func(Out) error) error {
	for len(p.pending) > 0 {
		r := <-p.pending[0]
		p.pending = p.pending[1:]
		if err := deliverResult(r, deliver); err != nil {
			p.Discard()
			return err
		}
	}
	return nil
}

func deliverResult[Out any](r result[Out], deliver func(Out) error) error {
	if r.err != nil {
		return r.err
	}
	return deliver(r.out)
}

// Discard waits for the queued inputs and drops their results, as after a
// failed bundle.
func (p *Pool[In, Out]) Discard() {
	for _, ch := range p.pending {
		<-ch
	}
	p.pending = nil
}

// Close discards what is queued and stops the workers. The pool cannot be
// used afterwards. Closing a nil pool does nothing.
func (p *Pool[In, Out]) Close() {
	if p == nil {
		return
	}
	p.Discard()
	if p.jobs != nil {
		close(p.jobs)
		p.done.Wait()
		p.jobs = nil
	}
}

// Owner is embedded by a DoFn that runs a Pool across its bundles. The
// DoFn's Setup starts the pool with the DoFn's worker function; Owner's
// Teardown, promoted to the DoFn, stops it. A bundle that fails leaves
// nothing queued (Submit and Flush discard what is behind an error), so the
// next bundle starts clean.
type Owner[In, Out any] struct{ pool *Pool[In, Out] }

// Start starts the pool (see New). A DoFn calls it from Setup.
func (o *Owner[In, Out]) Start(workers, depth int, newWorker func() func(In) (Out, error)) {
	o.pool = New(workers, depth, newWorker)
}

// Pool is the pool Start started.
func (o *Owner[In, Out]) Pool() *Pool[In, Out] { return o.pool }

// Teardown stops the pool's workers.
func (o *Owner[In, Out]) Teardown() {
	o.pool.Close()
	o.pool = nil
}

// Batch gathers a DoFn's inputs into the batches it hands to its pool: a
// batch is full at MaxItems inputs or MaxBytes bytes, whichever comes first
// (DefaultBatchItems and DefaultBatchBytes if zero). Handing a pool whole
// batches keeps its hand-off cost small next to the work.
type Batch[T any] struct {
	MaxItems, MaxBytes int

	items []T
	bytes int
}

// Default batch bounds: 16 pages or 1 MiB of text.
const (
	DefaultBatchItems = 16
	DefaultBatchBytes = 1 << 20
)

// Add adds x, of the given size in bytes, and returns the batch if that
// made it full (and starts a new one), or nil.
func (b *Batch[T]) Add(x T, size int) []T {
	b.items = append(b.items, x)
	b.bytes += size
	if len(b.items) < cmp.Or(b.MaxItems, DefaultBatchItems) && b.bytes < cmp.Or(b.MaxBytes, DefaultBatchBytes) {
		return nil
	}
	return b.Take()
}

// Take returns what the batch holds (nil if nothing) and starts a new one.
func (b *Batch[T]) Take() []T {
	items := b.items
	b.items, b.bytes = nil, 0
	return items
}

// Mapper is embedded by a DoFn that maps each input to one output on its
// pool, in batches, and emits the outputs in input order.
type Mapper[In, Out any] struct {
	Owner[[]In, []Out]
	batch Batch[In]
}

// StartEach starts the pool (see New) with a function of one input, made
// once per worker. A DoFn calls it from Setup.
func (m *Mapper[In, Out]) StartEach(workers int, newWorker func() func(In) (Out, error)) {
	m.Start(workers, 0, func() func([]In) ([]Out, error) {
		fn := newWorker()
		return func(ins []In) ([]Out, error) {
			out := make([]Out, len(ins))
			for i, in := range ins {
				var err error
				if out[i], err = fn(in); err != nil {
					return nil, err
				}
			}
			return out, nil
		}
	})
}

// Process adds in, of the given size in bytes, to the batch, and hands the
// batch to the pool when it is full. A DoFn calls it from ProcessElement.
func (m *Mapper[In, Out]) Process(in In, size int, emit func(Out)) error {
	if full := m.batch.Add(in, size); full != nil {
		return m.Pool().Submit(full, emitEach(emit))
	}
	return nil
}

// Finish hands the pool what is left and emits every output still
// pending. A DoFn calls it from FinishBundle.
func (m *Mapper[In, Out]) Finish(emit func(Out)) error {
	if rest := m.batch.Take(); rest != nil {
		if err := m.Pool().Submit(rest, emitEach(emit)); err != nil {
			return err
		}
	}
	return m.Pool().Flush(emitEach(emit))
}

func emitEach[Out any](emit func(Out)) func([]Out) error {
	return func(outs []Out) error {
		for _, o := range outs {
			emit(o)
		}
		return nil
	}
}
