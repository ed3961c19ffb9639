// Package shuffle is the pipeline's shuffle plumbing: it packs small records
// into per-shard byte batches, tags each batch with its kind, and gives each
// kind of batch collection its own Go type, so that two stages wired wrongly
// fail to compile, and a batch of the wrong kind fails on decode instead of
// being misread.
//
// Runners pay a fixed cost for every element that crosses a shuffle, so the
// pipeline never shuffles a signature, an edge or a sentence on its own: a
// DoFn appends records to the batch of their shard and emits a batch when
// it is full or the bundle ends, and the consumer of a shard decodes all its
// batches and sorts what it needs to sort, which also makes the result
// independent of how the runner bundled the input. Every batch starts with
// its Kind's byte; batches of byte strings cross compressed (S2).
//
// The encodings and what packing saves: docs/architecture.md, "The shuffle
// is packed".
package shuffle

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/klauspost/compress/s2"

	"github.com/neardup/neardup/internal/hashmix"
)

// PairSize is the encoded size of a pair.
const PairSize = 16

// Pair is two uint64s: (band key, sentence id), an edge, or (sentence, cluster).
type Pair struct{ A, B uint64 }

// ErrCorrupt reports a batch that does not decode: a record batch that does
// not decompress or whose length prefixes do not add up, a pair batch cut
// inside a pair.
var ErrCorrupt = errors.New("shuffle: corrupt batch")

// Records calls fn for each record of the batch b, which must be of kind k,
// in order, stopping at the first error. The record slices alias a buffer
// that Records allocates, not b: they stay valid after b is reused.
func (k Kind) Records(b []byte, fn func(rec []byte) error) error {
	body, err := k.body(b, records)
	if err != nil {
		return err
	}
	raw, err := s2.Decode(nil, body)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return rawRecords(raw, fn)
}

// rawRecords calls fn for each record of the raw batch b.
func rawRecords(b []byte, fn func(rec []byte) error) error {
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return ErrCorrupt
		}
		if err := fn(b[k : k+int(n)]); err != nil {
			return err
		}
		b = b[k+int(n):]
	}
	return nil
}

// AppendPairs decodes every pair of the batch b, which must be of kind k,
// and appends them to dst.
func (k Kind) AppendPairs(dst []Pair, b []byte) ([]Pair, error) {
	enc := k.encoding()
	if enc == records {
		return dst, fmt.Errorf("shuffle: %v are not decoded that way", k)
	}
	body, err := k.body(b, enc)
	if err != nil {
		return dst, err
	}
	if enc == deltaPairs {
		return appendDeltaPairs(dst, body)
	}
	return appendPairs(dst, body)
}

func appendPairs(dst []Pair, b []byte) ([]Pair, error) {
	if len(b)%PairSize != 0 {
		return dst, fmt.Errorf("%w: pair batch of %d bytes is not a multiple of %d", ErrCorrupt, len(b), PairSize)
	}
	for ; len(b) > 0; b = b[PairSize:] {
		dst = append(dst, Pair{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])})
	}
	return dst, nil
}

func appendDeltaPairs(dst []Pair, b []byte) ([]Pair, error) {
	var prev uint64
	for len(b) > 0 {
		if len(b) < 9 {
			return dst, fmt.Errorf("%w: delta-pair batch cut %d bytes into a pair", ErrCorrupt, len(b))
		}
		d, n := binary.Varint(b[8:])
		if n <= 0 {
			return dst, fmt.Errorf("%w: delta-pair batch with a bad varint", ErrCorrupt)
		}
		prev += uint64(d)
		dst = append(dst, Pair{binary.LittleEndian.Uint64(b), prev})
		b = b[8+n:]
	}
	return dst, nil
}

// AppendRecord appends a length-prefixed record to b, a raw record batch
// that Kind.Seal turns into a batch.
func AppendRecord(b, rec []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(rec)))
	return append(b, rec...)
}

