// Package parquetfile writes the pipeline's results as Parquet files beside
// their JSON lines, for BigQuery and DuckDB: a cluster line becomes one flat
// row per member, carrying the cluster's fields, a sentence line one row,
// and a passage line one row with its two documents side by side.
// Flat, denormalised rows are what both engines load, filter and group on
// best, with no nested types to unnest.
//
//   - The files are deterministic: the same lines give the same bytes,
//     whatever the time, the host or the number of goroutines.
//   - A Writer takes the lines as they come, and its memory is bounded by a
//     few row groups whatever the size of the file; a caller whose output
//     stalls waits in Write.
//   - The columns are those of ClusterRow, SentenceRow and PassageRow, in
//     their order, as deploy/bigquery's schemas list them.
//
// Encodings, row groups and the Writer's goroutines: docs/outputs.md, "How
// a Parquet file is written".
package parquetfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// Row group limits: 2^18 rows (sentences' rows, of some 350 bytes, end
// there) or 128 MiB of values (clusters' rows, which repeat their cluster's
// evidence, end there), tens of MB once compressed.
const (
	rowGroupRows  = 1 << 18
	rowGroupBytes = 128 << 20
)

// batchRows is how many rows are handed to a row group's encoder at a
// time. The batches start at the row group's first row: the pages of a
// column end where the encoder finds them full after a write, so the same
// batches make the same pages.
const batchRows = 1024

// chunkBytes is about how many bytes of lines a goroutine decodes at a
// time: enough to make handing chunks around cheap, few enough that the
// chunks in flight take little memory.
const chunkBytes = 256 << 10

// maxEncoders bounds the default number of row groups encoded at once: a
// row group of clusters takes tens of MB while it is encoded.
const maxEncoders = 4

// options are the settings of a writer: those of the files are
// defaultOptions, tests set others.
type options struct {
	rowGroupRows  int // a row group ends at this many rows,
	rowGroupBytes int // or once the estimated size of its values reaches this
	chunkBytes    int // about how many bytes of lines are decoded at a time
	decoders      int // goroutines decoding lines
	encoders      int // row groups encoded at once
}

// defaultOptions returns the settings of the files written.
func defaultOptions() options {
	procs := runtime.GOMAXPROCS(0)
	return options{
		rowGroupRows:  rowGroupRows,
		rowGroupBytes: rowGroupBytes,
		chunkBytes:    chunkBytes,
		decoders:      procs,
		encoders:      min(procs, maxEncoders),
	}
}

// createdBy is the files' created_by: fixed, so the bytes do not depend on
// the build's module information.
const createdBy = "neardup io/parquetfile (parquet-go)"

// writerOptions are the options of a file whose pages are compressed at
// the Zstd level.
func writerOptions(level zstd.Level) []parquet.WriterOption {
	return []parquet.WriterOption{
		parquet.Compression(&zstd.Codec{Level: level}),
		parquet.DataPageVersion(1),
		parquet.DefaultEncodingFor(parquet.ByteArray, &parquet.Plain),
		&parquet.WriterConfig{CreatedBy: createdBy},
	}
}

// A Writer writes JSON lines, of clusters, sentences or passages, to an
// output as a Parquet file, as the lines come. Its methods are for one
// goroutine.
type Writer struct {
	s lineStream
}

// lineStream is a stream of one of the tables.
type lineStream interface {
	write(line []byte) error
	close() error
	abort()
}

// NewClustersWriter returns a Writer of cluster lines (lines of
// clusters-*.jsonl) to w, as a Parquet file of ClusterRow: a row for each
// member in a line, in order.
func NewClustersWriter(w io.Writer) *Writer {
	return &Writer{newStream(w, clustersTable, defaultOptions())}
}

// NewSentencesWriter returns a Writer of sentence lines (lines of
// sentences-*.jsonl) to w, as a Parquet file of SentenceRow: a row for each
// line, in order.
func NewSentencesWriter(w io.Writer) *Writer {
	return &Writer{newStream(w, sentencesTable, defaultOptions())}
}

// NewPassagesWriter returns a Writer of passage lines (lines of
// passages-*.jsonl) to w, as a Parquet file of PassageRow: a row for each
// line, in order.
func NewPassagesWriter(w io.Writer) *Writer {
	return &Writer{newStream(w, passagesTable, defaultOptions())}
}

