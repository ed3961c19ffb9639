package simhash

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/hashmix"
	"github.com/neardup/neardup/internal/shuffle"
)

func TestWindow(t *testing.T) {
	tests := []struct {
		name       string
		entries    []shuffle.Pair
		window     int
		maxHamming int
		want       []shuffle.Pair
		wantStats  Stats
	}{
		{"empty", nil, 3, 0, nil, Stats{}},
		{"neighbours within the limit",
			pairs(0b000, 7, 0b001, 5, 0b011, 9, 0b111, 1), 2, 1,
			pairs(5, 7, 5, 9, 1, 9),
			Stats{PairsCompared: 3, Candidates: 3}},
		{"a wider window reaches further",
			pairs(0b000, 7, 0b001, 5, 0b011, 9, 0b111, 1), 3, 2,
			pairs(5, 7, 7, 9, 5, 9, 1, 5, 1, 9),
			Stats{PairsCompared: 5, Candidates: 5}},
		{"over the limit is filtered",
			pairs(0b0000, 1, 0b1111, 2, 0b1110, 3), 3, 1,
			pairs(2, 3),
			Stats{PairsCompared: 3, PairsFiltered: 2, Candidates: 1}},
		{"repeats are removed and one id is not compared with itself",
			pairs(4, 2, 4, 2, 4, 3, 5, 3), 4, 64,
			pairs(2, 3, 2, 3),
			Stats{PairsCompared: 2, Candidates: 2}},
		{"a run of equal signatures is a chain, whatever the input order",
			pairs(9, 40, 9, 10, 9, 30, 9, 20), 2, 0,
			pairs(10, 20, 20, 30, 30, 40),
			Stats{PairsCompared: 3, Candidates: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sorted := SortEntries(slices.Clone(tt.entries))
			got, st := Window(nil, sorted, tt.window, tt.maxHamming)
			if !slices.Equal(got, tt.want) {
				t.Errorf("pairs = %v, want %v", got, tt.want)
			}
			if st != tt.wantStats {
				t.Errorf("stats = %+v, want %+v", st, tt.wantStats)
			}
		})
	}
}

// TestSeamsMatchOneSortedOrder checks that range shards with their seams
// find exactly the candidates of one window over one sorted order, on
// random signatures with many near and equal ones, for shard counts that
// leave shards empty, smaller than a window or larger.
func TestSeamsMatchOneSortedOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 60 {
		n := 1 + r.IntN(400)
		entries := randomEntries(r, n)
		window, maxHamming := 2+r.IntN(11), r.IntN(12)
		sorted := SortEntries(slices.Clone(entries))
		want, wantStats := Window(nil, sorted, window, maxHamming)
		want = distinctPairs(want)
		for _, shards := range []int{1, 2, 3, 8, 64} {
			got, st := shardedWindow(t, slices.Clone(entries), shards, window, maxHamming)
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d, %d entries, window %d, %d shards: %d candidates, want the %d of one sorted order\ngot  %v\nwant %v",
					trial, n, window, shards, len(got), len(want), got, want)
			}
			if st.PairsCompared != wantStats.PairsCompared || st.PairsFiltered != wantStats.PairsFiltered || st.Candidates != wantStats.Candidates ||
				st.Entries != int64(n) || st.LargestGroup > int64(len(sorted)) || st.Groups < 1 || st.Groups > int64(shards) {
				t.Fatalf("trial %d, %d shards: stats %+v, one sorted order of %d distinct entries gives %+v", trial, shards, st, len(sorted), wantStats)
			}
		}
	}
}