// Seal compresses a raw record batch, made by AppendRecord, into a batch of
// kind k, as Records reads it. Packers seal what they emit.
func (k Kind) Seal(raw []byte) []byte {
	out := make([]byte, 1+s2.MaxEncodedLen(len(raw)))
	out[0] = byte(k)
	out = out[:1+len(s2.Encode(out[1:], raw))]
	if cap(out) > 2*len(out) {
		// A batch held until it is emitted (a join's Held) must not keep
		// the worst case's buffer: a 1 MiB one for 5 KB compressed.
		out = bytes.Clone(out)
	}
	return out
}

// PackPairs returns ps as one batch of kind k, whatever its size.
func (k Kind) PackPairs(ps ...Pair) []byte {
	var out []byte
	p := newPacker(k, 1, math.MaxInt)
	for _, pr := range ps {
		p.Add(0, pr, nil)
	}
	p.Flush(func(_ int, b []byte) { out = b })
	return out
}

// PackRecords returns recs as one batch of kind k.
func (k Kind) PackRecords(recs ...[]byte) []byte {
	var raw []byte
	for _, r := range recs {
		raw = AppendRecord(raw, r)
	}
	return k.Seal(raw)
}

// DefaultLimit is the batch size, in bytes, at which a Packer of up to 32
// shards emits a batch.
const DefaultLimit = 1 << 20

// Packer memory: a Packer holds a batch being filled for every shard, so
// with many shards it emits smaller batches, packerBudget bytes over all
// its shards, but none smaller than minLimit. The embedded runner's shards
// grow with the input (one per 8 MB), and at 1 MiB a shard the MinHash
// stage's three Packers held 1.4–2.8 GB of a 10 M-sentence run's 4.3 GB.
const (
	packerBudget = 32 << 20
	minLimit     = 64 << 10
)

// Packer accumulates the records of one kind into one batch per shard. It
// is not safe for concurrent use; DoFns keep one per bundle.
type Packer struct {
	kind   Kind
	enc    encoding
	shards int
	limit  int
	bufs   [][]byte
	prev   []uint64 // each shard's last B, for delta pairs
	// spill, when this process spills its shuffles (SpillTo), is the file
	// the Packer writes its batches to.
	spill *spillFile
}

// NewPacker returns a Packer of batches of kind k for shards shards: it
// emits a shard's batch at DefaultLimit bytes, or at packerBudget/shards
// (at least minLimit) when that is smaller.
func NewPacker(k Kind, shards int) *Packer {
	return newPacker(k, shards, min(DefaultLimit, max(minLimit, packerBudget/max(shards, 1))))
}

// newPacker returns a Packer that emits a batch once it reaches limit bytes.
func newPacker(k Kind, shards, limit int) *Packer {
	p := &Packer{kind: k, enc: k.encoding(), shards: shards, limit: limit, bufs: make([][]byte, shards)}
	if p.enc == deltaPairs {
		p.prev = make([]uint64, shards)
	}
	if s := spilling.Load(); s != nil {
		p.spill = &spillFile{s: s}
	}
	return p
}

// out is what the Packer emits for the batch b: b, or a reference to it
// once written to the spill file.
func (p *Packer) out(b []byte) []byte {
	if p.spill == nil {
		return b
	}
	return p.spill.put(p.kind, b)
}

// Shards is the number of shards.
func (p *Packer) Shards() int { return p.shards }