// Write adds a line, which it copies. A line that is not of the table's
// kind is an error that names its number, from 1; as lines are decoded
// while later ones come, the error is returned by a later Write or by
// Close. After an error the Writer takes no more lines.
func (w *Writer) Write(line []byte) error { return w.s.write(line) }

// Close writes the rest of the file and its footer, and returns the first
// error of the Writer. It does not close the output.
func (w *Writer) Close() error { return w.s.close() }

// Abort ends the Writer without completing the file: its goroutines are
// done when it returns, and nothing more is written to the output.
func (w *Writer) Abort() { w.s.abort() }

// writeAll writes lines to w as a Parquet file of the table t.
func writeAll[T any](w io.Writer, lines [][]byte, t table[T], opts options) error {
	s := newStream(w, t, opts)
	for _, line := range lines {
		if err := s.write(line); err != nil {
			s.abort()
			return err
		}
	}
	return s.close()
}

// decoder is the scratch space of a goroutine decoding lines.
type decoder struct {
	scan    scanner
	cluster clusterLine
}

// A decodeFunc decodes a line into rows, calling add with each row and the
// estimated size of its values, in order.
type decodeFunc[T any] func(d *decoder, line []byte, add func(row T, size int)) error

// table is what a kind of file has of its own.
type table[T any] struct {
	name   string        // what a line is, in errors: "clusters" or "sentences"
	level  zstd.Level    // the Zstd level of its pages
	decode decodeFunc[T] // the rows of a line
}

// chunk is a run of lines, copied, and the rows decoded from them, whose
// strings point into the lines' bytes.
type chunk[T any] struct {
	buf     []byte // the lines, one after the other
	ends    []int  // where each line ends in buf
	first   int    // number of the first line, from 0
	rows    []T
	sizes   []int // estimated size of the values of each row
	err     error // the error of the line at errLine, which ends the rows
	errLine int
	done    chan struct{} // closed once decoded

	// refs counts the holders of the chunk: the gatherer, and each run of
	// its rows not yet written by an encoder. The last to let go of it
	// recycles it.
	refs atomic.Int32
}

// part is a run of the rows of a chunk.
type part[T any] struct {
	rows []T
	c    *chunk[T]
}

// decode decodes the chunk's lines with d.
func (c *chunk[T]) decode(d *decoder, decode decodeFunc[T]) {
	defer close(c.done)
	add := func(row T, size int) {
		c.rows = append(c.rows, row)
		c.sizes = append(c.sizes, size)
	}
	start := 0
	for i, end := range c.ends {
		if err := decode(d, c.buf[start:end:end], add); err != nil {
			c.err, c.errLine = err, c.first+i
			return
		}
		start = end
	}
}

// group is a row group: the runs of rows its encoder is yet to write, and
// once encoded, a Parquet file of it alone.
type group[T any] struct {
	rows  int // rows handed to the encoder
	bytes int // the estimated size of their values

	mu     sync.Mutex
	parts  []part[T]     // runs of the rows of chunks, in order, not yet taken
	last   bool          // no more parts will come
	posted chan struct{} // signalled when parts or last change

	file []byte
	err  error
	done chan struct{} // closed once encoded
}

// post hands a run of the rows of c to the group's encoder, without
// waiting.
func (g *group[T]) post(c *chunk[T], rows []T) {
	c.refs.Add(1)
	g.mu.Lock()
	g.parts = append(g.parts, part[T]{rows, c})
	g.mu.Unlock()
	g.signal()
}

// end tells the group's encoder that the group is complete.
func (g *group[T]) end() {
	g.mu.Lock()
	g.last = true
	g.mu.Unlock()
	g.signal()
}

func (g *group[T]) signal() {
	select {
	case g.posted <- struct{}{}:
	default:
	}
}

// take returns the runs posted since the last call, waiting for some, and
// whether more may come; it returns nothing once the stream failed.
func (g *group[T]) take(failed <-chan struct{}, parts []part[T]) ([]part[T], bool) {
	for {
		g.mu.Lock()
		parts = append(parts[:0], g.parts...)
		clear(g.parts)
		g.parts = g.parts[:0]
		last := g.last
		g.mu.Unlock()
		if len(parts) > 0 || last {
			return parts, !last
		}
		select {
		case <-g.posted:
		case <-failed:
			return parts[:0], false
		}
	}
}

