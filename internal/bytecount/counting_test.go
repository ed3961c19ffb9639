package bytecount

import (
	"bytes"
	"errors"
	"testing"
)

// shortWriter accepts at most max bytes a call, then fails.
type shortWriter struct{ max int }

func (s shortWriter) Write(p []byte) (int, error) {
	if len(p) > s.max {
		return s.max, errors.New("short")
	}
	return len(p), nil
}

func TestWriter(t *testing.T) {
	var buf bytes.Buffer
	w := &Writer{W: &buf}
	w.Write([]byte("hello "))
	w.Write([]byte("world"))
	if w.N != 11 || buf.String() != "hello world" {
		t.Errorf("N = %d, wrote %q", w.N, buf.String())
	}
	s := &Writer{W: shortWriter{3}}
	if n, err := s.Write([]byte("abcdef")); n != 3 || err == nil || s.N != 3 {
		t.Errorf("short write: n %d, err %v, N %d; want 3 bytes counted and the error", n, err, s.N)
	}
}
