package counters

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestMerge(t *testing.T) {
	var total Counts
	a := Counts{PagesRead: 3, Sentences: 10, LargestCluster: 4, LargestBucket: 9}
	a.AddClusterSize(2, 5)
	b := Counts{PagesRead: 2, FilesTruncated: 1, LargestCluster: 7, LargestBucket: 1}
	b.AddClusterSize(2, 1)
	b.AddClusterSize(7, 1)
	total.Merge(a)
	total.Merge(b)
	want := Counts{PagesRead: 5, Sentences: 10, FilesTruncated: 1, LargestCluster: 7, LargestBucket: 9,
		ClusterSizes: map[int64]int64{2: 6, 7: 1}}
	if !reflect.DeepEqual(total, want) {
		t.Errorf("merged = %+v, want %+v", total, want)
	}
}

// TestMergeEveryField merges counts whose every counter is set: each sums,
// the largest take the maximum, so no counter can be forgotten.
func TestMergeEveryField(t *testing.T) {
	var a, b Counts
	av, bv := reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem()
	for i, f := range reflect.VisibleFields(av.Type()) {
		if f.Type.Kind() == reflect.Int64 {
			av.Field(i).SetInt(int64(i + 1))
			bv.Field(i).SetInt(100)
		}
	}
	a.Merge(b)
	for i, f := range reflect.VisibleFields(av.Type()) {
		if f.Type.Kind() != reflect.Int64 {
			continue
		}
		want := int64(i + 101)
		if f.Name == "LargestBucket" || f.Name == "LargestCluster" {
			want = 100
		}
		if got := av.Field(i).Int(); got != want {
			t.Errorf("%s merged to %d, want %d", f.Name, got, want)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	c := Counts{PagesRead: 5, Clusters: 3}
	c.AddClusterSize(10, 1)
	c.AddClusterSize(2, 2)
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	const wantTail = `"cluster_size_histogram":[{"size":2,"clusters":2},{"size":10,"clusters":1}]}`
	if s := string(b); len(s) < len(wantTail) || s[len(s)-len(wantTail):] != wantTail {
		t.Errorf("JSON = %s, want it to end with %s", s, wantTail)
	}
	var back Counts
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, c) {
		t.Errorf("round trip = %+v, want %+v", back, c)
	}
}

func TestIsZero(t *testing.T) {
	if !(Counts{}).IsZero() {
		t.Error("zero Counts not zero")
	}
	if (Counts{Edges: 1}).IsZero() {
		t.Error("Counts with an edge is zero")
	}
	var h Counts
	h.AddClusterSize(2, 1)
	if h.IsZero() {
		t.Error("Counts with a histogram bin is zero")
	}
}

// TestPassages merges passage counts (sums, the longest passage's maximum,
// the length histograms added) and reads back their JSON.
func TestPassages(t *testing.T) {
	var a, b Counts
	a.Passages.AddPassage(3)
	a.Passages.AddPassage(5)
	a.Passages.MatchesDropped = 2
	b.Passages.AddPassage(3)
	b.Passages.PairsSamePage = 1
	if b.IsZero() {
		t.Fatal("counts with a passage are zero")
	}
	a.Merge(b)
	want := Passages{Passages: 3, SentencePairs: 11, LargestPassage: 5, MatchesDropped: 2, PairsSamePage: 1,
		Lengths: map[int64]int64{3: 2, 5: 1}}
	if !reflect.DeepEqual(a.Passages, want) {
		t.Errorf("merged = %+v, want %+v", a.Passages, want)
	}
	js, err := json.Marshal(a.Passages)
	if err != nil {
		t.Fatal(err)
	}
	const wantTail = `"length_histogram":[{"matched":3,"passages":2},{"matched":5,"passages":1}]}`
	if s := string(js); len(s) < len(wantTail) || s[len(s)-len(wantTail):] != wantTail {
		t.Errorf("JSON = %s, want it to end with %s", s, wantTail)
	}
	var back Passages
	if err := json.Unmarshal(js, &back); err != nil || !reflect.DeepEqual(back, want) {
		t.Errorf("round trip = %+v, %v; want %+v", back, err, want)
	}
}
