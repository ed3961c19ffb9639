package sentence

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/neardup/neardup/internal/shuffle"
)

// An ID packs, from the high bits down, the index of the sentence's wiki in
// the run (wikiBits), a flag saying whether the next field is a page id
// rather than a revision id (1 bit), that revision or page id (keyBits), and
// the sentence's ordinal in its page (ordinalBits).
const (
	ordinalBits = 20
	keyBits     = 33
	wikiBits    = 10
	docBits     = wikiBits + 1 + keyBits
)

// MaxOrdinal is the largest sentence ordinal an ID can hold; sentences of a
// page beyond it are not given ids (a page would need over a million
// sentences).
const MaxOrdinal = 1<<ordinalBits - 1

// MaxWikis is how many wikis one run can read.
const MaxWikis = 1 << wikiBits

// MaxKey is the largest revision id (or page id, for a page without one)
// a Doc can hold: 8.6 billion, six times the English Wikipedia's revision
// ids in 2026.
const MaxKey = 1<<keyBits - 1

// Doc identifies one revision of one page among all the wikis of a run:
// MediaWiki's revision ids are unique within a wiki, so the wiki's index
// and the revision id are enough, and two dumps of one wiki taken at
// different dates give the same Doc only to a page they hold at the same
// revision. A page without a revision id is identified by its page id
// instead (and a flag, so that the two never meet).
type Doc uint64

// NewDoc returns the Doc of revision rev of page in the wiki of index
// wiki. rev is 0 for a page without a revision id.
func NewDoc(wiki int, page, rev int64) (Doc, error) {
	if wiki < 0 || wiki >= MaxWikis {
		return 0, fmt.Errorf("sentence: wiki index %d outside [0, %d)", wiki, MaxWikis)
	}
	key, byPage := rev, uint64(0)
	if rev == 0 {
		key, byPage = page, 1
	}
	if key < 0 || key > MaxKey {
		return 0, fmt.Errorf("sentence: page %d revision %d: id outside [0, %d]", page, rev, int64(MaxKey))
	}
	return Doc(uint64(wiki)<<(1+keyBits) | byPage<<keyBits | uint64(key)), nil
}

// Wiki is the index of the document's wiki.
func (d Doc) Wiki() int { return int(d >> (1 + keyBits)) }

// Rev is the document's revision id, or 0 for a page without one (whose
// Doc holds its page id).
func (d Doc) Rev() int64 {
	if d>>keyBits&1 == 1 {
		return 0
	}
	return int64(d & MaxKey)
}

// Sentence returns the id of sentence ordinal of the document.
func (d Doc) Sentence(ordinal int) ID { return ID(uint64(d)<<ordinalBits | uint64(ordinal)) }

// ID identifies a sentence stably across runs: its Doc in the high bits
// and its ordinal within the page (0-based, counting every sentence of the
// page in document order) in the low 20 bits. Ordering ids orders
// sentences by wiki, revision, then position.
type ID uint64

// Doc is the document the sentence belongs to.
func (id ID) Doc() Doc { return Doc(id >> ordinalBits) }

// Ordinal is the position of the sentence in its page.
func (id ID) Ordinal() int { return int(id & MaxOrdinal) }

// String formats the id for messages as wiki-index/doc-key:ordinal; the
// outputs show View.ID instead.
func (id ID) String() string {
	return fmt.Sprintf("%d/%d:%d", id.Doc().Wiki(), uint64(id.Doc())&(1<<(1+keyBits)-1), id.Ordinal())
}

// Sentence is one sentence of a page with what is needed to show it in a
// result.
type Sentence struct {
	ID      ID
	Wiki    string // the wiki's name, as in Site.Wiki
	PageID  int64
	RevID   int64
	Title   string
	Section string
	Context uint8 // a wikitext.Context: prose, list or reference
	Text    string
	// Rank is the sentence's position among its page's in-window sentences
	// (those signed: neither too short nor too long), from 0, set by the
	// signing stage. Shared passages count their gaps in ranks, so that a
	// sentence too short to be matched never breaks a passage.
	Rank int
}

// AppendBinary appends s to b as a shuffle.KindSentences record, laid out
// as that kind's comment says.
func (s *Sentence) AppendBinary(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(s.ID))
	b = binary.AppendUvarint(b, uint64(s.PageID))
	b = binary.AppendUvarint(b, uint64(s.RevID))
	b = binary.AppendUvarint(b, uint64(s.Rank))
	b = append(b, s.Context)
	for _, str := range [...]string{s.Wiki, s.Title, s.Section, s.Text} {
		b = binary.AppendUvarint(b, uint64(len(str)))
		b = append(b, str...)
	}
	return b
}

var errShort = errors.New("sentence: truncated encoding")

// UnmarshalBinary decodes what AppendBinary wrote.
func (s *Sentence) UnmarshalBinary(b []byte) error {
	id, n := binary.Uvarint(b)
	if n <= 0 {
		return errShort
	}
	b = b[n:]
	page, n := binary.Uvarint(b)
	if n <= 0 {
		return errShort
	}
	b = b[n:]
	rev, n := binary.Uvarint(b)
	if n <= 0 {
		return errShort
	}
	b = b[n:]
	rank, n := binary.Uvarint(b)
	if n <= 0 || n >= len(b) {
		return errShort
	}
	if rank > MaxOrdinal {
		return fmt.Errorf("sentence: rank %d beyond the largest ordinal", rank)
	}
	s.ID, s.PageID, s.RevID, s.Rank, s.Context = ID(id), int64(page), int64(rev), int(rank), b[n]
	b = b[n+1:]
	for _, dst := range [...]*string{&s.Wiki, &s.Title, &s.Section, &s.Text} {
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
	return shuffle.ShardOf(uint64(id), n)
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
