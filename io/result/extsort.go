package result

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/klauspost/compress/s2"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/parquetfile"
)

// A shard's writer sorts its lines with an external merge sort, so that its
// memory does not grow with the shard (with one output shard, the default,
// that is every line of the run: 272 MB of clusters on the 32× benchmark
// corpus, several GB at ten million sentences).
//
// Phase 1 decodes the shard's batches in the order they come and gathers
// records until they reach runBudget bytes; it then sorts them as
// sortedLines does (bytes.Compare: the big-endian key, then the line) and
// writes them, as a run, to a temporary file: S2 blocks of at most
// blockSize raw bytes of length-prefixed records (shuffle.AppendRecord),
// each block's offset and length kept in memory. The last run stays in
// memory; if it is the only one, nothing is written and the shard is sorted
// in memory as before.
//
// Phase 2 merges the runs with a binary heap of cursors, each holding one
// decoded block, and streams the lines to the files as they come out. The
// output is that of sortedLines, byte for byte.

// runBudget is how many bytes of records (each counted with its slice
// header) phase 1 gathers before it sorts them and writes them as a run.
const runBudget = 32 << 20

// blockSize is the most raw bytes a block of a run holds, but for a block
// of one larger record.
const blockSize = 64 << 10

// recOverhead is what a record costs in memory besides its bytes: its
// slice header.
const recOverhead = 24

// runLimit is runBudget; tests lower it to make many runs.
var runLimit = runBudget

// tempParent is the directory of the sorts' temporary directories; "" for
// os.TempDir(). Tests set it.
var tempParent = ""

// block is where a compressed block of a run is in the sorter's file.
type block struct {
	off int64
	n   int
}

// sorter sorts the records of one shard (phase 1 of the merge sort).
type sorter struct {
	unique bool
	limit  int

	recs [][]byte // the current run's records, aliasing decoded batches
	size int      // their bytes, with recOverhead each

	dir  string // the temporary directory, once a run is written
	path string // the runs' file in it
	f    *os.File
	w    *bufio.Writer
	off  int64
	runs [][]block
	raw  []byte // a block being encoded
	comp []byte // the block compressed
}

func newSorter(unique bool) *sorter {
	return &sorter{unique: unique, limit: runLimit}
}

// add adds the records of a shuffle.KindLines batch.
func (s *sorter) add(batch []byte) error {
	return shuffle.KindLines.Records(batch, func(rec []byte) error {
		if len(rec) < 8 {
			return fmt.Errorf("result: line record of %d bytes has no sort key", len(rec))
		}
		if s.size > 0 && s.size+len(rec)+recOverhead > s.limit {
			if err := s.spill(); err != nil {
				return err
			}
		}
		s.recs = append(s.recs, rec)
		s.size += len(rec) + recOverhead
		return nil
	})
}

// sortRun sorts recs as sortedLines does and, if unique, keeps the first
// record of each key: the first of a key over the whole shard is the first
// of its key in one of the runs.
func sortRun(recs [][]byte, unique bool) [][]byte {
	slices.SortFunc(recs, bytes.Compare) // big-endian key first, then the line
	if unique {
		recs = slices.CompactFunc(recs, func(a, b []byte) bool { return bytes.Equal(a[:8], b[:8]) })
	}
	return recs
}

// spill sorts the current run and writes it to the sorter's file, which it
// creates, in a new temporary directory, for the first run.
func (s *sorter) spill() error {
	if s.f == nil {
		dir := tempParent
		if dir == "" {
			dir = os.TempDir()
		}
		d, err := os.MkdirTemp(dir, "neardup-sort-")
		if err != nil {
			return fmt.Errorf("result: a directory to sort in: %w", err)
		}
		s.dir, s.path = d, filepath.Join(d, "runs")
		if s.f, err = os.OpenFile(s.path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err != nil {
			return fmt.Errorf("result: a file to sort in: %w", err)
		}
		s.w = bufio.NewWriterSize(s.f, 256<<10)
	}
	var run []block
	raw := s.raw[:0]
	flush := func() error {
		s.comp = s2.Encode(s.comp[:cap(s.comp)], raw)
		if _, err := s.w.Write(s.comp); err != nil {
			return fmt.Errorf("result: writing run %d to %s: %w", len(s.runs)+1, s.path, err)
		}
		run = append(run, block{s.off, len(s.comp)})
		s.off += int64(len(s.comp))
		raw = raw[:0]
		return nil
	}
	for _, rec := range sortRun(s.recs, s.unique) {
		if len(raw) > 0 && len(raw)+binary.MaxVarintLen32+len(rec) > blockSize {
			if err := flush(); err != nil {
				return err
			}
		}
		raw = shuffle.AppendRecord(raw, rec)
	}
	if len(raw) > 0 {
		if err := flush(); err != nil {
			return err
		}
	}
	s.runs = append(s.runs, run)
	s.raw = raw
	// Drop the run's records, so that the batches they alias can go.
	clear(s.recs[:cap(s.recs)])
	s.recs, s.size = s.recs[:0], 0
	return nil
}

// close closes and removes the sorter's temporary file and directory.
func (s *sorter) close() error {
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
	if s.dir == "" {
		return nil
	}
	dir := s.dir
	s.dir = ""
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("result: removing the sort directory: %w", err)
	}
	return nil
}

// Merging: each run is read through a cursor, the heap of cursors
// yields the records in order.

