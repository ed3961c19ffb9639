package categorize

import (
	"slices"
	"strings"
	"testing"
)

// formCase compares two versions of a sentence and wants a kind and,
// for a form of one value, the mechanism that decided.
type formCase struct {
	name, wiki string
	a, b       string
	kind       string // CopyEdit, or FactualDrift for a real change
	mechanism  string // wanted among the comparison's mechanisms, or ""
}

func checkForms(t *testing.T, cases []formCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Compare(Member{Wiki: c.wiki, Title: "Page", Text: c.a}, Member{Wiki: c.wiki, Title: "Page", Text: c.b})
			if got.Kind != c.kind {
				t.Errorf("kind %s (%s), want %s; facts %+v; mechanisms %q", got.Kind, got.Rule, c.kind, got.Facts, got.Mechanisms)
			}
			if c.mechanism != "" && !slices.Contains(got.Mechanisms, c.mechanism) {
				t.Errorf("mechanisms %q, want %q among them", got.Mechanisms, c.mechanism)
			}
			if c.kind == FactualDrift {
				for _, m := range got.Mechanisms {
					if strings.HasPrefix(m, MechanismNumberForm) || strings.HasPrefix(m, MechanismSpelling) {
						t.Errorf("a real change read as a form: %q", m)
					}
				}
			}
		})
	}
}

func TestSpelledNumbers(t *testing.T) {
	checkForms(t, []formCase{
		{"en words to figures", "enwiki", "The storm killed ten thousand people.", "The storm killed 10,000 people.", CopyEdit, "number_form: ten thousand = 10,000"},
		{"en figures to words", "enwiki", "The hotel has 100 rooms.", "The hotel has one hundred rooms.", CopyEdit, "number_form: 100 = one hundred"},
		{"en language unknown", "", "The storm killed ten thousand people.", "The storm killed 10,000 people.", CopyEdit, "number_form: ten thousand = 10,000"},
		{"de compound", "dewiki", "Die Stadt hat dreiundzwanzig Kirchen.", "Die Stadt hat 23 Kirchen.", CopyEdit, "number_form: dreiundzwanzig = 23"},
		{"de thousands point", "dewiki", "Die Stadt hat zehntausend Einwohner.", "Die Stadt hat 10.000 Einwohner.", CopyEdit, "number_form: zehntausend = 10.000"},
		{"thousands separators", "dewiki", "Die Stadt hat 10.000 Einwohner.", "Die Stadt hat 10,000 Einwohner.", CopyEdit, "number_form: 10.000 = 10,000"},
		{"decimal point", "enwiki", "The rate rose by 10.5 percent.", "The rate rose by 10,500 percent.", FactualDrift, ""},
		{"fr", "frwiki", "Le village compte quatre-vingt-onze maisons.", "Le village compte 91 maisons.", CopyEdit, "number_form: quatre-vingt-onze = 91"},
		{"ru Cyrillic", "ruwiki", "В городе было пять тысяч жителей.", "В городе было 5000 жителей.", CopyEdit, "number_form: пять тысяч = 5000"},
		{"hy Armenian", "hywiki", "Գյուղն ունի քսանհինգ տուն։", "Գյուղն ունի 25 տուն։", CopyEdit, "number_form: քսանհինգ = 25"},
		{"hi Devanagari digits", "hiwiki", "गाँव में पैंतालीस घर हैं।", "गाँव में ४५ घर हैं।", CopyEdit, "number_form: पैंतालीस = ४५"},
		// A real change stays one.
		{"en other value", "enwiki", "The storm killed ten thousand people.", "The storm killed 20,000 people.", FactualDrift, ""},
		{"de other value", "dewiki", "Die Stadt hat dreiundzwanzig Kirchen.", "Die Stadt hat 24 Kirchen.", FactualDrift, ""},
		{"year", "enwiki", "The school opened in 1900.", "The school opened in 1901.", FactualDrift, ""},
		// "on" is ten in Turkish, not in English; a short word of a text of
		// no known language is not read as a number.
		{"en on", "enwiki", "The bridge reopened at 10 in the morning.", "The bridge reopened on the morning.", FactualDrift, ""},
		{"unknown on", "", "The bridge reopened at 10 in the morning.", "The bridge reopened on the morning.", FactualDrift, ""},
	})
}

