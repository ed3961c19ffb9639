package result

import (
	"bufio"
	"context"
	"fmt"
	"log"

	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/parquetfile"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.DoFn3x2[context.Context, int, func(*[]byte) bool, int, error](&writeShardFn{})
	register.Iter1[[]byte]()
	register.DoFn2x0[[]byte, func(int, []byte)](&emptyShardsFn{})
	register.Emitter2[int, []byte]()
}

// Write writes lines (Records keyed by shard in [0, shards)) to the files
// dir/prefix-SSSSS-of-NNNNN.jsonl. Every shard's file is written, empty if no
// line went to it, so a reader can tell a complete result by its file count.
// It returns PCollection<int>: the number of lines of each file once written,
// for stages that must wait for the files (the run's manifest).
func Write(s beam.Scope, dir, prefix string, shards int, lines shuffle.Lines) beam.PCollection {
	return write(s, dir, prefix, shards, lines, false)
}

// WriteUnique is Write for lines whose sort key identifies them: of the
// lines of one key only the first, in byte order, is written (a sentence
// of a page revision that the run read twice).
func WriteUnique(s beam.Scope, dir, prefix string, shards int, lines shuffle.Lines) beam.PCollection {
	return write(s, dir, prefix, shards, lines, true)
}

// WriteIndexed is Write for lines that each end in IndexSep and an index
// row: the part before IndexSep goes to dir/prefix-SSSSS-of-NNNNN.jsonl, and
// for each line a row "offset<TAB>length<TAB>index row" goes to the file of
// the same shard dir/index-SSSSS-of-NNNNN.tsv, in the same order, so that a
// reader can filter the rows and read only the lines it needs.
func WriteIndexed(s beam.Scope, dir, prefix, index string, shards int, lines shuffle.Lines) beam.PCollection {
	return WriteFiles(s, dir, prefix, shards, lines, Files{Index: index})
}

// Files says what a writer writes besides each shard's JSON lines.
type Files struct {
	// Index is the prefix of the index files (see WriteIndexed); "" for lines
	// without index rows.
	Index string
	// Unique keeps one line per sort key (see WriteUnique).
	Unique bool
	// Parquet, if not "", also writes each shard's lines as the Parquet
	// table of that name (ParquetClusters, ParquetSentences or
	// ParquetPassages) to dir/prefix-SSSSS-of-NNNNN.parquet.
	Parquet string
}

// The Parquet tables a writer can write (package parquetfile).
const (
	ParquetClusters  = "clusters"
	ParquetSentences = "sentences"
	ParquetPassages  = "passages"
)

// WriteFiles is Write with the files f asks for.
func WriteFiles(s beam.Scope, dir, prefix string, shards int, lines shuffle.Lines, f Files) beam.PCollection {
	return writeShards(s, &writeShardFn{Dir: dir, Prefix: prefix, Shards: shards, Files: f}, lines)
}

func write(s beam.Scope, dir, prefix string, shards int, lines shuffle.Lines, unique bool) beam.PCollection {
	return WriteFiles(s, dir, prefix, shards, lines, Files{Unique: unique})
}

func writeShards(s beam.Scope, fn *writeShardFn, lines shuffle.Lines) beam.PCollection {
	s = s.Scope("Write " + fn.Prefix)
	empty := beam.ParDo(s, &emptyShardsFn{Shards: fn.Shards}, beam.Impulse(s))
	grouped := beam.GroupByKey(s, beam.Flatten(s, lines.Raw(), empty))
	return beam.ParDo(s, fn, grouped)
}

// emptyShardsFn emits an empty batch for every shard.
type emptyShardsFn struct{ Shards int }

func (f *emptyShardsFn) ProcessElement(_ []byte, emit func(int, []byte)) {
	for i := range f.Shards {
		emit(i, nil)
	}
}

// writeShardFn writes one shard's sorted lines.
type writeShardFn struct {
	Dir, Prefix string
	Shards      int
	Files
}

// ProcessElement sorts the shard's lines with an external merge sort (see
// sorter) and streams them to the files, the Parquet file too (whose
// writer holds a few row groups): its memory is bounded whatever the size
// of the shard. The index and the Parquet file, if any, are written beside
// the data file, and appear first (the index, then the Parquet file), then
// the data file.
func (f *writeShardFn) ProcessElement(ctx context.Context, shard int, batches func(*[]byte) bool) (n int, err error) {
	s := newSorter(f.Unique)
	defer func() {
		if cerr := s.close(); cerr != nil {
			log.Printf("result: shard %d of %s: %v", shard, f.Prefix, cerr)
		}
	}()
	var b []byte
	for batches(&b) {
		if len(b) == 0 {
			continue
		}
		if err := s.add(b); err != nil {
			return 0, fmt.Errorf("result: shard %d of %s: %w", shard, f.Prefix, err)
		}
	}
	sink := &lineSink{}
	// inner is the error of what the data file's write calls, returned as
	// it is rather than wrapped in the data file's.
	var inner error
	err = writeAtomically(ctx, Join(f.Dir, ShardName(f.Prefix, shard, f.Shards)), func(w *bufio.Writer) error {
		sink.data = w
		inner = f.writeLines(ctx, shard, s, sink)
		return inner
	})
	if inner != nil {
		return 0, inner
	}
	if err != nil {
		return 0, err
	}
	return sink.n, nil
}

// writeLines merges the sorted runs of s into sink, whose data file is
// open, with the index and Parquet files f asks for, all written as the
// lines come.
func (f *writeShardFn) writeLines(ctx context.Context, shard int, s *sorter, sink *lineSink) error {
	var mergeErr error
	merge := func() error {
		if err := s.merge(sink.record); err != nil {
			mergeErr = fmt.Errorf("result: shard %d of %s: %w", shard, f.Prefix, err)
		}
		return mergeErr
	}
	indexed := merge
	if f.Index != "" {
		indexed = func() error {
			err := writeAtomically(ctx, Join(f.Dir, IndexName(f.Index, shard, f.Shards)), func(w *bufio.Writer) error {
				sink.index = w
				return merge()
			})
			if mergeErr != nil {
				return mergeErr
			}
			return err
		}
	}
	if f.Parquet == "" {
		return indexed()
	}
	err := writeParquet(ctx, Join(f.Dir, ParquetName(f.Prefix, shard, f.Shards)), f.Parquet, sink, indexed)
	if err != nil && err != mergeErr {
		return fmt.Errorf("result: shard %d of %s: %w", shard, f.Prefix, err)
	}
	return err
}

// writeParquet writes the Parquet table of that name of the lines that
// lines hands to sink, as they come; an error of lines is returned as it
// is.
func writeParquet(ctx context.Context, name, table string, sink *lineSink, lines func() error) error {
	newWriter := parquetfile.NewClustersWriter
	switch table {
	case ParquetClusters:
	case ParquetSentences:
		newWriter = parquetfile.NewSentencesWriter
	case ParquetPassages:
		newWriter = parquetfile.NewPassagesWriter
	default:
		return fmt.Errorf("result: no Parquet table %q", table)
	}
	var inner error
	err := writeAtomically(ctx, name, func(w *bufio.Writer) error {
		pw := newWriter(w)
		sink.parquet = pw
		defer func() { sink.parquet = nil }()
		if inner = lines(); inner != nil {
			pw.Abort()
			return inner
		}
		if err := pw.Close(); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		return nil
	})
	if inner != nil {
		return inner
	}
	return err
}
