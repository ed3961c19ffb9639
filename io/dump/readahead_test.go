package dump

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"
)

func TestReadaheadGivesTheSourceBytesThenItsError(t *testing.T) {
	data := make([]byte, 3*readaheadChunk+123)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(r.UintN(256))
	}
	broken := errors.New("disk on fire")
	tests := []struct {
		name    string
		src     io.Reader
		want    []byte
		wantErr error
	}{
		{"empty", bytes.NewReader(nil), nil, nil},
		{"several chunks", bytes.NewReader(data), data, nil},
		{"byte by byte", iotest.OneByteReader(bytes.NewReader(data[:5000])), data[:5000], nil},
		{"error with the last bytes", iotest.DataErrReader(bytes.NewReader(data[:777])), data[:777], nil},
		{"error after a chunk and a half", io.MultiReader(bytes.NewReader(data[:readaheadChunk*3/2]), iotest.ErrReader(broken)), data[:readaheadChunk*3/2], broken},
		{"cut stream", io.MultiReader(bytes.NewReader(data[:10]), iotest.ErrReader(io.ErrUnexpectedEOF)), data[:10], io.ErrUnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ra := newReadahead(tt.src)
			defer ra.Close()
			got, err := io.ReadAll(ra)
			if !bytes.Equal(got, tt.want) {
				t.Errorf("read %d bytes, want %d (equal prefix: %v)", len(got), len(tt.want), bytes.HasPrefix(tt.want, got))
			}
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Errorf("error %v, want %v", err, tt.wantErr)
			}
			if _, err2 := ra.Read(make([]byte, 1)); err != nil && !errors.Is(err2, tt.wantErr) {
				t.Errorf("error after the end %v, want %v again", err2, tt.wantErr)
			}
		})
	}
	if err := iotest.TestReader(newReadahead(bytes.NewReader(data)), data); err != nil {
		t.Error(err)
	}
}

// TestReadaheadCloseStopsReading closes a readahead whose reader stopped
// half-way: Close must return (the goroutine stops) and leave the source
// alone.
func TestReadaheadCloseStopsReading(t *testing.T) {
	src := &countingReader{r: bytes.NewReader(make([]byte, 100*readaheadChunk))}
	ra := newReadahead(src)
	if _, err := io.ReadFull(ra, make([]byte, readaheadChunk+1)); err != nil {
		t.Fatal(err)
	}
	ra.Close()
	ra.Close() // twice is fine
	if src.n > (readaheadDepth+3)*readaheadChunk {
		t.Errorf("read %d bytes of the source, want at most %d chunks ahead", src.n, readaheadDepth+3)
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
