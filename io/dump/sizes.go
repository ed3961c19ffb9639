package dump

import (
	"context"

	"github.com/neardup/neardup/transforms/summary"
)

// Sizes returns each file with its size in bytes, for a run's manifest.
func Sizes(ctx context.Context, files []string) ([]summary.Input, error) {
	srcs, err := Plan(ctx, files)
	if err != nil {
		return nil, err
	}
	out := make([]summary.Input, len(srcs))
	for i, src := range srcs {
		out[i] = summary.Input{Path: src.File, Bytes: src.Size}
	}
	return out, nil
}
