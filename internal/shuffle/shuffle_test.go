package batch

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestPairsRoundTrip(t *testing.T) {
	in := []Pair{{0, 0}, {1, 2}, {1<<64 - 1, 1 << 63}}
	var b []byte
	for _, p := range in {
		b = AppendPair(b, p)
	}
	if len(b) != len(in)*PairSize {
		t.Fatalf("encoded %d bytes, want %d", len(b), len(in)*PairSize)
	}
	got, err := AppendPairs(nil, b)
	if err != nil || !slices.Equal(got, in) {
		t.Fatalf("AppendPairs = %v, %v; want %v", got, err, in)
	}
	if _, err := AppendPairs(nil, b[:17]); err == nil {
		t.Error("a 17-byte pair batch decoded without error")
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	in := [][]byte{[]byte("a"), {}, bytes.Repeat([]byte("x"), 300), []byte("Zürich")}
	var raw []byte
	for _, r := range in {
		raw = AppendRecord(raw, r)
	}
	b := Seal(raw)
	if len(b) >= len(raw) {
		t.Errorf("sealed batch of %d bytes from %d raw bytes: not compressed", len(b), len(raw))
	}
	var got [][]byte
	if err := Records(b, func(r []byte) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(got, in, bytes.Equal) {
		t.Fatalf("Records = %q, want %q", got, in)
	}
	clear(b) // records alias Records' own buffer, not the batch
	if !slices.EqualFunc(got, in, bytes.Equal) {
		t.Fatalf("records changed with the batch: %q", got)
	}
	for _, cut := range []int{1, 5, len(raw) - 1} {
		if err := Records(Seal(raw[:cut]), func([]byte) error { return nil }); !errors.Is(err, ErrCorrupt) {
			t.Errorf("raw batch cut at %d: err = %v, want ErrCorrupt", cut, err)
		}
	}
	sealed := Seal(raw)
	for _, bad := range [][]byte{sealed[:len(sealed)-1], raw, {0xff}} {
		if err := Records(bad, func([]byte) error { return nil }); !errors.Is(err, ErrCorrupt) {
			t.Errorf("batch %x: err = %v, want ErrCorrupt", bad[:min(len(bad), 8)], err)
		}
	}
	stop := errors.New("stop")
	if err := Records(Seal(raw), func([]byte) error { return stop }); err != stop {
		t.Errorf("callback error not returned: %v", err)
	}
}

func TestPacker(t *testing.T) {
	type emitted struct {
		shard int
		pairs int
	}
	var got []emitted
	emit := func(shard int, b []byte) { got = append(got, emitted{shard, len(b) / PairSize}) }
	p := NewPacker(3, 3*PairSize)
	for i := range 7 {
		p.AddPair(i%2*2, Pair{uint64(i), 0}, emit)
	}
	// shard 0 gets i=0,2,4,6 (full after 3), shard 2 gets i=1,3,5 (full after 3).
	want := []emitted{{0, 3}, {2, 3}}
	if !slices.Equal(got, want) {
		t.Fatalf("while adding: emitted %v, want %v", got, want)
	}
	p.Flush(emit)
	want = append(want, emitted{0, 1})
	if !slices.Equal(got, want) {
		t.Fatalf("after flush: emitted %v, want %v", got, want)
	}
	p.Flush(emit)
	if len(got) != len(want) {
		t.Error("second flush emitted again")
	}
}

func TestShard(t *testing.T) {
	counts := make([]int, 7)
	for i := range uint64(70000) {
		h := i * 0x9e3779b97f4a7c15
		s := Shard(h, 7)
		if s < 0 || s >= 7 {
			t.Fatalf("Shard = %d out of range", s)
		}
		counts[s]++
	}
	for s, c := range counts {
		if c < 9000 || c > 11000 {
			t.Errorf("shard %d got %d of 70000, want about 10000", s, c)
		}
	}
	if Shard(1<<64-1, 1) != 0 || Shard(1<<64-1, 5) != 4 {
		t.Error("Shard edges wrong")
	}
}

// TestPackerSealsRecords checks that a Packer of byte strings emits sealed
// batches that Records reads back in order, and that reusing its buffer
// after a full batch does not change what it emitted before.
func TestPackerSealsRecords(t *testing.T) {
	var batches [][]byte
	emit := func(shard int, b []byte) {
		if shard != 1 {
			t.Errorf("batch emitted to shard %d, want 1", shard)
		}
		batches = append(batches, b)
	}
	p := NewPacker(2, 64)
	var in [][]byte
	for i := range 40 {
		rec := []byte(strings.Repeat(string(rune('a'+i%26)), 10+i))
		in = append(in, rec)
		p.AddRecord(1, rec, emit)
	}
	p.Flush(emit)
	if len(batches) < 10 {
		t.Fatalf("%d batches for 40 records of 10+ bytes with a 64-byte limit", len(batches))
	}
	var got [][]byte
	for _, b := range batches {
		if err := Records(b, func(r []byte) error { got = append(got, r); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.EqualFunc(got, in, bytes.Equal) {
		t.Errorf("records read back = %q, want %q", got, in)
	}
}

func TestDeltaPairsRoundTrip(t *testing.T) {
	in := []Pair{{5, 1 << 40}, {1<<64 - 1, 1<<40 + 3}, {0, 1<<40 + 3}, {7, 12}, {8, 1<<64 - 1}, {9, 0}}
	var b []byte
	var prev uint64
	for _, p := range in {
		b = AppendDeltaPair(b, p, prev)
		prev = p.B
	}
	got, err := AppendDeltaPairs(nil, b)
	if err != nil || !slices.Equal(got, in) {
		t.Fatalf("AppendDeltaPairs = %v, %v; want %v", got, err, in)
	}
	// Growing ids cost 8 bytes and a one-byte varint a pair.
	var grow []byte
	for i := range 100 {
		grow = AppendDeltaPair(grow, Pair{uint64(i), 1<<40 + uint64(i)}, 1<<40+uint64(i)-1)
	}
	if len(grow) != 100*9 {
		t.Errorf("100 pairs with ids one apart: %d bytes, want 900", len(grow))
	}
	for _, cut := range []int{1, 8, 9, len(b) - 1} {
		if _, err := AppendDeltaPairs(nil, b[:cut]); err == nil {
			t.Errorf("delta-pair batch cut at %d decoded without error", cut)
		}
	}
	if _, err := AppendDeltaPairs(nil, append(make([]byte, 8), 0x80)); err == nil {
		t.Error("a pair with an unterminated varint decoded without error")
	}
}

func TestPackerDeltaPairsRestartEachBatch(t *testing.T) {
	var batches [][]byte
	p := NewPacker(1, 40)
	var in []Pair
	for i := range 20 {
		pr := Pair{uint64(i), 1<<45 + uint64(i*i)}
		in = append(in, pr)
		p.AddDeltaPair(0, pr, func(_ int, b []byte) { batches = append(batches, b) })
	}
	p.Flush(func(_ int, b []byte) { batches = append(batches, b) })
	if len(batches) < 4 {
		t.Fatalf("%d batches, want several", len(batches))
	}
	var got []Pair
	for _, b := range batches {
		ps, err := AppendDeltaPairs(nil, b) // each batch decodes on its own
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ps...)
	}
	if !slices.Equal(got, in) {
		t.Errorf("pairs read back = %v, want %v", got, in)
	}
}

func TestHeldReplaysInOrder(t *testing.T) {
	var h Held
	emit := h.Emit
	emit(2, []byte("a"))
	emit(0, []byte("b"))
	emit(2, []byte("c"))
	var got []string
	h.Replay(func(shard int, b []byte) { got = append(got, fmt.Sprintf("%d:%s", shard, b)) })
	if want := []string{"2:a", "0:b", "2:c"}; !slices.Equal(got, want) {
		t.Errorf("replayed %q, want %q", got, want)
	}
}
