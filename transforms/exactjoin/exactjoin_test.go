package exactjoin

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/hashmix"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/verify"
)

// exact computes the bounds with rational arithmetic, t given as a
// decimal string.
func exact(n, m int, t string) (prefix, maxPartner, minOverlap int) {
	r, _ := new(big.Rat).SetString(t)
	ceil := func(x *big.Rat) int {
		q := new(big.Int).Quo(x.Num(), x.Denom()) // truncates; x ≥ 0
		if new(big.Rat).SetInt(q).Cmp(x) < 0 {
			q.Add(q, big.NewInt(1))
		}
		return int(q.Int64())
	}
	floor := func(x *big.Rat) int { return int(new(big.Int).Quo(x.Num(), x.Denom()).Int64()) }
	nr := new(big.Rat).SetInt64(int64(n))
	if n > 0 {
		prefix = min(n, n-ceil(new(big.Rat).Mul(r, nr))+1)
	}
	maxPartner = floor(new(big.Rat).Quo(nr, r))
	onePlus := new(big.Rat).Add(big.NewRat(1, 1), r)
	minOverlap = ceil(new(big.Rat).Mul(new(big.Rat).Quo(r, onePlus), new(big.Rat).SetInt64(int64(n+m))))
	return prefix, maxPartner, minOverlap
}

// TestBoundsAreExact checks the float bounds against rational arithmetic
// at the thresholds people use, where products like 0.7·10 are not what
// they seem in binary.
func TestBoundsAreExact(t *testing.T) {
	for _, ts := range []string{"0.1", "0.3", "0.5", "0.6", "0.7", "0.75", "0.8", "0.85", "0.9", "0.95", "0.99", "1"} {
		var tf float64
		fmt.Sscan(ts, &tf)
		for n := 0; n <= 700; n++ {
			for _, m := range []int{n, n + 1, n + 7, 2 * n} {
				p, mp, mo := exact(n, m, ts)
				if got := PrefixLength(n, tf); got != p {
					t.Fatalf("PrefixLength(%d, %s) = %d, want %d", n, ts, got, p)
				}
				if got := MaxPartnerSize(n, tf); got != mp {
					t.Fatalf("MaxPartnerSize(%d, %s) = %d, want %d", n, ts, got, mp)
				}
				if got := MinOverlap(n, m, tf); got != mo {
					t.Fatalf("MinOverlap(%d, %d, %s) = %d, want %d", n, m, ts, got, mo)
				}
			}
		}
	}
}

func TestBounds(t *testing.T) {
	tests := []struct {
		n, m                           int
		t                              float64
		prefix, maxPartner, minOverlap int
	}{
		{0, 0, 0.8, 0, 0, 0},
		{1, 1, 0.8, 1, 1, 1},
		{5, 5, 0.8, 2, 6, 5},     // 4 of 5 shared: J = 4/6 < 0.8, so all 5
		{10, 12, 0.8, 3, 12, 10}, // 10/12 ≥ 0.8
		{100, 100, 0.8, 21, 125, 89},
		{10, 10, 1, 1, 10, 10},
		{10, 10, 0.5, 6, 20, 7},
	}
	for _, tt := range tests {
		if got := PrefixLength(tt.n, tt.t); got != tt.prefix {
			t.Errorf("PrefixLength(%d, %v) = %d, want %d", tt.n, tt.t, got, tt.prefix)
		}
		if got := MaxPartnerSize(tt.n, tt.t); got != tt.maxPartner {
			t.Errorf("MaxPartnerSize(%d, %v) = %d, want %d", tt.n, tt.t, got, tt.maxPartner)
		}
		if got := MinOverlap(tt.n, tt.m, tt.t); got != tt.minOverlap {
			t.Errorf("MinOverlap(%d, %d, %v) = %d, want %d", tt.n, tt.m, tt.t, got, tt.minOverlap)
		}
	}
}

// counts is a Counter from a map.
type counts map[uint64]uint32

func (c counts) Count(t uint64) uint32 { return c[t] }

