package sentence

import (
	"strings"
	"testing"

	"github.com/neardup/neardup/io/dump"
)

// TestIDBoundsAgree: the reader dead-letters the pages whose revision (or
// page) id a Doc cannot hold, so both must say the same bound.
func TestIDBoundsAgree(t *testing.T) {
	if MaxKey != dump.MaxRevisionID {
		t.Fatalf("sentence.MaxKey %d != dump.MaxRevisionID %d", int64(MaxKey), int64(dump.MaxRevisionID))
	}
}

// TestSentencesPastMaxOrdinalAreCounted splits a page of MaxOrdinal+6
// sentences: the first MaxOrdinal+1 get ids, the other five are counted
// as cut.
func TestSentencesPastMaxOrdinalAreCounted(t *testing.T) {
	if testing.Short() {
		t.Skip("splits a page of a million sentences")
	}
	text := strings.Repeat("Go on. ", MaxOrdinal+6)
	var s PageSplitter
	last := -1
	emitted, cut, err := s.Sentences(dump.Page{ID: 1, RevID: 2, Text: text}, func(st Sentence) { last = st.ID.Ordinal() })
	if err != nil || emitted != MaxOrdinal+1 || cut != 5 || last != MaxOrdinal {
		t.Errorf("emitted %d, cut %d, last ordinal %d, %v; want %d, 5, %d", emitted, cut, last, err, MaxOrdinal+1, MaxOrdinal)
	}
}
