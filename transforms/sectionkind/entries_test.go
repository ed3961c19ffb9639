package sectionkind

import (
	"reflect"
	"testing"
)

// TestEntriesRoundTrip: a batch of entries reads back as written, and a
// damaged batch is an error, never a panic.
func TestEntriesRoundTrip(t *testing.T) {
	entries := []Entry{
		{Wiki: "hywiki", Heading: "աղբյուրներ", Stats: Stats{Lines: 12, Citations: 9, Pages: []int64{3, 17, 1 << 40}}},
		{Wiki: "elwiki", Heading: "", Stats: Stats{Lines: 1}},
	}
	var b []byte
	for _, e := range entries {
		b = appendEntry(b, e)
	}
	var got []Entry
	if err := unmarshalEntries(b, func(e Entry) { got = append(got, e) }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, entries) {
		t.Errorf("read %+v, want %+v", got, entries)
	}
	for cut := range len(b) - 1 {
		if err := unmarshalEntries(b[:cut+1], func(Entry) {}); err == nil && cut+1 != len(appendEntry(nil, entries[0])) {
			t.Errorf("a batch cut at %d of %d bytes read without error", cut+1, len(b))
		}
	}
}

// FuzzReadEntries: any bytes read as entries or as an error.
func FuzzReadEntries(f *testing.F) {
	f.Add(appendEntry(nil, Entry{Wiki: "w", Heading: "h", Stats: Stats{Lines: 2, Citations: 1, Pages: []int64{5}}}))
	f.Add([]byte{0x05, 'a'})
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = unmarshalEntries(b, func(e Entry) {
			if e.Stats.Citations > e.Stats.Lines || len(e.Stats.Pages) > MaxPages {
				t.Fatalf("read an impossible entry %+v", e)
			}
		})
	})
}
