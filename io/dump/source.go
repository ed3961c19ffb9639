package dump

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/neardup/neardup/io/document"
)

// Source is an input file as the read stage plans it.
type Source struct {
	File string
	Size int64
	Wiki string // the wiki's name, stamped on the file's pages (Site.Wiki)
	// Namespaces are those the file's header declares (Site.Namespaces),
	// given to the reader of every byte range: a page without <ns> gets the
	// namespace of its title's prefix whichever range reads it.
	Namespaces []document.Namespace
	// Splittable says the file may be read in byte ranges in parallel: it is
	// plain UTF-8 XML (not compressed, no UTF-16 byte order mark) and it ends
	// like a complete dump (with </mediawiki>, or has no root at all), so
	// that every page belongs to the range where its "<page>" starts.
	// Compressed and truncated files are read whole.
	Splittable bool
}

// peekBytes is how much of a file's head and tail Plan looks at.
const peekBytes = 64 << 10

// Plan returns the Source of each file: its size and whether it can be read
// in byte ranges. A local directory (x.xml.bz2/, matched by a glob) is an
// error naming it.
func Plan(ctx context.Context, files []string) ([]Source, error) {
	out := make([]Source, 0, len(files))
	for _, f := range files {
		src, err := plan(ctx, f)
		if err != nil {
			return nil, err
		}
		out = append(out, src)
	}
	return out, nil
}

func plan(ctx context.Context, file string) (Source, error) {
	if !strings.Contains(file, "://") { // a local file: a glob may match a directory
		if info, err := os.Stat(file); err == nil && info.IsDir() {
			return Source{}, fmt.Errorf("dump: input %s is a directory, not a dump file", file)
		}
	}
	fs, err := filesystem.New(ctx, file)
	if err != nil {
		return Source{}, fmt.Errorf("dump: no filesystem for %s: %w", file, err)
	}
	defer fs.Close()
	size, err := fs.Size(ctx, file)
	if err != nil {
		return Source{}, fmt.Errorf("dump: size of %s: %w", file, err)
	}
	src := Source{File: file, Size: size}
	if decoderFor(file) != nil || size == 0 {
		return src, nil
	}
	head, err := readAt(ctx, file, 0, peekBytes)
	if err != nil {
		return Source{}, err
	}
	if _, isUTF16, _ := detectBOM(head); isUTF16 {
		return src, nil
	}
	if !bytes.Contains(head, []byte("<mediawiki")) {
		src.Splittable = true
		return src, nil
	}
	tail, err := readAt(ctx, file, max(0, size-peekBytes), peekBytes)
	if err != nil {
		return Source{}, err
	}
	src.Splittable = bytes.Contains(tail, []byte("</mediawiki>"))
	return src, nil
}

// readAt reads up to n bytes of file from offset.
func readAt(ctx context.Context, file string, offset int64, n int) ([]byte, error) {
	rc, err := OpenAt(ctx, file, offset)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, int64(n)))
	if err != nil {
		return nil, fmt.Errorf("dump: read %s at %d: %w", file, offset, err)
	}
	return b, nil
}

// skip moves r forward to offset: by seeking when it can, else by reading.
func skip(r io.Reader, offset int64) error {
	if offset == 0 {
		return nil
	}
	if s, ok := r.(io.Seeker); ok {
		_, err := s.Seek(offset, io.SeekStart)
		return err
	}
	_, err := io.CopyN(io.Discard, r, offset)
	return err
}
