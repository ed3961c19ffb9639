// Package varint reads and writes the byte layouts of the records the
// stages pack for a shuffle or a side input: unsigned and signed varints,
// counts and lengths, length-prefixed bytes and strings, fixed 32- and
// 64-bit words. A
// Decoder remembers its first error, so a record is read field after
// field and checked once at the end.
package varint

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrShort is the error of a record that ends before its last field.
var ErrShort = errors.New("record cut short")

// AppendString appends s with its length before it, as a Decoder's Bytes
// and Text read it.
func AppendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// A Decoder reads the fields of one record off the front of its bytes.
// After the first failure every read returns the zero value and Err
// returns the failure.
type Decoder struct {
	b   []byte
	err error
}

// NewDecoder returns a Decoder of the record b.
func NewDecoder(b []byte) *Decoder { return &Decoder{b: b} }

// Err returns the first failure, or nil.
func (d *Decoder) Err() error { return d.err }

// Len returns how many bytes are left to read.
func (d *Decoder) Len() int { return len(d.b) }

// Rest returns the bytes left to read, and reads them.
func (d *Decoder) Rest() []byte {
	b := d.b
	d.b = d.b[len(d.b):]
	return b
}

// Fail records err as the decoder's failure, if it has none yet.
func (d *Decoder) Fail(err error) {
	if d.err == nil {
		d.err, d.b = err, nil
	}
}

// Done fails the decoder if bytes are left: a record read to its end.
func (d *Decoder) Done() error {
	if d.err == nil && len(d.b) > 0 {
		d.Fail(fmt.Errorf("%d bytes after the record", len(d.b)))
	}
	return d.err
}

// Uvarint reads an unsigned varint.
func (d *Decoder) Uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.Fail(ErrShort)
		return 0
	}
	d.b = d.b[n:]
	return v
}

// Varint reads a signed varint, as binary.AppendVarint wrote it: an
// unsigned one whose lowest bit is the sign (zigzag).
func (d *Decoder) Varint() int64 {
	u := d.Uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

// Byte reads one byte.
func (d *Decoder) Byte() byte {
	if p := d.next(1); p != nil {
		return p[0]
	}
	return 0
}

// Fixed32 reads a little-endian 32-bit word.
func (d *Decoder) Fixed32() uint32 {
	if p := d.next(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

// Fixed64 reads a little-endian 64-bit word.
func (d *Decoder) Fixed64() uint64 {
	if p := d.next(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

// next reads n bytes; it returns nil, having failed, if fewer are left.
func (d *Decoder) next(n int) []byte {
	if d.err != nil || len(d.b) < n {
		d.Fail(ErrShort)
		return nil
	}
	p := d.b[:n:n]
	d.b = d.b[n:]
	return p
}

// Count reads a count of items, or a length, that cannot exceed the bytes
// left, each item taking at least min (≥ 1) bytes: a corrupt count fails
// here instead of allocating.
func (d *Decoder) Count(min int) int {
	v := d.Uvarint()
	if v > uint64(len(d.b)/min) {
		d.Fail(ErrShort)
		return 0
	}
	return int(v)
}

// Bytes reads a length and that many bytes; the result shares the record's
// memory (its capacity ends with it).
func (d *Decoder) Bytes() []byte {
	n := d.Count(1)
	if d.err != nil {
		return nil
	}
	p := d.b[:n:n]
	d.b = d.b[n:]
	return p
}

// Text reads a length and that many bytes, as a string.
func (d *Decoder) Text() string { return string(d.Bytes()) }
