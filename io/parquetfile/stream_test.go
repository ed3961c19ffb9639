package parquetfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// oneWriterFile returns the file that the writer before streaming makes of
// lines (onewriter_test.go).
func oneWriterFile[T any](t testing.TB, lines [][]byte, tb table[T], opts options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := writeOneWriter(&buf, lines, tb, opts); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// streamFile returns the file that a stream makes of lines.
func streamFile[T any](t testing.TB, lines [][]byte, tb table[T], opts options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := writeAll(&buf, lines, tb, opts); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// manySentences returns n sentence lines of texts of about 150 bytes.
func manySentences(n int) [][]byte {
	lines := make([][]byte, n)
	for i := range lines {
		lines[i] = fmt.Appendf(nil, `{"id":"w:%d:7:%d","wiki":"w","page_id":%d,"rev_id":7,"title":"Page %d","sentence":%d,"section":"History","context":"prose","text":"sentence %d of the river that rises in a cirque below the massif and drops through a narrow gorge of grey limestone %d","cluster_id":""}`,
			i/40, i%40, i/40, i/40, i%40, i, i*7919%1000)
	}
	return lines
}

// sameBytesPools are the goroutines and chunks of the writers that must
// make the same bytes.
var sameBytesPools = []struct{ decoders, encoders, chunkBytes int }{
	{1, 1, chunkBytes},
	{4, 4, chunkBytes},
	{3, 2, 1},
	{2, 4, 4 << 10},
}

// sameBytesLimits are row group limits that make one row group, a few and
// many.
var sameBytesLimits = []struct {
	name        string
	rows, bytes int
}{
	{"default limits", rowGroupRows, rowGroupBytes},
	{"4 rows", 4, rowGroupBytes},
	{"1.5 batches", batchRows + batchRows/2, rowGroupBytes},
	{"64 KiB", rowGroupRows, 64 << 10},
	{"a row", rowGroupRows, 1},
}

// TestSameBytes checks that the file does not depend on the writer's
// goroutines or chunks, and that it is, but for one case, what the writer
// before streaming made: one parquet.GenericWriter writing every row,
// flushed at the same row group boundaries. The case: a row group whose
// first page of a string column holds only empty strings has no statistics
// in that page's header, as the first row group of a file always had (a
// quirk of parquet-go's; the one writer wrote them once the column had held
// a byte), since each row group is now encoded by a writer of its own.
func TestSameBytes(t *testing.T) {
	clusters := slices.Concat(readLines(t, "clusters.jsonl"), readLines(t, "clusters-handwritten.jsonl"), benchClusterLines(60))
	sentences := slices.Concat(readLines(t, "sentences.jsonl"), readLines(t, "sentences-handwritten.jsonl"), manySentences(2000))
	for _, lim := range sameBytesLimits {
		opts := defaultOptions()
		opts.rowGroupRows, opts.rowGroupBytes = lim.rows, lim.bytes
		asBefore := lim.bytes != 1 // each row group's first row is a lead sentence's, of section ""
		t.Run("clusters/"+lim.name, func(t *testing.T) {
			sameBytes(t, clusters, clustersTable, opts, asBefore)
		})
		t.Run("sentences/"+lim.name, func(t *testing.T) {
			sameBytes(t, sentences, sentencesTable, opts, asBefore)
		})
	}
	t.Run("no lines", func(t *testing.T) {
		sameBytes(t, nil, clustersTable, defaultOptions(), true)
	})
}

func sameBytes[T any](t *testing.T, lines [][]byte, tb table[T], opts options, asBefore bool) {
	var first []byte
	for _, p := range sameBytesPools {
		o := opts
		o.decoders, o.encoders, o.chunkBytes = p.decoders, p.encoders, p.chunkBytes
		got := streamFile(t, lines, tb, o)
		if first == nil {
			first = got
		} else if !bytes.Equal(got, first) {
			t.Errorf("%d decoders, %d encoders, chunks of %d bytes: %d bytes, differ from those of %+v (%d)", p.decoders, p.encoders, p.chunkBytes, len(got), sameBytesPools[0], len(first))
		}
	}
	if before := oneWriterFile(t, lines, tb, opts); asBefore != bytes.Equal(first, before) {
		t.Errorf("the same bytes as the one writer: %v, want %v (%d bytes, its %d)", !asBefore, asBefore, len(first), len(before))
	}
}

// TestWriter checks the streaming API: lines handed over one at a time
// from a buffer the caller reuses make the file of WriteClusters and
// WriteSentences.
func TestWriter(t *testing.T) {
	for _, tt := range []struct {
		name  string
		lines [][]byte
		whole func(io.Writer, [][]byte) error
		new   func(io.Writer) *Writer
	}{
		{"clusters", slices.Concat(readLines(t, "clusters.jsonl"), benchClusterLines(2000)), WriteClusters, NewClustersWriter},
		{"sentences", slices.Concat(readLines(t, "sentences.jsonl"), manySentences(3000)), WriteSentences, NewSentencesWriter},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var want bytes.Buffer
			if err := tt.whole(&want, tt.lines); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			w := tt.new(&got)
			var line []byte
			for _, l := range tt.lines {
				line = append(line[:0], l...)
				if err := w.Write(line); err != nil {
					t.Fatal(err)
				}
				clear(line) // the writer keeps a copy
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("streamed: %d bytes, differ from WriteClusters' %d", got.Len(), want.Len())
			}
			if err := w.Close(); err != nil {
				t.Errorf("a second Close: %v", err)
			}
		})
	}
}

