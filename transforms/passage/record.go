package passage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// pairRecord is a document pair's passages as they cross the stage's
// shuffles, joined on the way with the page infos of both documents.
type pairRecord struct {
	DocA, DocB         uint64 // sentence.Doc, DocA < DocB
	CoveredA, CoveredB int    // in-window sentences the passages cover (Covered)
	Passages           []Passage
	InfoA, InfoB       []byte // encoded minhash.PageInfo, once joined
}

// appendBinary appends the encoding of r to b.
func (r *pairRecord) appendBinary(b []byte) []byte {
	for _, n := range [...]uint64{r.DocA, r.DocB, uint64(r.CoveredA), uint64(r.CoveredB), uint64(len(r.Passages))} {
		b = binary.AppendUvarint(b, n)
	}
	for _, p := range r.Passages {
		b = binary.AppendUvarint(b, uint64(len(p.Points)))
		for _, pt := range p.Points {
			for _, n := range [...]int{pt.RankA, pt.RankB, pt.OrdA, pt.OrdB} {
				b = binary.AppendUvarint(b, uint64(n))
			}
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(pt.Jaccard))
		}
	}
	for _, info := range [...][]byte{r.InfoA, r.InfoB} {
		b = binary.AppendUvarint(b, uint64(len(info)))
		b = append(b, info...)
	}
	return b
}

var errShort = errors.New("passage: truncated record")

// decoder reads numbers off the front of a record, remembering the first
// failure.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errShort
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a length or a count that cannot exceed the bytes left, each
// of its items taking at least min bytes.
func (d *decoder) count(min int) int {
	v := d.uvarint()
	if v > uint64(len(d.b)/min) {
		d.err, d.b = errShort, nil
		return 0
	}
	return int(v)
}

func (d *decoder) bytes() []byte {
	n := d.count(1)
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

// unmarshalBinary decodes what appendBinary wrote.
func (r *pairRecord) unmarshalBinary(b []byte) error {
	d := decoder{b: b}
	r.DocA, r.DocB = d.uvarint(), d.uvarint()
	r.CoveredA, r.CoveredB = int(d.uvarint()), int(d.uvarint())
	r.Passages = make([]Passage, d.count(1))
	for i := range r.Passages {
		pts := make([]Point, d.count(12))
		for j := range pts {
			pts[j].RankA, pts[j].RankB = int(d.uvarint()), int(d.uvarint())
			pts[j].OrdA, pts[j].OrdB = int(d.uvarint()), int(d.uvarint())
			if d.err != nil || len(d.b) < 8 {
				return errShort
			}
			pts[j].Jaccard = math.Float64frombits(binary.LittleEndian.Uint64(d.b))
			d.b = d.b[8:]
		}
		r.Passages[i].Points = pts
	}
	r.InfoA, r.InfoB = d.bytes(), d.bytes()
	if d.err != nil {
		return d.err
	}
	if len(d.b) != 0 {
		return fmt.Errorf("passage: %d bytes after a record", len(d.b))
	}
	return nil
}

// textRecord is the text of one sentence of a passage, on its way to the
// passage's document pair: uvarint DocA, DocB, sentence id, then the text.
type textRecord struct {
	DocA, DocB uint64
	ID         uint64
	Text       string
}

func (t *textRecord) appendBinary(b []byte) []byte {
	for _, n := range [...]uint64{t.DocA, t.DocB, t.ID} {
		b = binary.AppendUvarint(b, n)
	}
	return append(b, t.Text...)
}

func (t *textRecord) unmarshalBinary(b []byte) error {
	d := decoder{b: b}
	t.DocA, t.DocB, t.ID = d.uvarint(), d.uvarint(), d.uvarint()
	if d.err != nil {
		return d.err
	}
	t.Text = string(d.b)
	return nil
}
