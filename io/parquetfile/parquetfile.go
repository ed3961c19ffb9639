// Package parquetfile writes the pipeline's results as Parquet files beside
// their JSON lines, for BigQuery and DuckDB: a cluster line becomes one flat
// row per member, carrying the cluster's fields, and a sentence line one row.
// Flat, denormalised rows are what both engines load, filter and group on
// best, with no nested types to unnest.
//
// The files are Zstd-compressed, with version 1 data pages and PLAIN or
// dictionary encodings: what every reader reads (parquet-go's default for
// strings, DELTA_LENGTH_BYTE_ARRAY, is newer and less widely supported).
// Compressing is most of the time of writing a file: sentences, whose texts
// are most of their bytes, are compressed at Zstd's fastest level, clusters,
// which repeat each cluster's values for each of its members and compress
// as fast at either level, at the default one. The files are
// deterministic: the same lines give the same bytes, since nothing in them
// depends on the time, the host or the build. A writer holds at most one
// row group of rows: a row group ends at rowGroupRows rows or once its
// values reach rowGroupBytes, large enough for BigQuery's loader (which
// asks for row groups of 16 MiB or more) and DuckDB's parallel scan (a row
// group per thread), small enough to bound the memory of a worker.
//
// For speed, lines are decoded a chunk at a time on GOMAXPROCS goroutines
// while the calling goroutine writes the rows in order, each in one pass by
// a scanner that knows the two kinds of line, which leaves any line it
// would not decode exactly as encoding/json does (nor reject with its
// error) to encoding/json.
//
// The columns are those of ClusterRow and SentenceRow, in their order; the
// BigQuery schemas in deploy/bigquery list the same, and a test keeps them
// equal.
package parquetfile

