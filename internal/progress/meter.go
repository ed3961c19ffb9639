// Package progress shows a long run is alive: readers count the pages and
// bytes they read as Beam metrics while they read (Meter), so that
// Dataflow's and Flink's UIs show them, and on the embedded runner the
// launcher polls the job's metrics and prints a line on stderr every few
// seconds (Watch).
package progress

import (
	"context"
	"io"
	"sync/atomic"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/neardup/neardup/internal/counters"
)

// The live counters, in tally's namespace. They are not counters.Counts
// fields: those are reported when a bundle ends, these while it runs.
const (
	PagesCounter = "progress_pages"
	BytesCounter = "progress_bytes"
)

var (
	pagesCounter = beam.NewCounter(counters.Namespace, PagesCounter)
	bytesCounter = beam.NewCounter(counters.Namespace, BytesCounter)
)

// reportEvery is how many pages a Meter counts between two reports to the
// metrics: often enough to watch, rarely enough to cost nothing.
const reportEvery = 256

// Meter counts a reader's pages and input bytes, and adds them to the
// Beam counters every reportEvery pages and when flushed.
type Meter struct {
	pages, reported int64
	bytes, sent     atomic.Int64 // bytes read by Reader's wrappers, and reported
}

// Reader returns r counting into m the bytes read from it: the input file's
// bytes, compressed or not.
func (m *Meter) Reader(r io.Reader) io.Reader { return &countingReader{r: r, n: &m.bytes} }

// Page counts one page and reports the counts when due.
func (m *Meter) Page(ctx context.Context) {
	m.pages++
	if m.pages-m.reported >= reportEvery {
		m.Flush(ctx)
	}
}

// Add counts pages and bytes read some other way (a compressed stream
// read whole by position) and reports the counts when due.
func (m *Meter) Add(ctx context.Context, pages, bytes int64) {
	m.bytes.Add(bytes)
	m.pages += pages
	if m.pages-m.reported >= reportEvery {
		m.Flush(ctx)
	}
}

// Counted returns the pages and bytes counted so far, reported or not.
func (m *Meter) Counted() (pages, bytes int64) { return m.pages, m.bytes.Load() }

// Flush reports what was counted since the last report.
func (m *Meter) Flush(ctx context.Context) {
	if d := m.pages - m.reported; d > 0 {
		pagesCounter.Inc(ctx, d)
		m.reported = m.pages
	}
	b := m.bytes.Load()
	if d := b - m.sent.Load(); d > 0 {
		bytesCounter.Inc(ctx, d)
		m.sent.Store(b)
	}
}

type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// Close closes the underlying reader if it is a Closer.
func (c *countingReader) Close() error {
	if cl, ok := c.r.(io.Closer); ok {
		return cl.Close()
	}
	return nil
}