// randomEntries returns n entries whose signatures are clustered: many
// are a few bit flips from another, some are equal, some repeat.
func randomEntries(r *rand.Rand, n int) []shuffle.Pair {
	var entries []shuffle.Pair
	for len(entries) < n {
		id := r.Uint64N(1 << 20)
		switch k := r.IntN(10); {
		case k < 5 && len(entries) > 0: // near another
			sig := entries[r.IntN(len(entries))].A
			for range r.IntN(6) {
				sig ^= 1 << r.IntN(64)
			}
			entries = append(entries, shuffle.Pair{A: sig, B: id})
		case k < 7 && len(entries) > 0: // equal to another
			entries = append(entries, shuffle.Pair{A: entries[r.IntN(len(entries))].A, B: id})
		case k < 8 && len(entries) > 0: // a repeat
			entries = append(entries, entries[r.IntN(len(entries))])
		default:
			// Signatures crowd into a few ranges, so that some shards
			// stay empty.
			entries = append(entries, shuffle.Pair{A: r.Uint64() >> r.IntN(8), B: id})
		}
	}
	return entries
}

// shardedWindow does what the window and seam stages do for one
// permutation: range shards, each sorted and linked by the window DoFn's
// worker function, their seams encoded, decoded and linked; it returns the
// distinct candidates and the stages' statistics.
func shardedWindow(tb testing.TB, entries []shuffle.Pair, shards, window, maxHamming int) ([]shuffle.Pair, Stats) {
	tb.Helper()
	cfg := Config{Shards: shards, Window: window, MaxHamming: maxHamming}.withDefaults()
	byShard := make([][]shuffle.Pair, shards)
	for _, e := range entries {
		s := hashmix.Range(e.A, shards)
		byShard[s] = append(byShard[s], e)
	}
	var all []shuffle.Pair
	var seams []Seam
	var st Stats
	for s, part := range byShard {
		if len(part) == 0 {
			continue
		}
		w := windowShard(shardEntries{key: s, entries: part}, cfg)
		all = append(all, w.edges...)
		st.Add(w.stats)
		if w.seam == nil {
			continue
		}
		seam, err := UnmarshalSeam(w.seam)
		if err != nil {
			tb.Fatal(err)
		}
		seams = append(seams, seam)
	}
	r := rand.New(rand.NewPCG(uint64(len(entries)), uint64(shards)))
	r.Shuffle(len(seams), func(i, j int) { seams[i], seams[j] = seams[j], seams[i] })
	all, w, err := LinkSeams(all, seams, window, maxHamming)
	if err != nil {
		tb.Fatal(err)
	}
	st.Add(w)
	return distinctPairs(all), st
}

// distinctPairs sorts pairs and removes repeats.
func distinctPairs(ps []shuffle.Pair) []shuffle.Pair {
	shuffle.SortPairs(ps)
	return slices.Compact(ps)
}

func TestSeamOf(t *testing.T) {
	sorted := pairs(1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7)
	tests := []struct {
		n, window int
		want      Seam
	}{
		{7, 5, Seam{Shard: 3, Whole: true, Head: sorted}},
		{6, 4, Seam{Shard: 3, Whole: true, Head: sorted[:6]}},
		{7, 4, Seam{Shard: 3, Head: sorted[:3], Tail: sorted[4:]}},
		{7, 3, Seam{Shard: 3, Head: sorted[:2], Tail: sorted[5:]}},
		{7, 2, Seam{Shard: 3, Head: sorted[:1], Tail: sorted[6:]}},
	}
	for _, tt := range tests {
		got := SeamOf(3, sorted[:tt.n], tt.window)
		if got.Shard != tt.want.Shard || got.Whole != tt.want.Whole || !slices.Equal(got.Head, tt.want.Head) || !slices.Equal(got.Tail, tt.want.Tail) {
			t.Errorf("SeamOf(%d entries, window %d) = %+v, want %+v", tt.n, tt.window, got, tt.want)
		}
		back, err := UnmarshalSeam(got.Batch())
		if err != nil {
			t.Fatal(err)
		}
		if back.Shard != got.Shard || back.Whole != got.Whole || !slices.Equal(back.Head, got.Head) || !slices.Equal(back.Tail, got.Tail) {
			t.Errorf("seam %+v decodes as %+v", got, back)
		}
	}
}

