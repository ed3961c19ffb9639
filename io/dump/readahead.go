package dump

import (
	"io"
	"sync"
)

// readahead reads its source on a goroutine of its own, a chunk at a time
// and a few chunks ahead of its reader, so that decompressing a file
// overlaps parsing its pages and everything the pipeline does with them
// (Prism runs a read and the stages fused to it on one goroutine). It
// returns the source's bytes and then its error, unchanged.
type readahead struct {
	src    io.Reader
	chunks chan chunk
	free   chan []byte
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once

	cur []byte // unread part of the current chunk
	buf []byte // the current chunk's buffer, to recycle
	err error  // sticky: the source's error, after its last bytes
}

type chunk struct {
	b   []byte
	err error
}

const (
	readaheadChunk = 256 << 10
	readaheadDepth = 8
)

// newReadahead starts reading src.
func newReadahead(src io.Reader) *readahead {
	ra := &readahead{
		src:    src,
		chunks: make(chan chunk, readaheadDepth),
		free:   make(chan []byte, readaheadDepth+2),
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	go ra.fill()
	return ra
}

func (ra *readahead) fill() {
	defer close(ra.done)
	for {
		var buf []byte
		select {
		case buf = <-ra.free:
		default:
			buf = make([]byte, readaheadChunk)
		}
		n, err := fillBuffer(ra.src, buf)
		select {
		case ra.chunks <- chunk{buf[:n], err}:
		case <-ra.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// fillBuffer reads into buf until it is full or src fails, and returns the
// error as src gave it (io.EOF included).
func fillBuffer(src io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := src.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func (ra *readahead) Read(p []byte) (int, error) {
	for len(ra.cur) == 0 {
		if ra.err != nil {
			return 0, ra.err
		}
		if ra.buf != nil {
			select {
			case ra.free <- ra.buf[:cap(ra.buf)]:
			default:
			}
		}
		c := <-ra.chunks
		ra.cur, ra.buf, ra.err = c.b, c.b, c.err
	}
	n := copy(p, ra.cur)
	ra.cur = ra.cur[n:]
	return n, nil
}

// Close stops the reading goroutine and waits for it, so that the source
// can be closed. It does not close the source.
func (ra *readahead) Close() error {
	ra.once.Do(func() { close(ra.stop) })
	<-ra.done
	return nil
}