// cursor reads a run: the last, in memory (mem), or one in the file.
type cursor struct {
	rec []byte // the current record

	mem [][]byte // the records left of a run in memory

	inFile bool    // the run is in the file
	run    int     // its number, from 1, for errors
	left   []block // the blocks not yet read
	raw    []byte  // the current block, decoded
	pos    int     // where the next record starts in raw
	comp   []byte  // the current block as read
}

// next moves to the next record; it reports false at the end of the run.
func (c *cursor) next(s *sorter) (bool, error) {
	if !c.inFile {
		if len(c.mem) == 0 {
			return false, nil
		}
		c.rec, c.mem = c.mem[0], c.mem[1:]
		return true, nil
	}
	for c.pos == len(c.raw) {
		if len(c.left) == 0 {
			return false, nil
		}
		b := c.left[0]
		c.left = c.left[1:]
		c.comp = slices.Grow(c.comp[:0], b.n)[:b.n]
		if _, err := s.f.ReadAt(c.comp, b.off); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return false, fmt.Errorf("result: reading run %d from %s at offset %d: %w", c.run, s.path, b.off, err)
		}
		raw, err := s2.Decode(c.raw[:cap(c.raw)], c.comp)
		if err != nil || len(raw) == 0 {
			return false, fmt.Errorf("result: run %d in %s, block at offset %d: %w", c.run, s.path, b.off, errors.Join(shuffle.ErrCorrupt, err))
		}
		c.raw = raw
		c.pos = 0
	}
	n, k := binary.Uvarint(c.raw[c.pos:])
	if k <= 0 || n < 8 || n > uint64(len(c.raw)-c.pos-k) {
		return false, fmt.Errorf("result: run %d in %s: %w", c.run, s.path, shuffle.ErrCorrupt)
	}
	start := c.pos + k
	c.rec, c.pos = c.raw[start:start+int(n):start+int(n)], start+int(n)
	return true, nil
}

// merge calls fn for each record of the shard, in order (one per key if the
// sorter is unique), and frees the sorter's run in memory. stable tells fn
// whether rec stays valid after it returns (records of the run in memory)
// or not (records of a block that the next call may overwrite).
func (s *sorter) merge(fn func(rec []byte, stable bool) error) error {
	last := sortRun(s.recs, s.unique)
	s.recs = nil
	if len(s.runs) == 0 { // the whole shard fits in memory
		for _, rec := range last {
			if err := fn(rec, true); err != nil {
				return err
			}
		}
		return nil
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("result: writing the runs to %s: %w", s.path, err)
	}
	h := make(cursorHeap, 0, len(s.runs)+1)
	for i, run := range s.runs {
		c := &cursor{inFile: true, run: i + 1, left: run}
		switch ok, err := c.next(s); {
		case err != nil:
			return err
		case ok:
			h = append(h, c)
		}
	}
	if len(last) > 0 {
		h = append(h, &cursor{rec: last[0], mem: last[1:]})
	}
	h.init()
	var prev []byte // the key of the last record, when unique
	for len(h) > 0 {
		c := h[0]
		if !s.unique || prev == nil || !bytes.Equal(prev, c.rec[:8]) {
			prev = append(prev[:0], c.rec[:8]...)
			if err := fn(c.rec, !c.inFile); err != nil {
				return err
			}
		}
		switch ok, err := c.next(s); {
		case err != nil:
			return err
		case ok:
			h.down(0)
		default:
			h.pop()
		}
	}
	return nil
}

// cursorHeap is a binary min-heap of cursors by their current record.
type cursorHeap []*cursor

func (h cursorHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h cursorHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		j := l
		if r := l + 1; r < len(h) && bytes.Compare(h[r].rec, h[l].rec) < 0 {
			j = r
		}
		if bytes.Compare(h[j].rec, h[i].rec) >= 0 {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}

func (h *cursorHeap) pop() {
	old := *h
	n := len(old) - 1
	old[0] = old[n]
	old[n] = nil
	*h = old[:n]
	h.down(0)
}

// lineSink writes a shard's lines as they come, in order: each to the data
// file and, for indexed lines, its row to the index file, as SplitIndex
// would split them.
type lineSink struct {
	data, index *bufio.Writer // index is nil for lines without index rows
	off         int64         // the data file's size so far
	n           int           // the lines written
	row         []byte

	// parquet, if not nil, also takes each data line, which it copies
	// (package parquetfile).
	parquet *parquetfile.Writer
}

// record writes the line of a record; whether it stays valid (see
// sorter.merge) does not matter, as nothing keeps it.
func (s *lineSink) record(rec []byte, _ bool) error {
	s.n++
	l := rec[8:]
	if s.index != nil {
		j := bytes.IndexByte(l, IndexSep)
		if j < 0 {
			return fmt.Errorf("line %d has no index row", s.n)
		}
		row := strconv.AppendInt(s.row[:0], s.off, 10)
		row = append(row, '\t')
		row = strconv.AppendInt(row, int64(j), 10)
		row = append(row, '\t')
		row = append(row, l[j+1:]...)
		s.row = append(row, '\n')
		if _, err := s.index.Write(s.row); err != nil {
			return err
		}
		l = l[:j]
	}
	s.data.Write(l)
	if err := s.data.WriteByte('\n'); err != nil {
		return err
	}
	s.off += int64(len(l)) + 1
	if s.parquet != nil {
		return s.parquet.Write(l)
	}
	return nil
}
