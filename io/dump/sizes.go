package dump

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/neardup/neardup/transforms/summary"
)

// Sizes returns each file with its size in bytes, for the run's manifest.
func Sizes(ctx context.Context, files []string) ([]summary.Input, error) {
	out := make([]summary.Input, 0, len(files))
	for _, f := range files {
		fs, err := filesystem.New(ctx, f)
		if err != nil {
			return nil, fmt.Errorf("dump: no filesystem for %s: %w", f, err)
		}
		n, err := fs.Size(ctx, f)
		fs.Close()
		if err != nil {
			return nil, fmt.Errorf("dump: size of %s: %w", f, err)
		}
		out = append(out, summary.Input{Path: f, Bytes: n})
	}
	return out, nil
}
