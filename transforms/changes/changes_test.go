package changes

import (
	"fmt"
	"reflect"
	"slices"
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

	bridge     = "The bridge over the Marren was rebuilt after the flood destroyed the old wooden one."
	bridge1912 = "The bridge over the Marren was rebuilt in 1912 after the flood destroyed the old wooden one."
	bridgeDate = "The bridge over the Marren (1912) was rebuilt after the flood destroyed the old wooden one."
	stoneOld   = "The old bridge over the river was rebuilt after the flood destroyed the wooden one."
	stoneNew   = "The old stone bridge over the wide river was rebuilt after the great flood destroyed the wooden one."
	borders    = "The county borders the state of Kansas to the north, along with Oklahoma."
	borders2   = "The county borders the state of Kansas to the north, along with Oklahoma and Iowa."
	telegram   = "Bell sent the first long-distance telegram from Mount Pleasant to Brantford in 1876."
	telegram2  = "Bell sent the first long-distance telegram from Brantford to Paris in 1876."
	mill       = "The paper mill, which was founded by Karl Weber in 1871, employed 300 workers in its best years."
	mill2      = "The paper mill, which was founded in 1871, employed 300 workers in its best years under Anna Roth."
	splitOld   = "The bridge over the Marren was rebuilt in 1912 after the flood destroyed the old wooden one."
	splitNew   = "The bridge over the Marren was rebuilt after the flood destroyed the old wooden one."
	splitNext  = "The work was finished in 1912."
	// A sentence of Alabama (2012) and the two it became (2016).
	collapse  = "This ultimately would lead to a collapse of support for Democrats at the ballot box in the next three or four election cycles and ultimately losing the last of the nineteen court seats following the resignation of the last Democrat in August, 2011."
	collapse2 = "This ultimately led to a collapse of support for Democrats at the ballot box in the next three or four election cycles."
	collapse3 = "The Democrats lost the last of the nineteen court seats in August 2011 with the resignation of the last Democrat on the bench."
)

// TestCompareTypes checks the type of each fact and of each change: a
// value replaced by another, a number, date or name on one side only
// (added or removed, a list gaining a member included), a value moved into
// the place of another (replaced), added and removed together, a value
// moved to the next sentence or a sentence split in two by the revision
// (no change), and descriptive words without a value (a copy edit, no
// change).
func TestCompareTypes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new []string
		want     []string // "type: change fact-type from→to; …" of each change
		counts   Counts
	}{
		{"replaced", []string{riverOld, filler}, []string{riverNew, filler},
			[]string{"replaced: replaced number 120→135"},
			Counts{PairsCompared: 1, Changes: 1, ChangesReplaced: 1}},
		{"a year added", []string{bridge, filler}, []string{bridge1912, filler},
			[]string{"added: added date →1912"},
			Counts{PairsCompared: 1, Changes: 1, ChangesAdded: 1}},
		{"a year in brackets dropped", []string{bridgeDate, filler}, []string{bridge, filler},
			[]string{"removed: removed date 1912→"},
			Counts{PairsCompared: 1, Changes: 1, ChangesRemoved: 1}},
		{"a list gains a member", []string{borders, filler}, []string{borders2, filler},
			[]string{"added: added name →Iowa"},
			Counts{PairsCompared: 1, Changes: 1, ChangesAdded: 1}},
		{"a value moved into the place of another", []string{telegram, filler}, []string{telegram2, filler},
			[]string{"replaced: replaced name Mount Pleasant→Brantford; added name →Paris"},
			Counts{PairsCompared: 1, Changes: 1, ChangesReplaced: 1}},
		{"one name added, another removed", []string{mill, filler}, []string{mill2, filler},
			[]string{"added_removed: removed name Karl Weber→; added name →Anna Roth"},
			Counts{PairsCompared: 1, Changes: 1, ChangesAddedRemoved: 1}},
		{"descriptive words only", []string{stoneOld, filler}, []string{stoneNew, filler},
			nil,
			Counts{PairsCompared: 1, PairsCopyEdit: 1}},
		{"a year moved to the next sentence", []string{splitOld, filler}, []string{splitNew, splitNext, filler},
			nil,
			Counts{PairsCompared: 1, PairsCopyEdit: 1, SentencesAdded: 1}},
		// The old sentence is split in two and its second half reworded:
		// the pair is compared with both halves, whose facts are the old
		// sentence's (a copy edit), not with the first alone, which lacks
		// "the last Democrat in August, 2011" (the second says it in
		// other words, so it is no value moved there word for word).
		{"a sentence split in two", []string{collapse, filler}, []string{collapse2, collapse3, filler},
			nil,
			Counts{PairsCompared: 1, PairsCopyEdit: 1, SentencesAdded: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			changes, counts := NewComparer(testConfig()).Compare(revision(1, tc.old...), revision(2, tc.new...))
			var got []string
			for _, c := range changes {
				var facts []string
				for _, f := range c.Facts {
					facts = append(facts, f.Change+" "+f.Type+" "+f.From+"→"+f.To)
				}
				got = append(got, c.Type+": "+strings.Join(facts, "; "))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("changes %q, want %q", got, tc.want)
			}
			tc.counts.SentencesBefore, tc.counts.SentencesAfter = int64(len(tc.old)), int64(len(tc.new))
			tc.counts.SentencesUnchanged = 1
			if counts != tc.counts {
				t.Errorf("counts %+v, want %+v", counts, tc.counts)
			}
		})
	}
}

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
			counts: Counts{SentencesBefore: 2, SentencesAfter: 2, SentencesUnchanged: 1, PairsCompared: 1, Changes: 1, ChangesReplaced: 1},
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
			counts: Counts{SentencesBefore: 5, SentencesAfter: 5, SentencesUnchanged: 1, SentencesRemoved: 1, SentencesAdded: 1, PairsCompared: 3, PairsMoved: 1, Changes: 2, ChangesReplaced: 2},
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
		Type:  TypeReplaced,
		Old:   Side{ID: "testwiki:7:10:1", RevID: 10, Sentence: 1, Section: "History", Text: riverOld},
		New:   Side{ID: "testwiki:7:12:2", RevID: 12, Sentence: 2, Section: "History", Text: riverNew},
		Facts: []Fact{{Change: "replaced", Type: "number", Slot: 3, Context: "The Marren is", From: "120", To: "135"}},
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

