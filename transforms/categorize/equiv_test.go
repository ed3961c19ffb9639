package categorize

import (
	"reflect"
	"testing"
)

// TestCompareEquivalents pairs sentences that differ only in a form of the
// same thing (the variants the issue on contradictions lists) and checks
// that none of them counts as a changed fact.
func TestCompareEquivalents(t *testing.T) {
	tests := []struct{ name, a, b string }{
		{"diacritics", "Boumediene seized power in a coup in 1965.", "Boumédiène seized power in a coup in 1965."},
		{"letters without decomposition", "Bronislaw Malinowski studied the islanders in 1915.", "Bronisław Malinowski studied the islanders in 1915."},
		{"accented capital", "Échelle is a scale used by the French army since 1930.", "Echelle is a scale used by the French army since 1930."},
		{"British spelling", "The Department of Defense funded the work in 1962.", "The Department of Defence funded the work in 1962."},
		{"-ise and -ize", "The league was organised in 1901 by local clubs.", "The league was organized in 1901 by local clubs."},
		{"number word joined by a hyphen", "ASCII is a seven-bit code used since 1963.", "ASCII is a 7-bit code used since 1963."},
		{"ordinal word", "Alabama ranks twenty-third in the amount of surface water.", "Alabama ranks 23rd in the amount of surface water."},
		{"two-digit year", "The band released its album in '98 to good reviews.", "The band released its album in 1998 to good reviews."},
		{"two-digit decade", "Their pacifism was a model for the 60s in America.", "Their pacifism was a model for the 1960s in America."},
		{"abbreviation periods", "The city was founded around 500 B.C. by Greek settlers.", "The city was founded around 500 BC by Greek settlers."},
		{"U.S. and US", "The U.S. Navy sent 12 ships to the region in 2005.", "The US Navy sent 12 ships to the region in 2005."},
		{"hyphen and en dash", "The Tennessee-Tombigbee Waterway opened in 1985 for barges.", "The Tennessee–Tombigbee Waterway opened in 1985 for barges."},
		{"slash and en dash", "It made landfall near the Mississippi/Louisiana border in 2005.", "It made landfall near the Mississippi–Louisiana border in 2005."},
		{"curly quotes", "He called it “the worst storm” of the year 2005.", "He called it \"the worst storm\" of the year 2005."},
		{"thousands separator", "The city had 12,500 residents in the 2010 census.", "The city had 12500 residents in the 2010 census."},
		{"decimal comma", "The aircraft carried 12,7 tonnes of supplies to Mobile.", "The aircraft carried 12.7 tonnes of supplies to Mobile."},
		{"unit symbol", "The storm surge reached 28 ft along the coast of Mississippi.", "The storm surge reached 28 feet along the coast of Mississippi."},
		{"unit phrase", "Winds reached 120 miles per hour near the coast in August.", "Winds reached 120 mph near the coast in August."},
		{"percent", "About 40 percent of the land is used for farming in Iowa.", "About 40% of the land is used for farming in Iowa."},
		{"date format", "The treaty was signed on 5 May 2012 in Geneva by both sides.", "The treaty was signed on May 5, 2012 in Geneva by both sides."},
		{"two-digit year, curly apostrophe", "The band released its album in ’05 to good reviews.", "The band released its album in 2005 to good reviews."},
		{"closed compound", "Lower case letters were added to the code in 1963.", "Lowercase letters were added to the code in 1963."},
		{"one and 1", "The county has 1 seat in the state senate since 1972.", "The county has one seat in the state senate since 1972."},
		{"number word", "In addition, nine of 26 existing pumps were operating.", "In addition, 9 of 26 existing pumps were operating."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(Member{Context: "prose", Text: tt.a}, Member{Context: "prose", Text: tt.b})
			if got.Kind != CopyEdit || len(got.Facts) != 0 {
				t.Errorf("Compare(%q, %q) = %s/%s with facts %+v, want copy_edit and no fact", tt.a, tt.b, got.Kind, got.Rule, got.Facts)
			}
		})
	}
}

