package categorize

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/testshared"
)

// learnedSections is a Sections that knows the headings it is given, as
// written.
type learnedSections map[[2]string]bool

func (l learnedSections) IsReference(wiki, section string) bool { return l[[2]string{wiki, section}] }

// TestLearnedReferenceSection: members in a section that the run learned
// to hold citations are in a references context (rule 1), and the evidence
// names the heading; without that knowledge, or for prose in such a
// section, the rule does not fire.
func TestLearnedReferenceSection(t *testing.T) {
	know := Knowledge{Sections: learnedSections{{"hywiki", "Աղբյուրներ"}: true}}
	entries := []Member{
		{Wiki: "hywiki", Title: "Ա", Section: "Աղբյուրներ", Context: "list", Text: "Հայկական սովետական հանրագիտարան, հ. 5, Երևան, 1979, էջ 123։"},
		{Wiki: "hywiki", Title: "Բ", Section: "Աղբյուրներ", Context: "list", Text: "Հայկական սովետական հանրագիտարան, հ. 7, Երևան, 1981, էջ 45։"},
	}
	got := ClassifyWith(entries, know)
	if got.Category != Reference || got.Evidence.Rule != "reference_context" {
		t.Errorf("learned section: %s by %s (%s), want reference by reference_context", got.Category, got.Evidence.Rule, got.Evidence.Reason)
	}
	if want := []string{"reference_section: Աղբյուրներ"}; !slices.Equal(got.Evidence.Mechanisms, want) {
		t.Errorf("mechanisms %q, want %q", got.Evidence.Mechanisms, want)
	}
	if got := Classify(entries); got.Category == Reference || slices.ContainsFunc(got.Evidence.Mechanisms, isSectionMechanism) {
		t.Errorf("without knowledge: %s by %s, mechanisms %q; want another kind, decided without a learned section", got.Category, got.Evidence.Rule, got.Evidence.Mechanisms)
	}
	other := slices.Clone(entries)
	for i := range other {
		other[i].Wiki = "enwiki"
	}
	if got := ClassifyWith(other, know); got.Category == Reference {
		t.Errorf("another wiki's section: %s by %s, want another kind", got.Category, got.Evidence.Rule)
	}

	prose := []Member{
		{Wiki: "hywiki", Title: "Ա", Section: "Աղբյուրներ", Context: "prose", Text: "Գյուղում կա դպրոց և եկեղեցի։"},
		{Wiki: "hywiki", Title: "Բ", Section: "Աղբյուրներ", Context: "prose", Text: "Գյուղում կա դպրոց և մատուռ։"},
	}
	if got := ClassifyWith(prose, know); got.Category == Reference {
		t.Errorf("prose without a citation cue in a learned section: %s by %s, want another kind", got.Category, got.Evidence.Rule)
	}
}

func isSectionMechanism(m string) bool { return strings.HasPrefix(m, MechanismReferenceSection) }