// TestWriterErrors checks that a bad line's error, found while later lines
// come, names its line and stops the Writer, and that Abort writes nothing
// more.
func TestWriterErrors(t *testing.T) {
	lines := manySentences(20000)
	opts := defaultOptions()
	opts.chunkBytes = 4 << 10
	opts.rowGroupRows = 100
	bad := 12345
	var out bytes.Buffer
	s := newStream(&out, sentencesTable, opts)
	var err error
	n := 0
	for i, l := range lines {
		if i == bad {
			l = []byte(`{"id":"w:1:1:0","page_id":"1"}`)
		}
		if err = s.write(l); err != nil {
			break
		}
		n++
	}
	if cerr := s.close(); err == nil {
		err = cerr
	} else if cerr != err {
		t.Errorf("Close: %v, want Write's %v", cerr, err)
	}
	want := fmt.Sprintf("parquetfile: sentences line %d: json: cannot unmarshal string", bad+1)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want one starting %q", err, want)
	}
	if n < bad {
		t.Errorf("Write failed after %d lines, before the bad line %d", n, bad+1)
	}
	if footer := out.Bytes(); len(footer) >= 4 && bytes.HasSuffix(footer, []byte("PAR1")) {
		t.Errorf("a file that failed has a footer")
	}

	out.Reset()
	s = newStream(&out, sentencesTable, opts)
	for _, l := range lines[:5000] {
		if err := s.write(l); err != nil {
			t.Fatal(err)
		}
	}
	s.abort()
	written := out.Len()
	if err := s.close(); !errors.Is(err, errAborted) {
		t.Errorf("Close after Abort: %v, want %v", err, errAborted)
	}
	if err := s.write(lines[0]); !errors.Is(err, errAborted) {
		t.Errorf("Write after Abort: %v, want %v", err, errAborted)
	}
	if out.Len() != written || bytes.HasSuffix(out.Bytes(), []byte("PAR1")) {
		t.Errorf("Abort: %d bytes then %d, footer %v", written, out.Len(), bytes.HasSuffix(out.Bytes(), []byte("PAR1")))
	}
}

// stallingWriter is an output whose writes wait until it is released.
type stallingWriter struct {
	release chan struct{}
	writes  atomic.Int64
	buf     bytes.Buffer
}

func (w *stallingWriter) Write(p []byte) (int, error) {
	w.writes.Add(1)
	<-w.release
	return w.buf.Write(p)
}

// TestBoundedRowGroups checks that the writer holds at most encoders row
// groups, however many it is given, and that a stalled output stops the
// caller in Write: memory is bounded by the row groups, not the file.
func TestBoundedRowGroups(t *testing.T) {
	for _, encoders := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d encoders", encoders), func(t *testing.T) {
			lines := manySentences(40000)
			opts := defaultOptions()
			opts.rowGroupRows, opts.encoders, opts.chunkBytes = 50, encoders, 2<<10 // 800 row groups
			out := &stallingWriter{release: make(chan struct{})}
			s := newStream(out, sentencesTable, opts)
			fed := atomic.Int64{}
			done := make(chan error, 1)
			go func() {
				for _, l := range lines {
					if err := s.write(l); err != nil {
						done <- err
						return
					}
					fed.Add(1)
				}
				done <- s.close()
			}()
			// Wait for the output to stall, then for the writer to fill up.
			bound := int64(encoders)
			deadline := time.Now().Add(30 * time.Second)
			for out.writes.Load() == 0 || s.live.Load() < bound {
				if time.Now().After(deadline) {
					t.Fatalf("after 30 s: %d writes, %d row groups held, %d lines fed", out.writes.Load(), s.live.Load(), fed.Load())
				}
				time.Sleep(time.Millisecond)
			}
			time.Sleep(50 * time.Millisecond) // time to overfill, were it unbounded
			if n := fed.Load(); n == int64(len(lines)) {
				t.Errorf("all %d lines were taken while the output stalled", n)
			}
			if live := s.live.Load(); live != bound {
				t.Errorf("%d row groups held while the output stalled, want %d", live, bound)
			}
			close(out.release)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if m := s.maxLive.Load(); m > bound {
				t.Errorf("at most %d row groups held, want at most %d", m, bound)
			}
			file := out.buf.Bytes()
			if got := readRows[SentenceRow](t, file); !slices.Equal(got, wantSentenceRows(t, lines)) {
				t.Errorf("%d rows read back differ from the %d lines", len(got), len(lines))
			}
			if want := oneWriterFile(t, lines, sentencesTable, opts); !bytes.Equal(file, want) {
				t.Errorf("the file differs from the one writer's")
			}
		})
	}
}