// stream is a Writer of the table T. The caller's goroutine copies lines
// into chunks, GOMAXPROCS goroutines decode chunks into rows, one gathers
// the rows into row groups for their encoders, up to encoders at once, and
// one copies the encoded row groups into the output in order
// (docs/outputs.md, "How a Parquet file is written").
type stream[T any] struct {
	t    table[T]
	opts options
	out  *parquet.GenericWriter[T] // the file, written by the committer

	cur   *chunk[T] // lines not yet handed to the decoders
	lines int       // lines written

	chunks chan *chunk[T] // chunks to gather, in order
	todo   chan *chunk[T] // chunks to decode
	free   chan *chunk[T] // chunks to reuse
	groups chan *group[T] // row groups to commit, in order
	slots  chan struct{}  // a token for each row group begun, not committed

	failOnce sync.Once
	failed   chan struct{} // closed once err is set
	err      error
	closed   bool
	wg       sync.WaitGroup

	live, maxLive atomic.Int64 // row groups begun and not yet committed, and the most at a time
}

var errAborted = errors.New("parquetfile: aborted")

func newStream[T any](w io.Writer, t table[T], opts options) *stream[T] {
	decoders, encoders := max(1, opts.decoders), max(1, opts.encoders)
	s := &stream[T]{
		t:      t,
		opts:   opts,
		out:    parquet.NewGenericWriter[T](w, writerOptions(t.level)...),
		chunks: make(chan *chunk[T], 2*decoders),
		todo:   make(chan *chunk[T]),
		free:   make(chan *chunk[T], 4*decoders+4*encoders),
		groups: make(chan *group[T], encoders),
		slots:  make(chan struct{}, encoders),
		failed: make(chan struct{}),
	}
	for range decoders {
		s.wg.Go(s.decodeChunks)
	}
	s.wg.Go(s.gather)
	s.wg.Go(s.commit)
	return s
}

// fail records the stream's first error and stops it.
func (s *stream[T]) fail(err error) {
	s.failOnce.Do(func() {
		s.err = err
		close(s.failed)
	})
}

// write adds a line to the current chunk, and hands the chunk to the
// decoders once full.
func (s *stream[T]) write(line []byte) error {
	select {
	case <-s.failed:
		return s.err
	default:
	}
	if s.cur == nil {
		select {
		case s.cur = <-s.free:
		default:
			s.cur = &chunk[T]{buf: make([]byte, 0, s.opts.chunkBytes)}
		}
		s.cur.first = s.lines
	}
	s.cur.buf = append(s.cur.buf, line...)
	s.cur.ends = append(s.cur.ends, len(s.cur.buf))
	s.lines++
	if len(s.cur.buf) >= s.opts.chunkBytes {
		return s.send()
	}
	return nil
}

// send hands the current chunk to the gatherer and the decoders.
func (s *stream[T]) send() error {
	c := s.cur
	s.cur = nil
	c.done = make(chan struct{})
	c.refs.Store(1) // the gatherer's
	for _, ch := range []chan *chunk[T]{s.chunks, s.todo} {
		select {
		case ch <- c:
		case <-s.failed:
			return s.err
		}
	}
	return nil
}

// close sends the last chunk and waits for the file to be written.
func (s *stream[T]) close() error {
	if s.closed {
		return s.err
	}
	if s.cur != nil {
		s.send() // an error is s.err
	}
	s.finish()
	return s.err
}

// abort stops the stream and waits for its goroutines.
func (s *stream[T]) abort() {
	s.fail(errAborted)
	s.finish()
}

// finish ends the input and waits for the goroutines.
func (s *stream[T]) finish() {
	if s.closed {
		return
	}
	s.closed = true
	close(s.chunks)
	close(s.todo)
	s.wg.Wait()
}

// decodeChunks decodes the chunks of todo.
func (s *stream[T]) decodeChunks() {
	var d decoder
	for c := range s.todo {
		c.decode(&d, s.t.decode)
	}
}

// gather gathers the rows of the chunks, in order, into row groups: it
// begins each with an encoder of its own, and hands its rows to it as they
// come. It begins a row group only once fewer than encoders are held.
func (s *stream[T]) gather() {
	defer close(s.groups)
	var g *group[T]
	defer func() {
		if g != nil {
			g.end()
		}
	}()
	for c := range s.chunks {
		select {
		case <-c.done:
		case <-s.failed:
			return
		}
		start := 0
		for i, size := range c.sizes {
			if g == nil {
				if g = s.begin(); g == nil {
					return
				}
			}
			g.rows++
			g.bytes += size
			if g.rows >= s.opts.rowGroupRows || g.bytes >= s.opts.rowGroupBytes {
				g.post(c, c.rows[start:i+1])
				g.end()
				g, start = nil, i+1
			}
		}
		if start < len(c.rows) {
			g.post(c, c.rows[start:])
		}
		if c.err != nil {
			s.fail(fmt.Errorf("parquetfile: %s line %d: %w", s.t.name, c.errLine+1, c.err))
			return
		}
		s.release(c)
	}
}

