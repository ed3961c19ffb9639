package shingle

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/neardup/neardup/internal/hashmix"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name string
		norm Normalization
		in   string
		want string
	}{
		{"default folds and collapses", DefaultNormalization, "  The  Quick\t\nFox ", "the quick fox"},
		{"unicode case", DefaultNormalization, "ÉCOLE Ärger ΣΟΦΊΑ", "école ärger σοφία"},
		{"no folding", Normalization{CollapseSpace: true}, "A  B", "A B"},
		{"no collapsing", Normalization{FoldCase: true}, " A  B", " a  b"},
		{"nothing", Normalization{}, " A\u00a0B ", " A\u00a0B "},
		{"nbsp is space", DefaultNormalization, "A\u00a0\u2003B", "a b"},
		{"empty", DefaultNormalization, "   ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(tt.norm.Normalize(nil, tt.in)); got != tt.want {
				t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestNormalizeMatchesUnicode checks the ASCII fast path against the
// unicode package, rune by rune, on every rune up to U+3000 and on invalid
// UTF-8.
func TestNormalizeMatchesUnicode(t *testing.T) {
	reference := func(n Normalization, text string) string {
		var b strings.Builder
		pending := false
		for _, r := range text {
			if n.CollapseSpace && unicode.IsSpace(r) {
				pending = b.Len() > 0
				continue
			}
			if pending {
				b.WriteByte(' ')
				pending = false
			}
			if n.FoldCase {
				r = unicode.ToLower(r)
			}
			b.WriteRune(r)
		}
		return b.String()
	}
	var inputs []string
	for r := rune(0); r <= 0x3000; r++ {
		inputs = append(inputs, "a"+string(r)+"B")
	}
	inputs = append(inputs, "a\xffB", "\xc3", "x\xe2\x80", "\x85 \xa0")
	for _, norm := range []Normalization{{}, {FoldCase: true}, {CollapseSpace: true}, DefaultNormalization} {
		for _, in := range inputs {
			if got, want := string(norm.Normalize(nil, in)), reference(norm, in); got != want {
				t.Errorf("%+v: Normalize(%q) = %q, want %q", norm, in, got, want)
			}
		}
	}
}

func TestCount(t *testing.T) {
	tests := []struct{ runes, length, want int }{
		{0, 12, 0}, {11, 12, 0}, {12, 12, 1}, {100, 12, 89}, {5, 1, 5},
	}
	for _, tt := range tests {
		if got := Count(tt.runes, tt.length); got != tt.want {
			t.Errorf("Count(%d, %d) = %d, want %d", tt.runes, tt.length, got, tt.want)
		}
	}
}

// direct hashes each window from scratch: the reference for the rolling hash.
func direct(runes []rune, length int) []uint64 {
	var out []uint64
	for i := 0; i+length <= len(runes); i++ {
		var h uint64
		for _, r := range runes[i : i+length] {
			h = h*base + uint64(r) + 1
		}
		out = append(out, hashmix.Splitmix64(h))
	}
	return out
}

func TestRollingMatchesDirect(t *testing.T) {
	texts := []string{
		"Of the agricultural land 40.4% is used for growing crops and 26.6% is pastures.",
		"これはペンです。あれは本です。日本語の文は空白なしで続きます。",
		"short",
		"exactly12chr",
		"😀 emoji outside the BMP 😀 are single runes 😀",
	}
	for _, text := range texts {
		for _, l := range []int{1, 5, 12} {
			runes := DefaultNormalization.Normalize(nil, text)
			got := AppendHashes(nil, runes, l)
			want := direct(runes, l)
			if !slices.Equal(got, want) {
				t.Errorf("L=%d %q: rolling hashes differ from direct", l, text)
			}
			if len(got) != Count(len(runes), l) {
				t.Errorf("L=%d %q: %d hashes, Count says %d", l, text, len(got), Count(len(runes), l))
			}
		}
	}
}

func TestHashesSeeSameShingles(t *testing.T) {
	s := New(12, DefaultNormalization)
	a := slices.Clone(s.Hashes("The quick brown fox jumps over the lazy dog"))
	b := slices.Clone(s.Hashes("the  QUICK brown fox jumps over the lazy dog"))
	if !slices.Equal(a, b) {
		t.Fatal("case and spacing changed the shingles under the default normalisation")
	}
	c := s.Hashes("The quick brown cat jumps over the lazy dog")
	// "fox"→"cat" changes the 12+2 windows overlapping it; the rest are shared.
	shared := 0
	set := map[uint64]bool{}
	for _, h := range a {
		set[h] = true
	}
	for _, h := range c {
		if set[h] {
			shared++
		}
	}
	if want := len(a) - 14; shared != want {
		t.Errorf("shared shingles = %d, want %d", shared, want)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(a)))) != len(a) {
		t.Error("distinct windows of this sentence should hash distinctly")
	}
}

func TestShinglerDoesNotAllocate(t *testing.T) {
	s := New(12, DefaultNormalization)
	text := strings.Repeat("Professional organizers help redirect paradigms. ", 4)
	s.Hashes(text)
	if n := testing.AllocsPerRun(100, func() { s.Hashes(text) }); n != 0 {
		t.Errorf("Hashes allocates %v times per sentence, want 0", n)
	}
}

