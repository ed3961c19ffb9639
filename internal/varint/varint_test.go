package varint

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

// TestRoundTrip reads back every kind of field in order.
func TestRoundTrip(t *testing.T) {
	var b []byte
	b = binary.AppendUvarint(b, 300)
	b = binary.AppendVarint(b, -300)
	b = append(b, 7)
	b = binary.LittleEndian.AppendUint32(b, 0xdeadbeef)
	b = binary.LittleEndian.AppendUint64(b, 1<<60+5)
	b = AppendString(b, "Αλβανία")
	b = binary.AppendUvarint(b, 2) // a count of two 1-byte items
	b = append(b, 'x', 'y')
	d := NewDecoder(b)
	if v := d.Uvarint(); v != 300 {
		t.Errorf("Uvarint = %d", v)
	}
	if v := d.Varint(); v != -300 {
		t.Errorf("Varint = %d", v)
	}
	if c := d.Byte(); c != 7 {
		t.Errorf("Byte = %d", c)
	}
	if v := d.Fixed32(); v != 0xdeadbeef {
		t.Errorf("Fixed32 = %#x", v)
	}
	if v := d.Fixed64(); v != 1<<60+5 {
		t.Errorf("Fixed64 = %d", v)
	}
	if s := d.Text(); s != "Αλβανία" {
		t.Errorf("Text = %q", s)
	}
	if n := d.Count(1); n != 2 || d.Len() != 2 {
		t.Errorf("Count = %d with %d bytes left", n, d.Len())
	}
	if r := d.Rest(); string(r) != "xy" {
		t.Errorf("Rest = %q", r)
	}
	if err := d.Done(); err != nil {
		t.Errorf("Done = %v", err)
	}
}

// TestVarint reads signed varints at the edges of their byte lengths
// (zigzag: 63 and -64 take one byte, 64 and -65 two), each followed by a
// byte the read must leave.
func TestVarint(t *testing.T) {
	for _, tt := range []struct {
		v     int64
		bytes int
	}{
		{0, 1}, {1, 1}, {-1, 1}, {63, 1}, {-64, 1}, {64, 2}, {-65, 2},
		{-300, 2}, {math.MaxInt64, 10}, {math.MinInt64, 10},
	} {
		b := append(binary.AppendVarint(nil, tt.v), 0xaa)
		d := NewDecoder(b)
		if got := d.Varint(); got != tt.v || d.Err() != nil || d.Len() != 1 || len(b)-1 != tt.bytes {
			t.Errorf("Varint of % x = %d (%v, %d bytes left), want %d in %d bytes", b, got, d.Err(), d.Len(), tt.v, tt.bytes)
		}
		if cut := NewDecoder(b[:tt.bytes-1]); cut.Varint() != 0 || !errors.Is(cut.Err(), ErrShort) {
			t.Errorf("Varint of %d cut to %d bytes: %v, want ErrShort", tt.v, tt.bytes-1, cut.Err())
		}
	}
}

// TestFailures checks that a cut or corrupt record fails with ErrShort,
// that the first failure sticks, and that Done refuses bytes left over.
func TestFailures(t *testing.T) {
	tests := []struct {
		name string
		b    []byte
		read func(d *Decoder)
	}{
		{"empty uvarint", nil, func(d *Decoder) { d.Uvarint() }},
		{"cut uvarint", []byte{0x80}, func(d *Decoder) { d.Uvarint() }},
		{"empty varint", nil, func(d *Decoder) { d.Varint() }},
		{"cut varint", []byte{0xff, 0xff}, func(d *Decoder) { d.Varint() }},
		{"varint past 64 bits", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, func(d *Decoder) { d.Varint() }},
		{"no byte", nil, func(d *Decoder) { d.Byte() }},
		{"short 32-bit word", []byte{1, 2, 3}, func(d *Decoder) { d.Fixed32() }},
		{"short word", []byte{1, 2, 3}, func(d *Decoder) { d.Fixed64() }},
		{"length past the end", []byte{5, 'a', 'b'}, func(d *Decoder) { d.Text() }},
		{"count of 4-byte items past the end", []byte{2, 1, 2, 3, 4}, func(d *Decoder) { d.Count(4) }},
	}
	for _, tt := range tests {
		d := NewDecoder(tt.b)
		tt.read(d)
		if !errors.Is(d.Err(), ErrShort) {
			t.Errorf("%s: Err = %v, want ErrShort", tt.name, d.Err())
		}
		if v := d.Uvarint(); v != 0 || !errors.Is(d.Err(), ErrShort) {
			t.Errorf("%s: a read after the failure gave %d, %v", tt.name, v, d.Err())
		}
	}
	d := NewDecoder([]byte{1, 2})
	d.Uvarint()
	if err := d.Done(); err == nil || errors.Is(err, ErrShort) {
		t.Errorf("Done with a byte left = %v, want bytes after the record", err)
	}
}

// FuzzDecoder reads arbitrary bytes as a record of every kind of field:
// never a panic, and a failure is sticky.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte{3, 'a', 'b', 'c', 0x80})
	f.Fuzz(func(t *testing.T, b []byte) {
		d := NewDecoder(b)
		d.Uvarint()
		d.Varint()
		d.Bytes()
		d.Count(3)
		d.Fixed32()
		d.Fixed64()
		d.Byte()
		d.Text()
		if d.Err() != nil && d.Len() != 0 {
			t.Fatalf("failed with %d bytes still readable", d.Len())
		}
	})
}