func TestPrefix(t *testing.T) {
	c := counts{1: 5, 2: 1, 3: 3, 4: 1, 5: 3, 6: 9}
	all := []uint64{1, 2, 3, 4, 5, 6}
	tests := []struct {
		name   string
		tokens []uint64
		t      float64
		want   []Ranked
	}{
		{"empty", nil, 0.8, nil},
		{"rarest first, then by hash", all, 0.5, []Ranked{{2, 1}, {4, 1}, {3, 3}, {5, 3}}},
		{"a tie at the cut keeps the least hashes", all, 0.6, []Ranked{{2, 1}, {4, 1}, {3, 3}}},
		{"threshold 1: one token", all, 1, []Ranked{{2, 1}}},
		{"a low threshold: all of them", all, 0.1, []Ranked{{2, 1}, {4, 1}, {3, 3}, {5, 3}, {1, 5}, {6, 9}}},
		{"one token", []uint64{6}, 0.8, []Ranked{{6, 9}}},
		{"all counts equal", []uint64{3, 5}, 0.8, []Ranked{{3, 3}}},
	}
	p := &Prefixer{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p.T = tt.t
			got := p.Prefix(tt.tokens, c)
			if !slices.Equal(got, tt.want) {
				t.Errorf("prefix %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPrefixIsTheHeadOfTheGlobalOrder checks Prefix against a full sort on
// random sets with few distinct counts (many ties).
func TestPrefixIsTheHeadOfTheGlobalOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	c := counts{}
	p := &Prefixer{}
	for range 2000 {
		n := r.IntN(300)
		set := make([]uint64, 0, n)
		for range n {
			tok := r.Uint64()
			c[tok] = uint32(r.IntN(4))
			set = append(set, tok)
		}
		slices.Sort(set)
		set = slices.Compact(set)
		p.T = []float64{0.5, 0.8, 0.9, 1}[r.IntN(4)]
		var want []Ranked
		for _, tok := range set {
			want = append(want, Ranked{tok, c[tok]})
		}
		slices.SortFunc(want, Ranked.compare)
		want = want[:PrefixLength(len(set), p.T)]
		if got := p.Prefix(set, c); !slices.Equal(got, want) {
			t.Fatalf("set of %d at %v: prefix %v, want %v", len(set), p.T, got, want)
		}
	}
}

func TestAppendEntriesSkipsTokensOfOneSentence(t *testing.T) {
	prefix := []Ranked{{10, 1}, {11, 1}, {12, 2}, {13, 7}}
	got := AppendEntries(nil, 99, 555, 20, prefix)
	want := []Entry{{Token: 12, Set: 555, ID: 99, Size: 20, Pos: 2}, {Token: 13, Set: 555, ID: 99, Size: 20, Pos: 3}}
	if !slices.Equal(got, want) {
		t.Errorf("entries %+v, want %+v", got, want)
	}
}

func TestFingerprint(t *testing.T) {
	a := Fingerprint([]uint64{1, 2, 3})
	for _, other := range [][]uint64{{1, 2}, {1, 2, 4}, {}, {2, 1, 3}, {0, 1, 2, 3}} {
		if Fingerprint(other) == a {
			t.Errorf("%v has the fingerprint of {1, 2, 3}", other)
		}
	}
	if Fingerprint([]uint64{1, 2, 3}) != a {
		t.Error("fingerprint not deterministic")
	}
}

func TestRecordEncoding(t *testing.T) {
	tests := [][]Entry{
		{{Token: 1, Set: 2, ID: 3, Size: 4, Pos: 0}},
		{{Token: 1<<64 - 1, Set: 1 << 63, ID: 1<<64 - 1, Size: 599, Pos: 598}, {Token: 5, Set: 1 << 63, ID: 1<<64 - 1, Size: 599, Pos: 3}},
	}
	for _, es := range tests {
		b := AppendPrefixes(nil, es)
		got, err := UnmarshalPrefixes([]Entry{{ID: 77}}, b)
		if err != nil || !slices.Equal(got[1:], es) || got[0].ID != 77 {
			t.Errorf("%+v decoded as %+v, %v", es, got, err)
		}
		testshared.CheckDamaged(t, b, func(b []byte) error { _, err := UnmarshalPrefixes(nil, b); return err })
	}
	if b := AppendPrefixes([]byte{9}, nil); !slices.Equal(b, []byte{9}) {
		t.Errorf("no entries appended %v", b)
	}
	bad := AppendPrefixes(nil, []Entry{{Size: 3, Pos: 3}})
	if _, err := UnmarshalPrefixes(nil, bad); err == nil {
		t.Error("an entry past its set's end decoded")
	}
}

// entry makes an entry of a set of its own (its fingerprint its id).
func entry(id uint64, size, pos int32) Entry {
	return Entry{Token: 7, Set: hashmix.Splitmix64(id), ID: id, Size: size, Pos: pos}
}

func TestJoin(t *testing.T) {
	same := func(e Entry, set uint64) Entry { e.Set = set; return e }
	tests := []struct {
		name  string
		t     float64
		group []Entry
		want  []shuffle.Pair
		stats Stats
	}{
		{"one entry", 0.8, []Entry{entry(1, 10, 0)}, nil,
			Stats{Entries: 1, Groups: 1, LargestGroup: 1}},
		{"equal sizes, first positions", 0.8, []Entry{entry(2, 10, 0), entry(1, 10, 1)},
			[]shuffle.Pair{{A: 1, B: 2}}, Stats{Entries: 2, Groups: 1, LargestGroup: 2, PairsCompared: 1, Candidates: 1}},
		{"length filter: 8 and 11 at 0.8", 0.8, []Entry{entry(1, 8, 0), entry(2, 11, 0)}, nil,
			Stats{Entries: 2, Groups: 1, LargestGroup: 2, PairsCompared: 1, PairsFiltered: 1}},
		{"length filter: 8 and 10 at 0.8 pass", 0.8, []Entry{entry(1, 8, 0), entry(2, 10, 0)},
			[]shuffle.Pair{{A: 1, B: 2}}, Stats{Entries: 2, Groups: 1, LargestGroup: 2, PairsCompared: 1, Candidates: 1}},
		// 10 and 10 need 9 shared (9/11 ≥ 0.8); shared at position 1 of
		// each leaves at most 1+8 = 9: passes; at 2 and 1, 1+7 = 8: fails.
		{"positional filter passes", 0.8, []Entry{entry(1, 10, 1), entry(2, 10, 1)},
			[]shuffle.Pair{{A: 1, B: 2}}, Stats{Entries: 2, Groups: 1, LargestGroup: 2, PairsCompared: 1, Candidates: 1}},
		{"positional filter refuses", 0.8, []Entry{entry(1, 10, 2), entry(2, 10, 1)}, nil,
			Stats{Entries: 2, Groups: 1, LargestGroup: 2, PairsCompared: 1, PairsFiltered: 1}},
		{"identical sets count once, as their least id", 0.8,
			[]Entry{same(entry(5, 10, 0), 42), same(entry(3, 10, 0), 42), same(entry(4, 10, 0), 42), entry(9, 10, 0)},
			[]shuffle.Pair{{A: 3, B: 9}}, Stats{Entries: 4, Groups: 1, LargestGroup: 2, PairsCompared: 1, Candidates: 1}},
		{"one sentence with two texts is not a pair", 0.8,
			[]Entry{same(entry(5, 10, 0), 1), same(entry(5, 10, 0), 2)}, nil,
			Stats{Entries: 2, Groups: 1, LargestGroup: 2, PairsCompared: 1, PairsFiltered: 1}},
		{"the window of sizes", 0.5, []Entry{entry(1, 4, 0), entry(2, 8, 0), entry(3, 9, 0), entry(4, 16, 0), entry(5, 20, 0)},
			// 4: up to 8; 8: up to 16; 9: up to 18; 16: up to 32.
			[]shuffle.Pair{{A: 1, B: 2}, {A: 2, B: 3}, {A: 2, B: 4}, {A: 3, B: 4}, {A: 4, B: 5}},
			Stats{Entries: 5, Groups: 1, LargestGroup: 5, PairsCompared: 10, PairsFiltered: 5, Candidates: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := &Joiner{T: tt.t}
			var st Stats
			got := j.Join(nil, slices.Clone(tt.group), &st)
			if !slices.Equal(got, tt.want) {
				t.Errorf("pairs %v, want %v", got, tt.want)
			}
			if st != tt.stats {
				t.Errorf("stats %+v, want %+v", st, tt.stats)
			}
			if st.PairsCompared != st.PairsFiltered+st.Candidates {
				t.Errorf("stats %+v: compared ≠ filtered + candidates", st)
			}
			reversed := slices.Clone(tt.group)
			slices.Reverse(reversed)
			if again := j.Join(nil, reversed, &Stats{}); !slices.Equal(again, got) {
				t.Errorf("reversed group: pairs %v, want %v", again, got)
			}
		})
	}
}

// randomSets makes families of similar sets over a small vocabulary:
// each family a base set, its members the base with a few tokens
// replaced, dropped or added, some repeated exactly.
func randomSets(r *rand.Rand, families, members int) map[uint64][]uint64 {
	vocab := make([]uint64, 3000)
	for i := range vocab {
		vocab[i] = hashmix.Splitmix64(uint64(i) + 1)
	}
	pick := func() uint64 { return vocab[min(int(r.ExpFloat64()*400), len(vocab)-1)] } // skewed frequencies
	sets := map[uint64][]uint64{}
	id := uint64(1000)
	for range families {
		base := make([]uint64, 1+r.IntN(80))
		for i := range base {
			base[i] = pick()
		}
		for range 1 + r.IntN(members) {
			id += 1 + uint64(r.IntN(3))
			set := slices.Clone(base)
			for range r.IntN(1 + len(set)/4) {
				switch r.IntN(3) {
				case 0:
					set[r.IntN(len(set))] = pick()
				case 1:
					set = append(set, pick())
				default:
					if len(set) > 1 {
						i := r.IntN(len(set))
						set = append(set[:i], set[i+1:]...)
					}
				}
			}
			slices.Sort(set)
			sets[id] = slices.Compact(set)
			if r.IntN(6) == 0 { // an exact copy
				id++
				sets[id] = sets[id-1]
			}
		}
	}
	return sets
}

// TestJoinFindsEveryPairOfBruteForce is the join's recall, exactly 1, on
// random families of similar sets at several thresholds: every pair of
// Jaccard ≥ t is a candidate between the representatives of their sets,
// or the sets are identical.
func TestJoinFindsEveryPairOfBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for round := range 6 {
		sets := randomSets(r, 60, 12)
		for _, th := range []float64{0.3, 0.5, 0.7, 0.8, 0.9, 1} {
			similar := bruteForce(sets, th)
			j := joinAll(sets, th)
			if miss := j.missed(sets, similar); len(miss) > 0 {
				t.Fatalf("round %d, t=%v: %d of %d similar pairs missed, such as %v", round, th, len(miss), len(similar), miss[0])
			}
			if j.stats.PairsCompared != j.stats.PairsFiltered+j.stats.Candidates {
				t.Errorf("round %d, t=%v: stats %+v: compared ≠ filtered + candidates", round, th, j.stats)
			}
			if round == 0 {
				t.Logf("t=%v: %d sets, %d pairs of J ≥ t, %d identical, %d distinct candidates, %+v",
					th, len(sets), len(similar), len(j.stars), len(distinctPairs(j.candidates)), j.stats)
			}
		}
	}
}

func TestKthLeast(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		n := 1 + r.IntN(400)
		xs := make([]uint32, n)
		spread := 1 + r.IntN(1000)
		for i := range xs {
			xs[i] = uint32(r.IntN(spread))
		}
		sorted := slices.Clone(xs)
		slices.Sort(sorted)
		k := r.IntN(n)
		if got := kthLeast(xs, k); got != sorted[k] {
			t.Fatalf("kthLeast(%d of %d, spread %d) = %d, want %d", k, n, spread, got, sorted[k])
		}
	}
}

// TestTemplateFamilyIsJoinedWhole joins a template filled 400 ways, whose
// sentences share most of their shingles: their prefixes reach the
// template's shingles, each group holds the whole family, and every one of
// the 79,800 pairs is similar. The join passes them all: nothing is cut
// for size.
func TestTemplateFamilyIsJoinedWhole(t *testing.T) {
	sents := map[uint64][]uint64{}
	tok := Config{ShingleLength: shingleLength, Norm: shingle.DefaultNormalization}.docfreq().Tokenizer()
	for i := range 400 {
		text := fmt.Sprintf("Saint-Martin-%03d is a commune in the Somme department in the Hauts-de-France region of northern France, "+
			"on the left bank of the river, about twenty kilometres south-east of Abbeville and north-west of Amiens.", i)
		sents[uint64(i+1)] = tok.AppendTokens(nil, text)
	}
	similar := bruteForce(sents, 0.8)
	j := joinAll(sents, 0.8)
	if miss := j.missed(sents, similar); len(miss) > 0 {
		t.Fatalf("%d of %d similar pairs missed", len(miss), len(similar))
	}
	if len(similar) < 70000 || j.stats.LargestGroup < 390 {
		t.Errorf("%d similar pairs, largest group %d: the family is not the hot group it should be", len(similar), j.stats.LargestGroup)
	}
	t.Logf("%d similar pairs, %d distinct candidates, %+v", len(similar), len(distinctPairs(j.candidates)), j.stats)
}

// TestVerification checks the exact scheme's verification: Jaccard ≥ t
// and nothing else, where the default verification also links pairs at
// Jaccard ≥ 0.5 or within an edit distance of 0.25.
func TestVerification(t *testing.T) {
	for _, tt := range []struct {
		t    float64
		sim  verify.Similarity
		want bool
	}{
		{0.8, verify.Similarity{Jaccard: 0.8, Edit: 0.3}, true},                 // at the threshold
		{0.8, verify.Similarity{Jaccard: 4.0 / 5, Edit: 0.3}, true},             // 4 of 5 is the threshold's float
		{0.8, verify.Similarity{Jaccard: 0.95, Edit: 0.01}, true},               //
		{0.8, verify.Similarity{Jaccard: 1, Edit: 0}, true},                     // equal texts
		{0.8, verify.Similarity{Jaccard: 0.7999999999999999, Edit: 0.1}, false}, // a float below
		{0.8, verify.Similarity{Jaccard: 0.79, Edit: 0.01}, false},              // --max_edit 0.25 would link it
		{0.8, verify.Similarity{Jaccard: 0.5, Edit: 0.3}, false},                // --min_jaccard 0.5 would link it
		{1, verify.Similarity{Jaccard: 1, Edit: 0.2}, true},                     // equal sets, texts apart by case
		{1, verify.Similarity{Jaccard: 0.99, Edit: 0.001}, false},
		{0.5, verify.Similarity{Jaccard: 0.5, Edit: 0.6}, true},
		{0.5, verify.Similarity{Jaccard: 0.49, Edit: 0.2}, false},
	} {
		if got := Verification(tt.t).Accept(tt.sim); got != tt.want {
			t.Errorf("Verification(%v).Accept(%+v) = %v, want %v", tt.t, tt.sim, got, tt.want)
		}
	}
}

// TestVerificationOfTexts compares sentences as verify.Edges does, at
// Verification(0.8): a pair the default verification links by its edit
// distance alone is not linked, and texts that differ only in case (equal
// shingle sets) are.
func TestVerificationOfTexts(t *testing.T) {
	const (
		a = "Hurricane Katrina was the costliest natural disaster, as well as one of the five deadliest hurricanes, in the history of the United States."
		b = "Hurricane Katrina was the costliest natural disaster, and one of the five deadliest storms, in the history of the United States."
	)
	exact := verify.NewChecker(shingleLength, shingle.DefaultNormalization, Verification(0.8))
	loose := verify.NewChecker(shingleLength, shingle.DefaultNormalization, verify.DefaultThresholds())
	for _, tt := range []struct {
		x, y             string
		exactOK, looseOK bool
	}{
		{a, b, false, true},
		{a, strings.ToUpper(a), true, true},
		{a, a + " It", true, true},
	} {
		sim, ok := exact.Compare(tt.x, tt.y)
		if ok != tt.exactOK || ok != (sim.Jaccard >= 0.8) {
			t.Errorf("exact verification of %q and %q: %v at %+v, want %v", tt.x, tt.y, ok, sim, tt.exactOK)
		}
		if _, ok := loose.Compare(tt.x, tt.y); ok != tt.looseOK {
			t.Errorf("default verification of %q and %q: %v, want %v", tt.x, tt.y, ok, tt.looseOK)
		}
	}
}