func TestRanges(t *testing.T) {
	checkForms(t, []formCase{
		{"years", "enwiki", "He was mayor from 2001–2010.", "He was mayor from 2001–10.", CopyEdit, "number_form: 2001 – 2010 = 2001 – 10"},
		{"pages", "enwiki", "See pp. 219–229 of the report.", "See pp. 219–29 of the report.", CopyEdit, "number_form: 219 – 229 = 219 – 29"},
		{"one digit", "enwiki", "The map is on pp. 68–9 of the atlas.", "The map is on pp. 68–69 of the atlas.", CopyEdit, "number_form: 68 – 9 = 68 – 69"},
		{"range word", "enwiki", "The famine lasted 1891–92 in the valley.", "The famine lasted 1891 to 1892 in the valley.", CopyEdit, "number_form: 1891 – 92 = 1891 to 1892"},
		{"ru em dash", "ruwiki", "Голод длился в 1891—92 годах.", "Голод длился в 1891—1892 годах.", CopyEdit, "number_form: 1891 — 92 = 1891 — 1892"},
		{"de bis", "dewiki", "Die Hungersnot dauerte 1891–92 im Tal.", "Die Hungersnot dauerte 1891 bis 1892 im Tal.", CopyEdit, "number_form: 1891 – 92 = 1891 bis 1892"},
		{"bn digits", "bnwiki", "দুর্ভিক্ষ ১৮৯১–৯২ সালে হয়েছিল।", "দুর্ভিক্ষ ১৮৯১–১৮৯২ সালে হয়েছিল।", CopyEdit, "number_form: ১৮৯১ – ৯২ = ১৮৯১ – ১৮৯২"},
		// Another end, another start.
		{"other end", "enwiki", "He was mayor from 2001–2010.", "He was mayor from 2001–2011.", FactualDrift, ""},
		{"other short end", "enwiki", "He was mayor from 2001–10.", "He was mayor from 2001–11.", FactualDrift, ""},
		{"other start", "enwiki", "He was mayor from 2001–2010.", "He was mayor from 2002–10.", FactualDrift, ""},
	})
}

func TestCurrencies(t *testing.T) {
	checkForms(t, []formCase{
		{"code and symbol", "enwiki", "The budget was USD 5 million.", "The budget was US$5 million.", CopyEdit, "number_form: USD = US$"},
		{"code and sign", "enwiki", "The budget was USD 5 million.", "The budget was $5 million.", CopyEdit, "number_form: USD = $"},
		{"euro", "dewiki", "Das Budget betrug 5 Millionen EUR.", "Das Budget betrug 5 Millionen €.", CopyEdit, "number_form: EUR = €"},
		{"rouble", "ruwiki", "Бюджет составил 5 млн RUB.", "Бюджет составил 5 млн ₽.", CopyEdit, "number_form: RUB = ₽"},
		{"other currency", "enwiki", "The budget was USD 5 million.", "The budget was GBP 5 million.", FactualDrift, ""},
	})
}

func TestRestrictedNegation(t *testing.T) {
	checkForms(t, []formCase{
		{"not only", "enwiki", "He was not only a painter but also a poet.", "He was a painter and a poet.", CopyEdit, "number_form: not only = a restriction, not a negation"},
		{"not just", "enwiki", "The flood hit not just the city but the coast.", "The flood hit the city and the coast.", CopyEdit, ""},
		{"negation", "enwiki", "He was not a painter.", "He was a painter.", FactualDrift, ""},
	})
}

func TestNearSpellings(t *testing.T) {
	checkForms(t, []formCase{
		{"transposed", "enwiki", "The Egpytian army crossed the river.", "The Egyptian army crossed the river.", CopyEdit, "spelling: Egpytian ~ Egyptian"},
		{"transliteration", "enwiki", "He was born in Hamedan in 1920.", "He was born in Hamadan in 1920.", CopyEdit, "spelling: Hamedan ~ Hamadan"},
		{"Cyrillic", "ruwiki", "Он родился в Хамедане в 1920 году.", "Он родился в Хамадане в 1920 году.", CopyEdit, "spelling: Хамедане ~ Хамадане"},
		{"Greek", "elwiki", "Γεννήθηκε στη Θεσσαλονίκη το 1920.", "Γεννήθηκε στη Θεσαλονίκη το 1920.", CopyEdit, "spelling: Θεσσαλονίκη ~ Θεσαλονίκη"},
		{"Armenian", "hywiki", "Նա ծնվել է Համեդանում 1920 թվականին։", "Նա ծնվել է Համադանում 1920 թվականին։", CopyEdit, "spelling: Համեդանում ~ Համադանում"},
		{"diacritics", "enwiki", "The treaty was signed in Malmö Castle.", "The treaty was signed in Malmo Castle.", CopyEdit, ""},
		{"prefix abbreviation", "enwiki", "The shop is on Fifth Ave near the park.", "The shop is on Fifth Avenue near the park.", CopyEdit, "spelling: Ave ~ Avenue"},
		{"contraction", "enwiki", "The shop is on Main St near the park.", "The shop is on Main Street near the park.", CopyEdit, "spelling: St ~ Street"},
		{"initial", "enwiki", "The judge was Perry Oliver of Mobile.", "The judge was Perry O. of Mobile.", CopyEdit, "spelling: Oliver ~ O"},
		// Real name changes stay changes.
		{"other people", "enwiki", "Mayan traders reached the coast.", "Aztec traders reached the coast.", FactualDrift, ""},
		{"other president", "enwiki", "The bill was signed by Obama.", "The bill was signed by Biden.", FactualDrift, ""},
		{"short names", "enwiki", "The envoy flew to Iran.", "The envoy flew to Iraq.", FactualDrift, ""},
		{"two edits", "enwiki", "The team beat Austria in the final.", "The team beat Australia in the final.", FactualDrift, ""},
		{"one letter in five", "enwiki", "Steco is a joint venture of Samsung.", "Stemco is a joint venture of Samsung.", FactualDrift, ""},
	})
}

