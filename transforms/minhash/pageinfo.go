package minhash

import (
	"encoding/binary"
	"fmt"

	"github.com/neardup/neardup/internal/varint"
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

// UnmarshalBinary decodes what AppendBinary wrote.
func (i *PageInfo) UnmarshalBinary(b []byte) error {
	d := varint.NewDecoder(b)
	i.Doc, i.PageID, i.Offset, i.TextHash = d.Uvarint(), d.Varint(), d.Varint(), d.Fixed32()
	for _, n := range [...]*int64{&i.Counts.Sentences, &i.Counts.TooShort, &i.Counts.TooLong, &i.Counts.InWindow, &i.Counts.Signatures, &i.Counts.Cut, &i.Counts.Debris} {
		*n = d.Varint()
	}
	for _, s := range [...]*string{&i.File, &i.Title, &i.Name, &i.URL, &i.Lang} {
		*s = d.Text()
	}
	if err := d.Done(); err != nil {
		return fmt.Errorf("minhash: page info: %w", err)
	}
	return nil
}
