package minhash

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// PageInfo describes one signed page: its document id and what it added to the
// counts.
type PageInfo struct {
	Doc      uint64 // sentence.Doc
	PageID   int64
	File     string
	Offset   int64
	Title    string
	Name     string // a text document's id in its corpus, "" for a wiki's page
	URL      string // a text document's URL, "" if it has none
	Lang     string // a text document's own language, "" if it says none
	TextHash uint32 // CRC-32C of the wikitext
	Counts   PageCounts
}

// PageCounts is what one page adds to the run's counts.
type PageCounts struct {
	Sentences, TooShort, TooLong, InWindow, Signatures int64
	Cut                                                int64 // sentences past sentence.MaxOrdinal, not given ids
	Debris                                             int64 // lines of navigation and list debris dropped in cleaning
}

// AppendBinary appends i to b as a shuffle.KindPageInfos record.
func (i *PageInfo) AppendBinary(b []byte) []byte {
	b = binary.AppendUvarint(b, i.Doc)
	b = binary.AppendVarint(b, i.PageID)
	b = binary.AppendVarint(b, i.Offset)
	b = binary.LittleEndian.AppendUint32(b, i.TextHash)
	for _, n := range [...]int64{i.Counts.Sentences, i.Counts.TooShort, i.Counts.TooLong, i.Counts.InWindow, i.Counts.Signatures, i.Counts.Cut, i.Counts.Debris} {
		b = binary.AppendVarint(b, n)
	}
	for _, s := range [...]string{i.File, i.Title, i.Name, i.URL, i.Lang} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

var errShort = errors.New("minhash: truncated page info")

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
func (i *PageInfo) UnmarshalBinary(b []byte) error {
	var err error
	uvarint := func() uint64 { return next(&b, &err, binary.Uvarint) }
	varint := func() int64 { return next(&b, &err, binary.Varint) }
	i.Doc, i.PageID, i.Offset = uvarint(), varint(), varint()
	if err != nil || len(b) < 4 {
		return errShort
	}
	i.TextHash, b = binary.LittleEndian.Uint32(b), b[4:]
	for _, n := range [...]*int64{&i.Counts.Sentences, &i.Counts.TooShort, &i.Counts.TooLong, &i.Counts.InWindow, &i.Counts.Signatures, &i.Counts.Cut, &i.Counts.Debris} {
		*n = varint()
	}
	for _, s := range [...]*string{&i.File, &i.Title, &i.Name, &i.URL, &i.Lang} {
		l := uvarint()
		if err != nil || l > uint64(len(b)) {
			return errShort
		}
		*s, b = string(b[:l]), b[l:]
	}
	if err == nil && len(b) != 0 {
		return fmt.Errorf("minhash: %d bytes after a page info", len(b))
	}
	return err
}
