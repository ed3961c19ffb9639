package dump

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // register local files
	"github.com/dsnet/compress/bzip2"
	"github.com/klauspost/compress/zstd"
	"github.com/neardup/neardup/internal/gcsclient"
	"github.com/ulikunitz/xz"
)

// Open opens the file at path through Beam's filesystem layer and, by its
// extension, decompresses it: .bz2 (multi-stream, as in Wikimedia's
// multistream dumps), .gz (multi-member), .xz or .zst (Zstandard,
// multi-frame); any other file is read as it is. A failure of the decompressor (corrupt or cut data) reaches a
// Reader as truncation, while an error of the file itself stays an I/O
// error. Closing the returned ReadCloser closes everything.
func Open(ctx context.Context, path string) (io.ReadCloser, error) {
	return OpenMetered(ctx, path, 0, nil)
}

// OpenMetered is Open when offset is 0 and OpenAt otherwise, with the file's
// own bytes (compressed or not) read through meter when it is not nil: a
// progress counter sees how much of the file was read.
func OpenMetered(ctx context.Context, path string, offset int64, meter func(io.Reader) io.Reader) (io.ReadCloser, error) {
	if meter == nil {
		meter = func(r io.Reader) io.Reader { return r }
	}
	if offset == 0 {
		return openRaw(ctx, path, 0, func(raw io.Reader) io.Reader { return decoded(meter(raw), path) })
	}
	if gcsclient.IsGCS(path) {
		rc, err := openGCSRange(ctx, path, offset)
		if err != nil {
			return nil, err
		}
		return &file{r: &sourceReader{r: meter(rc)}, closers: []io.Closer{rc}}, nil
	}
	return openRaw(ctx, path, offset, func(raw io.Reader) io.Reader { return &sourceReader{r: meter(raw)} })
}

// OpenAt opens a plain file positioned at offset, for reading a byte range:
// a gs:// object through a range read, other files by seeking (or, where
// the filesystem cannot seek, by skipping).
func OpenAt(ctx context.Context, path string, offset int64) (io.ReadCloser, error) {
	if offset == 0 {
		return openRaw(ctx, path, 0, func(raw io.Reader) io.Reader { return &sourceReader{r: raw} })
	}
	return OpenMetered(ctx, path, offset, nil)
}

// openRaw opens path through Beam's filesystem layer, moves to offset and
// reads it through wrap.
func openRaw(ctx context.Context, path string, offset int64, wrap func(io.Reader) io.Reader) (io.ReadCloser, error) {
	raw, closers, err := openFile(ctx, path)
	if err != nil {
		return nil, err
	}
	if err := skip(raw, offset); err != nil {
		closeAll(closers)
		return nil, fmt.Errorf("dump: seek %s to %d: %w", path, offset, err)
	}
	return &file{r: wrap(raw), closers: closers}, nil
}

// openFile opens path through Beam's filesystem layer and returns the open
// file and what closes it: the file, then its filesystem.
func openFile(ctx context.Context, path string) (io.ReadCloser, []io.Closer, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, nil, fmt.Errorf("dump: open %s: %w", path, err)
	}
	raw, err := fs.OpenRead(ctx, path)
	if err != nil {
		fs.Close()
		return nil, nil, fmt.Errorf("dump: open %s: %w", path, err)
	}
	return raw, []io.Closer{raw, fs}, nil
}

