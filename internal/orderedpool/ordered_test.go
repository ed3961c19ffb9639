package orderedpool

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// jittery squares its input after a pseudo-random pause, so that later
// inputs often finish first.
func jittery() func(int) (int, error) {
	return func(x int) (int, error) {
		time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
		return x * x, nil
	}
}

func TestResultsComeInInputOrder(t *testing.T) {
	tests := []struct{ workers, depth, n int }{
		{1, 1, 50},
		{2, 2, 200},
		{4, 3, 200}, // depth below workers is raised to workers
		{8, 64, 500},
		{0, 16, 100}, // GOMAXPROCS workers
	}
	for _, tt := range tests {
		p := New(tt.workers, tt.depth, jittery)
		var got []int
		deliver := func(y int) error { got = append(got, y); return nil }
		for i := range tt.n {
			if err := p.Submit(i, deliver); err != nil {
				t.Fatal(err)
			}
			if len(p.pending) > max(tt.depth, tt.workers) {
				t.Fatalf("workers %d depth %d: %d inputs in flight", tt.workers, tt.depth, len(p.pending))
			}
		}
		if err := p.Flush(deliver); err != nil {
			t.Fatal(err)
		}
		p.Close()
		want := make([]int, tt.n)
		for i := range want {
			want[i] = i * i
		}
		if !slices.Equal(got, want) {
			t.Errorf("workers %d depth %d: got %v, want squares in order", tt.workers, tt.depth, got)
		}
	}
}

func TestEachWorkerHasItsOwnFunction(t *testing.T) {
	var made atomic.Int32
	p := New(3, 8, func() func(int) (int, error) {
		made.Add(1)
		var scratch []int // would race if shared
		return func(x int) (int, error) {
			scratch = append(scratch[:0], x, x)
			return scratch[0] + scratch[1], nil
		}
	})
	sum := 0
	for i := range 100 {
		if err := p.Submit(i, func(y int) error { sum += y; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Flush(func(y int) error { sum += y; return nil }); err != nil {
		t.Fatal(err)
	}
	p.Close()
	if made.Load() != 3 || sum != 2*99*100/2 {
		t.Errorf("%d functions made, sum %d; want 3 and %d", made.Load(), sum, 99*100)
	}
}

func TestErrorsStopDelivery(t *testing.T) {
	bad := errors.New("bad input 7")
	for _, workers := range []int{1, 4} {
		p := New(workers, 8, func() func(int) (int, error) {
			return func(x int) (int, error) {
				switch x {
				case 7:
					return 0, bad
				case 9:
					panic("nine")
				}
				return x, nil
			}
		})
		var got []int
		deliver := func(y int) error { got = append(got, y); return nil }
		var err error
		for i := 0; i < 20 && err == nil; i++ {
			err = p.Submit(i, deliver)
		}
		if err == nil {
			err = p.Flush(deliver)
		}
		if !errors.Is(err, bad) {
			t.Errorf("workers %d: error %v, want %v", workers, err, bad)
		}
		if !slices.Equal(got, []int{0, 1, 2, 3, 4, 5, 6}) {
			t.Errorf("workers %d: delivered %v before the error, want 0…6", workers, got)
		}
		// The failed bundle left nothing queued: the next one starts clean.
		got = nil
		if err := p.Flush(deliver); err != nil || len(got) != 0 {
			t.Errorf("workers %d: after the error, Flush delivered %v, %v; want nothing", workers, got, err)
		}
		err = p.Submit(9, deliver)
		if err == nil {
			err = p.Flush(deliver)
		}
		if err == nil || !strings.Contains(err.Error(), "panicked: nine") {
			t.Errorf("workers %d: panic gave %v, want an error", workers, err)
		}
		p.Close()
	}
}

func TestDeliverErrorIsReturned(t *testing.T) {
	p := New(2, 4, jittery)
	defer p.Close()
	full := errors.New("full")
	var err error
	for i := 0; i < 50 && err == nil; i++ {
		err = p.Submit(i, func(y int) error {
			if y >= 100 {
				return full
			}
			return nil
		})
	}
	if err == nil {
		err = p.Flush(func(int) error { return full })
	}
	if !errors.Is(err, full) {
		t.Errorf("error %v, want %v", err, full)
	}
}

// TestOwner checks the lifecycle a DoFn gets by embedding Owner: Start in
// Setup, the pool across bundles, Teardown (promoted) stopping it, twice.
func TestOwner(t *testing.T) {
	type doFn struct{ Owner[int, int] }
	f := &doFn{}
	f.Start(2, 0, jittery)
	sum := 0
	for i := range 10 {
		if err := f.Pool().Submit(i, func(y int) error { sum += y; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Pool().Flush(func(y int) error { sum += y; return nil }); err != nil {
		t.Fatal(err)
	}
	if want := 285; sum != want { // the squares of 0…9
		t.Errorf("sum = %d, want %d", sum, want)
	}
	var td interface{ Teardown() } = f
	td.Teardown()
	td.Teardown()
	if f.Pool() != nil {
		t.Error("pool still set after Teardown")
	}
}

func BenchmarkSubmit(b *testing.B) {
	p := New(0, 64, func() func(int) (int, error) { return func(x int) (int, error) { return x + 1, nil } })
	defer p.Close()
	sum := 0
	deliver := func(y int) error { sum += y; return nil }
	for i := 0; b.Loop(); i++ {
		if err := p.Submit(i, deliver); err != nil {
			b.Fatal(err)
		}
	}
	if err := p.Flush(deliver); err != nil {
		b.Fatal(err)
	}
}

// TestMapper maps inputs one by one through a DoFn's Mapper, in batches of
// three, and checks that every output comes out once, in input order, and
// that an error stops the bundle.
func TestMapper(t *testing.T) {
	for _, workers := range []int{1, 3} {
		var m Mapper[int, string]
		m.batch.MaxItems = 3
		m.StartEach(workers, func() func(int) (string, error) {
			return func(x int) (string, error) {
				if x < 0 {
					return "", errors.New("negative")
				}
				return strconv.Itoa(x * x), nil
			}
		})
		var got []string
		emit := func(s string) { got = append(got, s) }
		for i := range 10 {
			if err := m.Process(i, 1, emit); err != nil {
				t.Fatal(err)
			}
		}
		if err := m.Finish(emit); err != nil {
			t.Fatal(err)
		}
		if want := []string{"0", "1", "4", "9", "16", "25", "36", "49", "64", "81"}; !slices.Equal(got, want) {
			t.Errorf("workers %d: emitted %v, want %v", workers, got, want)
		}
		err := m.Process(-1, 1, emit)
		if err == nil {
			err = m.Finish(emit)
		}
		if err == nil || err.Error() != "negative" {
			t.Errorf("workers %d: error %v, want negative", workers, err)
		}
		m.Teardown()
	}
}
