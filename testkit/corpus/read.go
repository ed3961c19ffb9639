package corpus

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/io/multistream"
)

// ReadFile reads a file whole, decompressed by its extension as the
// pipeline's reader does (dump.Open: .bz2, .gz, .xz, .zst). On an error
// it returns what it read before it, as io.ReadAll does: a dump cut short
// ends in an error that wraps io.ErrUnexpectedEOF.
func ReadFile(ctx context.Context, path string) ([]byte, error) {
	rc, err := dump.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(rc)
	if cerr := rc.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return data, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

// ReadPages returns the header of the first dump and the raw <page>
// elements of all, in file order.
func ReadPages(ctx context.Context, paths []string) (header []byte, pages [][]byte, err error) {
	for i, path := range paths {
		doc, err := ReadFile(ctx, path)
		if err != nil {
			return nil, nil, err
		}
		h, p, _ := multistream.Split(doc)
		if i == 0 {
			header = h
		}
		pages = append(pages, p...)
	}
	if len(pages) == 0 {
		return nil, nil, fmt.Errorf("no page in %s", strings.Join(paths, ", "))
	}
	return header, pages, nil
}