// TestIsCitation: entries of bibliographies in several scripts are
// citations; prose with a date, a lifespan, a taxon's authority and a
// population figure are not.
func TestIsCitation(t *testing.T) {
	tests := []struct {
		text string
		want bool
		cues []string
	}{
		{"Հայկական սովետական հանրագիտարան, հ. 5, Երևան, 1979, էջ 123։", true, []string{"page_mark", "set_off_year", "entry_parts"}},
		{"Редкол.: Ю. Левенець (голова) та ін. — К.: Парламентське видавництво, 2011. — С. 808.", true,
			[]string{"page_mark", "initials", "place_publisher", "part_separator", "set_off_year"}},
		{"Чубинський Павло Платонович // Політична енциклопедія.", true, []string{"link"}},
		{"Korsch, Karl, Ἀπὸ τὴ διαλεκτικὴ τοῦ Χέγκελ, Ἀθήνα, Ἔρασμος, 1976", true, []string{"set_off_year", "entry_parts"}},
		{"Vật lí đại chúng. D.G. Orir; Nhà xuất bản Khoa học và Kỹ thuật, 2001, 171tr", true, []string{"initials", "set_off_year"}},
		{"William Duiker, Ho Chi Minh: A Life, Hyperion, 2000", true, []string{"place_publisher", "set_off_year", "entry_parts"}},
		{"ミルクがねじを回す時 ISBN 978-4-257-90150-1", true, []string{"identifier"}},
		{"He was born on May 5, 1990 in Paris.", false, nil},
		{"Жак-Луї Давід (1748 — 1825), художник", false, nil},
		{"Caracal caracal caracal (Schreber, 1776)", false, []string{"set_off_year"}},
		{"The population of Andorra is estimated at 85,458 (2014).", false, []string{"set_off_year"}},
		{"Đẩy mạnh tăng gia sản xuất, góp phần giữ ổn định và cải thiện đời sống.", false, nil},
		{"Н. А. Шип.", false, []string{"initials"}},
	}
	for _, tt := range tests {
		_, cues := scoreCues(entryCues, Tokenize(tt.text), 0)
		if got := IsCitation(tt.text); got != tt.want || !reflect.DeepEqual(cues, tt.cues) {
			t.Errorf("IsCitation(%q) = %v with cues %q, want %v with %q", tt.text, got, cues, tt.want, tt.cues)
		}
	}
}

// TestCitationCuesOtherScripts: the citation cues of the classification
// read neither the Vietnamese "đời" (whose key is "doi") as a doi nor a
// year in brackets after a figure as a volume and issue.
func TestCitationCuesOtherScripts(t *testing.T) {
	for _, text := range []string{
		"Thời Pháp thuộc, đời sống của người dân thay đổi nhiều.",
		"The population of Andorra is estimated at 85,458 (2014).",
	} {
		if score, cues := citationScore(Tokenize(text)); score >= ReferenceMinScore {
			t.Errorf("citationScore(%q) = %d %q, want less than %d", text, score, cues, ReferenceMinScore)
		}
	}
}

// TestTokenizeUnkeyed: the tokens IsCitation reads have the texts and
// kinds of Tokenize's, in every script.
func TestTokenizeUnkeyed(t *testing.T) {
	texts := []string{
		"Inspired by the storm, The Times wrote in May 2006 that twenty-one people died.",
		"Smith, J. et al. (1999). Title. Oxford University Press. pp. 5-9. ISBN 0-19-92.",
		"Редкол.: Ю. Левенець та ін. — К.: Парламентське видавництво, 2011. — С. 808.",
		"Ο Ήρωας με τα Χίλια Πρόσωπα, Ιάμβλιχος (1996), σσ. 405-414",
		"Հայկական սովետական հանրագիտարան, հ. 5, Երևան, 1979, էջ 123։",
		"チクサクコール うすた京介短編集（集英社、2001年）",
		"১৯৭১ সালে ৭,৫০০ জন; Đà Nẵng, 13-12-1954; '98; 1990s; U.S.A.; Twenty-Three",
		"",
	}
	// And every line of a real dump's wikitext.
	raw, err := os.ReadFile(testshared.Katrina(t))
	if err != nil {
		t.Fatal(err)
	}
	texts = append(texts, strings.Split(string(raw), "\n")...)
	for _, text := range texts {
		keyed, plain := Tokenize(text), tokenize(nil, text, false)
		if len(keyed) != len(plain) {
			t.Errorf("%q: %d tokens keyed, %d not", text, len(keyed), len(plain))
			continue
		}
		for i := range keyed {
			if keyed[i].Text != plain[i].Text || keyed[i].Kind != plain[i].Kind {
				t.Errorf("%q: token %d is %q %s keyed, %q %s not", text, i, keyed[i].Text, keyed[i].Kind, plain[i].Text, plain[i].Kind)
			}
		}
	}
}
