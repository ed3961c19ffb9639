package passage

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/testshared"
)

// pts makes points of the given ranks ("a,b" each), ordinals twice the
// ranks and similarity 1.
func pts(ranks ...string) []Point {
	var out []Point
	for _, r := range ranks {
		var a, b int
		if _, err := fmt.Sscanf(r, "%d,%d", &a, &b); err != nil {
			panic(err)
		}
		out = append(out, Point{RankA: a, RankB: b, OrdA: 2 * a, OrdB: 2 * b, Jaccard: 1})
	}
	return out
}

// show writes passages as "a0-a1/b0-b1:n" by ranks.
func show(ps []Passage) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, fmt.Sprintf("%d-%d/%d-%d:%d", p.First().RankA, p.Last().RankA, p.First().RankB, p.Last().RankB, len(p.Points)))
	}
	return strings.Join(parts, " ")
}

func TestFind(t *testing.T) {
	long := Config{Gap: 1, MinMatches: 3} // runs of three, no coverage rule
	tests := []struct {
		name   string
		cfg    Config
		points []Point
		want   string
	}{
		{"diagonal", long, pts("3,10", "4,11", "5,12", "6,13", "7,14"), "3-7/10-14:5"},
		{"any order", long, pts("6,13", "3,10", "7,14", "5,12", "4,11"), "3-7/10-14:5"},
		{"too short", long, pts("3,10", "4,11"), ""},
		{"three is enough", long, pts("3,10", "4,11", "5,12"), "3-5/10-12:3"},
		{"sentence added in b", long, pts("3,10", "4,11", "5,13", "6,14"), "3-6/10-14:4"},
		{"sentence dropped from b", long, pts("3,10", "5,11", "6,12"), "3-6/10-12:3"},
		{"sentence reworded", long, pts("3,10", "4,11", "6,13", "7,14"), "3-7/10-14:4"},
		{"gap of two breaks it", long, pts("1,1", "2,2", "3,3", "6,6", "7,7", "8,8"), "1-3/1-3:3 6-8/6-8:3"},
		{"gap of two allowed", Config{Gap: 2, MinMatches: 3}, pts("1,1", "2,2", "3,3", "6,6", "7,7", "8,8"), "1-8/1-8:6"},
		{"no gap", Config{Gap: 0, MinMatches: 2}, pts("1,1", "2,2", "4,4", "5,5"), "1-2/1-2:2 4-5/4-5:2"},
		{"anti-diagonal is no passage", long, pts("1,5", "2,4", "3,3", "4,2"), ""},
		{"repeated point", long, pts("1,1", "2,2", "2,2", "3,3"), "1-3/1-3:3"},
		{"copied twice into b", long, pts("1,1", "2,2", "3,3", "1,20", "2,21", "3,22"), "1-3/1-3:3 1-3/20-22:3"},
		{"the diagonal wins over a detour", long, pts("1,1", "2,2", "2,3", "3,3", "3,4", "4,4"), "1-4/1-4:4"},
		{"a sentence matched twice does not split it", long, pts("0,0", "1,1", "2,2", "2,3", "3,4", "4,5", "5,6"), "0-5/0-6:6"},
		{"a repeated sentence matching a passage's twice", long, pts("1,1", "2,2", "3,3", "4,4", "2,9"), "1-4/1-4:4"},
		{"scattered template matches", long, pts("1,9", "5,2", "9,30", "12,7"), ""},
		{"every run when short ones may be kept", DefaultConfig(), pts("1,9", "5,2", "6,3", "9,30", "10,31", "11,32"), "1-1/9-9:1 5-6/2-3:2 9-11/30-32:3"},
		{"of a point twice, the more similar", long, []Point{{RankA: 1, RankB: 1, Jaccard: 0.5}, {RankA: 2, RankB: 2, Jaccard: 0.6}, {RankA: 2, RankB: 2, Jaccard: 0.9}, {RankA: 3, RankB: 3, Jaccard: 0.7}}, "1-3/1-3:3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := show(NewFinder(tt.cfg).Find(tt.points))
			if got != tt.want {
				t.Errorf("Find = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFinderReuse(t *testing.T) {
	f := NewFinder(Config{Gap: 1, MinMatches: 3})
	first := f.Find(pts("1,1", "2,2", "3,3"))
	second := f.Find(pts("7,7", "8,8", "9,9", "10,10"))
	if show(first) != "1-3/1-3:3" || show(second) != "7-10/7-10:4" {
		t.Errorf("Find twice = %q then %q", show(first), show(second))
	}
}

// TestSelect keeps the long runs of a document pair, and its short ones
// too when its runs together cover MinCoverage of its shorter document.
func TestSelect(t *testing.T) {
	cfg := Config{Gap: 1, MinMatches: 3, MinCoverage: 0.25}
	one, two, three := Passage{pts("40,1")}, Passage{pts("70,2", "71,3")}, Passage{pts("20,4", "21,5", "22,6")}
	tests := []struct {
		name         string
		cfg          Config
		runs         []Passage
		sizeA, sizeB int
		want         string
		coverage     float64
		mayKeep      bool
	}{
		{"a long run alone", cfg, []Passage{one, three}, 100, 100, "20-22/4-6:3", 0.04, true},
		{"one sentence of eight", cfg, []Passage{one}, 200, 8, "", 0.125, true},
		{"one sentence of four", cfg, []Passage{one}, 200, 4, "40-40/1-1:1", 0.25, true},
		{"two sentences of eight", cfg, []Passage{two}, 200, 8, "70-71/2-3:2", 0.25, true},
		{"two scattered sentences of eight", cfg, []Passage{one, {pts("45,5")}}, 200, 8, "40-40/1-1:1 45-45/5-5:1", 0.25, true},
		{"of one size, the larger share", cfg, []Passage{{pts("4,2", "5,3")}}, 8, 8, "4-5/2-3:2", 0.25, true},
		{"ranks too far for a quarter", cfg, []Passage{{pts("40,50")}}, 200, 200, "", 0.005, false},
		{"short runs kept with a long one", cfg, []Passage{one, three}, 200, 12, "40-40/1-1:1 20-22/4-6:3", 0.3333, true},
		{"no coverage rule", Config{Gap: 1, MinMatches: 3}, []Passage{one}, 1, 1, "", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.cfg.MayKeep(tt.runs); got != tt.mayKeep {
				t.Errorf("MayKeep = %v, want %v", got, tt.mayKeep)
			}
			if got := Coverage(tt.runs, tt.sizeA, tt.sizeB); math.Abs(got-tt.coverage) > 1e-4 {
				t.Errorf("Coverage = %v, want %v", got, tt.coverage)
			}
			if got := show(tt.cfg.Select(slices.Clone(tt.runs), tt.sizeA, tt.sizeB)); got != tt.want {
				t.Errorf("Select = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPassageMeasures(t *testing.T) {
	p := Passage{Points: []Point{{RankA: 2, RankB: 5, Jaccard: 1}, {RankA: 3, RankB: 7, Jaccard: 0.5}, {RankA: 5, RankB: 8, Jaccard: 0.75}}}
	if got := p.MeanJaccard(); got != 0.75 {
		t.Errorf("MeanJaccard = %v, want 0.75", got)
	}
	if a, b := p.Spans(); a != 4 || b != 4 {
		t.Errorf("Spans = %d, %d, want 4, 4", a, b)
	}
}

func TestCovered(t *testing.T) {
	tests := []struct {
		ps         []Passage
		wantA, wah int
	}{
		{nil, 0, 0},
		{[]Passage{{pts("1,1", "2,2", "3,3")}}, 3, 3},
		{[]Passage{{pts("1,1", "2,2", "3,3")}, {pts("1,20", "2,21", "3,22")}}, 3, 6},
		{[]Passage{{pts("1,1", "4,4")}, {pts("3,10", "6,12")}, {pts("10,30", "10,30")}}, 7, 8},
	}
	for i, tt := range tests {
		if a, b := Covered(tt.ps); a != tt.wantA || b != tt.wah {
			t.Errorf("%d: Covered = %d, %d, want %d, %d", i, a, b, tt.wantA, tt.wah)
		}
	}
}

func TestBoundedKeepsTheFirstWhateverTheOrder(t *testing.T) {
	var all []Point
	for a := range 50 {
		for b := range 40 {
			all = append(all, Point{RankA: a, RankB: b})
		}
	}
	want := slices.Clone(all[:123])
	for seed := range uint64(5) {
		r := rand.New(rand.NewPCG(seed, 1))
		r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		b := Bounded{Max: 123}
		for _, p := range all {
			b.Add(p)
			if len(b.points) >= 2*b.Max {
				t.Fatalf("holds %d points, bound %d", len(b.points), b.Max)
			}
		}
		got, dropped := b.Take()
		if !slices.Equal(got, want) || dropped != int64(len(all)-123) {
			t.Fatalf("seed %d: kept %d points (first %v), dropped %d; want the first 123 and %d dropped", seed, len(got), got[:1], dropped, len(all)-123)
		}
	}
}

func TestPairRecordRoundTrip(t *testing.T) {
	in := pairRecord{
		DocA: 77, DocB: 1 << 40, CoveredA: 5, CoveredB: 6,
		Passages: []Passage{{pts("1,1", "2,2", "3,4")}, {Points: []Point{{RankA: 9, RankB: 1, OrdA: 12, OrdB: 1, Jaccard: 0.625}}}},
		InfoA:    []byte("info a"), InfoB: []byte{},
	}
	b := in.AppendBinary(nil)
	var out pairRecord
	if err := out.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(out) != fmt.Sprint(in) {
		t.Errorf("round trip = %+v, want %+v", out, in)
	}
	testshared.CheckDamaged(t, b, func(b []byte) error { return new(pairRecord).UnmarshalBinary(b) })

	text := textRecord{DocA: 1, DocB: 2, ID: 3 << 20, Text: "Ελληνικά κείμενα."}
	var back textRecord
	if err := back.UnmarshalBinary(text.AppendBinary(nil)); err != nil || back != text {
		t.Errorf("text round trip = %+v, %v; want %+v", back, err, text)
	}
}

func TestStepsOrder(t *testing.T) {
	got := fmt.Sprint(steps(1))
	if want := "[{1 1} {1 2} {2 1} {2 2}]"; got != want {
		t.Errorf("steps(1) = %s, want %s", got, want)
	}
}
