package categorize

import (
	"slices"
	"strings"
	"testing"
)

func TestSegments(t *testing.T) {
	tests := []struct {
		name   string
		a, b   string
		wa, wb []Segment
	}{
		{"same", "The Aare flows.", "The Aare flows.",
			[]Segment{{Text: "The Aare flows."}}, []Segment{{Text: "The Aare flows."}}},
		{"number", "It had 48 seats in 1990.", "It had 58 seats in 1990.",
			[]Segment{{Text: "It had "}, {Text: "48", Changed: true}, {Text: " seats in 1990."}},
			[]Segment{{Text: "It had "}, {Text: "58", Changed: true}, {Text: " seats in 1990."}}},
		{"run of words keeps its inner space", "It was badly damaged by fire.", "It had collapsed by fire.",
			[]Segment{{Text: "It "}, {Text: "was badly damaged", Changed: true}, {Text: " by fire."}},
			[]Segment{{Text: "It "}, {Text: "had collapsed", Changed: true}, {Text: " by fire."}}},
		{"insertion", "Lyon is a city.", "Lyon is a large city.",
			[]Segment{{Text: "Lyon is a city."}},
			[]Segment{{Text: "Lyon is a "}, {Text: "large", Changed: true}, {Text: " city."}}},
		{"case", "the Rhine", "The Rhine",
			[]Segment{{Text: "the", Changed: true}, {Text: " Rhine"}},
			[]Segment{{Text: "The", Changed: true}, {Text: " Rhine"}}},
		{"non-Latin", "Ο ποταμός έχει μήκος 120 χιλιόμετρα.", "Ο ποταμός έχει μήκος 125 χιλιόμετρα.",
			[]Segment{{Text: "Ο ποταμός έχει μήκος "}, {Text: "120", Changed: true}, {Text: " χιλιόμετρα."}},
			[]Segment{{Text: "Ο ποταμός έχει μήκος "}, {Text: "125", Changed: true}, {Text: " χιλιόμετρα."}}},
		{"spaces kept", "  a  b ", "  a  c ",
			[]Segment{{Text: "  a  "}, {Text: "b", Changed: true}, {Text: " "}},
			[]Segment{{Text: "  a  "}, {Text: "c", Changed: true}, {Text: " "}}},
		{"empty", "", "x", nil, []Segment{{Text: "x", Changed: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sa, sb := Segments(tt.a, tt.b)
			if !slices.Equal(sa, tt.wa) || !slices.Equal(sb, tt.wb) {
				t.Errorf("Segments(%q, %q) =\n %+v\n %+v\nwant\n %+v\n %+v", tt.a, tt.b, sa, sb, tt.wa, tt.wb)
			}
			if joined(sa) != tt.a || joined(sb) != tt.b {
				t.Errorf("segments do not join back to the texts")
			}
		})
	}
}

func joined(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteString(s.Text)
	}
	return b.String()
}

func FuzzSegments(f *testing.F) {
	f.Add("It had 48 seats.", "It had 58 seats in all.")
	f.Add("a\u00a0b", "a  b\t")
	f.Fuzz(func(t *testing.T, a, b string) {
		sa, sb := Segments(a, b)
		if joined(sa) != a || joined(sb) != b {
			t.Fatalf("Segments(%q, %q) do not join back: %q %q", a, b, joined(sa), joined(sb))
		}
	})
}

// TestSegmentsLinear merges the runs of a long text without copying them:
// cutting 20,000 unchanged tokens and 20,000 changed ones into two
// segments allocates only the segments' slice (a few times, as it grows), where growing each
// segment by concatenation allocated once per token (quadratic bytes).
func TestSegmentsLinear(t *testing.T) {
	text := strings.Repeat("word ", 40000)
	toks := Tokenize(text)
	changed := make([]bool, len(toks))
	for i := len(toks) / 2; i < len(toks); i++ {
		changed[i] = true
	}
	var segs []Segment
	allocs := testing.AllocsPerRun(5, func() { segs = segments(text, toks, changed) })
	if allocs > 4 {
		t.Errorf("%v allocations for %d tokens, want at most 4", allocs, len(toks))
	}
	half := len(text) / 2
	want := []Segment{{Text: text[:half]}, {Text: text[half : len(text)-1], Changed: true}, {Text: " "}}
	if !slices.Equal(segs, want) {
		t.Errorf("%d segments of lengths %v, want 3: the unchanged half, the changed one and the final space", len(segs), lengths(segs))
	}
}

func lengths(segs []Segment) []int {
	var n []int
	for _, s := range segs {
		n = append(n, len(s.Text))
	}
	return n
}

// BenchmarkSegments highlights two sentences of about 1 MB that differ in
// one word.
func BenchmarkSegments(b *testing.B) {
	a := strings.Repeat("the river flows south ", 50000)
	c := a[:len(a)/2] + "lake" + a[len(a)/2+5:]
	for b.Loop() {
		Segments(a, c)
	}
}
