// Package parquetfile writes the pipeline's results as Parquet files beside
// their JSON lines, for BigQuery and DuckDB: a cluster line becomes one flat
// row per member, carrying the cluster's fields, and a sentence line one row.
// Flat, denormalised rows are what both engines load, filter and group on
// best, with no nested types to unnest.
//
// The files are Zstd-compressed, with version 1 data pages and PLAIN or
// dictionary encodings: what every reader reads (parquet-go's default for
// strings, DELTA_LENGTH_BYTE_ARRAY, is newer and less widely supported).
// They are deterministic: the same lines give the same bytes, since nothing
// in them depends on the time, the host or the build. A writer holds at most
// one row group of rows: a row group ends at rowGroupRows rows or once its
// values reach rowGroupBytes, large enough for BigQuery's loader (which asks
// for row groups of 16 MiB or more) and DuckDB's parallel scan (a row group
// per thread), small enough to bound the memory of a worker.
//
// The columns are those of ClusterRow and SentenceRow, in their order; the
// BigQuery schemas in deploy/bigquery list the same, and a test keeps them
// equal.
package parquetfile

import (
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
)

// Row group limits, variables for the tests: 2^18 rows (sentences' rows,
// of some 350 bytes, end there) or 128 MiB of values (clusters' rows, which
// repeat their cluster's evidence, end there), tens of MB once compressed.
var (
	rowGroupRows  = 1 << 18
	rowGroupBytes = 128 << 20
)

// batchRows is how many rows are handed to the Parquet writer at a time.
const batchRows = 1024

// createdBy is the files' created_by: fixed, so the bytes do not depend on
// the build's module information.
const createdBy = "neardup io/parquetfile (parquet-go)"

// writerOptions are the options of every file written.
func writerOptions() []parquet.WriterOption {
	return []parquet.WriterOption{
		parquet.Compression(&parquet.Zstd),
		parquet.DataPageVersion(1),
		parquet.DefaultEncodingFor(parquet.ByteArray, &parquet.Plain),
		&parquet.WriterConfig{CreatedBy: createdBy},
	}
}

// rowWriter writes rows of type T to a Parquet file, batchRows at a time,
// and ends a row group at rowGroupRows rows or rowGroupBytes bytes.
type rowWriter[T any] struct {
	w     *parquet.GenericWriter[T]
	batch []T
	rows  int // rows in the current row group, including batch
	bytes int // their estimated size
}

func newRowWriter[T any](w io.Writer) *rowWriter[T] {
	return &rowWriter[T]{
		w:     parquet.NewGenericWriter[T](w, writerOptions()...),
		batch: make([]T, 0, batchRows),
	}
}

// add adds a row of about size bytes of values.
func (r *rowWriter[T]) add(row T, size int) error {
	r.batch = append(r.batch, row)
	r.rows++
	r.bytes += size
	if r.rows >= rowGroupRows || r.bytes >= rowGroupBytes {
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

// writeLines decodes each line into rows with decode, which names what a
// line is in its errors, and writes them to w as a Parquet file.
func writeLines[T any](w io.Writer, lines [][]byte, what string, decode func(line []byte, add func(T, int) error) error) error {
	rw := newRowWriter[T](w)
	for i, line := range lines {
		if err := decode(line, rw.add); err != nil {
			return fmt.Errorf("parquetfile: %s line %d: %w", what, i+1, err)
		}
	}
	if err := rw.close(); err != nil {
		return fmt.Errorf("parquetfile: writing %s: %w", what, err)
	}
	return nil
}
