package cluster

import "testing"

func TestPairCountEncoding(t *testing.T) {
	for _, p := range []PairCount{
		{},
		{WikiA: "enwiki", PageA: 1, WikiB: "enwiki", PageB: 2, TitleA: "A", TitleB: "B", Clusters: 3},
		{WikiA: "ukwiki", PageA: 1 << 40, WikiB: "elwiki", PageB: 7, TitleA: "Шевченко", TitleB: "Αζερμπαϊτζάν", Clusters: 1 << 33},
	} {
		b := p.AppendBinary([]byte("prefix")[6:])
		var got PairCount
		if err := got.UnmarshalBinary(b); err != nil || got != p {
			t.Errorf("UnmarshalBinary(AppendBinary(%+v)) = %+v, %v", p, got, err)
		}
		for cut := range len(b) {
			if err := new(PairCount).UnmarshalBinary(b[:cut]); err == nil {
				t.Errorf("%+v cut at %d of %d bytes decoded", p, cut, len(b))
			}
		}
		if err := new(PairCount).UnmarshalBinary(append(b, 0)); err == nil {
			t.Errorf("%+v with a trailing byte decoded", p)
		}
	}
	a := PairCount{WikiA: "enwiki", PageA: 1, WikiB: "enwiki", PageB: 2, TitleA: "A", Clusters: 1}
	b := a
	b.TitleA, b.Clusters = "another title", 9
	if a.Shard(64) != b.Shard(64) {
		t.Error("two counts of one pair of pages go to different shards")
	}
}
