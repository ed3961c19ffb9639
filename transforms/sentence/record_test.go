package sentence

import "testing"

func TestIDPacking(t *testing.T) {
	tests := []struct {
		page    int64
		ordinal int
		str     string
	}{
		{0, 0, "0:0"}, {12, 3, "12:3"}, {2615904, MaxOrdinal, "2615904:1048575"}, {1 << 40, 7, "1099511627776:7"},
	}
	for _, tt := range tests {
		id := NewID(tt.page, tt.ordinal)
		if id.Page() != tt.page || id.Ordinal() != tt.ordinal || id.String() != tt.str {
			t.Errorf("NewID(%d, %d) = %v (page %d, ordinal %d)", tt.page, tt.ordinal, id, id.Page(), id.Ordinal())
		}
	}
	if !(NewID(5, MaxOrdinal) < NewID(6, 0)) {
		t.Error("ids do not order by page first")
	}
}

func TestSentenceBinaryRoundTrip(t *testing.T) {
	in := Sentence{ID: NewID(99, 4), RevID: 550523753, Title: "Gondiswil", Section: "Geography", Context: 2,
		Text: "Of the agricultural land 40.4% is used for growing crops."}
	b, err := in.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	var out Sentence
	if err := out.UnmarshalBinary(b); err != nil || out != in {
		t.Fatalf("round trip = %+v, %v; want %+v", out, err, in)
	}
	for cut := range len(b) {
		if err := new(Sentence).UnmarshalBinary(b[:cut]); err == nil {
			t.Errorf("encoding cut at %d of %d decoded without error", cut, len(b))
		}
	}
	if err := new(Sentence).UnmarshalBinary(append(b, 0)); err == nil {
		t.Error("trailing byte decoded without error")
	}
}
