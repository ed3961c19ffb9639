package corpus

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"runtime"
	"strconv"

	"github.com/dsnet/compress/bzip2"

	"github.com/neardup/neardup/internal/bytecount"
	"github.com/neardup/neardup/io/multistream"
)

// MultistreamWriter writes a multistream bzip2 dump and its index as the
// pages come, without holding them all: every batch of pages goes through
// multistream.Write on its own goroutine (which compresses the streams on
// every core) while the next batch is generated, and the index's offsets,
// which each call counts from its own start, are shifted by the bytes
// written before it.
type MultistreamWriter struct {
	header    []byte
	perStream int
	batch     [][]byte
	batches   chan [][]byte
	done      chan error
	f, idx    *os.File
	out       *bufio.Writer
	zidx      *bzip2.Writer
	written   int64
}

// NewMultistreamWriter creates the dump at path and its index at
// indexPath.
func NewMultistreamWriter(path, indexPath string, header []byte, perStream int) (*MultistreamWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	idx, err := os.Create(indexPath)
	if err != nil {
		f.Close()
		return nil, err
	}
	zidx, err := bzip2.NewWriter(idx, &bzip2.WriterConfig{Level: bzip2.BestCompression})
	if err != nil {
		f.Close()
		idx.Close()
		return nil, err
	}
	w := &MultistreamWriter{header: header, perStream: perStream, batches: make(chan [][]byte, 1), done: make(chan error, 1),
		f: f, idx: idx, out: bufio.NewWriterSize(f, 1<<20), zidx: zidx}
	go w.run()
	return w, nil
}

// batchStreams is how many streams a batch holds per core.
const batchStreams = 8

// Add queues a page, which the writer keeps.
func (w *MultistreamWriter) Add(page []byte) {
	w.batch = append(w.batch, page)
	if len(w.batch) >= w.perStream*batchStreams*runtime.GOMAXPROCS(0) {
		w.flush()
	}
}

// flush hands the batch to the compressing goroutine, which reports its
// error, if any, to Close.
func (w *MultistreamWriter) flush() {
	w.batches <- w.batch
	w.batch = nil
}

func (w *MultistreamWriter) run() {
	header := w.header
	var err error
	for batch := range w.batches {
		if err != nil {
			continue // drain
		}
		err = w.write(batch, header, nil)
		header = nil
	}
	w.done <- err
}

// write writes one batch of pages (the header before the first, the
// footer after the last) and its index lines.
func (w *MultistreamWriter) write(pages [][]byte, header, footer []byte) error {
	counter := &bytecount.Writer{W: w.out}
	index := &offsetIndex{w: w.zidx, base: w.written}
	if err := multistream.Write(counter, index, pages, header, footer, w.perStream); err != nil {
		return err
	}
	w.written += counter.N
	return index.close()
}

// Close writes the last batch and the footer, and returns the size of the
// dump.
func (w *MultistreamWriter) Close(footer []byte) (int64, error) {
	if len(w.batch) > 0 {
		w.flush()
	}
	close(w.batches)
	err := <-w.done
	if err == nil {
		err = w.write(nil, nil, footer)
	}
	if err == nil {
		err = w.out.Flush()
	}
	if err == nil {
		err = w.zidx.Close()
	}
	if e := w.f.Close(); err == nil {
		err = e
	}
	if e := w.idx.Close(); err == nil {
		err = e
	}
	return w.written, err
}

// offsetIndex adds base to the offset that starts each line of an index
// ("offset:page_id:title").
type offsetIndex struct {
	w    io.Writer
	base int64
	line []byte // an unfinished line
}

func (x *offsetIndex) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			x.line = append(x.line, p...)
			break
		}
		x.line = append(x.line, p[:i+1]...)
		p = p[i+1:]
		if err := x.emit(); err != nil {
			return 0, err
		}
	}
	return n, nil
}

func (x *offsetIndex) emit() error {
	colon := bytes.IndexByte(x.line, ':')
	off, err := strconv.ParseInt(string(x.line[:max(colon, 0)]), 10, 64)
	if err != nil {
		return err
	}
	out := strconv.AppendInt(nil, x.base+off, 10)
	out = append(out, x.line[colon:]...)
	x.line = x.line[:0]
	_, err = x.w.Write(out)
	return err
}

func (x *offsetIndex) close() error {
	if len(x.line) > 0 {
		return x.emit()
	}
	return nil
}
