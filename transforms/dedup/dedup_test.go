package dedup

import (
	"testing"
)

func TestRemoveSentence(t *testing.T) {
	m := Member{ID: "enwiki:12:900:3", Wiki: "enwiki", PageID: 12, RevID: 900, Sentence: 3}
	tests := []struct {
		name    string
		cluster string
		want    SentenceLine
		remove  bool
	}{
		{"in no cluster", "", SentenceLine{}, false},
		{"the representative", "enwiki:12:900:3", SentenceLine{}, false},
		{"another member", "enwiki:5:1000:0", SentenceLine{ID: "enwiki:12:900:3", Kind: "sentence", DuplicateOf: "enwiki:5:1000:0",
			ClusterID: "enwiki:5:1000:0", Wiki: "enwiki", PageID: 12, RevID: 900, Sentence: 3}, true},
	}
	for _, tt := range tests {
		got, remove := RemoveSentence(m, tt.cluster)
		if got != tt.want || remove != tt.remove {
			t.Errorf("%s: RemoveSentence = %+v, %v; want %+v, %v", tt.name, got, remove, tt.want, tt.remove)
		}
	}
}

func TestParseDocID(t *testing.T) {
	tests := []struct {
		in      string
		want    DocID
		wantErr bool
	}{
		{"enwiki:12:900", DocID{"enwiki", 12, 900}, false},
		{"web:2019:part:7:0", DocID{"web:2019:part", 7, 0}, false}, // a corpus named with colons
		{"enwiki:12", DocID{}, true},
		{":12:900", DocID{}, true},
		{"enwiki:x:900", DocID{}, true},
		{"enwiki:12:9a", DocID{}, true},
		{"", DocID{}, true},
	}
	for _, tt := range tests {
		got, err := ParseDocID(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseDocID(%q) = %+v, %v; want %+v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
		if err == nil && got.String() != tt.in {
			t.Errorf("ParseDocID(%q).String() = %q", tt.in, got.String())
		}
	}
}

func TestCovered(t *testing.T) {
	tests := []struct {
		name string
		pair Pair
		want Cover
		dup  bool
	}{
		{"the same page twice: the later is the duplicate",
			Pair{A: "web:1:0", B: "web:7:0", ShareA: 1, ShareB: 1}, Cover{Doc: DocID{"web", 7, 0}, By: DocID{"web", 1, 0}, Share: 1}, true},
		{"a passes the pair's order by revision but b is earlier by page id",
			Pair{A: "enwiki:20:300", B: "enwiki:10:500", ShareA: 0.9, ShareB: 0.95}, Cover{Doc: DocID{"enwiki", 20, 300}, By: DocID{"enwiki", 10, 500}, Share: 0.9}, true},
		{"exactly the share is enough",
			Pair{A: "web:1:0", B: "web:2:0", ShareA: 0.1, ShareB: 0.8}, Cover{Doc: DocID{"web", 2, 0}, By: DocID{"web", 1, 0}, Share: 0.8}, true},
		{"just below is not",
			Pair{A: "web:1:0", B: "web:2:0", ShareA: 1, ShareB: 0.7999}, Cover{Doc: DocID{"web", 2, 0}, By: DocID{"web", 1, 0}, Share: 0.7999}, false},
		{"an earlier short document inside a later long one stays",
			Pair{A: "web:1:0", B: "web:2:0", ShareA: 1, ShareB: 0.2}, Cover{Doc: DocID{"web", 2, 0}, By: DocID{"web", 1, 0}, Share: 0.2}, false},
		{"wikis in name order",
			Pair{A: "frwiki:1:1", B: "dewiki:9:9", ShareA: 1, ShareB: 1}, Cover{Doc: DocID{"frwiki", 1, 1}, By: DocID{"dewiki", 9, 9}, Share: 1}, true},
	}
	for _, tt := range tests {
		got, dup, err := Covered(tt.pair, DefaultMinShare)
		if err != nil || got != tt.want || dup != tt.dup {
			t.Errorf("%s: Covered = %+v, %v, %v; want %+v, %v", tt.name, got, dup, err, tt.want, tt.dup)
		}
	}
	if _, _, err := Covered(Pair{A: "bad", B: "web:1:0"}, DefaultMinShare); err == nil {
		t.Error("Covered of a malformed id: no error")
	}
}

func TestBest(t *testing.T) {
	doc := DocID{"web", 9, 0}
	by := func(page int64, share float64) Cover { return Cover{Doc: doc, By: DocID{"web", page, 0}, Share: share} }
	tests := []struct {
		name   string
		covers []Cover
		want   Cover
	}{
		{"one", []Cover{by(3, 0.9)}, by(3, 0.9)},
		{"the largest share", []Cover{by(1, 0.85), by(5, 1), by(3, 0.9)}, by(5, 1)},
		{"of equal shares the earliest, in any order", []Cover{by(5, 1), by(2, 1), by(4, 1)}, by(2, 1)},
	}
	for _, tt := range tests {
		if got := Best(tt.covers); got != tt.want {
			t.Errorf("%s: Best = %+v; want %+v", tt.name, got, tt.want)
		}
	}
}

func TestCoverLine(t *testing.T) {
	c := Cover{Doc: DocID{"web", 9, 0}, By: DocID{"web", 2, 0}, Share: 0.875}
	want := DocumentLine{ID: "web:9:0", Kind: "document", DuplicateOf: "web:2:0", Wiki: "web", PageID: 9, RevID: 0, Share: 0.875}
	if got := c.Line(); got != want {
		t.Errorf("Line = %+v; want %+v", got, want)
	}
}
