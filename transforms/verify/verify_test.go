package verify

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/testshared"

	"github.com/neardup/neardup/transforms/shingle"
)

func TestSet(t *testing.T) {
	tests := []struct {
		dst, hashes, want []uint64
	}{
		{nil, nil, nil},
		{nil, []uint64{5, 3, 5, 1, 3}, []uint64{1, 3, 5}},
		{[]uint64{9}, []uint64{2, 2, 1}, []uint64{9, 1, 2}},
		{[]uint64{}, []uint64{7}, []uint64{7}},
	}
	for _, tt := range tests {
		in := slices.Clone(tt.hashes)
		got := Set(slices.Clone(tt.dst), tt.hashes)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Set(%v, %v) = %v, want %v", tt.dst, in, got, tt.want)
		}
		if !slices.Equal(tt.hashes, in) {
			t.Errorf("Set modified its input: %v, was %v", tt.hashes, in)
		}
	}
}

func TestJaccard(t *testing.T) {
	tests := []struct {
		a, b []uint64
		want float64
	}{
		{nil, nil, 1},
		{[]uint64{1}, nil, 0},
		{nil, []uint64{1}, 0},
		{[]uint64{1, 2}, []uint64{1, 2}, 1},
		{[]uint64{1, 2, 3}, []uint64{2, 3, 4}, 0.5},
		{[]uint64{1, 2, 3, 4}, []uint64{3}, 0.25},
		{[]uint64{1, 3, 5}, []uint64{2, 4, 6}, 0},
	}
	for _, tt := range tests {
		if got := Jaccard(tt.a, tt.b); got != tt.want {
			t.Errorf("Jaccard(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := Jaccard(tt.b, tt.a); got != tt.want {
			t.Errorf("Jaccard(%v, %v) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"", "", -1, 0},
		{"", "", 0, 0},
		{"abc", "", -1, 3},
		{"abc", "", 2, 3},
		{"kitten", "sitting", -1, 3},
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 2, 3},
		{"kitten", "sitting", 0, 1},
		{"flaw", "lawn", -1, 2},
		{"intention", "execution", -1, 5},
		{"intention", "execution", 4, 5},
		{"Péter", "Peter", -1, 1},
		{"abc", "abcdef", 2, 3},
		{"abc", "abcdef", 3, 3},
		{"same text", "same text", 0, 0},
		{strings.Repeat("a", 100), strings.Repeat("b", 100), -1, 100},
		{strings.Repeat("a", 100), strings.Repeat("b", 100), 25, 26},
	}
	for _, tt := range tests {
		if got := EditDistance([]rune(tt.a), []rune(tt.b), tt.limit); got != tt.want {
			t.Errorf("EditDistance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
		if got := EditDistance([]rune(tt.b), []rune(tt.a), tt.limit); got != tt.want {
			t.Errorf("EditDistance(%q, %q, %d) = %d, want %d", tt.b, tt.a, tt.limit, got, tt.want)
		}
	}
}

// naiveDistance is the textbook O(n·m) Levenshtein distance.
func naiveDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j-1]+cost, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// TestEditDistanceMatchesNaive checks the banded cut-off against the full
// table on random strings over small alphabets (many matches and near
// misses), for every limit.
func TestEditDistanceMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randomRunes := func(n int, alphabet string) []rune {
		letters := []rune(alphabet)
		out := make([]rune, n)
		for i := range out {
			out[i] = letters[rng.IntN(len(letters))]
		}
		return out
	}
	for range 400 {
		alphabet := []string{"ab", "abc", "abcdéf"}[rng.IntN(3)]
		a := randomRunes(rng.IntN(30), alphabet)
		b := slices.Clone(a)
		for range rng.IntN(8) { // mutate a copy, so some pairs are close
			switch i := rng.IntN(len(b) + 1); {
			case rng.IntN(3) == 0 || len(b) == 0:
				b = slices.Insert(b, i, randomRunes(1, alphabet)...)
			case i < len(b) && rng.IntN(2) == 0:
				b = slices.Delete(b, i, i+1)
			case i < len(b):
				b[i] = randomRunes(1, alphabet)[0]
			}
		}
		if rng.IntN(4) == 0 {
			b = randomRunes(rng.IntN(30), alphabet)
		}
		want := naiveDistance(a, b)
		if got := EditDistance(a, b, -1); got != want {
			t.Fatalf("EditDistance(%q, %q, -1) = %d, want %d", string(a), string(b), got, want)
		}
		for limit := 0; limit <= max(len(a), len(b))+1; limit++ {
			got := EditDistance(a, b, limit)
			if want <= limit && got != want || want > limit && got != limit+1 {
				t.Fatalf("EditDistance(%q, %q, %d) = %d, want distance %d", string(a), string(b), limit, got, want)
			}
		}
	}
}

func TestAccept(t *testing.T) {
	d := DefaultThresholds()
	if d != (Thresholds{MinJaccard: 0.5, MaxEdit: 0.25}) {
		t.Fatalf("DefaultThresholds() = %+v", d)
	}
	tests := []struct {
		s    Similarity
		want bool
	}{
		{Similarity{Jaccard: 0.5, Edit: 0.9}, true},
		{Similarity{Jaccard: 0.49, Edit: 0.25}, true},
		{Similarity{Jaccard: 0.49, Edit: 0.26}, false},
		{Similarity{Jaccard: 1, Edit: 0}, true},
		{Similarity{Jaccard: 0, Edit: 1}, false},
	}
	for _, tt := range tests {
		if got := d.Accept(tt.s); got != tt.want {
			t.Errorf("Accept(%+v) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestEditLimit(t *testing.T) {
	tests := []struct {
		maxEdit float64
		longer  int
		want    int
	}{
		{0.25, 100, 25},
		{0.25, 3, 0},
		{0.3, 10, 3},
		{0.1, 30, 3},
		{0, 10, 0},
		{-1, 10, 0},
		{1, 10, 10},
		{7, 10, 10},
	}
	for _, tt := range tests {
		got := editLimit(tt.maxEdit, tt.longer)
		if got != tt.want {
			t.Errorf("editLimit(%v, %d) = %d, want %d", tt.maxEdit, tt.longer, got, tt.want)
		}
	}
}

func TestCompare(t *testing.T) {
	long := "Bulgaria, a poor rural nation of 7 million people sought to acquire Macedonia."
	tests := []struct {
		name string
		a, b string
		want Similarity
		ok   bool
	}{
		{"equal", long, long, Similarity{1, 0}, true},
		{"case and space", "The  Cat sat on the mat\n", "the cat sat on the mat", Similarity{1, 0}, true},
		{"both empty", "", "  ", Similarity{1, 0}, true},
		// Rejected: Edit is the cut-off's lower bound, 1 edit of 3 runes.
		{"one empty", "", "abc", Similarity{0, 1.0 / 3}, false},
		// Shorter than a shingle: one whole-text shingle each.
		{"short different", "abc", "abd", Similarity{0, 1.0 / 3}, false},
		{"short equal", "Abc", "abc", Similarity{1, 0}, true},
		// 13 runes: shingles abcdefghijkl, bcdefghijklm / bcdefghijklx.
		{"edit accepts", "abcdefghijklm", "abcdefghijklx", Similarity{1.0 / 3, 1.0 / 13}, true},
		// Jaccard rejects, edit cut off at 5 of 20: lower bound 6/20.
		{"rejected", strings.Repeat("a", 20), strings.Repeat("b", 20), Similarity{0, 0.3}, false},
		// Jaccard accepts (47 of 88 shingles): the distance is exact, 4 of 79 runes.
		{"jaccard accepts", long, strings.Replace(long, "7 million", "4.5 millio", 1), Similarity{47.0 / 88, 4.0 / 79}, true},
	}
	c := NewChecker(12, shingle.DefaultNormalization, DefaultThresholds())
	for _, tt := range tests {
		got, ok := c.Compare(tt.a, tt.b)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: Compare(%q, %q) = %+v, %v; want %+v, %v", tt.name, tt.a, tt.b, got, ok, tt.want, tt.ok)
		}
	}
}

// TestCompareExactWhenJaccardAccepts checks that an accepted pair's Edit is
// the exact normalised distance even when it is above MaxEdit.
func TestCompareExactWhenJaccardAccepts(t *testing.T) {
	c := NewChecker(3, shingle.DefaultNormalization, Thresholds{MinJaccard: 0.1, MaxEdit: 0.01})
	a, b := "abcdefghij", "abcdefXYZj"
	got, ok := c.Compare(a, b)
	want := Similarity{Jaccard: 4.0 / 12, Edit: 0.3} // abc bcd cde def shared; XYZ folds to xyz
	if !ok || got != want {
		t.Errorf("Compare(%q, %q) = %+v, %v; want %+v, true", a, b, got, ok, want)
	}
}

// oneWordEdits returns every copy of text with one word deleted, and every
// copy with one word replaced by another word of the same length (each
// letter or digit shifted by one).
func oneWordEdits(text string) []string {
	words := strings.Fields(text)
	var out []string
	for i, w := range words {
		deleted := slices.Concat(words[:i], words[i+1:])
		out = append(out, strings.Join(deleted, " "))
		replaced := slices.Clone(words)
		replaced[i] = strings.Map(shiftRune, w)
		out = append(out, strings.Join(replaced, " "))
	}
	return out
}

func shiftRune(r rune) rune {
	switch {
	case r == 'z' || r == 'Z' || r == '9':
		return r - 1
	case 'a' <= r && r <= 'y', 'A' <= r && r <= 'Y', '0' <= r && r <= '8':
		return r + 1
	}
	return r
}

// pipelineMinRunes is the shortest sentence the pipeline keeps by default:
// more than 75 shingles of 12 runes.
const pipelineMinRunes = 75 + 12

// TestPaperExamplesOneWordEdits: every paper sentence is accepted against
// itself and, when it is long enough for the pipeline's window, against
// every copy with one word deleted or replaced. (In a sentence of 38 runes a
// replaced 11-letter word is a 29% edit; such sentences never reach Compare.)
func TestPaperExamplesOneWordEdits(t *testing.T) {
	c := NewChecker(12, shingle.DefaultNormalization, DefaultThresholds())
	edits := 0
	for _, pc := range testshared.PaperCases(t) {
		for _, m := range pc.Members {
			if s, ok := c.Compare(m.Text, m.Text); !ok || s != (Similarity{1, 0}) {
				t.Errorf("Compare(x, x) = %+v, %v for %q", s, ok, m.Text)
			}
			if len([]rune(m.Text)) < pipelineMinRunes {
				continue
			}
			for _, e := range oneWordEdits(m.Text) {
				edits++
				if s, ok := c.Compare(m.Text, e); !ok {
					t.Errorf("one-word edit rejected (%+v):\n  %s\n  %s", s, m.Text, e)
				}
			}
		}
	}
	if edits < 100 {
		t.Errorf("only %d edited sentences checked", edits)
	}
}

// TestPaperExamplesUnrelated: sentences of different paper groups are
// rejected, except pairs of Ayhan et al.'s Bush/Obama groups, which
// are variants of each other.
func TestPaperExamplesUnrelated(t *testing.T) {
	cases := testshared.PaperCases(t)
	c := NewChecker(12, shingle.DefaultNormalization, DefaultThresholds())
	firstWord := func(s string) string { return strings.Fields(s)[0] }
	pairs := 0
	for i, x := range cases {
		for _, y := range cases[i+1:] {
			a, b := x.Members[0].Text, y.Members[0].Text
			if strings.Contains("Bush Obama", firstWord(a)) && strings.Contains("Bush Obama", firstWord(b)) {
				continue
			}
			pairs++
			if s, ok := c.Compare(a, b); ok {
				t.Errorf("unrelated pair accepted (%+v):\n  %s\n  %s", s, a, b)
			}
		}
	}
	if pairs < 20 {
		t.Errorf("only %d pairs checked", pairs)
	}
}

// TestPaperExamplesGroups: the members of each paper group are accepted
// against each other, except the "other" pair, a sentence-splitting accident
// whose halves diverge after 66 runes.
func TestPaperExamplesGroups(t *testing.T) {
	c := NewChecker(12, shingle.DefaultNormalization, DefaultThresholds())
	for _, pc := range testshared.PaperCases(t) {
		a, b := pc.Members[0].Text, pc.Members[1].Text
		s, ok := c.Compare(a, b)
		wantOK := pc.Label != "other"
		if ok != wantOK {
			t.Errorf("%s: Compare = %+v, %v; want accepted %v:\n  %s\n  %s", pc.Label, s, ok, wantOK, a, b)
		}
	}
}

func BenchmarkCompare(b *testing.B) {
	var pairs [][2]string
	for _, pc := range testshared.PaperCases(b) {
		for i := 1; i < len(pc.Members); i++ {
			pairs = append(pairs, [2]string{pc.Members[0].Text, pc.Members[i].Text})
		}
	}
	c := NewChecker(12, shingle.DefaultNormalization, DefaultThresholds())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := pairs[i%len(pairs)]
		c.Compare(p[0], p[1])
	}
}

func BenchmarkEditDistanceRejected(b *testing.B) {
	x := []rune(strings.Repeat("the quick brown fox jumps over the lazy dog ", 12))
	y := []rune(strings.Repeat("pack my box with five dozen liquor jugs now ", 12))
	limit := len(x) / 4
	b.ReportAllocs()
	for b.Loop() {
		EditDistance(x, y, limit)
	}
}

// FuzzEditDistance checks the cut-off against the full table, and Compare
// for symmetry and range, on arbitrary text.
func FuzzEditDistance(f *testing.F) {
	f.Add("kitten", "sitting", 2)
	f.Add("Bulgaria, a poor rural nation of 7 million", "Bulgaria a poor rural nation of 4.5 million", 5)
	f.Add("", "\xff\xfe", 0)
	c := NewChecker(12, shingle.DefaultNormalization, DefaultThresholds())
	f.Fuzz(func(t *testing.T, a, b string, limit int) {
		if len(a) > 300 || len(b) > 300 {
			return // keep the naive table small
		}
		limit %= 64
		ra, rb := []rune(a), []rune(b)
		want := naiveDistance(ra, rb)
		got := EditDistance(ra, rb, limit)
		switch {
		case limit < 0 && got != want:
			t.Fatalf("EditDistance(%q, %q, %d) = %d, want %d", a, b, limit, got, want)
		case limit >= 0 && want <= limit && got != want:
			t.Fatalf("EditDistance(%q, %q, %d) = %d, want %d", a, b, limit, got, want)
		case limit >= 0 && want > limit && got != limit+1:
			t.Fatalf("EditDistance(%q, %q, %d) = %d, want %d (distance %d)", a, b, limit, got, limit+1, want)
		}
		s1, ok1 := c.Compare(a, b)
		s2, ok2 := c.Compare(b, a)
		if s1 != s2 || ok1 != ok2 {
			t.Fatalf("Compare not symmetric: %+v %v / %+v %v", s1, ok1, s2, ok2)
		}
		if s1.Jaccard < 0 || s1.Jaccard > 1 || s1.Edit < 0 || s1.Edit > 1 {
			t.Fatalf("Compare(%q, %q) = %+v out of range", a, b, s1)
		}
	})
}

func TestOverlapMatchesSortedJaccard(t *testing.T) {
	tests := []struct {
		name string
		a, b []uint64
	}{
		{"both empty", nil, nil},
		{"one empty", []uint64{1, 2}, nil},
		{"zero is a value", []uint64{0, 0, 5}, []uint64{0}},
		{"repeats count once", []uint64{7, 7, 7, 8}, []uint64{8, 8, 9}},
		{"equal", []uint64{3, 1, 2}, []uint64{2, 3, 1}},
		{"disjoint", []uint64{1, 2, 3}, []uint64{4, 5, 6}},
		{"colliding slots", []uint64{1 << 63, 1<<63 | 1, 1<<63 | 2}, []uint64{1<<63 | 1, 1<<63 | 3}},
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 200 {
		var a, b []uint64
		for range r.IntN(400) {
			a = append(a, r.Uint64N(300))
		}
		for range r.IntN(400) {
			b = append(b, r.Uint64N(300))
		}
		tests = append(tests, struct {
			name string
			a, b []uint64
		}{fmt.Sprintf("random %d", i), a, b})
	}
	var o overlap
	for _, tt := range tests {
		want := Jaccard(Set(nil, tt.a), Set(nil, tt.b))
		if got := o.jaccard(tt.a, tt.b); got != want {
			t.Errorf("%s: overlap %v, sorted sets %v", tt.name, got, want)
		}
	}
}

// BenchmarkJaccard compares the two ways of measuring the Jaccard
// similarity of two sentence-sized shingle multisets (200 hashes each, 150
// shared): sorting both into sets and merging, and one hash table.
func BenchmarkJaccard(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	x, y := make([]uint64, 200), make([]uint64, 200)
	for i := range x {
		x[i] = r.Uint64()
		y[i] = x[i]
		if i >= 150 {
			y[i] = r.Uint64()
		}
	}
	b.Run("sorted", func(b *testing.B) {
		var sa, sb []uint64
		for b.Loop() {
			sa, sb = Set(sa[:0], x), Set(sb[:0], y)
			_ = Jaccard(sa, sb)
		}
	})
	b.Run("table", func(b *testing.B) {
		var o overlap
		for b.Loop() {
			_ = o.jaccard(x, y)
		}
	})
}

// TestEditDistanceLongMatchesNaive checks the exact distance of texts that
// span several 64-rune blocks of the bit-parallel algorithm, with block
// boundaries at every position.
func TestEditDistanceLongMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		alphabet := []rune([]string{"ab", "abcdéf", "the quick brown fox jumps over lazy dog ΣΦ"}[rng.IntN(3)])
		a := make([]rune, rng.IntN(300))
		for i := range a {
			a[i] = alphabet[rng.IntN(len(alphabet))]
		}
		b := slices.Clone(a)
		for range rng.IntN(40) {
			i := rng.IntN(len(b) + 1)
			switch {
			case rng.IntN(3) == 0 || len(b) == 0:
				b = slices.Insert(b, i, alphabet[rng.IntN(len(alphabet))])
			case i < len(b) && rng.IntN(2) == 0:
				b = slices.Delete(b, i, i+1)
			case i < len(b):
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		if rng.IntN(5) == 0 {
			b = b[:rng.IntN(len(b)+1)]
		}
		want := naiveDistance(a, b)
		if got := EditDistance(a, b, -1); got != want {
			t.Fatalf("EditDistance of %d and %d runes = %d, want %d:\n%q\n%q", len(a), len(b), got, want, string(a), string(b))
		}
		if got := EditDistance(b, a, -1); got != want {
			t.Fatalf("EditDistance (swapped) of %d and %d runes = %d, want %d", len(b), len(a), got, want)
		}
	}
}

func BenchmarkEditDistanceExact(b *testing.B) {
	x := []rune("Tropical Depression Twelve formed over the Bahamas at 5:00 p.m. EDT (2100 UTC) on August 23, 2005, partially from the remains of Tropical Depression Ten.")
	y := []rune("Tropical Depression Twelve formed over the southeastern Bahamas at 5:00 p.m. EDT on August 23, 2005, partly from the remains of Tropical Depression Ten, which had dissipated.")
	var s distanceScratch // as a Checker reuses it
	b.ReportAllocs()
	for b.Loop() {
		s.distance(x, y, -1)
	}
}
