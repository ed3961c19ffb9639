package categorize

import (
	"slices"
	"testing"
)

// TestSubject checks that a value replaced in one sentence frame is
// factual drift when the members speak of one subject and a template when
// they are on pages about different subjects.
func TestSubject(t *testing.T) {
	on := func(pages ...string) func(texts ...string) []Member {
		return func(texts ...string) []Member {
			m := make([]Member, len(texts))
			for i, s := range texts {
				m[i] = Member{Wiki: "enwiki", Title: pages[i], Context: "prose", Text: s}
			}
			return m
		}
	}
	tests := []struct {
		name      string
		members   []Member
		category  string
		rule      string
		mechanism string
	}{
		{
			name: "villages with their own figures",
			members: on("Kőröshegy", "Balatonföldvár")(
				"The village had a population of 1,345 at the 2011 census.",
				"The village had a population of 2,120 at the 2011 census."),
			category: Template, rule: "different_subjects",
			mechanism: `subject: different pages, "Kőröshegy", "Balatonföldvár"`,
		},
		{
			name: "one page at two dates",
			members: on("Alabama", "Alabama")(
				"The state had a population of 4,779,736 at the 2010 census.",
				"The state had a population of 4,802,740 at the 2010 census."),
			category: FactualDrift, rule: "numbers_differ",
			mechanism: `subject: one page, "Alabama"`,
		},
		{
			name: "articles about one storm",
			members: on("Hurricane Katrina", "Effects of Hurricane Katrina in Mississippi")(
				"The storm surge reached 28 feet along the coast.",
				"The storm surge reached 27 feet along the coast."),
			category: FactualDrift, rule: "numbers_differ",
			mechanism: `subject: every page's title holds "Hurricane Katrina"`,
		},
		{
			name: "a figure updated with its own date",
			members: on("Alabama", "Alabama")(
				"The university enrolled 31,747 students for fall 2011.",
				"The university enrolled 33,602 students for fall 2012."),
			category: Template, rule: "own_dates",
			mechanism: `subject: one page, "Alabama"`,
		},
		{
			name: "villages of one country",
			members: on("Kőröshegy, Hungary", "Balatonföldvár, Hungary")(
				"Hungary's census gave the village 1,345 inhabitants.",
				"Hungary's census gave the village 2,120 inhabitants."),
			category: Template, rule: "different_subjects",
			mechanism: `subject: different pages, "Kőröshegy, Hungary", "Balatonföldvár, Hungary"`,
		},
		{
			name: "two pages naming one city",
			members: on("Chicago", "Illinois")(
				"Chicago has a population of 2.7 million people.",
				"Chicago has a population of 2.8 million people."),
			category: FactualDrift, rule: "numbers_differ",
			mechanism: `subject: every text names "Chicago"`,
		},
		{
			name: "a common word of a title names no subject",
			members: on("Τρινιντάντ και Τομπάγκο", "Αλβανία")(
				"Το προσδόκιμο ζωής ήταν 73,5 χρόνια και το ποσοστό αλφαβητισμού 98,7%.",
				"Το προσδόκιμο ζωής ήταν 78,0 χρόνια και το ποσοστό αλφαβητισμού 98,1%."),
			category: Template, rule: "different_subjects",
			mechanism: `subject: different pages, "Τρινιντάντ και Τομπάγκο", "Αλβανία"`,
		},
		{
			name: "editions share a frame, not a year",
			members: on("1990 Ice Hockey World Championships", "1994 Ice Hockey World Championships")(
				"The tournament was attended by 8,000 spectators on average.",
				"The tournament was attended by 6,500 spectators on average."),
			category: Template, rule: "different_subjects",
			mechanism: `subject: different pages, "1990 Ice Hockey World Championships", "1994 Ice Hockey World Championships"`,
		},
	}
	for _, tt := range tests {
		r := Classify(tt.members)
		if r.Category != tt.category || r.Evidence.Rule != tt.rule || !slices.Contains(r.Evidence.Mechanisms, tt.mechanism) {
			t.Errorf("%s: Classify = %s/%s %q, want %s/%s with %q", tt.name, r.Category, r.Evidence.Rule, r.Evidence.Mechanisms, tt.category, tt.rule, tt.mechanism)
		}
	}
}

