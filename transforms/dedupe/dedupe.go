// Package dedupe makes a page revision that a run reads more than once count
// once.
//
// A run may read the same revision of a page twice: a dump listed twice,
// the multistream and the plain dump of one date, or two dumps of one wiki
// taken at dates between which the page did not change. Sentence ids are
// made of the wiki, the revision and the position (sentence.Doc), so the two
// copies give the same ids and the same records, and the later stages take
// each id once (bucket.Stars, the verification and cluster joins). What is
// left to do is accounting: the signing stage describes every page it
// signed (an Info), and this package finds the ids met more than once, takes
// the copies after the first out of the counts (tally.Counts
// PagesDuplicate) and refuses, with an error naming both files and
// offsets, two different pages or texts that claim the same revision: ids
// would then mix sentences that are not the same, silently.
package dedupe

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/neardup/neardup/internal/tally"
)

// Info describes one signed page: its document id and what it added to the
// counts.
type Info struct {
	Doc      uint64 // sentence.Doc
	PageID   int64
	File     string
	Offset   int64
	Title    string
	TextHash uint32 // CRC-32C of the wikitext
	Counts   Page
}

// Page is what one page adds to the run's counts.
type Page struct {
	Sentences, TooShort, TooLong, InWindow, Signatures int64
	Cut                                                int64 // sentences past sentence.MaxOrdinal, not given ids
}

// AppendBinary appends the encoding of i to b.
func (i *Info) AppendBinary(b []byte) []byte {
	b = binary.AppendUvarint(b, i.Doc)
	b = binary.AppendVarint(b, i.PageID)
	b = binary.AppendVarint(b, i.Offset)
	b = binary.LittleEndian.AppendUint32(b, i.TextHash)
	for _, n := range [...]int64{i.Counts.Sentences, i.Counts.TooShort, i.Counts.TooLong, i.Counts.InWindow, i.Counts.Signatures, i.Counts.Cut} {
		b = binary.AppendVarint(b, n)
	}
	for _, s := range [...]string{i.File, i.Title} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

var errShort = errors.New("dedupe: truncated page info")

// next decodes a number at the start of *b with decode and cuts it off; when
// there is none, it sets *err and returns 0.
func next[T uint64 | int64](b *[]byte, err *error, decode func([]byte) (T, int)) T {
	v, n := decode(*b)
	if n <= 0 {
		*err = errShort
		return 0
	}
	*b = (*b)[n:]
	return v
}

// UnmarshalBinary decodes what AppendBinary wrote.
func (i *Info) UnmarshalBinary(b []byte) error {
	var err error
	uvarint := func() uint64 { return next(&b, &err, binary.Uvarint) }
	varint := func() int64 { return next(&b, &err, binary.Varint) }
	i.Doc, i.PageID, i.Offset = uvarint(), varint(), varint()
	if err != nil || len(b) < 4 {
		return errShort
	}
	i.TextHash, b = binary.LittleEndian.Uint32(b), b[4:]
	for _, n := range [...]*int64{&i.Counts.Sentences, &i.Counts.TooShort, &i.Counts.TooLong, &i.Counts.InWindow, &i.Counts.Signatures, &i.Counts.Cut} {
		*n = varint()
	}
	for _, s := range [...]*string{&i.File, &i.Title} {
		l := uvarint()
		if err != nil || l > uint64(len(b)) {
			return errShort
		}
		*s, b = string(b[:l]), b[l:]
	}
	if err == nil && len(b) != 0 {
		return fmt.Errorf("dedupe: %d bytes after a page info", len(b))
	}
	return err
}

// Resolve sorts infos in place, by document then file and offset, and
// returns the counts that take every copy after the first of a document
// out of the totals. Copies must be the same page with the same text; a
// document claimed by two different pages or texts is an error.
func Resolve(infos []Info) (tally.Counts, error) {
	slices.SortFunc(infos, func(a, b Info) int {
		return cmp.Or(cmp.Compare(a.Doc, b.Doc), cmp.Compare(a.File, b.File), cmp.Compare(a.Offset, b.Offset))
	})
	var c tally.Counts
	for i := 1; i < len(infos); i++ {
		first, dup := infos[i-1], infos[i]
		if dup.Doc != first.Doc {
			continue
		}
		infos[i] = first // later copies are compared with the first
		if dup.PageID != first.PageID || dup.TextHash != first.TextHash {
			return tally.Counts{}, conflict(first, dup)
		}
		c.PagesDuplicate++
		c.PagesKept--
		c.Sentences -= dup.Counts.Sentences
		c.SentencesTooShort -= dup.Counts.TooShort
		c.SentencesTooLong -= dup.Counts.TooLong
		c.SentencesInWindow -= dup.Counts.InWindow
		c.Signatures -= dup.Counts.Signatures
		c.SentencesCut -= dup.Counts.Cut
	}
	return c, nil
}

// conflict describes two pages that claim the same revision.
func conflict(a, b Info) error {
	what := "different texts"
	if a.PageID != b.PageID {
		what = fmt.Sprintf("different pages (ids %d and %d)", a.PageID, b.PageID)
	}
	return fmt.Errorf("dedupe: %q at offset %d of %s and %q at offset %d of %s have the same wiki and revision id but %s; "+
		"revision ids must be unique within a wiki (give the files different <dbname>s if they are different wikis)",
		a.Title, a.Offset, a.File, b.Title, b.Offset, b.File, what)
}