import (
	"fmt"
	"io"
	"runtime"
	"sync"

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

// batchRows is how many rows are handed to the Parquet writer at a time.
const batchRows = 1024

// chunkBytes is about how many bytes of lines a goroutine decodes at a
// time: enough to make handing chunks around cheap, few enough that the
// chunks in flight take little memory.
const chunkBytes = 256 << 10

// options are the settings of a writer: those of the files are
// defaultOptions, tests set others.
type options struct {
	rowGroupRows  int // a row group ends at this many rows,
	rowGroupBytes int // or once the estimated size of its values reaches this
	chunkBytes    int // about how many bytes of lines are decoded at a time
}

// defaultOptions returns the settings of the files written.
func defaultOptions() options {
	return options{rowGroupRows: rowGroupRows, rowGroupBytes: rowGroupBytes, chunkBytes: chunkBytes}
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

// rowWriter writes rows of type T to a Parquet file, batchRows at a time,
// and ends a row group at maxRows rows or maxBytes bytes.
type rowWriter[T any] struct {
	w        *parquet.GenericWriter[T]
	maxRows  int
	maxBytes int
	batch    []T
	rows     int // rows in the current row group, including batch
	bytes    int // their estimated size
}

func newRowWriter[T any](w io.Writer, level zstd.Level, opts options) *rowWriter[T] {
	return &rowWriter[T]{
		w:        parquet.NewGenericWriter[T](w, writerOptions(level)...),
		maxRows:  opts.rowGroupRows,
		maxBytes: opts.rowGroupBytes,
		batch:    make([]T, 0, batchRows),
	}
}

// add adds a row of about size bytes of values.
func (r *rowWriter[T]) add(row *T, size int) error {
	r.batch = append(r.batch, *row)
	r.rows++
	r.bytes += size
	if r.rows >= r.maxRows || r.bytes >= r.maxBytes {
		return r.endGroup()
	}
	if len(r.batch) == batchRows {
		return r.flushBatch()
	}
	return nil
}

// flushBatch hands the batch to the Parquet writer, which copies the values.
func (r *rowWriter[T]) flushBatch() error {
	if len(r.batch) == 0 {
		return nil
	}
	if _, err := r.w.Write(r.batch); err != nil {
		return err
	}
	clear(r.batch)
	r.batch = r.batch[:0]
	return nil
}

// endGroup writes the current row group to the output.
func (r *rowWriter[T]) endGroup() error {
	if err := r.flushBatch(); err != nil {
		return err
	}
	r.rows, r.bytes = 0, 0
	return r.w.Flush()
}

// close writes the last row group and the file's footer. It does not close
// the output.
func (r *rowWriter[T]) close() error {
	if err := r.flushBatch(); err != nil {
		return err
	}
	return r.w.Close()
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

// writeLines decodes each line into rows of the table t and writes them to
// w as a Parquet file, with the settings opts.
//
// Lines are decoded a chunk at a time on up to GOMAXPROCS goroutines, while
// the calling goroutine writes the rows of the chunks decoded, in order:
// the file is the same as if one goroutine did it all. A few chunks are in
// flight at a time.
func writeLines[T any](w io.Writer, lines [][]byte, t table[T], opts options) error {
	rw := newRowWriter[T](w, t.level, opts)
	err := decodeChunks(lines, opts.chunkBytes, t.decode, func(c *chunk[T]) error {
		if c.err != nil {
			return fmt.Errorf("parquetfile: %s line %d: %w", t.name, c.errLine+1, c.err)
		}
		for i := range c.rows {
			if err := rw.add(&c.rows[i], c.sizes[i]); err != nil {
				return fmt.Errorf("parquetfile: writing %s: %w", t.name, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := rw.close(); err != nil {
		return fmt.Errorf("parquetfile: writing %s: %w", t.name, err)
	}
	return nil
}

// chunk is a run of lines and the rows decoded from them.
type chunk[T any] struct {
	lines   [][]byte
	first   int // index of lines[0]
	rows    []T
	sizes   []int // estimated size of the values of each row
	err     error // the error of the line at errLine, which ends the rows
	errLine int
	done    chan struct{} // closed once decoded
}

// decode decodes the chunk's lines with d.
func (c *chunk[T]) decode(d *decoder, decode decodeFunc[T]) {
	defer close(c.done)
	add := func(row T, size int) {
		c.rows = append(c.rows, row)
		c.sizes = append(c.sizes, size)
	}
	for i, line := range c.lines {
		if err := decode(d, line, add); err != nil {
			c.err, c.errLine = err, c.first+i
			return
		}
	}
}

// decodeChunks decodes lines with decode, a chunk of about chunkBytes at
// a time on up to GOMAXPROCS goroutines, and calls use with each chunk, in
// order, on the calling goroutine; chunks are recycled once it returns. It
// stops at use's first error, and returns it.
func decodeChunks[T any](lines [][]byte, chunkBytes int, decode decodeFunc[T], use func(*chunk[T]) error) error {
	total := 0
	for _, line := range lines {
		total += len(line)
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), total/chunkBytes))
	var (
		inOrder = make(chan *chunk[T], 2*workers) // chunks to use, in order
		todo    = make(chan *chunk[T])            // chunks to decode
		free    = make(chan *chunk[T], 3*workers+1)
		stop    = make(chan struct{})
		wg      sync.WaitGroup
	)
	defer wg.Wait()
	defer close(stop)
	wg.Go(func() {
		defer close(todo)
		defer close(inOrder)
		for first := 0; first < len(lines); {
			end, n := first+1, len(lines[first])
			for end < len(lines) && n < chunkBytes {
				n += len(lines[end])
				end++
			}
			var c *chunk[T]
			select {
			case c = <-free:
			default:
				c = new(chunk[T])
			}
			c.lines, c.first, c.done = lines[first:end], first, make(chan struct{})
			first = end
			select {
			case inOrder <- c:
			case <-stop:
				return
			}
			select {
			case todo <- c:
			case <-stop:
				return
			}
		}
	})
	for range workers {
		wg.Go(func() {
			var d decoder
			for c := range todo {
				c.decode(&d, decode)
			}
		})
	}
	for c := range inOrder {
		<-c.done
		if err := use(c); err != nil {
			return err
		}
		clear(c.rows)
		*c = chunk[T]{rows: c.rows[:0], sizes: c.sizes[:0]}
		select {
		case free <- c:
		default:
		}
	}
	return nil
}
