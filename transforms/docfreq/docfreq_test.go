package docfreq

import (
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"

	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/shingle"
)

// distinct returns the sorted distinct values of xs.
func distinct(xs []uint64) []uint64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return slices.Compact(xs)
}

func TestShingleTokensAreTheDistinctShingleHashes(t *testing.T) {
	cfg := Config{Tokens: Shingles, ShingleLength: 5, Norm: shingle.DefaultNormalization}
	tok := cfg.Tokenizer()
	for _, text := range []string{
		"", "abcd", "abcde", "The  cat sat on the mat; the cat sat.", "ΑΒΓΔΕ αβγδε ΑΒΓΔΕ", "abababababab",
	} {
		want := distinct(shingle.New(5, shingle.DefaultNormalization).Hashes(text))
		got := tok.AppendTokens([]uint64{42}, text) // appends after what dst holds
		if got[0] != 42 || !slices.Equal(got[1:], want) {
			t.Errorf("%q: tokens %v, want 42 then %v", text, got, want)
		}
	}
}

func TestWordTokens(t *testing.T) {
	fold := Config{Tokens: Words, Norm: shingle.DefaultNormalization}.Tokenizer()
	keep := Config{Tokens: Words, Norm: shingle.Normalization{CollapseSpace: true}}.Tokenizer()
	tests := []struct {
		text             string
		folded, unfolded int // distinct words
	}{
		{"", 0, 0},
		{"  ,,! — ", 0, 0},
		{"The cat saw the CAT.", 3, 5},
		{"abc123 def-ghi", 3, 3},
		{"x", 1, 1},
		{"Η Αθήνα είναι η πρωτεύουσα", 4, 5},
		{"Київ — столиця України; київ", 3, 4},
		{"नमस्ते दुनिया नमस्ते", 2, 2}, // vowel signs and viramas are marks inside the words
		{"东京是日本的首都", 1, 1},             // no spaces: one run of letters
		{"l'été 2024", 3, 3},
	}
	for _, tt := range tests {
		if got := fold.AppendTokens(nil, tt.text); len(got) != tt.folded || !slices.IsSorted(got) {
			t.Errorf("%q folded: %d words %v, want %d, sorted", tt.text, len(got), got, tt.folded)
		}
		if got := keep.AppendTokens(nil, tt.text); len(got) != tt.unfolded {
			t.Errorf("%q: %d words, want %d", tt.text, len(got), tt.unfolded)
		}
	}
	// Words are equal when their folded runes are, wherever they stand.
	a, b := fold.AppendTokens(nil, "Cat"), fold.AppendTokens(nil, "...the CAT")
	if len(a) != 1 || !slices.Contains(b, a[0]) {
		t.Errorf("Cat %v not among the words of ...the CAT %v", a, b)
	}
	if x, y := fold.AppendTokens(nil, "ab"), fold.AppendTokens(nil, "ba"); slices.Equal(x, y) {
		t.Error("ab and ba have the same hash")
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		cfg Config
		ok  bool
	}{
		{Config{Tokens: Shingles, ShingleLength: 12}, true},
		{Config{Tokens: Shingles}, false},
		{Config{Tokens: Words}, true},
		{Config{Tokens: "letters", ShingleLength: 12}, false},
		{Config{}, false},
	}
	for _, tt := range tests {
		if err := tt.cfg.Validate(); (err == nil) != tt.ok {
			t.Errorf("%+v: Validate() = %v, want ok %v", tt.cfg, err, tt.ok)
		}
	}
}

func TestSketchCounts(t *testing.T) {
	var s Sketch
	if s.Count(7) != 0 || !s.Empty() || s.Documents() != 0 {
		t.Fatalf("zero sketch: count %d, empty %v, documents %d", s.Count(7), s.Empty(), s.Documents())
	}
	s.AddDocument([]uint64{1, 2, 3})
	s.AddDocument([]uint64{2, 3})
	s.AddDocument([]uint64{3})
	s.AddDocument(nil)
	for token, want := range map[uint64]uint32{1: 1, 2: 2, 3: 3, 4: 0} {
		if got := s.Count(token); got != want {
			t.Errorf("Count(%d) = %d, want %d", token, got, want)
		}
	}
	if s.Documents() != 4 {
		t.Errorf("%d documents, want 4", s.Documents())
	}
}

