package categorize

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/testshared"
)

// paperCase is one line of the shared paper-examples.jsonl.
type paperCase struct {
	Seed    string   `json:"seed"`
	Label   string   `json:"label"`
	Note    string   `json:"note"`
	Members []Member `json:"members"`
}

// loadPaperCases reads ../../../shared/cases/paper-examples.jsonl, skipping
// the test if it is not there. Members are prose: the papers print them as
// running text.
func loadPaperCases(tb testing.TB) []paperCase {
	tb.Helper()
	var cases []paperCase
	for _, pc := range testshared.PaperCases(tb) {
		c := paperCase{Seed: pc.Seed, Label: pc.Label, Note: pc.Note}
		for _, m := range pc.Members {
			c.Members = append(c.Members, Member{Title: m.Title, Text: m.Text, Context: "prose"})
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		tb.Fatal("paper-examples.jsonl: no cases")
	}
	return cases
}

func TestPaperExamples(t *testing.T) {
	// The rule each example is expected to fire, as evidence that it got
	// its label for the stated reason.
	wantRule := map[string]string{
		"figure: templates":      "many_slots",
		"figure: identical":      "all_texts_equal",
		"figure: copyediting":    "function_words",
		"figure: factual drift":  "numbers_differ",
		"figure: references":     "citation_shape",
		"section 6.1 references": "citation_shape",
	}
	for _, c := range loadPaperCases(t) {
		r := Classify(c.Members)
		if r.Category != c.Label {
			t.Errorf("%s (%s): Classify = %s (%s: %s), want %s", c.Note, c.Seed, r.Category, r.Evidence.Rule, r.Evidence.Reason, c.Label)
			continue
		}
		if want, ok := wantRule[c.Note]; ok && r.Evidence.Rule != want {
			t.Errorf("%s: rule %s, want %s", c.Note, r.Evidence.Rule, want)
		}
		if strings.HasPrefix(c.Note, "figure: other") && r.Evidence.Rule != "sentence_fragments" && r.Evidence.Rule != "fragment" {
			t.Errorf("%s: rule %s, want sentence_fragments or fragment (one of two members)", c.Note, r.Evidence.Rule)
		}
		if strings.Contains(c.Note, "templatification") && r.Evidence.Rule != "subject_differs" {
			t.Errorf("%s: rule %s, want subject_differs", c.Note, r.Evidence.Rule)
		}
		if r.Evidence.Reason == "" {
			t.Errorf("%s: no reason", c.Note)
		}
	}
}

// prose makes members of the given texts, each on its own page.
func prose(texts ...string) []Member {
	m := make([]Member, len(texts))
	for i, s := range texts {
		m[i] = Member{Title: fmt.Sprintf("Page %c", 'A'+i), Context: "prose", Text: s}
	}
	return m
}

func TestClassifyRules(t *testing.T) {
	population := func(n string) string { return "The population was " + n + " at the 2010 census of the county." }
	tests := []struct {
		name     string
		members  []Member
		category string
		rule     string
	}{
		{"empty", nil, Other, "empty_cluster"},
		{"single", prose("A whole sentence."), Other, "single_member"},
		{"identical", prose("A b  c.", " A b c. ", "A b c."), Identical, "all_texts_equal"},
		{"reference context", []Member{
			{Context: "reference", Text: "Smith, J. Some book title about things."},
			{Context: "reference", Text: "Smith, J. Some book title about other things."}}, Reference, "reference_context"},
		{"reference isbn", prose("Smith, John. A History. ISBN 978-0-19-852663-6.", "Smith, John. A Short History. ISBN 978-0-19-852663-7."), Reference, "citation_shape"},
		{"half reference", []Member{
			{Context: "reference", Text: "The river flows north to the sea."},
			{Context: "prose", Text: "The river flows south to the sea."}}, Reference, "reference_context"},
		{"footnote prose is not a citation", []Member{
			{Context: "reference", Text: "That is why Anarchy, when it works to destroy authority in all its aspects, when it refuses all hierarchical organization, strives to maintain the kernel of social customs."},
			{Context: "reference", Text: "That is why Anarchy, when it works to destroy authority in all its aspects, when it refuses all hierarchical organisation, strives to maintain the kernel of social customs."}}, CopyEdit, "word_forms"},
		{"footnote prose with a citation cue", []Member{
			{Context: "reference", Text: "That is why Anarchy, when it works to destroy authority in all its aspects, strives to maintain the kernel of social customs (1910), pp. 4-5."},
			{Context: "reference", Text: "That is why Anarchy, when it works to destroy authority in all its aspects, strives to maintain the kernel of social customs (1910), pp. 4-6."}}, Reference, "reference_context"},
		{"fragments", prose("and then the river flows north to the sea", "and then the river flows south to the sea"), Other, "sentence_fragments"},
		{"list items need no period", []Member{
			{Context: "list", Text: "Gondiswil, a municipality of the Oberaargau district"},
			{Context: "list", Text: "Gondiswil, a municipality in the Oberaargau district"}}, CopyEdit, "function_words"},
		{"title abbreviation", prose("The letter was written by the director Dr.", "The letter was written by the director."), Other, "fragment"}, // one of two members: the pair says so (a cluster of fragments: sentence_fragments)
		{"case", prose("It was named after the River Thames in 1850.", "It was named after the river Thames in 1850."), CopyEdit, "punctuation_or_case"},
		{"word order", prose("In 1913 the war ended in Bulgaria and Serbia.", "The war ended in Bulgaria and Serbia in 1913."), CopyEdit, "word_order"},
		{"word forms", prose("Floods hit Hancock and Jackson Counties in 2005.", "Floods hit Hancock and Jackson County in 2005."), CopyEdit, "word_forms"},
		{"number words", prose("In addition, 9 of 26 existing pumps reported operating.", "In addition, nine of 26 existing pumps reported operating."), CopyEdit, "word_forms"},
		{"acronym", prose("Officials of the Federal Emergency Management Agency arrived on Monday.", "Officials of the FEMA arrived on Monday."), CopyEdit, "word_forms"},
		{"function words", prose("It may be active all day and usually at night.", "It may be active all day but only at night."), CopyEdit, "function_words"},
		{"inserted", prose("Bush had an approval rating of 22% by the end of his term.", "Bush, a US President, had an approval rating of 22% by the end of his term."), CopyEdit, "text_inserted"},
		{"replaced words", prose("The village has a small church and a school.", "The village has a little church and a school."), CopyEdit, "minor_word_changes"},
		{"name replaced by a date", prose("Honoré, the leader of the effort, announced the ban.", "On September 9, the leader of the effort announced the ban."), CopyEdit, "minor_word_changes"},
		{"numbers differ", prose("Bulgaria, a poor rural nation of 7 million people, lost in 1913.", "Bulgaria, a poor rural nation of 4.5 million people, lost in 1913."), FactualDrift, "numbers_differ"},
		{"entities differ", prose("Bulgaria was defeated by Serbia in the Second Balkan War of 1913.", "Bulgaria was defeated by Greece in the Second Balkan War of 1913."), FactualDrift, "entities_differ"},
		{"four versions of a figure", prose(
			"Death tolls: Louisiana 799, Mississippi 218, Florida 14, Alabama 2.",
			"Death tolls: Louisiana 841, Mississippi 220, Florida 14, Alabama 2.",
			"Death tolls: Louisiana 896, Mississippi 220, Florida 14, Alabama 2.",
			"Death tolls: Louisiana 1,577, Mississippi 238, Florida 14, Alabama 2."), FactualDrift, "numbers_differ"},
		{"title words", []Member{
			{Title: "Gondiswil", Context: "prose", Text: "Gondiswil is a municipality in the district of Oberaargau."},
			{Title: "Kleindietwil", Context: "prose", Text: "Kleindietwil is a municipality in the district of Oberaargau."}}, Template, "title_tokens_differ"},
		{"subject", prose("Bush had an approval rating of 22% at the end.", "Obama had an approval rating of 22% at the end."), Template, "subject_differs"},
		{"many slots", prose("Of the land 40.4% is crops and 26.6% is pasture while 2.2% is orchards.", "Of the land 26.1% is crops and 30.2% is pasture while 3.0% is orchards."), Template, "many_slots"},
		{"many variants", prose(population("1,234"), population("2,345"), population("3,456"), population("4,567"), population("5,678")), Template, "many_variants"},
		{"few variants", prose(population("1,234"), population("2,345"), population("3,456")), FactualDrift, "numbers_differ"},
		{"one-sided addition", prose("He was born in London and raised there.", "He was born in London and raised there, then studied law at Oxford before moving to Paris in 1920."), CopyEdit, "text_inserted"},
		{"two sentences run together", prose("The river flows north to the sea.", "Its source lies high in the mountains above the old town of Bergen. The river flows north to the sea."), Other, "contained"},
		{"lost period between sentences", prose("The river flows north to the sea.", "Its source lies high in the mountains above the old town of Bergen The river flows north to the sea."), Other, "contained"},
		{"number for words", prose("He ordered the evacuation 19 hours before landfall.", "He ordered the evacuation less than a day before landfall."), FactualDrift, "numbers_differ"},
		{"same span of time", prose("It carried food for 24 hours to the city.", "It carried food for one day to the city."), CopyEdit, "minor_word_changes"},
		{"split time", prose("By 6:00 pm on August 28, 11 counties issued orders.", "On August 28 the shelters opened, and by 7:00 p.m., 11 counties issued orders."), FactualDrift, "numbers_differ"},
		{"moved time", prose("By 6:00 pm on August 28, 11 counties issued orders.", "On August 28, by 6:00 pm, 11 counties issued orders."), CopyEdit, "word_order"},
		{"quantifiers", prose("The breach flooded most of the parish and the bank.", "The breach flooded nearly all of the parish and the bank."), FactualDrift, "quantities_differ"},
		{"modifiers of a number", prose("There are approximately 7,000 known species.", "There are over 7,000 known species."), FactualDrift, "quantities_differ"},
		{"same modifier class", prose("There are approximately 7,000 known species.", "There are about 7,000 known species."), CopyEdit, "minor_word_changes"},
		{"negation", prose("The bridge over the lake was damaged by the storm.", "The bridge over the lake was not damaged by the storm."), FactualDrift, "quantities_differ"},
		{"negation inside an added clause", prose("The bridge was damaged by the storm.", "The bridge was damaged by the storm, which had not weakened."), CopyEdit, "text_inserted"},
		{"pronoun for a name", prose("It is bordered by Tennessee to the north.", "Alabama is bordered by Tennessee to the north."), CopyEdit, "word_forms"},
		{"possessive", prose("Following Lee's death in 1987, the group split.", "After Lee's death in 1987, the group split."), CopyEdit, "function_words"},
		{"possessive of a name", prose("After Lee's death in 1987, the group split.", "After Lee death in 1987, the group split."), CopyEdit, "word_forms"},
		{"hyphenated compound", prose("Production peaked in late 2005 and fell.", "Production peaked in late-2005 and fell."), CopyEdit, "word_forms"},
		{"participle is not a subject", prose("Inspired by the story, Lantos introduced the act in the House.", "Moved by the story, Lantos introduced the act in the Senate."), FactualDrift, "entities_differ"},
		{"subject is a run of names", prose("Samsung Fire & Marine Insurance is a general insurance company in Seoul.", "Samsung Life Insurance is a general insurance company in Seoul."), Template, "subject_differs"},
		{"list entries", []Member{
			{Title: "A", Context: "list", Text: "In November 2014, she was awarded a doctorate by Comenius University in Bratislava."},
			{Title: "A", Context: "list", Text: "In November 2015, she was awarded a doctorate by Comenius University in Bratislava."}}, Template, "list_entries"},
		{"list items in lower case", []Member{
			{Context: "list", Text: "branched alkanes, wherein the carbon backbone splits off in one or more directions"},
			{Context: "list", Text: "branched alkanes, wherein the carbon backbone splits off in one or several directions"}}, CopyEdit, "minor_word_changes"},
		{"low overlap", prose("The cat sat on the mat in the morning.", "A dog ran across the yard in the evening light."), Other, "low_overlap"},
		{"mostly identical", prose("A b c d.", "A b c d.", "A b c d.", "A b c e."), Identical, "mostly_identical"},
		{"one copy, one edit: a tie", prose("A b c d.", "A b c e.", "A b c d."), CopyEdit, "minor_word_changes"},
		{"most common text is the reference", prose("A b c e.", "A b c d.", "A b c d.", "A b c d."), Identical, "mostly_identical"},
		{"two groups of two", prose("A b c d.", "A b c d.", "A b c e.", "A b c e."), CopyEdit, "minor_word_changes"},
		{"groups differ in a fact", prose("Bulgaria had 7 million people.", "Bulgaria had 7 million people.", "Bulgaria had 4.5 million people.", "Bulgaria had 4.5 million people.", "Bulgaria had 4.5 million people."), FactualDrift, "numbers_differ"},
		{"fragment among sentences", prose("The river flows north to the sea.", "The river flows north to the sea.", "The river flows north to the sea.", "the river flows north to the sea."), Identical, "mostly_identical"},
	}
	for _, tt := range tests {
		r := Classify(tt.members)
		if r.Category != tt.category || r.Evidence.Rule != tt.rule {
			t.Errorf("%s: Classify = %s/%s (%s), want %s/%s", tt.name, r.Category, r.Evidence.Rule, r.Evidence.Reason, tt.category, tt.rule)
		}
	}
}

// TestEvidence checks the whole evidence of a mixed cluster.
func TestEvidence(t *testing.T) {
	members := prose(
		"Bulgaria, a nation of 7 million people, sought Macedonia.", // 0: reference text
		"Bulgaria a nation of 4.5 million people sought Macedonia.", // 1: drift
		"Bulgaria, a nation of 7 million people, sought Macedonia.", // 2: copy of 0
		"Bulgaria a nation of 4.5 million people sought Macedonia.", // 3: copy of 1
		"Bulgaria, a nation of 7 million people, sought Macedonia!", // 4: copy edit
	)
	got := Classify(members)
	// Member 2 counts as identical (a copy of the reference, member 0),
	// members 1 and 3 as drift and 4 as copy edit.
	want := Result{Category: FactualDrift, Evidence: Evidence{
		Rule:   "numbers_differ",
		Reason: "the same statement gives different numbers or dates in 1 place: 7 → 4.5",
		Diffs: []PairDiff{
			{A: 0, B: 1, Changes: []Change{{KindPunct, ",", ""}, {KindNumber, "7", "4.5"}, {KindPunct, ",", ""}}},
			{A: 0, B: 4, Changes: []Change{{KindPunct, ".", "!"}}},
		},
		Identical:     [][]int{{0, 2}, {1, 3}},
		DistinctTexts: 3,
		Facts:         []Fact{{A: 0, B: 1, Type: FactNumber, Slot: 5, Context: "Bulgaria a nation of", From: "7", To: "4.5"}},
		Votes:         map[string]int{Identical: 1, FactualDrift: 2, CopyEdit: 1},
		Mechanisms:    []string{`subject: every page's title holds "Page A"`},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Classify =\n  %+v\nwant\n  %+v", got, want)
	}
}

// TestEvidenceJSON pins the JSON shape the pipeline writes.
func TestEvidenceJSON(t *testing.T) {
	b, err := json.Marshal(Classify(prose("It was the cat.", "It was the dog.")))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"category":"copy_edit","evidence":{"rule":"minor_word_changes",` +
		`"reason":"the texts differ only in a few replaced words, and no number, date or name is replaced (\"cat\" → \"dog\")",` +
		`"diffs":[{"a":0,"b":1,"changes":[{"kind":"word","from":"cat","to":"dog"}]}],"identical_groups":[],"distinct_texts":2,"votes":{"copy_edit":1}}}`
	if string(b) != want {
		t.Errorf("JSON =\n  %s\nwant\n  %s", b, want)
	}
	b, err = json.Marshal(Classify(nil))
	if err != nil {
		t.Fatal(err)
	}
	want = `{"category":"other","evidence":{"rule":"empty_cluster","reason":"the cluster has no members","diffs":[],"identical_groups":[],"distinct_texts":0}}`
	if string(b) != want {
		t.Errorf("JSON =\n  %s\nwant\n  %s", b, want)
	}
}

// TestReferenceTextSkipsFragments: diffs are taken against the first
// distinct text that is a whole sentence.
func TestReferenceTextSkipsFragments(t *testing.T) {
	r := Classify(prose("the river flows north to the sea.", "The river flows north to the sea.", "The river flows south to the sea."))
	if len(r.Evidence.Diffs) != 2 || r.Evidence.Diffs[0].A != 1 || r.Evidence.Diffs[0].B != 0 || r.Evidence.Diffs[1].B != 2 {
		t.Errorf("diffs %+v, want from member 1 to members 0 and 2", r.Evidence.Diffs)
	}
}

// TestLargeCluster: only MaxAnalysedTexts texts are aligned and
// MaxEvidenceDiffs reported, but every identical group is listed.
func TestLargeCluster(t *testing.T) {
	var members []Member
	for i := range 500 {
		text := fmt.Sprintf("The village of Xyz had %d inhabitants in the census of 2000 and %d farms.", 1000+i%200, 10+i%200)
		members = append(members, Member{Title: fmt.Sprintf("Village %d", i%200), Context: "prose", Text: text})
	}
	r := Classify(members)
	if r.Category != Template || r.Evidence.Rule != "many_variants" {
		t.Errorf("Classify = %s/%s, want template/many_variants", r.Category, r.Evidence.Rule)
	}
	// The reference (text 0, 3 members) and the next 64 texts: 99 more of 3
	// members, then 2 members each.
	if got, want := r.Evidence.Votes, map[string]int{Identical: 2, Template: 3 * MaxAnalysedTexts}; !reflect.DeepEqual(got, want) {
		t.Errorf("votes %v, want %v", got, want)
	}
	if len(r.Evidence.Diffs) != MaxEvidenceDiffs || len(r.Evidence.Identical) != 200 || r.Evidence.DistinctTexts != 200 {
		t.Errorf("%d diffs, %d identical groups, %d texts; want %d, 200, 200", len(r.Evidence.Diffs), len(r.Evidence.Identical), r.Evidence.DistinctTexts, MaxEvidenceDiffs)
	}
	if g := r.Evidence.Identical[0]; !slices.Equal(g, []int{0, 200, 400}) {
		t.Errorf("first identical group %v, want [0 200 400]", g)
	}
}

func TestCitationScore(t *testing.T) {
	tests := []struct {
		text  string
		score int
		cues  []string
	}{
		{"Neotropical Ichthyology 11 (1): 73-80.", 3, []string{"volume_issue", "page_range"}},
		{"Péter Komjáth, Vilmos Totik: Problems, Springer-Verlag, Berlin, 2006.", 2, []string{"publisher", "trailing_year"}},
		{"Smith, J. et al. (1999). Title. Oxford University Press. pp. 5-9.", 4, []string{"pages", "et_al", "publisher", "year_in_parentheses"}},
		{`"Storm report". Retrieved 12 May 2010. doi:10.1000/182`, 4, []string{"identifier", "retrieved"}},
		{"In: Jones (ed.). Essays.", 1, []string{"editor"}},
		{"Bush had an approval rating of 22% by the end of his term in 2008.", 0, nil},
		{"The Associated Press reported the storm in 2005.", 1, []string{"publisher"}},
		{"Bulgaria was defeated in 1913 in the Second Balkan War.", 0, nil},
	}
	for _, tt := range tests {
		score, cues := citationScore(Tokenize(tt.text))
		if score != tt.score || !slices.Equal(cues, tt.cues) {
			t.Errorf("citationScore(%q) = %d, %v; want %d, %v", tt.text, score, cues, tt.score, tt.cues)
		}
	}
}

func TestFragmentReason(t *testing.T) {
	tests := []struct {
		text   string
		inList bool
		want   string
	}{
		{"A whole sentence.", false, ""},
		{`He said "yes."`, false, ""},
		{"It ended (in 2006).", false, ""},
		{"Is it?", false, ""},
		{"", false, "empty"},
		{"and so it ended.", false, "starts_lowercase"},
		{`"and so it ended."`, false, "starts_lowercase"},
		{"It ended without a period", false, "no_terminal_punctuation"},
		{"An item without a period", true, ""},
		{"in X-SAMPA, is used for the open vowel.", true, ""},
		{"Army microbiologist Bruce E.", false, "ends_with_initial"},
		{"It contains vitamin C.", false, ""},
		{"Transitioned from the previous U.S.", false, ""},
		{"It was signed by Gen.", false, "ends_with_abbreviation"},
		{"It was made by Apple Inc.", false, ""},
	}
	for _, tt := range tests {
		if got := fragmentReason(tt.text, Tokenize(tt.text), tt.inList); got != tt.want {
			t.Errorf("fragmentReason(%q, %v) = %q, want %q", tt.text, tt.inList, got, tt.want)
		}
	}
}

// FuzzClassify: any cluster is classified without panic, the same way
// twice, into one of the six categories, with evidence that refers to real
// members. Each line of the input is a member, "title|context|text".
func FuzzClassify(f *testing.F) {
	for _, c := range loadPaperCasesOrNil() {
		var lines []string
		for _, m := range c.Members {
			lines = append(lines, m.Title+"|prose|"+m.Text)
		}
		f.Add(strings.Join(lines, "\n"))
	}
	f.Add("a|reference|x (1): 2-3.\nb|list|y")
	f.Add("|prose|\n|prose| \xff\n")
	f.Fuzz(func(t *testing.T, data string) {
		var members []Member
		for line := range strings.SplitSeq(data, "\n") {
			parts := strings.SplitN(line, "|", 3)
			for len(parts) < 3 {
				parts = append([]string{""}, parts...)
			}
			members = append(members, Member{Title: parts[0], Context: parts[1], Text: parts[2]})
		}
		r := Classify(members)
		if again := Classify(members); !reflect.DeepEqual(r, again) {
			t.Fatalf("not deterministic:\n%+v\n%+v", r, again)
		}
		if !slices.Contains([]string{Identical, CopyEdit, FactualDrift, Template, Reference, Other}, r.Category) {
			t.Fatalf("category %q", r.Category)
		}
		if r.Evidence.Rule == "" || r.Evidence.Reason == "" {
			t.Fatalf("no rule or reason: %+v", r.Evidence)
		}
		for _, d := range r.Evidence.Diffs {
			if d.A < 0 || d.A >= len(members) || d.B < 0 || d.B >= len(members) || d.A == d.B {
				t.Fatalf("diff between members %d and %d of %d", d.A, d.B, len(members))
			}
		}
		for _, g := range r.Evidence.Identical {
			if len(g) < 2 {
				t.Fatalf("identical group %v", g)
			}
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
	})
}

// loadPaperCasesOrNil reads the paper examples for fuzz seeds, or returns
// nil if they are missing.
func loadPaperCasesOrNil() []paperCase {
	path := filepath.Join("..", "..", "..", "shared", "cases", "paper-examples.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var cases []paperCase
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		var c paperCase
		if json.Unmarshal([]byte(line), &c) == nil {
			cases = append(cases, c)
		}
	}
	return cases
}

// benchEach times f over every item, all of them in each iteration.
func benchEach[T any](b *testing.B, items []T, f func(T)) {
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, it := range items {
			f(it)
		}
	}
}

func BenchmarkClassifyPaper(b *testing.B) {
	benchEach(b, loadPaperCases(b), func(c paperCase) { Classify(c.Members) })
}

func BenchmarkClassifyLarge(b *testing.B) {
	var members []Member
	for i := range 2000 {
		text := fmt.Sprintf("The village of Xyz had %d inhabitants in the census of 2000 and %d farms.", 1000+i%500, 10+i%500)
		members = append(members, Member{Title: fmt.Sprintf("Village %d", i%500), Context: "prose", Text: text})
	}
	b.ReportAllocs()
	for b.Loop() {
		Classify(members)
	}
}