// syllables make the words of synthetic sentences: 40³ words, so two
// sentences of the generator share almost none.
var syllables = strings.Fields("ba be bi bo bu da de di do du fa fe fi fo fu ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu ra re ri ro ru")

// synthetic returns sentence seed of a page: twelve words and a year.
func synthetic(seed int) string {
	x := uint32(seed)*2654435761 + 12345
	next := func() string {
		x = x*1664525 + 1013904223
		return syllables[x>>16%uint32(len(syllables))]
	}
	var w []string
	for range 12 {
		w = append(w, next()+next()+next())
	}
	return fmt.Sprintf("The %s was founded in %d by the %s.", strings.Join(w[:8], " "), 1500+seed%500, strings.Join(w[8:], " "))
}

// editYear returns s with its year replaced.
func editYear(s string, seed int) string {
	year := strconv.Itoa(1500 + seed%500)
	return strings.Replace(s, year, strconv.Itoa(1500+(seed+7)%500), 1)
}

// largeRevisions returns two revisions of a page of n sentences: the new
// one has every 50th sentence's year changed in place, every 97th one's
// year changed and the sentence moved to the page's other half, a block of
// n/20 sentences deleted and another of n/20 inserted. It returns the
// pairs (old, new text) that a complete alignment finds.
func largeRevisions(n int) (old, cur Revision, edited map[[2]string]bool) {
	var o, c []string
	edited = map[[2]string]bool{}
	var moved []string
	for i := range n {
		s := synthetic(i)
		o = append(o, s)
		switch {
		case i%97 == 0:
			e := editYear(s, i)
			moved = append(moved, e)
			edited[[2]string{s, e}] = true
		case i%50 == 0:
			e := editYear(s, i)
			c = append(c, e)
			edited[[2]string{s, e}] = true
		case i >= n/4 && i < n/4+n/20:
			// deleted
		default:
			c = append(c, s)
		}
		if i == n/2 {
			for k := range n / 20 {
				c = append(c, synthetic(n+k))
			}
		}
	}
	c = slices.Insert(c, len(c)*3/4, moved...)
	return revision(1, o...), revision(2, c...), edited
}

// TestPairsLargePage aligns two revisions of a page of 20,000 sentences
// whose edits and moves leave gaps of thousands of sentences, far beyond
// an all-against-all comparison (MaxGapPairs): the index finds every
// edited pair, those moved across the page included, and skips nothing.
func TestPairsLargePage(t *testing.T) {
	old, cur, edited := largeRevisions(20_000)
	c := NewComparer(testConfig())
	pairs, unchanged, skipped := c.align(old, cur)
	found := 0
	for _, m := range pairs {
		if edited[[2]string{old.Sentences[m.Old].Text, cur.Sentences[m.New].Text}] {
			found++
		}
	}
	if found != len(edited) || skipped != 0 {
		t.Errorf("%d of %d edited pairs found (of %d pairs), %d comparisons skipped; want all and none", found, len(edited), len(pairs), skipped)
	}
	if want := len(cur.Sentences) - len(edited) - 20_000/20; len(unchanged) != want {
		t.Errorf("%d sentences unchanged, want %d", len(unchanged), want)
	}
	changes, counts := c.Compare(old, cur)
	if int64(len(changes)) != counts.Changes || counts.ChangesReplaced != int64(len(edited)) || counts.ComparisonsSkipped != 0 {
		t.Errorf("%d changes, counts %+v; want %d replaced and nothing skipped", len(changes), counts, len(edited))
	}
}

