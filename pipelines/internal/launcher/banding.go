package launcher

// The MinHash banding both pipelines choose the same way.

import (
	"fmt"
	"strings"

	"github.com/neardup/neardup/transforms/minhash"
)

// MaxBins is the most minhashes a sentence's signature may have (bands ×
// rows; minhash refuses more).
const MaxBins = 4096

// Banding is the MinHash banding of a run: Bands × Rows given by hand, or
// chosen (Bands and Rows 0) as the sharpest of at most MaxBands bands that
// makes a pair at Jaccard similarity Threshold collide with probability
// Recall.
type Banding struct {
	Threshold, Recall     float64
	MaxBands, Bands, Rows int
}

// Check checks the banding; given names the flags given on the command
// line (nil: none), since a banding set by hand with --bands and --rows
// leaves --threshold, --recall and --max_bands nothing to do, and giving
// them is a mistake. NaN and infinities are refused.
func (b Banding) Check(given map[string]bool) error {
	switch {
	case b.Bands < 0 || b.Rows < 0:
		return fmt.Errorf("--bands and --rows must be at least 0 (0: chosen from --threshold), got %d and %d", b.Bands, b.Rows)
	case (b.Bands == 0) != (b.Rows == 0):
		return fmt.Errorf("give both --bands and --rows, or neither, got --bands %d --rows %d", b.Bands, b.Rows)
	case b.Bands > MaxBins || b.Rows > MaxBins || b.Bands*b.Rows > MaxBins:
		return fmt.Errorf("--bands × --rows must be at most %d, got %d × %d", MaxBins, b.Bands, b.Rows)
	}
	if len(Given(given, "bands", "rows")) > 0 {
		if set := Given(given, "threshold", "recall", "max_bands"); len(set) > 0 {
			return fmt.Errorf("--bands and --rows set the banding by hand: %s", DoNotApply(set))
		}
	}
	switch {
	case !(b.Threshold > 0 && b.Threshold < 1):
		return fmt.Errorf("--threshold must be between 0 and 1 (exclusive), got %v", b.Threshold)
	case !(b.Recall > 0 && b.Recall < 1):
		return fmt.Errorf("--recall must be between 0 and 1 (exclusive), got %v", b.Recall)
	case b.Bands == 0 && (b.MaxBands < 1 || b.MaxBands > MaxBins):
		return fmt.Errorf("--max_bands must be between 1 and %d, got %d", MaxBins, b.MaxBands)
	}
	return nil
}

// Choose returns the banding of a checked Banding: Bands and Rows if they
// are given, else the sharpest one of at most MaxBands bands that reaches
// Recall at Threshold (minhash.ChooseBands), if it needs at most MaxBins
// minhashes.
func (b Banding) Choose() (bands, rows int, err error) {
	if b.Bands > 0 && b.Rows > 0 {
		return b.Bands, b.Rows, nil
	}
	bands, rows, err = minhash.ChooseBands(b.Threshold, b.Recall, b.MaxBands)
	if err != nil {
		return 0, 0, err
	}
	if bands*rows > MaxBins {
		return 0, 0, fmt.Errorf("--threshold %v and --recall %v need %d bands × %d rows, more than %d minhashes: lower --max_bands", b.Threshold, b.Recall, bands, rows, MaxBins)
	}
	return bands, rows, nil
}

// Given returns those of the named flags that given holds, in the order
// named.
func Given(given map[string]bool, names ...string) []string {
	var set []string
	for _, n := range names {
		if given[n] {
			set = append(set, n)
		}
	}
	return set
}

// DoNotApply says that flags do not apply: "--threshold does not apply",
// "--threshold, --recall do not apply".
func DoNotApply(names []string) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = "--" + n
	}
	verb := "do"
	if len(names) == 1 {
		verb = "does"
	}
	return strings.Join(s, ", ") + " " + verb + " not apply"
}
