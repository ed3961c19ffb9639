package index

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

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

// An id's revision and ordinal are packed in one uint64; the pipeline's own
// ids hold 33 and 20 bits.
const (
	ordinalBits = 20
	maxRevision = 1<<(64-ordinalBits) - 1
)

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

// parseID splits a cluster id, wiki:page_id:rev_id:sentence.
func parseID(id []byte) (wiki []byte, page int64, revOrd uint64, err error) {
	var nums [3]int64
	rest := id
	for i := 2; i >= 0; i-- {
		j := bytes.LastIndexByte(rest, ':')
		if j < 0 {
			return nil, 0, 0, fmt.Errorf("id %q is not wiki:page_id:rev_id:sentence", id)
		}
		if nums[i], err = atoi(rest[j+1:]); err != nil {
			return nil, 0, 0, fmt.Errorf("id %q: %w", id, err)
		}
		rest = rest[:j]
	}
	if len(rest) == 0 || nums[1] > maxRevision || nums[2] >= 1<<ordinalBits {
		return nil, 0, 0, fmt.Errorf("id %q is not wiki:page_id:rev_id:sentence", id)
	}
	return rest, nums[0], uint64(nums[1])<<ordinalBits | uint64(nums[2]), nil
}

// atoi parses a decimal number of digits only, as the pipeline writes
// them: no sign, no leading zero, so that formatting it gives it back.
func atoi(b []byte) (int64, error) {
	if len(b) == 0 || len(b) > 18 || (b[0] == '0' && len(b) > 1) {
		return 0, fmt.Errorf("%q is not a number", b)
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q is not a number", b)
		}
		n = n*10 + int64(c-'0')
	}
	return n, nil
}

// atof parses a float. The pipeline's (0.808, 1, 0.0079) are read
// without allocating: a decimal of at most 15 digits, 22 after the point,
// is its digits as an integer divided by a power of ten, both exact in a
// float64, so the one division rounds correctly, as strconv's own fast path
// does. Any other form goes to strconv.ParseFloat.
func atof(b []byte) (float64, error) {
	var mant uint64
	digits, frac, point := 0, 0, false
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			mant = mant*10 + uint64(c-'0')
			if digits++; point {
				frac++
			}
		case c == '.' && !point:
			point = true
		default:
			return strconv.ParseFloat(string(b), 64)
		}
	}
	if digits == 0 || digits > 15 || frac > 22 {
		return strconv.ParseFloat(string(b), 64)
	}
	return float64(mant) / pow10[frac], nil
}

// pow10 are the powers of ten exact in a float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// formatID gives back the id parseID parsed.
func formatID(wiki string, page int64, revOrd uint64) string {
	b := make([]byte, 0, len(wiki)+32)
	b = append(b, wiki...)
	b = append(b, ':')
	b = strconv.AppendInt(b, page, 10)
	b = append(b, ':')
	b = strconv.AppendUint(b, revOrd>>ordinalBits, 10)
	b = append(b, ':')
	b = strconv.AppendUint(b, revOrd&(1<<ordinalBits-1), 10)
	return string(b)
}
