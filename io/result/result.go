// Package result writes the pipeline's outputs: sharded JSON-lines files whose
// content is sorted, so the same input always gives the same bytes, and which
// appear under their final names only once complete.
//
// Producers put each output line, with an 8-byte sort key (Record), in a
// batch (see package shuffle); the writer of a shard sorts the records of
// all its batches by key then line, in memory or, past a budget, by an
// external merge sort (see sorter), and writes the file so that it appears
// under its name only once complete: locally to a temporary name of its own (TempPrefix, the
// name and a random suffix) renamed when the file is closed; on gs:// by a
// direct upload, which becomes visible only when it completes. Local paths
// and gs:// work alike; any other scheme goes through Beam's filesystem
// layer. Names are exact: glob characters in them are ordinary characters.
// The run directory these files go to is claimed and cleaned by package
// rundir.
package result

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/neardup/neardup/internal/gcsclient"
	"github.com/neardup/neardup/internal/shuffle"
)

// Record is a line with its sort key: a shuffle.KindLines record.
func Record(key uint64, line []byte) []byte {
	rec := make([]byte, 8, 8+len(line))
	binary.BigEndian.PutUint64(rec, key)
	return append(rec, line...)
}

// SortedLines decodes shuffle.KindLines batches of Records and returns their lines
// ordered by sort key, then by content.
func SortedLines(batches [][]byte) ([][]byte, error) {
	return sortedLines(batches, false)
}

// UniqueLines is SortedLines keeping only the first line of each sort key.
func UniqueLines(batches [][]byte) ([][]byte, error) {
	return sortedLines(batches, true)
}

func sortedLines(batches [][]byte, unique bool) ([][]byte, error) {
	var recs [][]byte
	for _, b := range batches {
		err := shuffle.KindLines.Records(b, func(rec []byte) error {
			if len(rec) < 8 {
				return fmt.Errorf("result: line record of %d bytes has no sort key", len(rec))
			}
			recs = append(recs, rec)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(recs, bytes.Compare) // big-endian key first, then the line
	if unique {
		recs = slices.CompactFunc(recs, func(a, b []byte) bool { return bytes.Equal(a[:8], b[:8]) })
	}
	lines := make([][]byte, len(recs))
	for i, r := range recs {
		lines[i] = r[8:]
	}
	return lines, nil
}

// IndexSep ends the output line of a record written by WriteIndexed; the
// line's index row follows it. JSON lines never hold the byte.
const IndexSep = 0x1e

// SplitIndex splits lines that end in IndexSep and an index row into the
// lines themselves and the rows of their index: "offset<TAB>length<TAB>row",
// where offset and length locate the line, without its newline, in a file
// of the lines written in order by WriteFile.
func SplitIndex(lines [][]byte) (data, rows [][]byte, err error) {
	data, rows = make([][]byte, len(lines)), make([][]byte, len(lines))
	var off int64
	for i, l := range lines {
		j := bytes.IndexByte(l, IndexSep)
		if j < 0 {
			return nil, nil, fmt.Errorf("line %d has no index row", i+1)
		}
		data[i] = l[:j]
		row := strconv.AppendInt(make([]byte, 0, 24+len(l)-j), off, 10)
		row = append(row, '\t')
		row = strconv.AppendInt(row, int64(j), 10)
		row = append(row, '\t')
		rows[i] = append(row, l[j+1:]...)
		off += int64(j) + 1
	}
	return data, rows, nil
}

// IndexName is the file name of the index of shard i of n:
// prefix-00000-of-00004.tsv.
func IndexName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.tsv", prefix, i, n)
}

// ParquetName is the Parquet file of shard i of n:
// prefix-00000-of-00004.parquet.
func ParquetName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.parquet", prefix, i, n)
}

// ShardName is the file name of shard i of n: prefix-00000-of-00004.jsonl.
func ShardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.jsonl", prefix, i, n)
}

// Join joins a directory (a local path or a URL such as gs://bucket/dir) and a
// file name.
func Join(dir, name string) string {
	return strings.TrimSuffix(dir, "/") + "/" + name
}

// TempPrefix starts the name of every file being written: a file is written
// to DIR/.tmp-NAME-RANDOM and renamed to DIR/NAME once complete.
const TempPrefix = ".tmp-"

