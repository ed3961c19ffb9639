package index

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/neardup/neardup/transforms/categorize"
)

// row is a cluster as read from a line of a cluster index (or of a
// clusters file), its byte fields pointing into the line.
type row struct {
	offset, length       int64 // of its line in the clusters file
	wiki                 []byte
	page                 int64
	revOrd               uint64 // revision << ordinalBits | sentence ordinal
	kind                 []byte
	size, pages, omitted int64
	minJ, maxE           float64
	arts                 []artRow
}

// artRow is an article of a row.
type artRow struct {
	wiki  []byte
	page  int64
	title []byte
}

// parseIndexRow parses a line of cluster_index-*.tsv: offset, length and a
// categorize.Digest row (see categorize.AppendDigest).
func parseIndexRow(line []byte, r *row) error {
	f := fields{rest: line}
	off, err1 := atoi(f.next())
	length, err2 := atoi(f.next())
	if err := errors.Join(err1, err2); err != nil {
		return fmt.Errorf("offset and length: %w", err)
	}
	if off < 0 || length <= 0 || length > maxLine {
		return fmt.Errorf("offset %d and length %d out of range", off, length)
	}
	r.offset, r.length = off, length
	if bytes.IndexByte(f.rest, '\\') >= 0 { // escaped text: the digest's own parser
		d, err := categorize.ParseDigest(f.rest)
		if err != nil {
			return err
		}
		return r.setDigest(d)
	}
	return r.parseDigest(&f)
}

// maxLine bounds the length of a cluster's line the explorer reads.
const maxLine = 1 << 30

// parseDigest parses the fields of an unescaped digest row.
func (r *row) parseDigest(f *fields) error {
	var err error
	if r.wiki, r.page, r.revOrd, err = parseID(f.next()); err != nil {
		return err
	}
	if r.kind = f.next(); len(r.kind) == 0 {
		return errors.New("no category")
	}
	ints := [...]*int64{&r.size, &r.pages, &r.omitted}
	for _, p := range ints {
		if *p, err = atoi(f.next()); err != nil {
			return fmt.Errorf("size, pages and members omitted: %w", err)
		}
	}
	for _, p := range [...]*float64{&r.minJ, &r.maxE} {
		if *p, err = atof(f.next()); err != nil {
			return fmt.Errorf("cohesion: %w", err)
		}
	}
	r.arts = r.arts[:0]
	for !f.done {
		a := artRow{wiki: f.next()}
		page, done := f.next(), f.done
		a.title = f.next()
		if done || len(a.wiki) == 0 {
			return errors.New("an article of fewer than 3 fields (wiki, page id, title)")
		}
		if a.page, err = atoi(page); err != nil || a.page > maxPage {
			return fmt.Errorf("article page id %q: not a number below 2^48", page)
		}
		r.arts = append(r.arts, a)
	}
	return nil
}

// setDigest fills r from a parsed digest.
func (r *row) setDigest(d categorize.Digest) error {
	var err error
	if r.wiki, r.page, r.revOrd, err = parseID([]byte(d.ID)); err != nil {
		return err
	}
	if d.Category == "" {
		return errors.New("no category")
	}
	r.kind = []byte(d.Category)
	r.size, r.pages, r.omitted = int64(d.Size), int64(d.Pages), int64(d.MembersOmitted)
	r.minJ, r.maxE = d.MinJaccard, d.MaxEdit
	r.arts = r.arts[:0]
	for _, a := range d.Articles {
		if a.PageID < 0 || a.PageID > maxPage {
			return fmt.Errorf("article page id %d: not a number from 0 to 2^48", a.PageID)
		}
		r.arts = append(r.arts, artRow{wiki: []byte(a.Wiki), page: a.PageID, title: []byte(a.Title)})
	}
	return nil
}

// fields walks the tab-separated fields of a line.
type fields struct {
	rest []byte
	done bool // the last field was returned
}

func (f *fields) next() []byte {
	if f.done {
		return nil
	}
	i := bytes.IndexByte(f.rest, '\t')
	if i < 0 {
		f.done = true
		return f.rest
	}
	field := f.rest[:i]
	f.rest = f.rest[i+1:]
	return field
}