// release lets go of a chunk, and recycles it if it was the last holder.
// A chunk grown for a long line is left to the collector.
func (s *stream[T]) release(c *chunk[T]) {
	if c.refs.Add(-1) > 0 || cap(c.buf) > 4*s.opts.chunkBytes {
		return
	}
	c.buf, c.ends, c.rows, c.sizes = c.buf[:0], c.ends[:0], c.rows[:0], c.sizes[:0]
	c.err, c.done = nil, nil
	select {
	case s.free <- c:
	default:
	}
}

// begin begins a row group once a slot is free, hands it to the committer
// and starts its encoder; it returns nil if the stream failed meanwhile.
func (s *stream[T]) begin() *group[T] {
	select {
	case s.slots <- struct{}{}:
	case <-s.failed:
		return nil
	}
	g := &group[T]{posted: make(chan struct{}, 1), done: make(chan struct{})}
	n := s.live.Add(1)
	s.maxLive.Store(max(s.maxLive.Load(), n)) // only gather stores
	select {
	case s.groups <- g:
	case <-s.failed:
		return nil
	}
	s.wg.Go(func() { s.encodeGroup(g) })
	return g
}

// encodeGroup encodes the rows of g, as they come, as a file of its own by
// a writer of its own: a writer's pages depend on what it wrote before
// (parquet-go omits the statistics of a page of empty strings only if its
// column never held a byte), and a row group must not depend on the row
// groups before it. The rows are written batchRows at a time from the
// group's first.
func (s *stream[T]) encodeGroup(g *group[T]) {
	defer close(g.done)
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, writerOptions(s.t.level)...)
	var (
		batch = make([]T, 0, batchRows)
		held  []*chunk[T] // chunks whose runs are all in batch
		parts []part[T]
	)
	write := func() error {
		if _, err := w.Write(batch); err != nil {
			return err
		}
		clear(batch) // the writer copied the values
		batch = batch[:0]
		for _, c := range held {
			s.release(c)
		}
		clear(held)
		held = held[:0]
		return nil
	}
	for more := true; more; {
		parts, more = g.take(s.failed, parts)
		for _, p := range parts {
			for rows := p.rows; len(rows) > 0; {
				n := min(len(rows), cap(batch)-len(batch))
				batch = append(batch, rows[:n]...)
				rows = rows[n:]
				if len(rows) == 0 {
					held = append(held, p.c)
				}
				if len(batch) == cap(batch) {
					if g.err = write(); g.err != nil {
						return
					}
				}
			}
		}
		clear(parts)
	}
	select {
	case <-s.failed:
		return
	default:
	}
	if len(batch) > 0 {
		if g.err = write(); g.err != nil {
			return
		}
	}
	if err := w.Close(); err != nil {
		g.err = err
		return
	}
	g.file = buf.Bytes()
}

// commit copies the encoded row groups, in order, into the output, then
// writes its footer.
func (s *stream[T]) commit() {
	for g := range s.groups {
		select {
		case <-g.done:
		case <-s.failed:
			return
		}
		if err := s.commitGroup(g); err != nil {
			s.fail(fmt.Errorf("parquetfile: writing %s: %w", s.t.name, err))
			return
		}
		g.file = nil
		s.live.Add(-1)
		<-s.slots
	}
	select {
	case <-s.failed: // the input was cut short
		return
	default:
	}
	if err := s.out.Close(); err != nil {
		s.fail(fmt.Errorf("parquetfile: writing %s: %w", s.t.name, err))
	}
}

// commitGroup copies the row group of the file of g into the output.
func (s *stream[T]) commitGroup(g *group[T]) error {
	if g.err != nil {
		return g.err
	}
	f, err := parquet.OpenFile(bytes.NewReader(g.file), int64(len(g.file)))
	if err != nil {
		return fmt.Errorf("reading back an encoded row group: %w", err)
	}
	if rgs := f.RowGroups(); len(rgs) != 1 {
		return fmt.Errorf("an encoded row group makes %d row groups", len(rgs))
	}
	_, err = s.out.WriteRowGroup(f.RowGroups()[0])
	return err
}
