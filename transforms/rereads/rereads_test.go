package rereads

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/minhash"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/testkit/testshared"
)

func TestInfoRoundTrip(t *testing.T) {
	in := minhash.PageInfo{Doc: 1<<40 | 7, PageID: 12, File: "gs://b/enwiki-1.xml.bz2", Offset: 1 << 33, Title: "Ünïcode",
		Name: "urn:uuid:6f2c-é", URL: "https://example.org/ä?q=1",
		TextHash: 0xdeadbeef, Counts: minhash.PageCounts{Sentences: 40, TooShort: 10, TooLong: 2, InWindow: 28, Signatures: 560, Cut: 3, Debris: 5}}
	b := in.AppendBinary(nil)
	var out minhash.PageInfo
	if err := out.UnmarshalBinary(b); err != nil || out != in {
		t.Fatalf("round trip = %+v, %v", out, err)
	}
	testshared.CheckDamaged(t, b, func(b []byte) error { return new(minhash.PageInfo).UnmarshalBinary(b) })
}

func TestResolve(t *testing.T) {
	page := minhash.PageCounts{Sentences: 10, TooShort: 3, TooLong: 1, InWindow: 6, Signatures: 120, Debris: 4}
	a := minhash.PageInfo{Doc: 5, PageID: 1, File: "a.xml", Offset: 100, Title: "A", TextHash: 9, Counts: page}
	b := minhash.PageInfo{Doc: 6, PageID: 2, File: "a.xml", Offset: 900, Title: "B", TextHash: 8, Counts: page}
	copyOf := func(i minhash.PageInfo, file string, offset int64) minhash.PageInfo {
		i.File, i.Offset = file, offset
		return i
	}
	moved := copyOf(a, "b.xml", 50)
	moved.Title = "A (moved)"
	tests := []struct {
		name    string
		infos   []minhash.PageInfo
		want    counters.Counts
		wantErr string
	}{
		{name: "distinct", infos: []minhash.PageInfo{b, a}},
		{name: "one page twice", infos: []minhash.PageInfo{copyOf(a, "b.xml", 7), b, a},
			want: counters.Counts{PagesDuplicate: 1, PagesKept: -1, Sentences: -10, SentencesTooShort: -3, SentencesTooLong: -1,
				SentencesInWindow: -6, Signatures: -120, DebrisLines: -4}},
		{name: "three copies", infos: []minhash.PageInfo{a, copyOf(a, "c.xml", 1), copyOf(a, "b.xml", 1)},
			want: counters.Counts{PagesDuplicate: 2, PagesKept: -2, Sentences: -20, SentencesTooShort: -6, SentencesTooLong: -2,
				SentencesInWindow: -12, Signatures: -240, DebrisLines: -8}},
		{name: "moved page: same revision, other title", infos: []minhash.PageInfo{a, moved},
			want: counters.Counts{PagesDuplicate: 1, PagesKept: -1, Sentences: -10, SentencesTooShort: -3, SentencesTooLong: -1,
				SentencesInWindow: -6, Signatures: -120, DebrisLines: -4}},
		{name: "two pages claim one revision", infos: []minhash.PageInfo{a, {Doc: 5, PageID: 3, File: "z.xml", Offset: 4, Title: "C", TextHash: 9}},
			wantErr: `"A" at offset 100 of a.xml and "C" at offset 4 of z.xml have the same wiki and revision id but different pages (ids 1 and 3)`},
		{name: "one revision, two texts", infos: []minhash.PageInfo{a, {Doc: 5, PageID: 1, File: "a.xml", Offset: 200, Title: "A", TextHash: 10}},
			wantErr: "but different texts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Resolve(tt.infos)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Resolve = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestResolveFnAcrossBatches(t *testing.T) {
	a := minhash.PageInfo{Doc: 5, PageID: 1, File: "a.xml", Offset: 100, Title: "A", Counts: minhash.PageCounts{Sentences: 4, InWindow: 2, Signatures: 40}}
	b := a
	b.File = "b.xml"
	pack := func(infos ...minhash.PageInfo) []byte {
		var raw []byte
		for _, i := range infos {
			raw = shuffle.AppendRecord(raw, i.AppendBinary(nil))
		}
		return shuffle.KindPageInfos.Seal(raw)
	}
	var got counters.Counts
	err := (&resolveFn{}).ProcessElement(context.Background(), 0, testshared.Iter(pack(b), pack(a)), func(c counters.Counts) { got.Merge(c) })
	want := counters.Counts{PagesDuplicate: 1, PagesKept: -1, Sentences: -4, SentencesInWindow: -2, Signatures: -40}
	if err != nil || got.PagesDuplicate != want.PagesDuplicate || got.Sentences != want.Sentences || got.Signatures != want.Signatures {
		t.Errorf("resolveFn counted %+v, %v; want %+v", got, err, want)
	}
	if err := (&resolveFn{}).ProcessElement(context.Background(), 3, testshared.Iter([]byte("junk")), func(counters.Counts) {}); err == nil ||
		!strings.Contains(err.Error(), "shard 3") {
		t.Errorf("a corrupt batch gave %v, want an error naming the shard", err)
	}
}