// benchShingler times hash, given a Shingler of 12-character shingles, on
// a sentence of 200 characters.
func benchShingler(b *testing.B, hash func(s *Shingler, text string)) {
	s := New(12, DefaultNormalization)
	text := "In dry areas it may only emerge from its burrow for a few weeks when conditions are right and usually at night but in areas with permanent water bodies and abundant rain it may be active all day."
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		hash(s, text)
	}
}

func BenchmarkHashes(b *testing.B) {
	benchShingler(b, func(s *Shingler, text string) { s.Hashes(text) })
}

// FuzzHashes checks, for any text and length, that the rolling hashes equal
// hashes computed window by window, that their number is Count, and that
// the same text always gives the same hashes.
func FuzzHashes(f *testing.F) {
	f.Add("Of the agricultural land 40.4% is used for growing crops.", 12)
	f.Add("これはペンです。", 3)
	f.Add("\xff\xfe invalid", 2)
	f.Fuzz(func(t *testing.T, text string, length int) {
		length = 1 + (length&0xff)%20
		s := New(length, DefaultNormalization)
		got := slices.Clone(s.Hashes(text))
		runes := s.Runes()
		if len(got) != Count(len(runes), length) {
			t.Fatalf("%d hashes for %d runes, L=%d", len(got), len(runes), length)
		}
		if want := direct(runes, length); !slices.Equal(got, want) {
			t.Fatal("rolling hashes differ from direct ones")
		}
		if again := s.Hashes(text); !slices.Equal(got, again) {
			t.Fatal("hashing is not deterministic")
		}
	})
}

// TestHashesBelowMatchesHashes checks that HashesBelow gives Hashes' hashes
// below the limit and a count at or above it otherwise, with white space
// and multi-byte runes falling on the chunks' edges.
func TestHashesBelowMatchesHashes(t *testing.T) {
	units := []string{"a", "Ab", "  ", " \t\n", "é", "Ω ", "中文", "\u2003", "\xff", "x y "}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 400 {
		var sb strings.Builder
		for sb.Len() < rng.IntN(4*minChunk) {
			sb.WriteString(units[rng.IntN(len(units))])
		}
		text := sb.String()
		for _, norm := range []Normalization{DefaultNormalization, {}} {
			for _, maxShingles := range []int{0, 1, 5, 600, 1000, 5000} {
				whole := New(12, norm)
				want := slices.Clone(whole.Hashes(text))
				s := New(12, norm)
				got, n := s.HashesBelow(text, maxShingles)
				switch {
				case maxShingles <= 0 || len(want) < maxShingles:
					if n != len(want) || !slices.Equal(got, want) {
						t.Fatalf("trial %d, max %d: %d hashes (n = %d), want %d", trial, maxShingles, len(got), n, len(want))
					}
				case got != nil || n < maxShingles:
					t.Fatalf("trial %d, max %d: %d hashes and n = %d for a sentence of %d shingles", trial, maxShingles, len(got), n, len(want))
				}
			}
		}
	}
}

// TestHashesBelowStopsEarly hashes a one-line sentence of 32 MB against a
// limit of 600 shingles: it must be given up without its runes and hashes
// (4 and 8 bytes a character), which made such a page cost 50 times its
// size, and leave the Shingler no large buffer.
func TestHashesBelowStopsEarly(t *testing.T) {
	text := strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit ", 600_000)
	s := New(12, DefaultNormalization)
	allocs := testing.AllocsPerRun(3, func() {
		if h, n := s.HashesBelow(text, 600); h != nil || n < 600 {
			t.Fatalf("%d hashes, n = %d: want the sentence given up", len(h), n)
		}
	})
	if allocs > 2 {
		t.Errorf("%v allocations", allocs)
	}
	if c := cap(s.runes) + cap(s.hashes); c > 4*minChunk {
		t.Errorf("buffers of %d runes and %d hashes kept for a sentence given up at 611 runes", cap(s.runes), cap(s.hashes))
	}
}

// TestShinglerShrinksBuffers checks that a Shingler does not keep the
// buffers of a huge sentence for the next, short ones.
func TestShinglerShrinksBuffers(t *testing.T) {
	s := New(12, DefaultNormalization)
	s.Hashes(strings.Repeat("abcdefgh ", keepRunes))
	if cap(s.hashes) <= keepRunes {
		t.Fatalf("hashes of a long sentence in a buffer of %d", cap(s.hashes))
	}
	short := "A sentence of an ordinary length, with its shingles."
	want := slices.Clone(New(12, DefaultNormalization).Hashes(short))
	if got := s.Hashes(short); !slices.Equal(got, want) {
		t.Fatal("hashes differ after a long sentence")
	}
	if cap(s.runes) > keepRunes || cap(s.hashes) > keepRunes {
		t.Errorf("buffers of %d runes and %d hashes kept after a short sentence", cap(s.runes), cap(s.hashes))
	}
}

func BenchmarkHashesBelow(b *testing.B) {
	benchShingler(b, func(s *Shingler, text string) { s.HashesBelow(text, 600) })
}
