package changes

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/verify"
)

// seq turns a space-separated list of letters into values to align.
func seq(s string) []uint64 {
	var out []uint64
	for _, f := range strings.Fields(s) {
		out = append(out, uint64(f[0]))
	}
	return out
}

func TestAlign(t *testing.T) {
	for _, tc := range []struct {
		name   string
		a, b   string
		budget int
		want   []Match
	}{
		{"same", "a b c", "a b c", 100, []Match{{0, 0}, {1, 1}, {2, 2}}},
		{"empty old", "", "a b", 100, nil},
		{"empty new", "a b", "", 100, nil},
		{"inserted", "a b c", "a x b c", 100, []Match{{0, 0}, {1, 2}, {2, 3}}},
		{"removed", "a x b c", "a b c", 100, []Match{{0, 0}, {2, 1}, {3, 2}}},
		{"replaced", "a b c d", "a b y d", 100, []Match{{0, 0}, {1, 1}, {3, 3}}},
		{"moved to the end", "a b c d", "b c d a", 100, []Match{{1, 0}, {2, 1}, {3, 2}}},
		{"swapped around an anchor", "p q m r s", "r s m p q", 100, []Match{{3, 0}, {4, 1}}},
		// No value is unique on both sides: the LCS table aligns them.
		{"repeats only", "a b a b a", "b a b a b", 100, []Match{{1, 0}, {2, 1}, {3, 2}, {4, 3}}},
		// The table of the repeats does not fit: the common prefix and
		// suffix are matched, the middle is left to the pairing.
		{"over budget", "z a b a b a z", "z b a b a b z", 4, []Match{{0, 0}, {6, 6}}},
		{"unique anchors and repeats", "h a a x b b t", "h a x a b t", 100, []Match{{0, 0}, {1, 1}, {3, 2}, {5, 4}, {6, 5}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Align(seq(tc.a), seq(tc.b), tc.budget)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Align(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

// largePages are two revisions of 200,000 sentences one edit apart, and two
// of 20,000 sentences with no value unique to anchor on: a quadratic
// alignment would take minutes and its table gigabytes; the bounded one
// anchors on unique values and leaves the repeats to the pairing.
func largePages() (a, b, rep, rep2 []uint64) {
	const n = 200_000
	a, b = make([]uint64, n), make([]uint64, n)
	for i := range a {
		a[i], b[i] = uint64(i), uint64(i)
	}
	b[n/2] = 1 << 60
	rep, rep2 = make([]uint64, 20_000), make([]uint64, 20_000)
	for i := range rep {
		rep[i], rep2[i] = uint64(i%2), uint64((i+1)%2)
	}
	return a, b, rep, rep2
}

func TestAlignLargePage(t *testing.T) {
	a, b, rep, rep2 := largePages()
	if got := Align(a, b, DefaultMaxCells); len(got) != len(a)-1 {
		t.Errorf("%d matches, want %d", len(got), len(a)-1)
	}
	// The repeats are beyond the table's budget: whatever is matched must
	// be a real, increasing match.
	got := Align(rep, rep2, DefaultMaxCells)
	for k, m := range got {
		if rep[m.Old] != rep2[m.New] || k > 0 && (m.Old <= got[k-1].Old || m.New <= got[k-1].New) {
			t.Fatalf("match %d %+v is not an increasing match of equal values", k, m)
		}
	}
}

func BenchmarkAlignLargePage(b *testing.B) {
	x, y, rep, rep2 := largePages()
	for b.Loop() {
		Align(x, y, DefaultMaxCells)
		Align(rep, rep2, DefaultMaxCells)
	}
}

func TestGaps(t *testing.T) {
	got := gaps([]Match{{1, 0}, {2, 2}}, 5, 3)
	want := []gap{{0, 1, 0, 0}, {2, 2, 1, 2}, {3, 5, 3, 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("gaps = %v, want %v", got, want)
	}
}

func testConfig() Config {
	return Config{ShingleLength: 12, Norm: shingle.DefaultNormalization, Thresholds: verify.DefaultThresholds()}
}

func revision(rev int64, texts ...string) Revision {
	r := Revision{Wiki: "testwiki", PageID: 7, RevID: rev, Title: "Marren"}
	for i, s := range texts {
		r.Sentences = append(r.Sentences, Sentence{Ordinal: i, Section: "History", Context: "prose", Text: s})
	}
	return r
}

// The sentences of the revisions the tests compare.
const (
	riverOld  = "The Marren is 120 km long and flows into the Rhine near the town of Lindfeld."
	riverNew  = "The Marren is 135 km long and flows into the Rhine near the town of Lindfeld."
	colourOld = "The colour of the old bridge over the river is grey and it was painted in the spring."
	colourNew = "The color of the old bridge over the river is gray and it was painted in the spring."
	census    = "In 2001 the town had 5,000 inhabitants, most of whom worked in the paper mill."
	census2   = "In 2011 the town had 5,000 inhabitants, most of whom worked in the paper mill."
	mayorOld  = "The mayor of the town is John Smith, who was elected by the council in spring."
	mayorNew  = "The mayor of the town is Jane Doe, who was elected by the council in spring."
	filler    = "Fishing has been forbidden on the upper river since the flood destroyed the weirs."
	added     = "A museum of local history opened in the former customs house by the harbour."
	removed   = "The ferry across the estuary stopped running when the new bridge was built."
)

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new Revision
		want     []string // "old ordinal → new ordinal: from → to" of each change
		counts   Counts
	}{
		{
			name: "one number changed",
			old:  revision(1, riverOld, filler), new: revision(2, riverNew, filler),
			want:   []string{"0→0: 120→135"},
			counts: Counts{SentencesBefore: 2, SentencesAfter: 2, SentencesUnchanged: 1, PairsCompared: 1, Changes: 1},
		},
		{
			name: "spelling only",
			old:  revision(1, colourOld, filler), new: revision(2, colourNew, filler),
			counts: Counts{SentencesBefore: 2, SentencesAfter: 2, SentencesUnchanged: 1, PairsCompared: 1, PairsCopyEdit: 1},
		},
		{
			name: "added, removed, moved, a date and a name changed",
			old:  revision(1, census, removed, filler, mayorOld, riverOld),
			new:  revision(2, riverOld, census2, filler, added, mayorNew),
			// riverOld moved from the end to the start and is the diff's
			// one match, which leaves no gap to pair the others in: the
			// page-wide pass pairs them, filler as a moved sentence.
			want:   []string{"0→1: 2001→2011", "3→4: John Smith→Jane Doe"},
			counts: Counts{SentencesBefore: 5, SentencesAfter: 5, SentencesUnchanged: 1, SentencesRemoved: 1, SentencesAdded: 1, PairsCompared: 3, PairsMoved: 1, Changes: 2},
		},
		{
			name: "same text, other white space",
			old:  revision(1, "The  Marren is 120 km long."), new: revision(2, "The Marren is 120 km\nlong."),
			counts: Counts{SentencesBefore: 1, SentencesAfter: 1, SentencesUnchanged: 1},
		},
		{
			name: "unrelated sentences are not paired",
			old:  revision(1, removed), new: revision(2, added),
			counts: Counts{SentencesBefore: 1, SentencesAfter: 1, SentencesRemoved: 1, SentencesAdded: 1},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			changes, counts := NewComparer(testConfig()).Compare(tc.old, tc.new)
			var got []string
			for _, c := range changes {
				var facts []string
				for _, f := range c.Facts {
					facts = append(facts, f.From+"→"+f.To)
				}
				got = append(got, strconv.Itoa(c.Old.Sentence)+"→"+strconv.Itoa(c.New.Sentence)+": "+strings.Join(facts, ", "))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("changes %q, want %q", got, tc.want)
			}
			if counts != tc.counts {
				t.Errorf("counts %+v, want %+v", counts, tc.counts)
			}
		})
	}
}

// TestChangeRecord checks every field of a change's record.
func TestChangeRecord(t *testing.T) {
	changes, _ := NewComparer(testConfig()).Compare(revision(10, filler, riverOld), revision(12, filler, added, riverNew))
	if len(changes) != 1 {
		t.Fatalf("%d changes, want 1: %+v", len(changes), changes)
	}
	c := changes[0]
	want := Change{
		Wiki: "testwiki", PageID: 7, Title: "Marren",
		Old:   Side{ID: "testwiki:7:10:1", RevID: 10, Sentence: 1, Section: "History", Text: riverOld},
		New:   Side{ID: "testwiki:7:12:2", RevID: 12, Sentence: 2, Section: "History", Text: riverNew},
		Facts: []Fact{{Type: "number", Slot: 3, Context: "The Marren is", From: "120", To: "135"}},
	}
	c.Changes = nil
	if !reflect.DeepEqual(c, want) {
		t.Errorf("change\n%+v\nwant\n%+v", c, want)
	}
	if len(changes[0].Changes) == 0 {
		t.Error("no token changes")
	}
}

// TestPairsBestFirst checks that of two old versions of a new sentence the
// more similar is paired, whatever their order, and the other is removed.
func TestPairsBestFirst(t *testing.T) {
	far := "The Marren is 120 km long and flows into the Main near the village of Ostheim."
	for _, old := range [][]string{{far, riverOld}, {riverOld, far}} {
		changes, counts := NewComparer(testConfig()).Compare(revision(1, old...), revision(2, riverNew))
		if len(changes) != 1 || changes[0].Old.Text != riverOld {
			t.Errorf("old %q: changes %+v, want the one from %q", old, changes, riverOld)
		}
		if counts.SentencesRemoved != 1 || counts.PairsCompared != 1 {
			t.Errorf("old %q: counts %+v", old, counts)
		}
	}
}

// TestPairsBounded checks that a gap over the bounds compares each old
// sentence with the new ones near its place only, that a page stops
// comparing at MaxPairs, that what was skipped is counted, and that a
// change is still found.
func TestPairsBounded(t *testing.T) {
	words := strings.Fields("amber basalt cedar dune ember fjord granite heath iris juniper kelp lichen moss nettle oak peat quartz reed sedge thistle")
	text := func(seed int) string {
		var w []string
		x := uint32(seed)*2654435761 + 1
		for range 12 {
			x = x*1664525 + 1013904223
			w = append(w, words[x>>16%uint32(len(words))])
		}
		return "Walkers " + strings.Join(w, " ") + "."
	}
	var old, cur []string
	for i := range 100 {
		old, cur = append(old, text(i)), append(cur, text(1000+i))
	}
	old[50], cur[50] = riverOld, riverNew
	cfg := testConfig()
	cfg.MaxGapPairs, cfg.MaxPairs = 100, 5000
	changes, counts := NewComparer(cfg).Compare(revision(1, old...), revision(2, cur...))
	if len(changes) != 1 || changes[0].New.Sentence != 50 {
		t.Errorf("%d changes, want the one of sentence 50", len(changes))
		for _, c := range changes {
			t.Logf("%q → %q", c.Old.Text, c.New.Text)
		}
	}
	// Of the 99 × 99 pairs left unpaired, the page-wide pass compares
	// what the gaps' pass left of the 5,000.
	if counts.ComparisonsSkipped < 99*99-5000 || counts.ComparisonsSkipped >= 99*99 {
		t.Errorf("%d comparisons skipped", counts.ComparisonsSkipped)
	}
}
