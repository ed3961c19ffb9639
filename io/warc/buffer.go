package warc

import (
	"bytes"
	"io"
)

// chunk is how much a buffer reads from its stream at a time.
const chunk = 64 << 10

// buffer reads a stream with look-ahead, and can be given bytes back to
// read again (for resynchronising after a record whose Content-Length was
// wrong). off is the offset of the next unread byte in the stream's own
// coordinates.
type buffer struct {
	r   io.Reader
	b   []byte // b[i:] are read from r (or given back) and not consumed
	i   int
	off int64
	err error // of r; io.EOF at its end
}

func (s *buffer) reset(r io.Reader, off int64) {
	s.r, s.b, s.i, s.off, s.err = r, s.b[:0], 0, off, nil
}

// buffered returns the bytes read ahead and not consumed.
func (s *buffer) buffered() []byte { return s.b[s.i:] }

// peek returns at least n bytes if the stream holds them (fewer only at its
// end or on an error, which s.err then tells), without consuming them.
func (s *buffer) peek(n int) []byte {
	for len(s.b)-s.i < n && s.err == nil {
		if s.i > 0 && s.i >= len(s.b)/2 {
			s.b = s.b[:copy(s.b, s.b[s.i:])]
			s.i = 0
		}
		want := max(chunk, n-(len(s.b)-s.i))
		if cap(s.b)-len(s.b) < want {
			nb := make([]byte, len(s.b), len(s.b)+want)
			copy(nb, s.b)
			s.b = nb
		}
		m, err := s.r.Read(s.b[len(s.b):cap(s.b)])
		s.b = s.b[:len(s.b)+m]
		if err != nil {
			s.err = err
		}
	}
	return s.b[s.i:min(len(s.b), s.i+n)]
}

// discard consumes n buffered bytes.
func (s *buffer) discard(n int) {
	s.i += n
	s.off += int64(n)
	if s.i == len(s.b) {
		s.b, s.i = s.b[:0], 0
	}
}

// readFull fills p, from the buffer and then the stream, and returns how
// many bytes it read; fewer than len(p) only at the stream's end or on an
// error (s.err).
func (s *buffer) readFull(p []byte) int {
	n := copy(p, s.buffered())
	s.discard(n)
	if n < len(p) && s.err == nil {
		m, err := io.ReadFull(s.r, p[n:])
		n += m
		s.off += int64(m)
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		s.err = err
	}
	return n
}

// skip consumes n bytes without keeping them, and returns how many it
// consumed.
func (s *buffer) skip(n int64) int64 {
	k := min(n, int64(len(s.buffered())))
	s.discard(int(k))
	if k < n && s.err == nil {
		m, err := io.CopyN(io.Discard, s.r, n-k)
		k += m
		s.off += m
		s.err = err
	}
	return k
}

// unread gives p back: it is read again next, from offset s.off-len(p).
func (s *buffer) unread(p []byte) {
	rest := append(bytes.Clone(p), s.buffered()...)
	s.b, s.i = rest, 0
	s.off -= int64(len(p))
}

// skipSpace consumes CR, LF, space and tab, and says whether the stream
// ended (nothing else follows).
func (s *buffer) skipSpace() (end bool) {
	for {
		b := s.peek(1)
		if len(b) == 0 {
			return true
		}
		j := 0
		for _, c := range s.buffered() {
			if c != '\r' && c != '\n' && c != ' ' && c != '\t' {
				break
			}
			j++
		}
		s.discard(j)
		if len(s.buffered()) > 0 {
			return false
		}
	}
}