func TestUnmarshalSeamRefusesDamage(t *testing.T) {
	bad := map[string][]byte{
		"no header":                   shuffle.KindWindows.PackPairs(),
		"more head than entries":      shuffle.KindWindows.PackPairs(shuffle.Pair{A: 0, B: 3 << 1}, shuffle.Pair{A: 1, B: 1}),
		"a whole shard with a tail":   shuffle.KindWindows.PackPairs(shuffle.Pair{A: 0, B: 1<<1 | 1}, shuffle.Pair{A: 1, B: 1}, shuffle.Pair{A: 2, B: 2}),
		"a shard beyond any":          shuffle.KindWindows.PackPairs(shuffle.Pair{A: 1 << 40, B: 0}),
		"another kind":                shuffle.KindEntries.PackPairs(shuffle.Pair{A: 0, B: 0}),
		"cut inside an entry":         shuffle.KindWindows.PackPairs(shuffle.Pair{A: 0, B: 2})[:5],
		"a batch of sentence records": shuffle.KindSentences.PackRecords([]byte("x")),
	}
	for name, b := range bad {
		if _, err := UnmarshalSeam(b); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
	if _, err := UnmarshalSeam(shuffle.KindWindows.PackPairs()); !errors.Is(err, shuffle.ErrCorrupt) {
		t.Errorf("no header: %v, want shuffle.ErrCorrupt", err)
	}
	seam := Seam{Shard: 1, Whole: true, Head: pairs(1, 1)}
	if _, _, err := LinkSeams(nil, []Seam{seam, seam}, 3, 1); err == nil {
		t.Error("two seams of one shard linked without error")
	}
}

// BenchmarkWindow is the window stage's cost per sentence and
// permutation: sorting a range shard of a million random signatures and
// comparing each with the next nine.
func BenchmarkWindow(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	entries := make([]shuffle.Pair, 1<<20)
	for i := range entries {
		entries[i] = shuffle.Pair{A: r.Uint64(), B: uint64(i)}
	}
	work := make([]shuffle.Pair, len(entries))
	var out []shuffle.Pair
	b.ReportAllocs()
	for b.Loop() {
		copy(work, entries)
		out, _ = Window(out[:0], SortEntries(work), DefaultWindow, 9)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(entries)), "ns/entry")
}

// BenchmarkWindowStage is the cost per sentence of everything after
// signing, at the defaults (10 permutations, windows of 10) with 4 range
// shards: permuting 100,000 signatures, sorting and linking each range
// shard (windowShard, the window DoFn's worker) and linking the seams.
func BenchmarkWindowStage(b *testing.B) {
	const n, shards = 100_000, 4
	cfg := Config{Shards: shards, MaxHamming: 9}.withDefaults()
	r := rand.New(rand.NewPCG(11, 12))
	sigs := make([]uint64, n)
	for i := range sigs {
		sigs[i] = r.Uint64()
	}
	perms := Permutations(1, cfg.Bits, cfg.Permutations)
	b.ReportAllocs()
	for b.Loop() {
		for k := range perms {
			byShard := make([][]shuffle.Pair, shards)
			for i, sig := range sigs {
				p := perms[k].Apply(sig)
				s := hashmix.Range(p, shards)
				byShard[s] = append(byShard[s], shuffle.Pair{A: p, B: uint64(i)})
			}
			var seams []Seam
			for s, part := range byShard {
				w := windowShard(shardEntries{key: k*shards + s, entries: part}, cfg)
				seam, err := UnmarshalSeam(w.seam)
				if err != nil {
					b.Fatal(err)
				}
				seams = append(seams, seam)
			}
			if _, _, err := LinkSeams(nil, seams, cfg.Window, cfg.MaxHamming); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/sentence")
}

// pairs builds pairs from a flat list: pairs(a1, b1, a2, b2, ...).
func pairs(xs ...uint64) []shuffle.Pair {
	var out []shuffle.Pair
	for i := 0; i+1 < len(xs); i += 2 {
		out = append(out, shuffle.Pair{A: xs[i], B: xs[i+1]})
	}
	return out
}
