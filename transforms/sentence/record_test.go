package sentence

import (
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/testshared"
)

func TestIDPacking(t *testing.T) {
	tests := []struct {
		wiki      int
		page, rev int64
		ordinal   int
		str       string
	}{
		{0, 12, 5, 0, "0/5:0"},
		{3, 12, 550523753, 7, "3/550523753:7"},
		{MaxWikis - 1, 1, MaxKey, MaxOrdinal, "1023/8589934591:1048575"},
		{2, 77, 0, 4, "2/8589934669:4"}, // no revision id: the page id, flagged
	}
	for _, tt := range tests {
		d, err := NewDoc(tt.wiki, tt.page, tt.rev)
		if err != nil {
			t.Fatal(err)
		}
		id := d.Sentence(tt.ordinal)
		if id.Doc() != d || d.Wiki() != tt.wiki || id.Ordinal() != tt.ordinal || id.String() != tt.str {
			t.Errorf("NewDoc(%d, %d, %d).Sentence(%d) = %v (wiki %d, ordinal %d)", tt.wiki, tt.page, tt.rev, tt.ordinal, id, d.Wiki(), id.Ordinal())
		}
	}
	byRev, _ := NewDoc(0, 5, 5)
	byPage, _ := NewDoc(0, 5, 0)
	if byRev == byPage {
		t.Error("a page without a revision id shares the Doc of revision 5")
	}
	a, _ := NewDoc(0, 1, 100)
	b, _ := NewDoc(1, 1, 100)
	if a == b || !(a.Sentence(MaxOrdinal) < b.Sentence(0)) {
		t.Error("the same revision id in two wikis: ids do not differ or do not order by wiki first")
	}
}

func TestNewDocRejects(t *testing.T) {
	tests := []struct {
		wiki      int
		page, rev int64
		want      string
	}{
		{MaxWikis, 1, 1, "wiki index 1024"},
		{-1, 1, 1, "wiki index -1"},
		{0, 1, MaxKey + 1, "revision 8589934592"},
		{0, MaxKey + 1, 0, "page 8589934592"},
		{0, 1, -3, "revision -3"},
	}
	for _, tt := range tests {
		if _, err := NewDoc(tt.wiki, tt.page, tt.rev); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewDoc(%d, %d, %d) error %v, want one saying %q", tt.wiki, tt.page, tt.rev, err, tt.want)
		}
	}
}

func TestSentenceBinaryRoundTrip(t *testing.T) {
	in := Sentence{ID: Doc(550523753).Sentence(4), Wiki: "dewiki", PageID: 99, RevID: 550523753, Title: "Gondiswil",
		Section: "Geography", Context: 2, Text: "Of the agricultural land 40.4% is used for growing crops.", Rank: 300}
	b := in.AppendBinary(nil)
	var out Sentence
	if err := out.UnmarshalBinary(b); err != nil || out != in {
		t.Fatalf("round trip = %+v, %v; want %+v", out, err, in)
	}
	if got, want := out.Key(), "dewiki:99:550523753:4"; got != want {
		t.Errorf("Key = %q, want %q", got, want)
	}
	testshared.CheckDamaged(t, b, func(b []byte) error { return new(Sentence).UnmarshalBinary(b) })
}