// TestSketchIsAnUpperBoundAndMergesExactly fills a sketch far past its
// width, so that counters collide: every count is at least the true one,
// most are exact, and the sketches of any partition of the documents merge
// into the sketch of all of them.
func TestSketchIsAnUpperBoundAndMergesExactly(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const docs = 3000
	var all Sketch
	parts := make([]Sketch, 3)
	truth := map[uint64]uint32{}
	for range docs {
		var doc []uint64
		for range 300 {
			// Tokens from a skewed vocabulary of 2^22, with repeats across documents.
			doc = append(doc, uint64(r.ExpFloat64()*1e5)%(1<<22)*0x9e3779b97f4a7c15)
		}
		doc = distinct(doc)
		for _, tok := range doc {
			truth[tok]++
		}
		all.AddDocument(doc)
		parts[r.IntN(len(parts))].AddDocument(doc)
	}
	var tokens []uint64
	for tok := range truth {
		tokens = append(tokens, tok)
	}
	got := all.AppendCounts([]uint32{7}, tokens)
	var none Sketch
	zeros := none.AppendCounts(nil, tokens)
	for i, tok := range tokens {
		if got[i+1] != all.Count(tok) || zeros[i] != 0 {
			t.Fatalf("AppendCounts gives %d and %d for %#x, want Count's %d and 0", got[i+1], zeros[i], tok, all.Count(tok))
		}
	}
	if got[0] != 7 || len(got) != len(tokens)+1 || len(zeros) != len(tokens) {
		t.Fatal("AppendCounts does not append")
	}
	exact := 0
	for tok, n := range truth {
		c := all.Count(tok)
		if c < n {
			t.Fatalf("Count(%#x) = %d below the true %d", tok, c, n)
		}
		if c == n {
			exact++
		}
	}
	if exact < len(truth)*9/10 {
		t.Errorf("%d of %d counts exact, want 90%%", exact, len(truth))
	}
	var merged Sketch
	for _, i := range []int{2, 0, 1} {
		merged.Merge(&parts[i])
	}
	if !merged.Equal(&all) {
		t.Error("merged parts differ from the sketch of everything")
	}
	if all.Documents() != docs || merged.Documents() != docs {
		t.Errorf("documents %d and %d, want %d", all.Documents(), merged.Documents(), docs)
	}
}

func TestSketchSaturates(t *testing.T) {
	var s Sketch
	s.Add(5)
	i, j := cells(5)
	s.cells[i], s.cells[j] = math.MaxUint32-1, math.MaxUint32-1
	s.Add(5)
	s.Add(5)
	if got := s.Count(5); got != math.MaxUint32 {
		t.Errorf("count %d after saturation, want %d", got, uint32(math.MaxUint32))
	}
	o := s
	o.cells = slices.Clone(s.cells)
	s.Merge(&o)
	if got := s.Count(5); got != math.MaxUint32 {
		t.Errorf("count %d after a saturating merge, want %d", got, uint32(math.MaxUint32))
	}
}

func TestSketchEqual(t *testing.T) {
	var a, b Sketch
	a.Add(1)
	a.Reset() // cells allocated, all zero
	if !a.Equal(&b) || !b.Equal(&a) {
		t.Error("a reset sketch differs from the zero sketch")
	}
	a.Add(1)
	if a.Equal(&b) || b.Equal(&a) {
		t.Error("a sketch with a token equals the zero sketch")
	}
	b.AddDocument([]uint64{1})
	if a.Equal(&b) {
		t.Error("sketches of different document counts are equal")
	}
}

func TestSketchEncoding(t *testing.T) {
	var sparse Sketch
	sparse.AddDocument([]uint64{1, 2, 3, 1 << 40})
	sparse.AddDocument([]uint64{3})
	var dense Sketch
	dense.AddDocument(nil)
	dense.Add(9)
	for i := range dense.cells {
		if i%3 != 0 {
			dense.cells[i] = uint32(i)
		}
	}
	var reset Sketch
	reset.Add(1)
	reset.Reset()
	tests := []struct {
		name    string
		s       Sketch
		maxSize int
	}{
		{"zero", Sketch{}, 5},
		{"reset", reset, 5},
		{"sparse", sparse, 40},
		{"dense", dense, 4*Depth*Width + 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.s.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if len(b) > tt.maxSize {
				t.Errorf("%d bytes, want at most %d", len(b), tt.maxSize)
			}
			var got Sketch
			if err := got.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			if !got.Equal(&tt.s) {
				t.Error("decoded sketch differs")
			}
			again, _ := got.MarshalBinary()
			if string(again) != string(b) {
				t.Error("re-encoding differs")
			}
			if len(b) < 1000 {
				testshared.CheckDamaged(t, b, func(b []byte) error { var s Sketch; return s.UnmarshalBinary(b) })
			} else {
				for _, bad := range [][]byte{b[:len(b)-1], append(slices.Clip(b), 0)} {
					var s Sketch
					if s.UnmarshalBinary(bad) == nil {
						t.Errorf("encoding of %d bytes decoded", len(bad))
					}
				}
			}
		})
	}
	other := []byte{magic, Depth + 2, WidthBits, 0, formEmpty}
	var s Sketch
	if err := s.UnmarshalBinary(other); err == nil {
		t.Error("a sketch of another shape decoded")
	}
}

