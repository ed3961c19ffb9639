package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  The  Big\tDog\n", "the big dog"},
		{"ÉCOLE  Normale\u00a0Supérieure", "école normale supérieure"},
		{"", ""},
		{" \t\n", ""},
	}
	for _, tt := range tests {
		if got := normalize(tt.in); got != tt.want {
			t.Errorf("normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestShingles(t *testing.T) {
	tests := []struct {
		s    string
		k    int
		want []string
	}{
		{"abcde", 3, []string{"abc", "bcd", "cde"}},
		{"héllo", 4, []string{"héll", "éllo"}},
		{"ab", 3, []string{"ab"}},
		{"abc", 3, []string{"abc"}},
		{"", 3, nil},
		{"aaaa", 2, []string{"aa", "aa", "aa"}},
	}
	for _, tt := range tests {
		var got []string
		shingles(tt.s, tt.k, func(s string) { got = append(got, s) })
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("shingles(%q, %d) = %q, want %q", tt.s, tt.k, got, tt.want)
		}
	}
}

func TestShingleSet(t *testing.T) {
	a := shingleSet("The cat sat on the mat", 3)
	b := shingleSet("  the CAT sat on   the mat ", 3)
	if !slices.Equal(a, b) {
		t.Error("case and spacing changed the shingle set")
	}
	// "the cat sat on the mat" has 20 shingles of 3; "the", "he " and
	// "at " come twice.
	if len(a) != 17 || !slices.IsSorted(a) {
		t.Errorf("%d shingles, sorted %v; want 17 sorted", len(a), slices.IsSorted(a))
	}
}

func TestJaccard(t *testing.T) {
	tests := []struct {
		a, b []uint64
		want float64
	}{
		{[]uint64{1, 2, 3, 4}, []uint64{1, 2, 3, 4}, 1},
		{[]uint64{1, 2, 3, 4}, []uint64{3, 4, 5, 6}, 2.0 / 6},
		{[]uint64{1, 2}, []uint64{3}, 0},
		{nil, nil, 1},
		{[]uint64{1, 2, 3, 4, 5}, []uint64{1, 2, 3, 4}, 0.8},
	}
	for _, tt := range tests {
		if got := jaccard(tt.a, tt.b); got != tt.want {
			t.Errorf("jaccard(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func seq(from, to uint64) []uint64 {
	var s []uint64
	for i := from; i <= to; i++ {
		s = append(s, i)
	}
	return s
}

func TestExactPairs(t *testing.T) {
	sets := [][]uint64{
		seq(1, 10),  // 0
		seq(1, 10),  // 1: identical to 0
		seq(1, 8),   // 2: 8/10 = 0.8 with 0 and 1, exactly at the threshold
		seq(2, 10),  // 3: 9/10 with 0 and 1, 7/9 with 2
		seq(3, 12),  // 4: 8/12 with 0
		seq(50, 60), // 5: alone
		nil,         // 6: empty, never paired
		nil,         // 7
		seq(1, 7),   // 8: 7/8 with 2, 7/10 with 0
	}
	want := []Pair{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 8}}
	if got := exactPairs(sets, 0.8); !reflect.DeepEqual(got, want) {
		t.Errorf("exactPairs = %v, want %v", got, want)
	}
	if got := exactPairs(sets, 1); !reflect.DeepEqual(got, []Pair{{0, 1}}) {
		t.Errorf("exactPairs at 1 = %v, want [{0 1}]", got)
	}
}

// TestExactPairsMatchesBruteForce compares the prefix filter with all
// pairs on random sets drawn from a small universe, so that many pairs are
// near the threshold.
func TestExactPairsMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 20 {
		base := seq(0, 40)
		var sets [][]uint64
		for range 60 {
			var s []uint64
			drop := rng.Float64() * 0.3
			for _, e := range base[:10+rng.IntN(30)] {
				if rng.Float64() >= drop {
					s = append(s, e)
				}
			}
			sets = append(sets, s)
		}
		for _, th := range []float64{0.5, 0.8, 0.9} {
			var want []Pair
			for i := range sets {
				for j := i + 1; j < len(sets); j++ {
					if len(sets[i]) > 0 && len(sets[j]) > 0 && similar(intersection(sets[i], sets[j]), len(sets[i]), len(sets[j]), th) {
						want = append(want, Pair{i, j})
					}
				}
			}
			if got := exactPairs(sets, th); !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, threshold %v: %d pairs, brute force %d", round, th, len(got), len(want))
			}
		}
	}
}

func TestPrefixLength(t *testing.T) {
	tests := []struct {
		n    int
		t    float64
		want int
	}{
		{10, 0.8, 3}, {100, 0.8, 21}, {5, 0.8, 2}, {1, 0.8, 1}, {10, 1, 1}, {7, 0.5, 4},
	}
	for _, tt := range tests {
		if got := prefixLength(tt.n, tt.t); got != tt.want {
			t.Errorf("prefixLength(%d, %v) = %d, want %d", tt.n, tt.t, got, tt.want)
		}
	}
}

func TestUnionFindAndRecall(t *testing.T) {
	uf := newUnionFind(6)
	uf.union(0, 1)
	uf.union(3, 4)
	uf.union(4, 1)
	labels := uf.labels()
	if want := []int{0, 0, 2, 0, 0, 5}; !reflect.DeepEqual(labels, want) {
		t.Errorf("labels %v, want %v", labels, want)
	}
	pairs := []Pair{{0, 3}, {1, 2}, {2, 5}, {3, 4}}
	if got := recall(pairs, labels); got != 0.5 {
		t.Errorf("recall %v, want 0.5", got)
	}
	if got := recall(nil, labels); got != 1 {
		t.Errorf("recall of no pair %v, want 1", got)
	}
	if n, clustered := clusters(labels); n != 1 || clustered != 4 {
		t.Errorf("%d clusters of %d sentences, want 1 of 4", n, clustered)
	}
}

func TestReadSentencesAndClusters(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("sentences-00000-of-00002.jsonl", `{"id":"1:0","page_id":1,"text":"a"}`+"\n"+`{"id":"1:1","text":"b"}`+"\n")
	write("sentences-00001-of-00002.jsonl", `{"id":"2:0","text":"c"}`+"\n")
	write("clusters-00000-of-00001.jsonl", `{"id":"1:0","size":2,"members":[{"id":"1:0"},{"id":"2:0"}]}`+"\n")
	ids, texts, err := readSentences(filepath.Join(dir, "sentences-*.jsonl"))
	if err != nil || !reflect.DeepEqual(ids, []string{"1:0", "1:1", "2:0"}) || !reflect.DeepEqual(texts, []string{"a", "b", "c"}) {
		t.Fatalf("readSentences = %v %v %v", ids, texts, err)
	}
	labels, err := readClusters(filepath.Join(dir, "clusters-*.jsonl"), ids)
	if err != nil || labels[0] != labels[2] || labels[0] == labels[1] {
		t.Errorf("readClusters = %v, %v", labels, err)
	}

	write("dup-00000-of-00001.jsonl", `{"id":"1:0","text":"a"}`+"\n"+`{"id":"1:0","text":"b"}`+"\n")
	if _, _, err := readSentences(filepath.Join(dir, "dup-*.jsonl")); err == nil || !strings.Contains(err.Error(), "appears twice") {
		t.Errorf("duplicate ids: error %v", err)
	}
	write("bad-00000-of-00001.jsonl", `{"id":"9:9","size":1,"members":[{"id":"9:9"}]}`+"\n")
	if _, err := readClusters(filepath.Join(dir, "bad-*.jsonl"), ids); err == nil {
		t.Error("a member that is not a sentence: no error")
	}
	if _, _, err := readSentences(filepath.Join(dir, "none-*.jsonl")); err == nil {
		t.Error("no file: no error")
	}
}

// TestRunPeerFindsCopies checks the peer end to end on sentences with an
// exact copy, a near copy and an unrelated one.
func TestRunPeerFindsCopies(t *testing.T) {
	s := "Hurricane Katrina was a large and destructive Category 5 Atlantic hurricane that caused over 1,800 deaths in August 2005."
	texts := []string{s, s, strings.Replace(s, "large", "huge", 1), "The Atlantic Ocean is the second-largest of the world's five oceanic divisions, with an area of about 106 million square kilometres."}
	labels, report := runPeer(texts, 12, 128, 0.8, 1)
	if labels[0] != labels[1] || labels[0] == labels[3] {
		t.Errorf("labels %v", labels)
	}
	if report.Hashes != 128 || report.BandRows*report.Bands > 128 || report.Bands < 1 {
		t.Errorf("report %+v", report)
	}
}
