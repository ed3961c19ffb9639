package shuffle

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/hashmix"
)

func TestPairsRoundTrip(t *testing.T) {
	in := []Pair{{0, 0}, {1, 2}, {1<<64 - 1, 1 << 63}}
	b := packOne(t, KindEdges, in)
	if len(b) != 1+len(in)*PairSize {
		t.Fatalf("encoded %d bytes, want %d", len(b), 1+len(in)*PairSize)
	}
	got, err := KindEdges.AppendPairs(nil, b)
	if err != nil || !slices.Equal(got, in) {
		t.Fatalf("AppendPairs = %v, %v; want %v", got, err, in)
	}
	if _, err := KindEdges.AppendPairs(nil, b[:18]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a batch cut into a pair: err = %v, want ErrCorrupt", err)
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	in := [][]byte{[]byte("a"), {}, bytes.Repeat([]byte("x"), 300), []byte("Zürich")}
	var raw []byte
	for _, r := range in {
		raw = AppendRecord(raw, r)
	}
	b := KindSentences.Seal(raw)
	if len(b) >= len(raw) {
		t.Errorf("sealed batch of %d bytes from %d raw bytes: not compressed", len(b), len(raw))
	}
	var got [][]byte
	if err := KindSentences.Records(b, func(r []byte) error { got = append(got, r); return nil }); err != nil {
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
		if err := KindSentences.Records(KindSentences.Seal(raw[:cut]), func([]byte) error { return nil }); !errors.Is(err, ErrCorrupt) {
			t.Errorf("raw batch cut at %d: err = %v, want ErrCorrupt", cut, err)
		}
	}
	sealed := KindSentences.Seal(raw)
	for _, bad := range [][]byte{sealed[:len(sealed)-1], append([]byte{byte(KindSentences)}, raw...), {byte(KindSentences), 0xff}, {}} {
		if err := KindSentences.Records(bad, func([]byte) error { return nil }); !errors.Is(err, ErrCorrupt) {
			t.Errorf("batch %x: err = %v, want ErrCorrupt", bad[:min(len(bad), 8)], err)
		}
	}
	stop := errors.New("stop")
	if err := KindSentences.Records(KindSentences.Seal(raw), func([]byte) error { return stop }); err != stop {
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
	p := newPacker(KindEdges, 3, 3*PairSize)
	for i := range 7 {
		p.Add(i%2*2, Pair{uint64(i), 0}, emit)
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
		h := i * hashmix.Gamma
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
	p := newPacker(KindLines, 2, 64)
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
		if err := KindLines.Records(b, func(r []byte) error { got = append(got, r); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.EqualFunc(got, in, bytes.Equal) {
		t.Errorf("records read back = %q, want %q", got, in)
	}
}

func TestDeltaPairsRoundTrip(t *testing.T) {
	in := []Pair{{5, 1 << 40}, {1<<64 - 1, 1<<40 + 3}, {0, 1<<40 + 3}, {7, 12}, {8, 1<<64 - 1}, {9, 0}}
	b := packOne(t, KindEntries, in)
	got, err := KindEntries.AppendPairs(nil, b)
	if err != nil || !slices.Equal(got, in) {
		t.Fatalf("AppendDeltaPairs = %v, %v; want %v", got, err, in)
	}
	// Growing ids cost 8 bytes and a one-byte varint a pair.
	var grow []Pair
	for i := range 100 {
		grow = append(grow, Pair{uint64(i), 1<<40 + uint64(i)})
	}
	// The first pair's B is a varint of 1<<40: 6 bytes.
	if n := len(packOne(t, KindEntries, grow)); n != 1+8+6+99*9 {
		t.Errorf("100 pairs with ids one apart: %d bytes, want %d", n, 1+8+6+99*9)
	}
	for _, cut := range []int{2, 9, 10, len(b) - 1} {
		if _, err := KindEntries.AppendPairs(nil, b[:cut]); !errors.Is(err, ErrCorrupt) {
			t.Errorf("delta-pair batch cut at %d: err = %v, want ErrCorrupt", cut, err)
		}
	}
	if _, err := KindEntries.AppendPairs(nil, append(append([]byte{byte(KindEntries)}, make([]byte, 8)...), 0x80)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a pair with an unterminated varint: err = %v, want ErrCorrupt", err)
	}
}

func TestPackerDeltaPairsRestartEachBatch(t *testing.T) {
	var batches [][]byte
	p := newPacker(KindEntries, 1, 40)
	var in []Pair
	for i := range 20 {
		pr := Pair{uint64(i), 1<<45 + uint64(i*i)}
		in = append(in, pr)
		p.Add(0, pr, func(_ int, b []byte) { batches = append(batches, b) })
	}
	p.Flush(func(_ int, b []byte) { batches = append(batches, b) })
	if len(batches) < 4 {
		t.Fatalf("%d batches, want several", len(batches))
	}
	var got []Pair
	for _, b := range batches {
		ps, err := KindEntries.AppendPairs(nil, b) // each batch decodes on its own
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

// packOne packs pairs into one batch of kind k.
func packOne(t *testing.T, k Kind, in []Pair) []byte {
	t.Helper()
	var out [][]byte
	p := NewPacker(k, 1)
	for _, pr := range in {
		p.Add(0, pr, func(_ int, b []byte) { out = append(out, b) })
	}
	p.Flush(func(_ int, b []byte) { out = append(out, b) })
	if len(out) != 1 {
		t.Fatalf("%d batches, want 1", len(out))
	}
	if pk := k.PackPairs(in...); !bytes.Equal(pk, out[0]) {
		t.Fatalf("PackPairs = %x, want the packer's %x", pk, out[0])
	}
	return out[0]
}

// TestKindIsChecked feeds each decoder a batch of another kind, as a stage
// wired to the wrong input would: the error names both kinds.
func TestKindIsChecked(t *testing.T) {
	edges := packOne(t, KindEdges, []Pair{{1, 2}})
	if _, err := KindLabels.AppendPairs(nil, edges); err == nil || err.Error() != "shuffle: a batch of verified edges where component labels were expected" {
		t.Errorf("labels decoder on an edge batch: err = %v", err)
	}
	if _, err := KindEntries.AppendPairs(nil, edges); err == nil || err.Error() != "shuffle: a batch of verified edges where signature entries were expected" {
		t.Errorf("delta decoder on a raw pair batch: err = %v", err)
	}
	lines := KindLines.Seal(AppendRecord(nil, []byte("x")))
	if err := KindSentences.Records(lines, func([]byte) error { return nil }); err == nil || err.Error() != "shuffle: a batch of output lines where sentences were expected" {
		t.Errorf("sentence decoder on a line batch: err = %v", err)
	}
	if _, err := KindSentences.AppendPairs(nil, lines); err == nil || err.Error() != "shuffle: sentences are not decoded that way" {
		t.Errorf("pair decoder of a record kind: err = %v", err)
	}
	if err := KindLines.Records([]byte{0x7f}, func([]byte) error { return nil }); err == nil || err.Error() != "shuffle: a batch of unknown kind 0x7f where output lines were expected" {
		t.Errorf("unknown kind: err = %v", err)
	}
}

func TestCollect(t *testing.T) {
	in := [][]byte{[]byte("a"), nil, []byte("bc")}
	i := 0
	iter := func(b *[]byte) bool {
		if i == len(in) {
			return false
		}
		*b, i = in[i], i+1
		return true
	}
	if got := Collect(iter); !slices.EqualFunc(got, in, bytes.Equal) || len(got) != 3 {
		t.Errorf("Collect = %q, want %q", got, in)
	}
}

func TestPackerLimitShrinksWithShards(t *testing.T) {
	tests := []struct{ shards, want int }{
		{1, DefaultLimit}, {32, DefaultLimit}, {64, 512 << 10}, {472, 71089}, {1024, minLimit}, {100000, minLimit},
	}
	for _, tt := range tests {
		if got := NewPacker(KindCandidates, tt.shards).limit; got != tt.want {
			t.Errorf("NewPacker(_, %d).limit = %d, want %d", tt.shards, got, tt.want)
		}
	}
}