func BenchmarkPairsLargePage(b *testing.B) {
	old, cur, _ := largeRevisions(20_000)
	c := NewComparer(testConfig())
	for b.Loop() {
		c.align(old, cur)
	}
}

// TestPairsIndexedSameAsAll checks that the index pairs every group as
// comparing all against all does: the same pairs, on the synthetic page
// and on sentences of real pages edited between two dates.
func TestPairsIndexedSameAsAll(t *testing.T) {
	old, cur, _ := largeRevisions(2000)
	for _, tc := range []struct {
		name     string
		old, cur Revision
	}{
		{"synthetic", old, cur},
		{"real", revision(1, realOld...), revision(2, realNew...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			all, indexed := testConfig(), testConfig()
			all.MaxGapPairs, all.MaxPairs = 1<<40, 1<<40
			indexed.MaxGapPairs = 1 // every group through the index
			want, _, _ := NewComparer(all).align(tc.old, tc.cur)
			got, _, skipped := NewComparer(indexed).align(tc.old, tc.cur)
			if !reflect.DeepEqual(got, want) || skipped != 0 || len(got) == 0 {
				t.Errorf("index: %d pairs, %d skipped; all against all: %d pairs", len(got), skipped, len(want))
			}
		})
	}
}

// TestPairsBounded checks that a page over MaxPairs stops comparing there,
// counts the candidates it skipped, and still pairs what it compared.
func TestPairsBounded(t *testing.T) {
	old, cur, _ := largeRevisions(2000)
	cfg := testConfig()
	cfg.MaxPairs = 50
	pairs, _, skipped := NewComparer(cfg).align(old, cur)
	if skipped == 0 || len(pairs) == 0 {
		t.Errorf("%d pairs, %d skipped; want some of each", len(pairs), skipped)
	}
	cfg.MaxPairs, cfg.MaxVisits = 0, 100
	_, _, skipped = NewComparer(cfg).align(old, cur)
	if skipped == 0 {
		t.Error("nothing skipped past MaxVisits")
	}
}

// realOld and realNew are sentences of Alabama's demography section, from
// the 2012 and 2016 revisions of the page (../shared/data/wikiclean-pages/
// enwiki-20120104-id303.xml and the gensim dump; Wikipedia, CC BY-SA): the
// census estimate updated with new figures, "United States" written
// "U.S.", sentences inserted, moved and rewritten.
var (
	realOld = []string{
		"The annual average snowfall for the Birmingham area is 2 in per year.",
		"In the southern Gulf coast, snowfall is less frequent, sometimes going several years without any snowfall.",
		"The United States Census Bureau estimates that the population of Alabama was 4,802,740 on July 1, 2011, a 0.48% increase since the 2010 United States Census.",
		"The United States Census Bureau, as of July 1, 2008, estimated Alabama's population at 4,661,900, which represents an increase of 214,545, or 4.8%, since the last census in 2000.",
		"This includes a natural increase since the last census of 121,054 people (that is 502,457 births minus 381,403 deaths) and an increase due to net migration of 104,991 people into the state.",
		"Immigration from outside the United States resulted in a net increase of 31,180 people, and migration within the country produced a net gain of 73,811 people.",
		"The state had 108,000 foreign-born (2.4% of the state population), of which an estimated 22.2% were illegal immigrants (24,000).",
		"The center of population of Alabama is located in Chilton County, outside of the town of Jemison.",
		"According to the 2010 U.S. Census, Alabama had a population of 4,779,736.",
		"In terms of race and ethnicity, the state was 68.5% White (67.0% Non-Hispanic White Alone), 26.2% Black or African American, 0.6% American Indian and Alaska Native, 1.1% Asian, 0.1% Native Hawaiian and Other Pacific Islander, 2.0% from Some Other Race, and 1.5% from Two or More Races.",
		"Hispanics or Latinos of any race made up 3.9% of the population.",
		"The largest reported ancestry groups in Alabama are: African American (26.2%), English (23.6%), Irish (7.7%), German (5.7%), and Scots-Irish (2.0%).",
		"Those citing \"American\" ancestry in Alabama are of overwhelmingly English extraction, however most English Americans identify simply as having American ancestry because their roots have been in North America for so long, in many cases since the early 1600s.",
		"Demographers estimate that a minimum of 20-23% of people in Alabama are of predominantly English ancestry and state that the figure is probably much higher.",
	}
	realNew = []string{
		"Indigenous animal species in the state include 62 mammal species, 93 reptile species, 73 amphibian species, roughly 307 native freshwater fish species, and 420 bird species that spend at least part of their year within the state.",
		"Invertebrates include 83 crayfish species and 383 mollusk species.",
		"113 of these mollusk species have never been collected outside the state.",
		"The United States Census Bureau estimates that the population of Alabama was 4,858,979 on July 1, 2015, which represents an increase of 79,243, or 1.66%, since the 2010 Census.",
		"This includes a natural increase since the last census of 121,054 people (that is 502,457 births minus 381,403 deaths) and an increase due to net migration of 104,991 people into the state.",
		"Immigration from outside the U.S. resulted in a net increase of 31,180 people, and migration within the country produced a net gain of 73,811 people.",
		"The state had 108,000 foreign-born (2.4% of the state population), of which an estimated 22.2% were illegal immigrants (24,000).",
		"The center of population of Alabama is located in Chilton County, outside the town of Jemison.",
		"According to the 2010 Census, Alabama had a population of 4,779,736.",
		"The racial composition of the state was 68.5% White (67.0% Non-Hispanic White and 1.5% Hispanic White), 26.2% Black or African American, 3.9% Hispanic or Latino of any race, 1.1% Asian, 0.6% American Indian and Alaska Native, 0.1% Native Hawaiian and Other Pacific Islander, 2.0% from Some Other Race, and 1.5% from Two or More Races.",
		"In 2011, 46.6% of Alabama's population younger than age 1 were minorities.",
		"The largest reported ancestry groups in Alabama are: African American (26.2%), English (23.6%), Irish (7.7%), German (5.7%), and Scots-Irish (2.0%).",
		"Those citing \"American\" ancestry in Alabama are generally of English or British ancestry; many Anglo-Americans identify as having American ancestry because their roots have been in North America for so long, in some cases since the 1600s.",
		"Demographers estimate that a minimum of 20–23% of people in Alabama are of predominantly English ancestry and that the figure is likely higher.",
		"In the 1980 census, 41% of the people in Alabama identified as being of English ancestry, making them the largest ethnic group at the time.",
		"Dominic J. Pulera, Sharing the Dream: White Males in a Multicultural America.",
	}
)