// closeAll closes each of closers, in order, and joins their errors.
func closeAll(closers []io.Closer) error {
	var errs []error
	for _, c := range closers {
		if err := c.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// decoded returns the decompressed content of the file raw, chosen by the
// extension of path, marking the errors of raw and of the decompressor.
func decoded(raw io.Reader, path string) io.Reader {
	src := &sourceReader{r: raw}
	newDecoder := decoderFor(path)
	if newDecoder == nil {
		return src
	}
	// Decompressors read byte by byte: buffer the file for them. And
	// decompress on a goroutine of its own, ahead of the parser.
	buffered := bufio.NewReaderSize(src, 64<<10)
	return newReadahead(&decodeReader{init: func() (io.Reader, error) { return newDecoder(buffered) }})
}

// decoderFor returns the decompressor for path's extension, or nil.
func decoderFor(path string) func(io.Reader) (io.Reader, error) {
	switch {
	case strings.HasSuffix(path, ".bz2"):
		return newBzip2Reader
	case strings.HasSuffix(path, ".gz"):
		return func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }
	case strings.HasSuffix(path, ".xz"):
		return func(r io.Reader) (io.Reader, error) { return xz.NewReader(r) }
	case strings.HasSuffix(path, ".zst"):
		return newZstdReader
	}
	return nil
}

// newZstdReader decodes Zstandard with github.com/klauspost/compress/zstd on
// the calling goroutine (the readahead already decodes ahead of the
// parser), with the decoder's default window limit. An empty file, which
// the decoder takes for zero frames, is cut, as for the other formats.
// Closing the returned reader frees the decoder.
func newZstdReader(r io.Reader) (io.Reader, error) {
	z := &zstdReader{src: r}
	d, err := zstd.NewReader(readerFunc(z.readSource), zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	z.ReadCloser = d.IOReadCloser()
	return z, nil
}

// zstdReader is a Zstandard decoder that knows whether its file had any
// byte.
type zstdReader struct {
	io.ReadCloser // the decoder
	src           io.Reader
	any           bool // a byte of src was read
}

func (z *zstdReader) readSource(p []byte) (int, error) {
	n, err := z.src.Read(p)
	z.any = z.any || n > 0
	return n, err
}

func (z *zstdReader) Read(p []byte) (int, error) {
	n, err := z.ReadCloser.Read(p)
	if err == io.EOF && !z.any {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// readerFunc is an io.Reader made of a function.
type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// newBzip2Reader uses github.com/dsnet/compress/bzip2, which reads
// concatenated streams and reports a cut stream as io.ErrUnexpectedEOF, like
// compress/bzip2, and decodes faster (see BenchmarkBzip2).
func newBzip2Reader(r io.Reader) (io.Reader, error) {
	return bzip2.NewReader(r, nil)
}

// file is an opened, possibly decompressed file.
type file struct {
	r       io.Reader
	closers []io.Closer // the file, then its filesystem
}

func (f *file) Read(p []byte) (int, error) { return f.r.Read(p) }

func (f *file) Close() error {
	closers := f.closers
	if ra, ok := f.r.(*readahead); ok {
		ra.Close() // stop decompressing before closing the decompressor and the file
		if d, ok := ra.src.(*decodeReader); ok {
			if c, ok := d.r.(io.Closer); ok {
				closers = append([]io.Closer{c}, closers...)
			}
		}
	}
	return closeAll(closers)
}

// SourceError marks an error of the underlying file, so that it is not
// mistaken for a decompression failure.
type SourceError struct{ Err error }

func (e *SourceError) Error() string { return e.Err.Error() }
func (e *SourceError) Unwrap() error { return e.Err }

// MarkSourceErrors returns a reader of r whose errors, except io.EOF, are
// *SourceError: readers that decompress it can then tell a failing file
// from corrupt data.
func MarkSourceErrors(r io.Reader) io.Reader { return &sourceReader{r: r} }

// sourceReader marks the errors of the file it reads, except io.EOF.
type sourceReader struct{ r io.Reader }

func (s *sourceReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF {
		err = &SourceError{err}
	}
	return n, err
}

// decodeError marks a failure of a decompressor.
type decodeError struct{ err error }

func (e *decodeError) Error() string { return "decompressing: " + e.err.Error() }
func (e *decodeError) Unwrap() error { return e.err }

// decodeReader creates its decompressor on the first Read, so that a file
// too short for a header, even an empty one, fails like a cut file, and
// marks decompression failures.
type decodeReader struct {
	init func() (io.Reader, error)
	r    io.Reader
	err  error
}

func (d *decodeReader) Read(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	if d.r == nil {
		r, err := d.init()
		if err == io.EOF {
			err = io.ErrUnexpectedEOF // no compressed file is empty
		}
		if err != nil {
			d.err = markDecodeError(err)
			return 0, d.err
		}
		d.r = r
	}
	n, err := d.r.Read(p)
	if err != nil && err != io.EOF {
		err = markDecodeError(err)
	}
	return n, err
}

func markDecodeError(err error) error {
	var src *SourceError
	if errors.As(err, &src) {
		return src.Err
	}
	return &decodeError{err}
}

// IsDecodeFailure reports whether err, an error of a reader made by Open,
// means that the stream was cut or its decompressor failed (the file is
// truncated or corrupt), not that the file itself could not be read.
func IsDecodeFailure(err error) bool {
	var d *decodeError
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &d)
}

// Expand expands a comma-separated list of file names and globs through
// Beam's filesystem layer and returns the sorted, unique names. A pattern
// that matches nothing is an error naming it.
func Expand(ctx context.Context, patterns string) ([]string, error) {
	var names []string
	seen := false
	for _, pattern := range strings.Split(patterns, ",") {
		pattern = strings.TrimSpace(pattern)
		if pattern == "" {
			continue
		}
		seen = true
		matched, err := list(ctx, pattern)
		if err != nil {
			return nil, err
		}
		if len(matched) == 0 {
			return nil, fmt.Errorf("dump: pattern %q matches no file", pattern)
		}
		names = append(names, matched...)
	}
	if !seen {
		return nil, fmt.Errorf("dump: no file pattern in %q", patterns)
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// list lists the files matching one pattern.
func list(ctx context.Context, pattern string) ([]string, error) {
	fs, err := filesystem.New(ctx, pattern)
	if err != nil {
		return nil, fmt.Errorf("dump: expand %q: %w", pattern, err)
	}
	defer fs.Close()
	names, err := fs.List(ctx, pattern)
	if err != nil {
		return nil, fmt.Errorf("dump: expand %q: %w", pattern, err)
	}
	return names, nil
}
