package verify

import (
	"regexp"
	"slices"
	"testing"

	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/shingle"
)

// katrinaSentences reads the raw wikitext of Weissman et al.'s test export
// (../../../shared/data/wikiduper/Katrina.xml, or the committed slice of it
// where ../shared is missing) cut at sentence ends, keeping
// pieces of minRunes to maxRunes runes. Markup is left in: Compare does not
// care what the text is.
func katrinaSentences(tb testing.TB, minRunes, maxRunes int) []string {
	tb.Helper()
	end := regexp.MustCompile(`[.!?]\s+|\n`)
	var out []string
	for _, p := range testshared.DumpPagesAt(tb, testshared.Katrina(tb)) {
		for _, s := range end.Split(p.Text, -1) {
			if n := len([]rune(s)); n >= minRunes && n <= maxRunes {
				out = append(out, s)
			}
		}
	}
	return out
}

// naiveSimilarity computes both measures the obvious way: shingles as
// strings in a map, the full Levenshtein table.
func naiveSimilarity(a, b string) Similarity {
	na := shingle.DefaultNormalization.Normalize(nil, a)
	nb := shingle.DefaultNormalization.Normalize(nil, b)
	sa, sb := naiveShingles(na), naiveShingles(nb)
	common := 0
	for s := range sa {
		if sb[s] {
			common++
		}
	}
	sim := Similarity{Jaccard: 1}
	if union := len(sa) + len(sb) - common; union > 0 {
		sim.Jaccard = float64(common) / float64(union)
	}
	if longer := max(len(na), len(nb)); longer > 0 {
		sim.Edit = float64(naiveDistance(na, nb)) / float64(longer)
	}
	return sim
}

func naiveShingles(r []rune) map[string]bool {
	set := map[string]bool{}
	if len(r) < 12 {
		if len(r) > 0 {
			set[string(r)] = true
		}
		return set
	}
	for i := 0; i+12 <= len(r); i++ {
		set[string(r[i:i+12])] = true
	}
	return set
}

// TestKatrinaAgainstNaive compares Checker with the naive measures on the
// pairs of Katrina sentences that share at least ten shingles: copies,
// copy edits and pairs that merely share a phrase.
func TestKatrinaAgainstNaive(t *testing.T) {
	sents := katrinaSentences(t, 87, 400)
	// Candidate pairs from an inverted index of shingles, skipping the
	// shingles of boilerplate shared by more than 20 sentences.
	c := NewChecker(12, shingle.DefaultNormalization, DefaultThresholds())
	index := map[uint64][]int{}
	for i, s := range sents {
		for _, h := range Set(nil, shingle.AppendHashes(nil, shingle.DefaultNormalization.Normalize(nil, s), 12)) {
			index[h] = append(index[h], i)
		}
	}
	shared := map[[2]int]int{}
	for _, ids := range index {
		if len(ids) > 20 {
			continue
		}
		for x, i := range ids {
			for _, j := range ids[x+1:] {
				shared[[2]int{i, j}]++
			}
		}
	}
	var pairs [][2]int
	for p, n := range shared {
		if n >= 10 {
			pairs = append(pairs, p)
		}
	}
	slices.SortFunc(pairs, func(a, b [2]int) int { return a[0]*len(sents) + a[1] - b[0]*len(sents) - b[1] })

	accepted, rejected := 0, 0
	for _, p := range pairs {
		a, b := sents[p[0]], sents[p[1]]
		got, ok := c.Compare(a, b)
		want := naiveSimilarity(a, b)
		wantOK := want.Jaccard >= 0.5 || want.Edit <= 0.25
		switch {
		case ok != wantOK || got.Jaccard != want.Jaccard:
			t.Errorf("Compare = %+v, %v; naive %+v, %v:\n  %q\n  %q", got, ok, want, wantOK, a, b)
		case ok && got.Edit != want.Edit:
			t.Errorf("accepted pair: Edit %v, naive %v:\n  %q\n  %q", got.Edit, want.Edit, a, b)
		case !ok && (got.Edit > want.Edit || got.Edit <= 0.25):
			t.Errorf("rejected pair: Edit %v is not a lower bound above 0.25 of %v:\n  %q\n  %q", got.Edit, want.Edit, a, b)
		}
		if ok {
			accepted++
		} else {
			rejected++
		}
	}
	t.Logf("%d pairs: %d accepted, %d rejected", len(pairs), accepted, rejected)
	if accepted < 50 || rejected < 50 {
		t.Errorf("%d pairs accepted and %d rejected; want at least 50 of each", accepted, rejected)
	}
}

// BenchmarkCompareKatrina compares consecutive sentences of the export:
// mostly unrelated pairs, the cut-off's case.
func BenchmarkCompareKatrina(b *testing.B) {
	sents := katrinaSentences(b, 87, 600)
	c := NewChecker(12, shingle.DefaultNormalization, DefaultThresholds())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		j := i % (len(sents) - 1)
		c.Compare(sents[j], sents[j+1])
	}
}