const (
	albedoOld0 = "Albedo, or reflection coefficient, is the diffuse reflectivity or reflecting power of a surface."
	albedoNew0 = "Albedo, or reflection coefficient, derived from Latin albedo \"whiteness\", is the diffuse reflectivity or reflecting power of a surface."
	albedoOld1 = "The term is derived from Latin albedo \"whiteness\", and was introduced into optics by Johann Heinrich Lambert in his 1760 work Photometria."
	albedoNew1 = "The term was introduced into optics by Johann Heinrich Lambert in his 1761 work Photometria."
)

// TestChangeMechanisms checks that a record names what decided beyond the
// token rules: a value moved to the next sentence (no removed fact), a
// number form, an acronym written out.
func TestChangeMechanisms(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new []string
		want     []string // the mechanisms of the change of old sentence at
		at       int
	}{
		{"a year moved to the next sentence beside a replaced number",
			[]string{"The bridge over the Marren, 120 metres long, was rebuilt in 1912 after the flood destroyed the old wooden one.", filler},
			[]string{"The bridge over the Marren, 135 metres long, was rebuilt after the flood destroyed the old wooden one.", "The work was finished in 1912.", filler},
			[]string{"moved: 1912"}, 0},
		// ASCII (2012, 2016): 20hex is 20 with a subscript 16.
		{"a code in another base beside a replaced number",
			[]string{"Codes 20hex to 7Ehex, known as the 95 printable characters, represent letters.", filler},
			[]string{"Codes 2016 to 7E16, known as the 94 printable characters, represent letters.", filler},
			[]string{"number_form: 20hex = 2016", "number_form: Ehex = E16"}, 0},
		// Albedo (2012, 2016): the etymology moved from the sentence on
		// Lambert to the page's first, three sentences away.
		{"a phrase moved far",
			[]string{albedoOld0, census, filler, added, albedoOld1},
			[]string{albedoNew0, census, filler, added, albedoNew1},
			[]string{"moved: Latin"}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			changes, _ := NewComparer(testConfig()).Compare(revision(1, tc.old...), revision(2, tc.new...))
			changes = slices.DeleteFunc(changes, func(c Change) bool { return c.Old.Sentence != tc.at })
			if len(changes) != 1 {
				t.Fatalf("%d changes, want 1: %+v", len(changes), changes)
			}
			if got := changes[0].Mechanisms; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("mechanisms %q, want %q (facts %+v)", got, tc.want, changes[0].Facts)
			}
		})
	}
}
