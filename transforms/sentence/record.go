package sentence

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/neardup/neardup/transforms/batch"
)

// ordinalBits is how many low bits of an ID hold the sentence ordinal.
const ordinalBits = 20

// MaxOrdinal is the largest sentence ordinal an ID can hold; sentences of a
// page beyond it are not given ids (a page would need over a million
// sentences).
const MaxOrdinal = 1<<ordinalBits - 1

// ID identifies a sentence stably across runs: its page id in the high bits
// and its ordinal within the page (0-based, counting every sentence of the
// page in document order) in the low 20 bits. Ordering ids orders sentences
// by page, then position.
type ID uint64

// NewID returns the id of sentence ordinal of page.
func NewID(page int64, ordinal int) ID {
	return ID(uint64(page)<<ordinalBits | uint64(ordinal))
}

// Page is the page id of the sentence.
func (id ID) Page() int64 { return int64(id >> ordinalBits) }

// Ordinal is the position of the sentence in its page.
func (id ID) Ordinal() int { return int(id & MaxOrdinal) }

// String formats the id as page:ordinal.
func (id ID) String() string { return fmt.Sprintf("%d:%d", id.Page(), id.Ordinal()) }

// Sentence is one sentence of a page with what is needed to show it in a
// result.
type Sentence struct {
	ID      ID
	RevID   int64
	Title   string
	Section string
	Context uint8 // a wikitext.Context: prose, list or reference
	Text    string
}

// AppendBinary appends the compact encoding of s to b.
func (s *Sentence) AppendBinary(b []byte) ([]byte, error) {
	b = binary.AppendUvarint(b, uint64(s.ID))
	b = binary.AppendUvarint(b, uint64(s.RevID))
	b = append(b, s.Context)
	for _, str := range [...]string{s.Title, s.Section, s.Text} {
		b = binary.AppendUvarint(b, uint64(len(str)))
		b = append(b, str...)
	}
	return b, nil
}

var errShort = errors.New("sentence: truncated encoding")

// UnmarshalBinary decodes what AppendBinary wrote.
func (s *Sentence) UnmarshalBinary(b []byte) error {
	id, n := binary.Uvarint(b)
	if n <= 0 {
		return errShort
	}
	b = b[n:]
	rev, n := binary.Uvarint(b)
	if n <= 0 || n >= len(b) {
		return errShort
	}
	s.ID, s.RevID, s.Context = ID(id), int64(rev), b[n]
	b = b[n+1:]
	for _, dst := range [...]*string{&s.Title, &s.Section, &s.Text} {
		l, n := binary.Uvarint(b)
		if n <= 0 || l > uint64(len(b)-n) {
			return errShort
		}
		*dst = string(b[n : n+int(l)])
		b = b[n+int(l):]
	}
	if len(b) != 0 {
		return fmt.Errorf("sentence: %d bytes after the encoding", len(b))
	}
	return nil
}

// Shard is the shard, of n, that holds the sentence's record and label in
// the pipeline's joins.
func (id ID) Shard(n int) int {
	return batch.ShardOf(uint64(id), n)
}

// UnmarshalPrefix decodes only the id at the start of an encoded Sentence.
func (id *ID) UnmarshalPrefix(b []byte) error {
	v, n := binary.Uvarint(b)
	if n <= 0 {
		return errShort
	}
	*id = ID(v)
	return nil
}