// katrinaSentences cuts the raw wikitext of the Katrina export at sentence
// ends, keeping pieces of 87 to 600 runes: sentence-like texts for
// benchmarks.
func katrinaSentences(tb testing.TB) []string {
	tb.Helper()
	end := regexp.MustCompile(`[.!?]\s+|\n`)
	var out []string
	for _, p := range testshared.DumpPagesAt(tb, testshared.Katrina(tb)) {
		for _, s := range end.Split(p.Text, -1) {
			if n := len([]rune(s)); n >= 87 && n <= 600 {
				out = append(out, s)
			}
		}
	}
	return out
}

// BenchmarkCount is the cost of counting one sentence of the Katrina export:
// its distinct tokens, then their addition to a sketch.
func BenchmarkCount(b *testing.B) {
	sents := katrinaSentences(b)
	for _, tokens := range []Tokens{Shingles, Words} {
		tok := Config{Tokens: tokens, ShingleLength: 12, Norm: shingle.DefaultNormalization}.Tokenizer()
		b.Run(string(tokens)+"/tokens", func(b *testing.B) {
			var buf []uint64
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				buf = tok.AppendTokens(buf[:0], sents[i%len(sents)])
			}
		})
		b.Run(string(tokens)+"/tokens+add", func(b *testing.B) {
			var buf []uint64
			var s Sketch
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				buf = tok.AppendTokens(buf[:0], sents[i%len(sents)])
				s.AddDocument(buf)
			}
		})
	}
}

// BenchmarkSketchCount is the cost of looking one token up, alone or
// among 256 (AppendCounts).
func BenchmarkSketchCount(b *testing.B) {
	var s Sketch
	r := rand.New(rand.NewPCG(5, 6))
	tokens := make([]uint64, 1<<16)
	for i := range tokens {
		tokens[i] = r.Uint64()
		s.Add(tokens[i])
	}
	b.Run("Count", func(b *testing.B) {
		var sum uint32
		for i := 0; b.Loop(); i++ {
			sum += s.Count(tokens[i&(len(tokens)-1)])
		}
		_ = sum
	})
	b.Run("AppendCounts", func(b *testing.B) {
		var counts []uint32
		for i := 0; b.Loop(); i++ {
			j := i * 256 & (len(tokens) - 1)
			counts = s.AppendCounts(counts[:0], tokens[j:j+256])
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*256), "ns/token")
	})
}

func TestSorter(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var s Sorter
	for n := range 700 {
		for _, skewed := range []bool{false, true} {
			xs := make([]uint64, n)
			for i := range xs {
				xs[i] = r.Uint64()
				if skewed {
					xs[i] = uint64(r.IntN(50)) // all in the first bucket, repeated
				} else if i > 0 && r.IntN(5) == 0 {
					xs[i] = xs[r.IntN(i)]
				}
			}
			want := slices.Clone(xs)
			slices.Sort(want)
			s.Sort(xs)
			if !slices.Equal(xs, want) {
				t.Fatalf("%d hashes (skewed %v) not sorted", n, skewed)
			}
		}
	}
}

func BenchmarkSorter(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]uint64, 200)
	for i := range xs {
		xs[i] = r.Uint64()
	}
	w := make([]uint64, len(xs))
	b.Run("slices.Sort", func(b *testing.B) {
		for b.Loop() {
			copy(w, xs)
			slices.Sort(w)
		}
	})
	b.Run("Sorter", func(b *testing.B) {
		var s Sorter
		for b.Loop() {
			copy(w, xs)
			s.Sort(w)
		}
	})
}