// tempName is where a file is written before it is renamed to name: beside
// it, with a random suffix, so that two writers of the same name (a retried
// bundle and its first attempt, two processes) never share a temporary file.
func tempName(name string) string {
	dir, base := path.Split(name)
	var r [8]byte
	rand.Read(r[:]) // never fails
	return dir + TempPrefix + base + "-" + hex.EncodeToString(r[:])
}

// WriteFile writes lines, each followed by a newline, to name, which
// appears only once complete (see the package comment).
func WriteFile(ctx context.Context, name string, lines [][]byte) error {
	return writeAtomically(ctx, name, func(w *bufio.Writer) error {
		for _, l := range lines {
			w.Write(l)
			if err := w.WriteByte('\n'); err != nil {
				return err
			}
		}
		return nil
	})
}

// WriteBytes writes data to name, which appears only once complete.
func WriteBytes(ctx context.Context, name string, data []byte) error {
	return writeAtomically(ctx, name, func(w *bufio.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteStream writes the file name as write writes it, so that it appears
// under its name only once complete (as WriteFile does), for a file too
// large to hold in memory.
func WriteStream(ctx context.Context, name string, write func(*bufio.Writer) error) error {
	return writeAtomically(ctx, name, write)
}

func writeAtomically(ctx context.Context, name string, write func(*bufio.Writer) error) error {
	if gcsclient.IsGCS(name) {
		return gcsWrite(ctx, name, write)
	}
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return fmt.Errorf("result: no filesystem for %s: %w", name, err)
	}
	defer fs.Close()
	tmp := tempName(name)
	f, err := fs.OpenWrite(ctx, tmp)
	if err != nil {
		return fmt.Errorf("result: cannot create %s (temporary file %s; is the output directory writable?): %w", name, tmp, err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		removeQuietly(ctx, fs, tmp)
		return fmt.Errorf("result: writing %s (temporary file %s): %w", name, tmp, err)
	}
	// Locally a rename within a directory is atomic and replaces name whole;
	// on gs:// the copy to name is (an object appears only once complete).
	if err := filesystem.Rename(ctx, fs, tmp, name); err != nil {
		removeQuietly(ctx, fs, tmp)
		return fmt.Errorf("result: writing %s: renaming %s to it: %w", name, tmp, err)
	}
	return nil
}

// removeQuietly removes a temporary file after a failed write, if it can.
func removeQuietly(ctx context.Context, fs filesystem.Interface, name string) {
	if r, ok := fs.(filesystem.Remover); ok {
		r.Remove(context.WithoutCancel(ctx), name)
	}
}

// JSONLine encodes v as one line of JSON, without the newline and without
// escaping HTML characters, so text reads as it was written.
func JSONLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// ReadFile reads a whole (small) file through Beam's filesystem layer.
func ReadFile(ctx context.Context, name string) ([]byte, error) {
	if gcsclient.IsGCS(name) {
		return gcsRead(ctx, name)
	}
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("result: no filesystem for %s: %w", name, err)
	}
	defer fs.Close()
	return filesystem.Read(ctx, fs, name)
}

// Exists reports whether the file name exists. The name is taken as it is,
// never as a pattern: `[`, `*`, `?` and `{` are ordinary characters.
func Exists(ctx context.Context, name string) (bool, error) {
	if gcsclient.IsGCS(name) {
		return gcsExists(ctx, name)
	}
	if isLocal(name) {
		_, err := os.Stat(name)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			return false, nil
		}
		return false, fmt.Errorf("result: looking for %s: %w", name, err)
	}
	fsys, err := filesystem.New(ctx, name)
	if err != nil {
		return false, fmt.Errorf("result: no filesystem for %s: %w", name, err)
	}
	defer fsys.Close()
	if _, err := fsys.Size(ctx, name); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return false, fmt.Errorf("result: looking for %s: %w", name, err)
	}
	return true, nil
}

// CheckWritable writes and removes a small file in dir, so that an
// unwritable output stops a run before any work is done.
func CheckWritable(ctx context.Context, dir string) error {
	probe := Join(dir, ".neardup-write-check")
	if err := WriteBytes(ctx, probe, nil); err != nil {
		return fmt.Errorf("output directory %s is not writable: %w", dir, err)
	}
	if gcsclient.IsGCS(probe) {
		return gcsRemove(ctx, probe)
	}
	fs, err := filesystem.New(ctx, probe)
	if err != nil {
		return err
	}
	defer fs.Close()
	if r, ok := fs.(filesystem.Remover); ok {
		return r.Remove(ctx, probe)
	}
	return nil
}
