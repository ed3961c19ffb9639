package index

import (
	"errors"
	"fmt"
	"math"
)

// worker turns rows into records, with caches of the shared interners.
type worker struct {
	arts         *articleSet
	wikis, kinds *interner
	wikiIDs      map[string]uint16
	kindIDs      map[string]uint8
	row          row
}

// part is what a worker made of one chunk of a file.
type part struct {
	recs     []record
	refs     []uint32 // loading references (articleSet.ref)
	bad      int      // rows that could not be read
	firstBad string
}

func (p *part) badRow(at int64, err error) {
	if p.bad == 0 {
		p.firstBad = fmt.Sprintf("at byte %d: %v", at, err)
	}
	p.bad++
}

func (w *worker) wiki(name []byte) (uint16, error) {
	if id, ok := w.wikiIDs[string(name)]; ok {
		return id, nil
	}
	id, err := w.wikis.id(name)
	if err != nil {
		return 0, errors.New("more than 65,535 wikis")
	}
	w.wikiIDs[string(name)] = uint16(id)
	return uint16(id), nil
}

func (w *worker) kind(name []byte) (uint8, error) {
	if id, ok := w.kindIDs[string(name)]; ok {
		return id, nil
	}
	id, err := w.kinds.id(name)
	if err != nil {
		return 0, errors.New("more than 255 categories")
	}
	w.kindIDs[string(name)] = uint8(id)
	return uint8(id), nil
}

// errFatal marks an error that stops the load (the article table is full),
// not one of a row.
type errFatal struct{ error }

// add appends the record of w.row, of the given shard, to p.
func (w *worker) add(p *part, shard int) error {
	r := &w.row
	if r.size > math.MaxUint32 || r.pages > math.MaxUint32 || r.omitted > math.MaxUint32 {
		return errors.New("size out of range")
	}
	wiki, err := w.wiki(r.wiki)
	if err != nil {
		return err
	}
	kind, err := w.kind(r.kind)
	if err != nil {
		return err
	}
	rec := record{page: r.page, revOrd: r.revOrd, offset: r.offset, length: uint32(r.length),
		refs: uint32(len(p.refs)), nrefs: uint32(len(r.arts)), size: uint32(r.size), pages: uint32(r.pages),
		omitted: uint32(r.omitted), shard: uint32(shard), minJ: float32(r.minJ), maxE: float32(r.maxE),
		wiki: wiki, kind: kind}
	for _, a := range r.arts {
		aw, err := w.wiki(a.wiki)
		if err != nil {
			p.refs = p.refs[:rec.refs]
			return err
		}
		ref, err := w.arts.ref(aw, a.page, a.title)
		if err != nil {
			return errFatal{err}
		}
		p.refs = append(p.refs, ref)
	}
	p.recs = append(p.recs, rec)
	return nil
}