// TestNearSpellingsOfTitles: two words that are each a word of its own
// page's title name two pages, not one name spelled two ways.
func TestNearSpellingsOfTitles(t *testing.T) {
	got := Classify([]Member{
		{Title: "Hamedan", Text: "Hamedan is a village in Lorestan Province."},
		{Title: "Hamadan", Text: "Hamadan is a village in Lorestan Province."},
	})
	if got.Category != Template {
		t.Errorf("category %s (%s), want template", got.Category, got.Evidence.Reason)
	}
	if slices.ContainsFunc(got.Evidence.Mechanisms, func(m string) bool { return strings.HasPrefix(m, MechanismSpelling) }) {
		t.Errorf("mechanisms %q: two titles read as one spelling", got.Evidence.Mechanisms)
	}
}

func TestSpelledAlike(t *testing.T) {
	name := func(s string) Token { return Tokenize("x " + s)[1] }
	for _, c := range []struct {
		x, y string
		want bool
	}{
		{"Egpytian", "Egyptian", true},
		{"Tchaikovsky", "Tchaikowsky", true},
		{"Blvd", "Boulevard", true},
		{"Dept", "Department", true},
		{"Corp", "Corporation", true},
		{"Sept", "Septuagint", false}, // a contraction ends with its word's last letter
		{"Alys", "Alyssa", false},     // a prefix must be at most half the word
		{"ASCII", "As", false},        // a function word abbreviates nothing
		{"Johnson", "Jackson", false},
		{"Gambia", "Zambia", false}, // first letters differ
		{"Slovenia", "Slovakia", false},
	} {
		if got := spelledAlike(name(c.x), name(c.y)); got != c.want {
			t.Errorf("spelledAlike(%s, %s) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		x, y  string
		limit int
		want  int
	}{
		{"egpytian", "egyptian", 3, 1},
		{"hamedan", "hamadan", 3, 1},
		{"kitten", "sitting", 5, 3},
		{"kitten", "sitting", 1, 2}, // past the limit: limit+1
		{"", "abc", 5, 3},
		{"कुल", "कल", 3, 1},
	} {
		if got := editDistance([]rune(c.x), []rune(c.y), c.limit); got != c.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", c.x, c.y, c.limit, got, c.want)
		}
	}
}

// TestFoldKeepsVowelSigns: the vowel signs and viramas of Indic scripts
// (nonspacing marks) are part of the letter, and the Japanese voicing
// mark too; the diacritics of Latin, Greek and Cyrillic letters are
// folded away.
func TestFoldKeepsVowelSigns(t *testing.T) {
	key := func(w string) string { return Tokenize(w)[0].key() }
	for _, c := range []struct {
		script, x, y string
		same         bool
	}{
		{"Devanagari", "कुल", "कल", false},
		{"Devanagari virama", "क्या", "कया", false},
		{"Bengali", "কুল", "কল", false},
		{"Kannada", "ಕುಲ", "ಕಲ", false},
		{"Kannada vowel", "ಕಿರಣ", "ಕರಣ", false},
		{"Tamil", "குல", "கல", false},
		{"Tamil virama", "கல்", "கல", false},
		{"Japanese", "が", "か", false},
		{"Latin", "Boumédiène", "Boumediene", true},
		{"Greek", "Αθήνα", "Αθηνα", true},
		{"Cyrillic", "Ёлка", "Елка", true},
		{"Arabic vowel points", "مُحَمَّد", "محمد", true},
	} {
		if got := key(c.x) == key(c.y); got != c.same {
			t.Errorf("%s: %s and %s same key %v (%q, %q), want %v", c.script, c.x, c.y, got, key(c.x), key(c.y), c.same)
		}
	}
}