// TestCompareFacts pairs sentences whose facts differ and checks the slot
// and both values Compare reports.
func TestCompareFacts(t *testing.T) {
	tests := []struct {
		name, a, b string
		want       []Fact
	}{
		{"count", "The flood killed 48 people in the county in 1927.", "The flood killed 58 people in the county in 1927.",
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactNumber, Slot: 3, Context: "The flood killed", From: "48", To: "58"}}},
		{"millions", "The city has about 1.8 million inhabitants in its metro area.", "The city has about 1.3 million inhabitants in its metro area.",
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactNumber, Slot: 4, Context: "The city has about", From: "1.8", To: "1.3"}}},
		{"share", "In 2008, 78.7% of the respondents said they were Christian.", "In 2008, 92.6% of the respondents said they were Christian.",
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactNumber, Slot: 3, Context: "In 2008", From: "78.7%", To: "92.6%"}}},
		{"year", "The bridge over the river was completed in 1900.", "The bridge over the river was completed in 1901.",
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactDate, Slot: 8, Context: "river was completed in", From: "1900", To: "1901"}}},
		{"name", "Some sources mention an abacus called a nepohualtzintzin in ancient Mayan culture.", "Some sources mention an abacus called a nepohualtzintzin in ancient Aztec culture.",
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactName, Slot: 10, Context: "a nepohualtzintzin in ancient", From: "Mayan", To: "Aztec"}}},
		{"a day is not a year", "On 17 January the United States paid $25,000,000 to Denmark for the islands.", "In 1917 the United States paid $25,000,000 to Denmark for the islands.",
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactNumber, Slot: 0, Context: "", From: "On 17 January", To: "In 1917"}}},
		{"contrary", "The Twin Span Bridge was heavily damaged by the storm surge.", "The Twin Span Bridge had collapsed after the storm surge.",
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactContrast, Slot: 4, Context: "The Twin Span Bridge", From: "was heavily damaged by", To: "had collapsed after"}}},
		{"quantity", "Most of the residents left the city before the storm.", "Nearly all of the residents left the city before the storm.",
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactQuantity, Slot: 0, Context: "", From: "Most", To: "Nearly all"}}},
		{"negation", "Taxpayers are not allowed to deduct their federal income tax.", "Taxpayers are allowed to deduct their federal income tax.",
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactNegation, Slot: 2, Context: "Taxpayers are", From: "not", To: ""}}},
		{"compass point", "China lies in the far northeast of the country, beyond the Wakhan.", "China lies in the far east of the country, beyond the Wakhan.",
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactContrast, Slot: 5, Context: "lies in the far", From: "northeast", To: "east"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(Member{Context: "prose", Text: tt.a}, Member{Context: "prose", Text: tt.b})
			if got.Kind != FactualDrift || !reflect.DeepEqual(got.Facts, tt.want) {
				t.Errorf("Compare(%q, %q) = %s/%s with facts\n  %+v\nwant factual_drift with\n  %+v", tt.a, tt.b, got.Kind, got.Rule, got.Facts, tt.want)
			}
		})
	}
}

// TestCompareRewrite: a clause rewritten around a figure is not a value
// replaced by another (MaxSlotWords).
func TestCompareRewrite(t *testing.T) {
	a := Member{Context: "prose", Text: "In 2009, the stadiums became the homes of the state football championship games, known as the Super Six."}
	b := Member{Context: "prose", Text: "In 2009, the stadiums became the homes of the state football championship games, after previously being held at Legion Field in Birmingham."}
	if got := Compare(a, b); got.Kind == FactualDrift {
		t.Errorf("Compare = %s with facts %+v, want no drift", got.Kind, got.Facts)
	}
}

func TestCanonicalKey(t *testing.T) {
	tests := []struct {
		text string
		kind TokenKind
		want string
	}{
		{"Boumédiène", KindName, "boumediene"},
		{"Bronisław", KindName, "bronislaw"},
		{"Straße", KindName, "strasse"},
		{"ﬁnal", KindWord, "final"}, // NFKC: the fi ligature
		{"B.C.", KindName, "bc"},
		{"colour", KindWord, "color"},
		{"organisations", KindWord, "organizations"},
		{"analysed", KindWord, "analyzed"},
		{"Organisational", KindName, "organizational"},
		{"B.C.E.", KindName, "bc"},
		{"feet", KindWord, unitKeyPrefix + "ft"},
		{"percent", KindWord, percentKey},
		{"%", KindPunct, percentKey},
		{"–", KindPunct, "-"},
		{"’", KindPunct, "'"},
		{"seven", KindNumber, "7"},
		{"twenty-third", KindNumber, "23rd"},
		{"twenty-first", KindNumber, "21st"},
		{"1,000,000", KindNumber, "1000000"},
		{"12,7", KindNumber, "12.7"},
		{"1,5,7", KindNumber, "1,5,7"},
		{"in", KindWord, "in"},
	}
	for _, tt := range tests {
		if got := newToken(tt.text, tt.kind).key(); got != tt.want {
			t.Errorf("key of %q (%s) = %q, want %q", tt.text, tt.kind, got, tt.want)
		}
	}
}

// TestTables reads every data table: a malformed line is a build defect.
func TestTables(t *testing.T) {
	if _, err := readPairs("tables/spelling.txt"); err != nil {
		t.Error(err)
	}
	for _, name := range []string{"tables/numbers.txt", "tables/ordinals.txt"} {
		if _, err := readValues(name); err != nil {
			t.Error(err)
		}
	}
	if _, err := unitNames("tables/units.txt"); err != nil {
		t.Error(err)
	}
	if len(contrasts) == 0 || len(spellings) < 100 || len(unitPhrases) == 0 {
		t.Errorf("tables look empty: %d contrasts, %d spellings, %d unit phrases", len(contrasts), len(spellings), len(unitPhrases))
	}
}
