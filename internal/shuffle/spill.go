package shuffle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// Spilling keeps a shuffle's batches out of the runner's memory. Prism, the
// embedded runner, holds every element of every PCollection in its heap
// until the stage that reads it has finished, and copies each batch four
// times on its way (into its element store, into the bundle's input, through
// gRPC, into the worker's iterator; docs/scale.md, "Shuffles spilled to
// disk", has what it cost). When the workers run in
// the launching process, as they do on the embedded runner and with
// LOOPBACK, a Packer can instead write each batch to a file and emit a
// reference to it: the runner then moves a few dozen bytes a batch, and a
// batch is in memory only while a DoFn builds or reads it.
//
// A reference is a batch too: its first byte is its kind's with the high bit
// set, then the file's path, the batch's offset and length (uvarints) and
// its CRC-32C. Kind.Records and Kind.AppendPairs read the batch back, so
// every stage reads a spilled batch as it reads one in memory; a reference
// whose file is gone or whose bytes changed is an error naming the file and
// offset.

// spillFlag marks a reference: kinds are ASCII letters.
const spillFlag = 0x80

// castagnoli is the CRC-32C table; CPUs compute it in hardware.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Spill is a directory the Packers of this process write their batches to.
type Spill struct {
	dir   string
	files atomic.Uint64
	// bytes and batches count what was spilled, by kind.
	bytes, batches [256]atomic.Int64
	warned         sync.Once
}

// spilling is the Spill the Packers of this process write to, if any: a
// setting of the process, like its GC's, made once by the command that runs
// the pipeline with its workers in the same process (SpillTo).
var spilling atomic.Pointer[Spill]

// SpillTo makes the Packers created from now on in this process write their
// batches to a new directory under dir (the system's temporary directory if
// dir is empty), named after prefix, and emit references to them. Call it
// only when every worker of the pipeline runs in this process. Close stops
// spilling and removes the directory.
func SpillTo(dir, prefix string) (*Spill, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	d, err := os.MkdirTemp(dir, prefix+"-spill-")
	if err != nil {
		return nil, fmt.Errorf("shuffle: spill directory: %w", err)
	}
	s := &Spill{dir: d}
	if !spilling.CompareAndSwap(nil, s) {
		os.Remove(d)
		return nil, errors.New("shuffle: this process already spills its shuffles")
	}
	return s, nil
}

// Dir is the directory the batches are written to.
func (s *Spill) Dir() string { return s.dir }

// Close stops spilling and removes the directory with every batch in it.
func (s *Spill) Close() error {
	spilling.CompareAndSwap(s, nil)
	if err := os.RemoveAll(s.dir); err != nil {
		return fmt.Errorf("shuffle: removing the spill directory: %w", err)
	}
	return nil
}

// KindBytes is what one kind of batch spilled.
type KindBytes struct {
	Kind           Kind
	Bytes, Batches int64
}

// Stats returns the bytes and batches spilled so far, by kind, in the
// order of the kinds' bytes.
func (s *Spill) Stats() []KindBytes {
	var out []KindBytes
	for k := range s.bytes {
		if n := s.batches[k].Load(); n > 0 {
			out = append(out, KindBytes{Kind(k), s.bytes[k].Load(), n})
		}
	}
	return out
}

// spillFile is the file one Packer writes its batches to.
type spillFile struct {
	s    *Spill
	f    *os.File
	off  int64
	path string
}

// put writes the batch b to the Packer's file and returns a reference to
// it, or b itself if the file cannot be written: the shuffle then carries
// the batch in memory, and the run goes on (with a warning, once).
func (sf *spillFile) put(kind Kind, b []byte) []byte {
	if sf.f == nil {
		name := filepath.Join(sf.s.dir, fmt.Sprintf("%c-%d", byte(kind), sf.s.files.Add(1)))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			sf.s.warn(err)
			return b
		}
		sf.f, sf.path, sf.off = f, name, 0
	}
	if _, err := sf.f.Write(b); err != nil {
		sf.s.warn(err)
		sf.close()
		return b
	}
	ref := make([]byte, 0, 1+binary.MaxVarintLen64*3+len(sf.path)+4)
	ref = append(ref, byte(kind)|spillFlag)
	ref = binary.AppendUvarint(ref, uint64(len(sf.path)))
	ref = append(ref, sf.path...)
	ref = binary.AppendUvarint(ref, uint64(sf.off))
	ref = binary.AppendUvarint(ref, uint64(len(b)))
	ref = binary.LittleEndian.AppendUint32(ref, crc32.Checksum(b, castagnoli))
	sf.off += int64(len(b))
	sf.s.bytes[kind].Add(int64(len(b)))
	sf.s.batches[kind].Add(1)
	return ref
}

// close closes the file; the next batch opens another.
func (sf *spillFile) close() {
	if sf.f != nil {
		if err := sf.f.Close(); err != nil {
			sf.s.warn(err)
		}
		sf.f = nil
	}
}

func (s *Spill) warn(err error) {
	s.warned.Do(func() {
		// A warning, not an info line: --quiet, which hides the runner's
		// info lines, must still show that the run's memory grows.
		slog.Warn(fmt.Sprintf("shuffle: cannot spill to %s (%v): batches stay in memory", s.dir, err))
	})
}

// load reads back the batch the reference ref points to.
func load(ref []byte) ([]byte, error) {
	b := ref[1:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, fmt.Errorf("%w: bad spilled-batch reference", ErrCorrupt)
	}
	path := string(b[k : k+int(n)])
	b = b[k+int(n):]
	off, k1 := binary.Uvarint(b)
	if k1 <= 0 {
		return nil, fmt.Errorf("%w: bad spilled-batch reference to %s", ErrCorrupt, path)
	}
	size, k2 := binary.Uvarint(b[k1:])
	if k2 <= 0 || len(b) != k1+k2+4 || size > 1<<40 {
		return nil, fmt.Errorf("%w: bad spilled-batch reference to %s", ErrCorrupt, path)
	}
	sum := binary.LittleEndian.Uint32(b[k1+k2:])
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("shuffle: reading a spilled batch: %w", err)
	}
	defer f.Close()
	batch := make([]byte, size)
	if _, err := f.ReadAt(batch, int64(off)); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("shuffle: reading the spilled batch at %s, offset %d: %w", path, off, err)
	}
	if crc32.Checksum(batch, castagnoli) != sum {
		return nil, fmt.Errorf("%w: the spilled batch at %s, offset %d, does not match its checksum", ErrCorrupt, path, off)
	}
	if len(batch) == 0 || batch[0] != ref[0]&^spillFlag {
		return nil, fmt.Errorf("%w: the spilled batch at %s, offset %d, is not of its reference's kind", ErrCorrupt, path, off)
	}
	return batch, nil
}
