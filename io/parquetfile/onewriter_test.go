package parquetfile

import (
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// This file keeps the writer of this package before it streamed (up to
// 77ef764), as the reference of the streaming writer's bytes
// (TestSameAsOneWriter) and of its speed (the benchmarks' "one-writer"):
// lines all at hand, decoded on GOMAXPROCS goroutines, every row written by
// one parquet.GenericWriter on the calling goroutine, which also compresses
// every page.

// oneRowWriter writes rows of type T to a Parquet file, batchRows at a time,
// and ends a row group at maxRows rows or maxBytes bytes.
type oneRowWriter[T any] struct {
	w        *parquet.GenericWriter[T]
	maxRows  int
	maxBytes int
	batch    []T
	rows     int // rows in the current row group, including batch
	bytes    int // their estimated size
}

func newOneRowWriter[T any](w io.Writer, level zstd.Level, opts options) *oneRowWriter[T] {
	return &oneRowWriter[T]{
		w:        parquet.NewGenericWriter[T](w, writerOptions(level)...),
		maxRows:  opts.rowGroupRows,
		maxBytes: opts.rowGroupBytes,
		batch:    make([]T, 0, batchRows),
	}
}

// add adds a row of about size bytes of values.
func (r *oneRowWriter[T]) add(row *T, size int) error {
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
func (r *oneRowWriter[T]) flushBatch() error {
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
func (r *oneRowWriter[T]) endGroup() error {
	if err := r.flushBatch(); err != nil {
		return err
	}
	r.rows, r.bytes = 0, 0
	return r.w.Flush()
}

// close writes the last row group and the file's footer. It does not close
// the output.
func (r *oneRowWriter[T]) close() error {
	if err := r.flushBatch(); err != nil {
		return err
	}
	return r.w.Close()
}

// writeOneWriter decodes each line into rows of the table t and writes them to
// w as a Parquet file, with the settings opts.
//
// Lines are decoded a chunk at a time on up to GOMAXPROCS goroutines, while
// the calling goroutine writes the rows of the chunks decoded, in order:
// the file is the same as if one goroutine did it all. A few chunks are in
// flight at a time.
func writeOneWriter[T any](w io.Writer, lines [][]byte, t table[T], opts options) error {
	rw := newOneRowWriter[T](w, t.level, opts)
	err := decodeAllChunks(lines, opts.chunkBytes, t.decode, func(c *oneChunk[T]) error {
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
type oneChunk[T any] struct {
	lines   [][]byte
	first   int // index of lines[0]
	rows    []T
	sizes   []int // estimated size of the values of each row
	err     error // the error of the line at errLine, which ends the rows
	errLine int
	done    chan struct{} // closed once decoded
}

// decode decodes the chunk's lines with d.
func (c *oneChunk[T]) decode(d *decoder, decode decodeFunc[T]) {
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

// decodeAllChunks decodes lines with decode, a chunk of about chunkBytes at
// a time on up to GOMAXPROCS goroutines, and calls use with each chunk, in
// order, on the calling goroutine; chunks are recycled once it returns. It
// stops at use's first error, and returns it.
func decodeAllChunks[T any](lines [][]byte, chunkBytes int, decode decodeFunc[T], use func(*oneChunk[T]) error) error {
	total := 0
	for _, line := range lines {
		total += len(line)
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), total/chunkBytes))
	var (
		inOrder = make(chan *oneChunk[T], 2*workers) // chunks to use, in order
		todo    = make(chan *oneChunk[T])            // chunks to decode
		free    = make(chan *oneChunk[T], 3*workers+1)
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
			var c *oneChunk[T]
			select {
			case c = <-free:
			default:
				c = new(oneChunk[T])
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
		*c = oneChunk[T]{rows: c.rows[:0], sizes: c.sizes[:0]}
		select {
		case free <- c:
		default:
		}
	}
	return nil
}
