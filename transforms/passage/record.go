package passage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/neardup/neardup/internal/varint"
)

// pairRecord is a document pair's passages as they cross the stage's
// shuffles, joined on the way with the page infos of both documents.
type pairRecord struct {
	DocA, DocB         uint64 // sentence.Doc, DocA < DocB
	CoveredA, CoveredB int    // in-window sentences the passages cover (Covered)
	Passages           []Passage
	InfoA, InfoB       []byte // encoded minhash.PageInfo, once joined
}

// AppendBinary appends r to b as a shuffle.KindPassages record.
func (r *pairRecord) AppendBinary(b []byte) []byte {
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

// UnmarshalBinary decodes what AppendBinary wrote.
func (r *pairRecord) UnmarshalBinary(b []byte) error {
	d := varint.NewDecoder(b)
	r.DocA, r.DocB = d.Uvarint(), d.Uvarint()
	r.CoveredA, r.CoveredB = int(d.Uvarint()), int(d.Uvarint())
	r.Passages = make([]Passage, d.Count(1))
	for i := range r.Passages {
		pts := make([]Point, d.Count(12))
		for j := range pts {
			pts[j].RankA, pts[j].RankB = int(d.Uvarint()), int(d.Uvarint())
			pts[j].OrdA, pts[j].OrdB = int(d.Uvarint()), int(d.Uvarint())
			pts[j].Jaccard = math.Float64frombits(d.Fixed64())
		}
		r.Passages[i].Points = pts
	}
	r.InfoA, r.InfoB = d.Bytes(), d.Bytes()
	if err := d.Done(); err != nil {
		return fmt.Errorf("passage: %w", err)
	}
	return nil
}

// textRecord is the text of one sentence of a passage, on its way to the
// passage's document pair, or a request for it: a shuffle.KindTexts
// record.
type textRecord struct {
	DocA, DocB uint64
	ID         uint64
	Text       string
}

// AppendBinary appends t to b as a shuffle.KindTexts record.
func (t *textRecord) AppendBinary(b []byte) []byte {
	for _, n := range [...]uint64{t.DocA, t.DocB, t.ID} {
		b = binary.AppendUvarint(b, n)
	}
	return append(b, t.Text...)
}

// UnmarshalBinary decodes what AppendBinary wrote.
func (t *textRecord) UnmarshalBinary(b []byte) error {
	d := varint.NewDecoder(b)
	t.DocA, t.DocB, t.ID = d.Uvarint(), d.Uvarint(), d.Uvarint()
	t.Text = string(d.Rest())
	if err := d.Err(); err != nil {
		return fmt.Errorf("passage: %w", err)
	}
	return nil
}
