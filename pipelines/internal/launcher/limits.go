package launcher

// The ranges of the count flags both pipelines have: a value out of range
// is a mistake on the command line, refused with its range before any
// work, not a run that allocates per shard or per worker until it is
// killed.

import (
	"fmt"
	"strings"
	"unicode"
)

// Bounds of the count flags.
const (
	// MaxShards bounds --shards: every Packer of a shuffle holds a buffer
	// header per shard (10 M shards took 7.2 GB on a 40 KB input), and a
	// cluster needs about one shard per 2 M sentences.
	MaxShards = 1 << 16
	// MaxOutputShards keeps the output files' names (NAME-SSSSS-of-NNNNN)
	// sorted as their numbers.
	MaxOutputShards = 99999
	// MaxDofnWorkers bounds the goroutines of a DoFn's worker pool.
	MaxDofnWorkers = 1024
	// MaxPageBytes bounds --max_page_bytes: a page or record under it is
	// held in memory whole.
	MaxPageBytes = 1 << 30
	// MinSplitBytes is the smallest --split_bytes but 0: a split costs a
	// reader and a seek, and 1-byte splits of a dump are millions of them.
	MinSplitBytes = 4 << 10
	// MaxShingleLength bounds --shingle_length: a shingle longer than a
	// long sentence makes every sentence one shingle or none.
	MaxShingleLength = 1024
	// MaxPassageGap bounds --passage_gap, the sentences a passage skips.
	MaxPassageGap = 1000
	// MaxTop bounds the lists of summary.json (--top_pairs, --top).
	MaxTop = 100000
)

// Range is the range a flag's value must be in, Min to Max; Note follows
// the range in the error, to say what a special value means.
type Range struct {
	Flag     string
	Value    int64
	Min, Max int64
	Note     string
}

// CheckRanges returns the error of the first value out of its range, if
// any: "--shards must be between 1 and 65536, or 0 for the runner's
// default, got 10000000".
func CheckRanges(ranges ...Range) error {
	for _, r := range ranges {
		if r.Value < r.Min || r.Value > r.Max {
			return fmt.Errorf("--%s must be between %d and %d%s, got %d", r.Flag, r.Min, r.Max, r.Note, r.Value)
		}
	}
	return nil
}

// CheckRunID refuses a --run_id that is not a plain directory name: empty,
// "." or "..", holding a path separator, or a control character (a newline
// would split the lines that name the run).
func CheckRunID(id string) error {
	switch {
	case id == "" || id == "." || id == "..":
	case strings.ContainsAny(id, `/\`):
	case strings.ContainsFunc(id, unicode.IsControl):
		return fmt.Errorf("--run_id %q must be a plain directory name: it holds a control character", id)
	default:
		return nil
	}
	return fmt.Errorf("--run_id %q must be a plain directory name", id)
}
