package minhash

import (
	"math"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/hashmix"
)

func TestChooseBands(t *testing.T) {
	tests := []struct {
		threshold, recall   float64
		maxBands            int
		wantBands, wantRows int
	}{
		{0.8, 0.99, 20, 20, 7},
		{0.9, 0.99, 10, 10, 9},
		{0.5, 0.99, 20, 17, 2},
		{0.95, 0.9, 1, 1, 2},
	}
	for _, tt := range tests {
		b, r, err := ChooseBands(tt.threshold, tt.recall, tt.maxBands)
		if err != nil {
			t.Fatal(err)
		}
		if b != tt.wantBands || r != tt.wantRows {
			t.Errorf("ChooseBands(%v, %v, %d) = %d×%d, want %d×%d", tt.threshold, tt.recall, tt.maxBands, b, r, tt.wantBands, tt.wantRows)
		}
		if p := Collision(tt.threshold, b, r); p < tt.recall {
			t.Errorf("collision at threshold = %v < recall %v", p, tt.recall)
		}
	}
	for _, bad := range [][3]float64{{0, 0.99, 20}, {1, 0.99, 20}, {0.8, 1, 20}, {0.8, 0.99, 0}} {
		if _, _, err := ChooseBands(bad[0], bad[1], int(bad[2])); err == nil {
			t.Errorf("ChooseBands%v: want an error", bad)
		}
	}
	if _, _, err := ChooseBands(0.8, 0.99, 2); err == nil {
		t.Error("unreachable recall: want an error")
	}
}

func TestWeissmanScheme(t *testing.T) {
	s := Weissman(42)
	if s.Family() != 20 || s.Bands != 10 || s.Rows != 10 || len(s.rows) != 10 {
		t.Fatalf("family %d, %d signatures of %d: want 20, 10 of 10", s.Family(), s.Bands, s.Rows)
	}
	for j, band := range s.rows {
		seen := map[int]bool{}
		for _, i := range band {
			if i < 0 || i >= 20 || seen[i] {
				t.Errorf("signature %d draws %v: want 10 distinct indices in [0,20)", j, band)
			}
			seen[i] = true
		}
	}
	if !slices.EqualFunc(s.rows, Weissman(42).rows, slices.Equal) {
		t.Error("same seed gave a different draw")
	}
	if slices.EqualFunc(s.rows, Weissman(43).rows, slices.Equal) {
		t.Error("different seeds gave the same draw")
	}
	// 60-bit output: every minhash fits in 60 bits.
	g := NewSigner(s)
	g.AppendKeys(nil, []uint64{1, 2, 3, math.MaxUint64})
	for _, m := range g.mins {
		if m>>s.shift >= 1<<60 {
			t.Fatalf("minhash %x exceeds 60 bits", m>>s.shift)
		}
	}
}

// pair returns two sets of size n sharing exactly shared elements.
func pair(base uint64, n, shared int) (a, b []uint64) {
	for i := range n {
		a = append(a, hashmix.Splitmix64(base+uint64(i)))
		if i < shared {
			b = append(b, a[i])
		} else {
			b = append(b, hashmix.Splitmix64(base+uint64(i)+1<<40))
		}
	}
	return a, b
}

func collides(g *Signer, a, b []uint64) bool {
	ka := g.AppendKeys(nil, a)
	kb := g.AppendKeys(nil, b)
	for j := range ka {
		if ka[j] == kb[j] {
			return true
		}
	}
	return false
}

// TestCollisionRateFollowsCurve checks the S-curve empirically: over many
// pairs of exactly known Jaccard similarity the fraction that share a band key
// is close to 1-(1-s^r)^b for independent bands. Weissman's signatures draw
// their minhashes from a family of only 20, so they overlap and are not
// independent: their rate lies between one signature's s^10 and the curve.
func TestCollisionRateFollowsCurve(t *testing.T) {
	banding, err := Banding(7, 20, 7)
	if err != nil {
		t.Fatal(err)
	}
	oph, err := OnePermutation(7, 20, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, scheme := range []*Scheme{banding, oph, Weissman(7)} {
		g := NewSigner(scheme)
		for _, shared := range []int{60, 100, 120, 150, 180} {
			// Sets of 100 with `shared` common elements out of 200-shared distinct: s = shared/(200-shared).
			n := 100
			sh := shared * n / 200
			sim := float64(sh) / float64(2*n-sh)
			const trials = 600
			hits := 0
			for trial := range trials {
				a, b := pair(uint64(trial)<<20, n, sh)
				if collides(g, a, b) {
					hits++
				}
			}
			got := float64(hits) / trials
			want := Collision(sim, scheme.Bands, scheme.Rows)
			if scheme.Name == "weissman" {
				if one := math.Pow(sim, 10); got < one-0.05 || got > want+0.05 {
					t.Errorf("weissman at s=%.2f: collision rate %.3f outside [%.3f, %.3f]", sim, got, one, want)
				}
				continue
			}
			if math.Abs(got-want) > 0.07 {
				t.Errorf("%s at s=%.2f: collision rate %.3f, curve says %.3f", scheme.Name, sim, got, want)
			}
		}
	}
}

func TestKeysDependOnlyOnTheSet(t *testing.T) {
	banding, _ := Banding(1, 20, 7)
	oph, _ := OnePermutation(1, 20, 7)
	for _, s := range []*Scheme{banding, oph} {
		t.Run(s.Name, func(t *testing.T) { testKeysDependOnlyOnTheSet(t, s) })
	}
}

func testKeysDependOnlyOnTheSet(t *testing.T, s *Scheme) {
	g := NewSigner(s)
	a := []uint64{5, 9, 1, 77, 1 << 50, 9}
	b := []uint64{77, 1, 1 << 50, 5, 9}
	if !slices.Equal(g.AppendKeys(nil, a), g.AppendKeys(nil, b)) {
		t.Error("keys changed with shingle order or duplicates")
	}
	if got := g.AppendKeys(nil, nil); len(got) != 0 {
		t.Errorf("empty set gave %d keys", len(got))
	}
	keys := g.AppendKeys(nil, a)
	if len(slices.Compact(slices.Sorted(slices.Values(keys)))) != len(keys) {
		t.Error("bands of one set share a key: band index is not mixed in")
	}
}

func TestCurve(t *testing.T) {
	c := Weissman(1).Curve()
	if len(c) != 11 || c[0].Similarity != 0.5 || c[10].Similarity != 1 || c[10].Probability != 1 {
		t.Fatalf("curve = %v", c)
	}
	// Weissman et al.: 99% chance of a match at Jaccard 0.9 (0.986 exactly).
	if p := c[8].Probability; c[8].Similarity != 0.9 || p < 0.98 || p > 0.99 {
		t.Errorf("P(0.9) = %v, want ≈0.986", p)
	}
}

func BenchmarkSigner(b *testing.B) {
	// 64 different sets of 150 shingles, in turn, so that the branch
	// predictor cannot learn one set's bins.
	sets := make([][]uint64, 64)
	for j := range sets {
		sets[j] = make([]uint64, 150)
		for i := range sets[j] {
			sets[j][i] = hashmix.Splitmix64(uint64(j<<20 | i))
		}
	}
	weissman := Weissman(1)
	banding, _ := Banding(1, 20, 7)
	oph, _ := OnePermutation(1, 20, 7)
	for _, s := range []*Scheme{weissman, banding, oph} {
		b.Run(s.Name, func(b *testing.B) {
			g := NewSigner(s)
			keys := make([]uint64, 0, s.Bands)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				keys = g.AppendKeys(keys[:0], sets[i%len(sets)])
			}
		})
	}
}