// TestSubjectOfCorpus checks that the titles of a text corpus (file paths)
// are not read as subjects: a figure changed between two of its documents
// is drift, as on one wiki page, and on wiki pages of the same names a
// template.
func TestSubjectOfCorpus(t *testing.T) {
	members := []Member{
		{Wiki: "text", Title: "notes/b.txt", Context: "prose", Text: "In summer a bus runs twice a day from the station at Orsel to the turning place in Pradell."},
		{Wiki: "text", Title: "notes/c.txt", Context: "prose", Text: "In summer a bus runs three times a day from the station at Orsel to the turning place in Pradell."},
	}
	corpus := Knowledge{Corpora: map[string]bool{"text": true}}
	want := `subject: "text" is a text corpus, whose titles name no subject`
	if r := ClassifyWith(members, corpus); r.Category != FactualDrift || !slices.Contains(r.Evidence.Mechanisms, want) {
		t.Errorf("in a text corpus: ClassifyWith = %s/%s %q, want factual_drift with %q", r.Category, r.Evidence.Rule, r.Evidence.Mechanisms, want)
	}
	if r := Classify(members); r.Category != Template || r.Evidence.Rule != "different_subjects" {
		t.Errorf("on two wiki pages: Classify = %s/%s, want template/different_subjects", r.Category, r.Evidence.Rule)
	}
}

// TestTitlesCrossed checks that an entry of a year page and the same entry
// of a day page, each naming the other page, are one statement.
func TestTitlesCrossed(t *testing.T) {
	members := []Member{
		{Wiki: "elwiki", Title: "1978", Context: "list", Text: "1 Ιανουαρίου - Ένα Boeing 747 της Air India συντρίβεται στη θάλασσα, 213 νεκροί."},
		{Wiki: "elwiki", Title: "1 Ιανουαρίου", Context: "list", Text: "1978 - Ένα Boeing 747 της Air India συντρίβεται στη θάλασσα, 213 νεκροί."},
	}
	r := Classify(members)
	want := `subject: each text names the other's page, "1 Ιανουαρίου" and "1978"`
	if r.Category != CopyEdit || !slices.Contains(r.Evidence.Mechanisms, want) {
		t.Errorf("Classify = %s/%s %q, want copy_edit with %q", r.Category, r.Evidence.Rule, r.Evidence.Mechanisms, want)
	}
	// A different year on a day page is another event's entry.
	members[1].Title = "2 Ιανουαρίου"
	if r := Classify(members); r.Category == CopyEdit {
		t.Errorf("entries under different dates: Classify = %s/%s, want a fact", r.Category, r.Evidence.Rule)
	}
}

// TestFrames checks the rules for texts that share a frame or lack only
// their final punctuation.
func TestFrames(t *testing.T) {
	tests := []struct {
		name     string
		members  []Member
		category string
		rule     string
	}{
		{
			name: "one frame filled for two donors",
			members: prose(
				"Honda announced it would donate $5,000,000 to the American Red Cross for relief.",
				"Hewlett-Packard pledged $1,000,000 in cash and equipment to the American Red Cross."),
			category: Template, rule: frameRefilled,
		},
		{
			name: "two statements sharing a phrase",
			members: prose(
				"The greatest disaster in the history of the city left the levees broken and the streets empty.",
				"Many residents said the disaster left them without homes, jobs or any word from their families."),
			category: Other, rule: otherLowOverlap,
		},
		{
			name: "a quotation without its full stop",
			members: prose(
				"The United States did not see that this was a people's war to defend their families and land.",
				"The United States did not see that this was a people's war to defend their families and land"),
			category: CopyEdit, rule: flavorPunctOrCase,
		},
		{
			name: "a sentence cut in half",
			members: prose(
				"The storm made landfall near Buras and moved north toward the city of New Orleans.",
				"The storm made landfall near Buras and"),
			category: Other, rule: "",
		},
	}
	for _, tt := range tests {
		r := Classify(tt.members)
		if r.Category != tt.category || tt.rule != "" && r.Evidence.Rule != tt.rule {
			t.Errorf("%s: Classify = %s/%s (%s), want %s/%s", tt.name, r.Category, r.Evidence.Rule, r.Evidence.Reason, tt.category, tt.rule)
		}
	}
}