// Add adds a pair to shard and emits the shard's batch if it is full. The
// Packer's kind must hold pairs.
func (p *Packer) Add(shard int, pr Pair, emit func(shard int, batch []byte)) {
	b := p.bufs[shard]
	switch p.enc {
	case pairs:
		if len(b) == 0 {
			b = append(b, byte(p.kind))
		}
		b = binary.LittleEndian.AppendUint64(b, pr.A)
		b = binary.LittleEndian.AppendUint64(b, pr.B)
	case deltaPairs:
		if len(b) == 0 {
			b, p.prev[shard] = append(b, byte(p.kind)), 0
		}
		b = binary.LittleEndian.AppendUint64(b, pr.A)
		b = binary.AppendVarint(b, int64(pr.B-p.prev[shard]))
		p.prev[shard] = pr.B
	default:
		panic(fmt.Sprintf("shuffle: pair added to a packer of %v", p.kind))
	}
	p.bufs[shard] = b
	if len(b) >= p.limit {
		emit(shard, p.out(b))
		p.bufs[shard] = nil
	}
}

// AddRecord adds a record to shard and emits the shard's batch, sealed, if
// it is full. The Packer's kind must hold records.
func (p *Packer) AddRecord(shard int, rec []byte, emit func(shard int, batch []byte)) {
	if p.enc != records {
		panic(fmt.Sprintf("shuffle: record added to a packer of %v", p.kind))
	}
	p.bufs[shard] = AppendRecord(p.bufs[shard], rec)
	if len(p.bufs[shard]) >= p.limit {
		// The sealed batch is a copy: keep the buffer for the next one.
		emit(shard, p.out(p.kind.Seal(p.bufs[shard])))
		p.bufs[shard] = p.bufs[shard][:0]
	}
}

// Flush emits every non-empty batch in shard order and empties the Packer.
// Emitted slices are not reused by the Packer.
func (p *Packer) Flush(emit func(shard int, batch []byte)) {
	for shard, b := range p.bufs {
		if len(b) > 0 {
			if p.enc == records {
				b = p.kind.Seal(b)
			}
			emit(shard, p.out(b))
		}
		p.bufs[shard] = nil
	}
	if p.spill != nil {
		p.spill.close()
	}
}

// Shard maps a well-mixed 64-bit hash to one of n shards, using its high
// bits (Lemire's multiply-shift range reduction).
func Shard(hash uint64, n int) int { return hashmix.Range(hash, n) }

// ShardOf maps an id that need not be well mixed, such as a sentence id, to
// one of n shards, after mixing it with splitmix64's finaliser.
func ShardOf(id uint64, n int) int { return hashmix.Range(hashmix.Splitmix64(id), n) }

// EdgeShard returns which of n shards the edge (u, v) goes to in round
// round of the connected-components stage, or 0 if n < 1. The edge is
// routed by its smaller endpoint, so an edge and its reverse go to the same
// shard and so do all star edges pointing at one root. That endpoint is
// mixed with splitmix64's finaliser, salted by round: the key is
// m + (round+1)·γ, i.e. the (round+1)-th state of a splitmix64 generator
// seeded with m. A different round thus gives an unrelated partition.
// verify keys its edges with round 0, so that the first round groups them
// without another shuffle.
func EdgeShard(u, v uint64, round, n int) int {
	if n < 1 {
		return 0
	}
	return hashmix.Range(hashmix.Splitmix64(min(u, v)+uint64(round+1)*hashmix.Gamma), n)
}

// Collect returns every batch a GroupByKey iterator yields.
func Collect(iter func(*[]byte) bool) [][]byte {
	var all [][]byte
	var b []byte
	for iter(&b) {
		all = append(all, b)
	}
	return all
}

// Held is batches held back to be emitted later, in order. A worker of a
// DoFn's pool (package ordered) packs into one with Emit, and the bundle's
// goroutine, the only one that may emit, replays it.
type Held []heldBatch

type heldBatch struct {
	shard int
	batch []byte
}

// Emit holds b for shard; it has the signature of an emitter.
func (h *Held) Emit(shard int, b []byte) { *h = append(*h, heldBatch{shard, b}) }

// Replay emits the held batches in the order they were held.
func (h Held) Replay(emit func(shard int, batch []byte)) {
	for _, b := range h {
		emit(b.shard, b.batch)
	}
}
