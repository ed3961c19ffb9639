package alias

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/transforms/wikitext"
)

func TestTitle(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Ivory Coast", "Ivory Coast"},
		{"ivory_coast", "Ivory coast"},               // first letter only: MediaWiki titles are case-sensitive after it
		{"  Ivory   Coast ", "Ivory Coast"},          // white space collapsed and trimmed
		{"Ivory\u00a0Coast", "Ivory Coast"},          // a no-break space is a space
		{"Ivory Coast#History", "Ivory Coast"},       // the fragment is not the page
		{"#History", ""},                             // a link within the page
		{"ελλάδα", "Ελλάδα"},                         // any script's upper case
		{"hamadan_(city)", "Hamadan (city)"},         //
		{"東京都", "東京都"},                               // no case
		{"ǆungla", "Ǆungla"},                         // upper, not title, case
		{"__", ""},                                   //
		{"Côte d'Ivoire", "Côte d'Ivoire"},           // kept as written
		{"Help:Contents_page", "Help:Contents page"}, // the namespace stays
	} {
		if got := Title(tt.in); got != tt.want {
			t.Errorf("Title(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestKey(t *testing.T) {
	same := [][]string{
		{"Côte d'Ivoire", "Cote d’Ivoire", "côte-d'ivoire", "COTE D IVOIRE", "Côte_d'Ivoire#Economy"},
		{"Hamadan", "hamadan", "HAMADAN"},
		{"Washington, D.C.", "Washington , D.C.", "Washington DC"},
		{"Αθήνα", "ΑΘΗΝΑ", "αθηνα"},          // Greek accents and case
		{"Σίσυφος", "ΣΙΣΥΦΟΣ", "σισυφοσ"},    // final sigma folds with sigma
		{"Hà Nội", "Ha Noi", "HÀ NỘI"},       // Vietnamese diacritics of Latin letters
		{"ジョン・スミス", "ジョンスミス"},                // the katakana middle dot is punctuation
		{"Kelvin", "\u212Aelvin"},            // the Kelvin sign folds with K
		{"Hamadan", "Ha\u0301madan"},         // a decomposed accent
		{"İstanbul", "Istanbul", "istanbul"}, // the dot above is an accent of a cased letter
	}
	for _, names := range same {
		k := Key(names[0])
		if k == "" {
			t.Errorf("Key(%q) is empty", names[0])
		}
		for _, n := range names[1:] {
			if got := Key(n); got != k {
				t.Errorf("Key(%q) = %q, want Key(%q) = %q", n, got, names[0], k)
			}
		}
	}
	different := [][2]string{
		{"が", "か"},  // the voicing mark of kana is a letter
		{"कि", "क"}, // a Devanagari vowel sign is a letter
		{"Hamadan", "Hamedan"},
		{"Georgia", "Georgia (country)"},
		{"1998", "1989"},
	}
	for _, d := range different {
		if Key(d[0]) == Key(d[1]) {
			t.Errorf("Key(%q) = Key(%q) = %q", d[0], d[1], Key(d[0]))
		}
	}
	for _, empty := range []string{"", " ", "—", "#x", "...", "_"} {
		if k := Key(empty); k != "" {
			t.Errorf("Key(%q) = %q, want empty", empty, k)
		}
	}
}

func TestResolve(t *testing.T) {
	links := func(article string, pages int) []Sense { return []Sense{{Article: article, Pages: pages}} }
	tests := []struct {
		name string
		cs   []Candidate
		want map[string][]string // key of the name → its articles
	}{
		{
			name: "one hop",
			cs: []Candidate{
				{Key: Key("Hamedan"), Redirects: []Redirect{{"Hamedan", "Hamadan"}}},
				{Key: Key("Hamadan"), Titles: []string{"Hamadan"}},
				{Key: Key("the city"), Links: links("Hamedan", 3)}, // a link to the redirect names its target
			},
			want: map[string][]string{"hamedan": {"Hamadan"}, "hamadan": {"Hamadan"}, "thecity": {"Hamadan"}},
		},
		{
			name: "a chain of redirects",
			cs: []Candidate{
				{Key: "a", Redirects: []Redirect{{"A", "B"}}},
				{Key: "b", Redirects: []Redirect{{"B", "C"}}},
				{Key: "c", Redirects: []Redirect{{"C", "D"}}},
				{Key: "x", Links: links("A", 1)},
			},
			want: map[string][]string{"a": {"D"}, "b": {"D"}, "c": {"D"}, "x": {"D"}},
		},
		{
			name: "longer than the hops",
			cs: []Candidate{
				{Key: "a", Redirects: []Redirect{{"A", "B"}}},
				{Key: "b", Redirects: []Redirect{{"B", "C"}}},
				{Key: "c", Redirects: []Redirect{{"C", "D"}}},
				{Key: "d", Redirects: []Redirect{{"D", "E"}}},
				{Key: "e", Redirects: []Redirect{{"E", "F"}}},
				{Key: "f", Redirects: []Redirect{{"F", "G"}}},
			},
			// a's target B is MaxRedirectHops redirects from F
			want: map[string][]string{"a": {"F"}, "b": {"G"}, "c": {"G"}, "d": {"G"}, "e": {"G"}, "f": {"G"}},
		},
		{
			name: "a cycle",
			cs: []Candidate{
				{Key: "a", Redirects: []Redirect{{"A", "B"}}},
				{Key: "b", Redirects: []Redirect{{"B", "A"}}},
				{Key: "x", Links: links("A", 2)},
			},
			// followed until it would go round: A → B, and B → A
			want: map[string][]string{"a": {"A"}, "b": {"B"}, "x": {"B"}},
		},
		{
			name: "a redirect to itself",
			cs:   []Candidate{{Key: "a", Redirects: []Redirect{{"A", "A"}}}},
			want: map[string][]string{"a": {"A"}},
		},
		{
			name: "an ambiguous name: direct articles first, then by pages, then by title",
			cs: []Candidate{
				{Key: "georgia", Titles: []string{"Georgia"}, Links: []Sense{
					{"Georgia (country)", 5}, {"Georgia (U.S. state)", 5}, {"Georgia", 2}, {"Georgia (band)", 1}, {"Georgia Tech", 1}}},
			},
			want: map[string][]string{"georgia": {"Georgia", "Georgia (U.S. state)", "Georgia (country)", "Georgia (band)"}},
		},
		{
			name: "senses merged by the redirects",
			cs: []Candidate{
				{Key: "ivorycoast", Titles: []string{"Ivory Coast"}},
				{Key: "ivorycoastcountry", Redirects: []Redirect{{"Ivory Coast (country)", "Ivory Coast"}}},
				{Key: "cotedivoire", Redirects: []Redirect{{"Côte d'Ivoire", "Ivory Coast"}},
					Links: []Sense{{"Côte d'Ivoire national football team", 3}, {"Côte d'Ivoire", 2}, {"Ivory Coast (country)", 2}}},
			},
			want: map[string][]string{
				"ivorycoast": {"Ivory Coast"}, "ivorycoastcountry": {"Ivory Coast"},
				"cotedivoire": {"Ivory Coast", "Côte d'Ivoire national football team"},
			},
		},
		{
			name: "two dumps disagree on a redirect",
			cs:   []Candidate{{Key: "a", Redirects: []Redirect{{"A", "C"}, {"A", "B"}}}, {Key: "x", Links: links("A", 1)}},
			want: map[string][]string{"a": {"B", "C"}, "x": {"B"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries, _ := Resolve(slices.Clone(tt.cs))
			got := map[string][]string{}
			for _, e := range entries {
				got[e.Key] = e.Articles
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Resolve:\n got %q\nwant %q", got, tt.want)
			}
			if !slices.IsSortedFunc(entries, func(a, b Entry) int { return compareStrings(a.Key, b.Key) }) {
				t.Errorf("entries not in key order")
			}
		})
	}
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestResolveDropsSenses(t *testing.T) {
	c := Candidate{Key: "x"}
	for _, a := range []string{"A", "B", "C", "D", "E", "F"} {
		c.Links = append(c.Links, Sense{a, 1})
	}
	entries, dropped := Resolve([]Candidate{c})
	if want := []string{"A", "B", "C", "D"}; !reflect.DeepEqual(entries[0].Articles, want) || dropped != 2 {
		t.Errorf("articles %q, %d dropped; want %q, 2", entries[0].Articles, dropped, want)
	}
}

func TestPageClaims(t *testing.T) {
	ns := NewNamespaces(map[int][]string{0: {""}, 4: {"Wikipedia"}, 12: {"Help"}})
	p := Page{Wiki: "enwiki", ID: 7, RevID: 70, Title: "Cocoa_production", Links: []wikitext.Link{
		{Target: "Ivory Coast", Anchor: "Côte d'Ivoire"},
		{Target: "ivory_Coast", Anchor: "Côte d’Ivoire"},      // the same claim, written otherwise
		{Target: "Abidjan#Religion", Anchor: "the cathedral"}, // a section
		{Target: "Help:Contents", Anchor: "help"},             // another namespace
		{Target: "1998 in film", Anchor: "1998"},              // no letter
		{Target: "Ghana", Anchor: "a phrase that is much too long to be the name of anything at all, surely"},
		{Target: "Ghana", Anchor: "Ghana"},
	}}
	got := AppendPageClaims(nil, p, ns)
	want := []Claim{
		{Wiki: "enwiki", Key: "cocoaproduction", Article: "Cocoa production", Kind: KindTitle},
		{Wiki: "enwiki", Key: "cotedivoire", Article: "Ivory Coast", Kind: KindLink, Doc: 140},
		{Wiki: "enwiki", Key: "ghana", Article: "Ghana", Kind: KindLink, Doc: 140},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("claims\n got %+v\nwant %+v", got, want)
	}
}

func TestRedirectClaims(t *testing.T) {
	ns := NewNamespaces(map[int][]string{12: {"Help"}})
	tests := []struct {
		title, target, text string
		want                []Claim
	}{
		{"Hamedan", "Hamadan", "#REDIRECT [[Hamadan]]\n{{R from alternative spelling}}", []Claim{
			{Wiki: "w", Key: "hamedan", Name: "Hamedan", Article: "Hamadan", Kind: KindRedirect},
			{Wiki: "w", Key: "hamadan", Article: "Hamadan", Kind: KindTitle},
		}},
		{"Hệ quản trị cơ sở dữ liệu", "Cơ sở dữ liệu", "#redirect [[Cơ sở dữ liệu#Hệ thống quản lý cơ sở dữ liệu]]", nil},
		{"Manual", "Help:Contents", "#REDIRECT [[Help:Contents]]", nil},
		{"—", "Dash", "#REDIRECT [[Dash]]", nil},
	}
	for _, tt := range tests {
		if got := AppendRedirectClaims(nil, "w", tt.title, tt.target, tt.text, ns); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("claims of %q → %q:\n got %+v\nwant %+v", tt.title, tt.target, got, tt.want)
		}
	}
}

// TestCandidates checks that a page read twice counts once, and that
// claims in any order give the same candidates.
func TestCandidates(t *testing.T) {
	ns := Namespaces{}
	page := Page{Wiki: "w", RevID: 5, Title: "Cocoa", Links: []wikitext.Link{{Target: "Ivory Coast", Anchor: "Côte d'Ivoire"}}}
	other := Page{Wiki: "w", RevID: 6, Title: "Abidjan", Links: []wikitext.Link{{Target: "Ivory Coast", Anchor: "Côte d'Ivoire"}, {Target: "Ivory Coast", Anchor: "Ivory Coast"}}}
	var claims []Claim
	for _, p := range []Page{page, other, page} { // page read twice
		claims = AppendPageClaims(claims, p, ns)
	}
	claims = AppendRedirectClaims(claims, "w", "Côte d'Ivoire", "Ivory Coast", "#REDIRECT [[Ivory Coast]]", ns)
	claims = AppendRedirectClaims(claims, "w", "Côte d'Ivoire", "Ivory Coast", "#REDIRECT [[Ivory Coast]]", ns)
	want, counts := Candidates(slices.Clone(claims))
	if wantCounts := (counters.Aliases{RedirectClaims: 1, LinkClaims: 3}); counts != wantCounts {
		t.Errorf("counts %+v, want %+v", counts, wantCounts)
	}
	var cdi Candidate
	for _, c := range want {
		if c.Key == "cotedivoire" {
			cdi = c
		}
	}
	if wantCDI := (Candidate{Key: "cotedivoire", Weight: 3, Redirects: []Redirect{{"Côte d'Ivoire", "Ivory Coast"}},
		Links: []Sense{{"Ivory Coast", 2}}}); !reflect.DeepEqual(cdi, wantCDI) {
		t.Errorf("candidate %+v, want %+v", cdi, wantCDI)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		r.Shuffle(len(claims), func(i, j int) { claims[i], claims[j] = claims[j], claims[i] })
		if got, _ := Candidates(slices.Clone(claims)); !reflect.DeepEqual(got, want) {
			t.Fatalf("shuffled claims give\n%+v\nwant\n%+v", got, want)
		}
	}
}

func TestTop(t *testing.T) {
	cs := []Candidate{{Key: "c", Weight: 2}, {Key: "a", Weight: 1}, {Key: "b", Weight: 2}, {Key: "d", Weight: 5}}
	kept, dropped := Top(slices.Clone(cs), 3)
	var keys []string
	for _, c := range kept {
		keys = append(keys, c.Key)
	}
	if want := []string{"d", "b", "c"}; !reflect.DeepEqual(keys, want) || dropped != 1 {
		t.Errorf("kept %q, dropped %d; want %q, 1", keys, dropped, want)
	}
	if kept, dropped := Top(slices.Clone(cs), 10); len(kept) != 4 || dropped != 0 {
		t.Errorf("under the cap: kept %d, dropped %d", len(kept), dropped)
	}
}

func TestCandidateEncoding(t *testing.T) {
	cs := []Candidate{
		{Key: "cotedivoire", Weight: 3, Redirects: []Redirect{{"Côte d'Ivoire", "Ivory Coast"}}, Links: []Sense{{"Ivory Coast", 2}}},
		{Key: "ghana", Weight: 1, Titles: []string{"Ghana"}},
	}
	var b []byte
	for _, c := range cs {
		b = c.AppendBinary(b)
	}
	got, err := UnmarshalCandidates(nil, b)
	if err != nil || !reflect.DeepEqual(got, cs) {
		t.Errorf("decoded %+v, %v; want %+v", got, err, cs)
	}
	for i := range b {
		if _, err := UnmarshalCandidates(nil, b[:i]); err == nil && i > 0 && i < len(b) {
			// a cut between two candidates decodes the first alone
			if got, _ := UnmarshalCandidates(nil, b[:i]); len(got) != 1 {
				t.Errorf("candidates cut at %d decode without error: %+v", i, got)
			}
		}
	}
	c := Claim{Wiki: "w", Key: "k", Name: "N", Article: "A", Kind: KindRedirect, Doc: 9}
	back := Claim{Wiki: "w"}
	if err := back.UnmarshalBinary(c.AppendBinary(nil)); err != nil || back != c {
		t.Errorf("claim decoded %+v, %v; want %+v", back, err, c)
	}
	if err := new(Claim).UnmarshalBinary([]byte{7, 0, 0, 0, 0}); err == nil {
		t.Error("a claim of unknown kind decodes")
	}
}

// testTable is a table of two wikis built from real-shaped entries.
func testTable(t *testing.T) *Table {
	t.Helper()
	en := []Entry{
		{Key: Key("Ivory Coast"), Articles: []string{"Ivory Coast"}},
		{Key: Key("Côte d'Ivoire"), Articles: []string{"Ivory Coast", "Ivory Coast national football team"}},
		{Key: Key("Hamedan"), Articles: []string{"Hamadan"}},
		{Key: Key("Hamadan"), Articles: []string{"Hamadan"}},
		{Key: Key("Georgia"), Articles: []string{"Georgia (U.S. state)", "Georgia (country)"}},
		{Key: Key("Sakartvelo"), Articles: []string{"Georgia (country)"}},
		{Key: Key("Atlanta"), Articles: []string{"Atlanta"}},
	}
	fr := []Entry{{Key: Key("Côte d'Ivoire"), Articles: []string{"Côte d'Ivoire"}}}
	a, b := AppendWiki(nil, "frwiki", fr), AppendWiki(nil, "enwiki", en)
	merged, err := MergeEncoded(a, b)
	if err != nil {
		t.Fatal(err)
	}
	other, err := MergeEncoded(b, a)
	if err != nil || !bytes.Equal(merged, other) {
		t.Fatalf("merging in another order gives other bytes (%v)", err)
	}
	var tab Table
	if err := tab.UnmarshalBinary(merged); err != nil {
		t.Fatal(err)
	}
	return &tab
}

func TestSameEntity(t *testing.T) {
	tab := testTable(t)
	tests := []struct {
		wiki, a, b string
		article    string
		ok         bool
	}{
		{"enwiki", "Côte d'Ivoire", "Ivory Coast", "Ivory Coast", true},
		{"enwiki", "Ivory Coast", "Cote d’Ivoire", "Ivory Coast", true},
		{"enwiki", "Hamedan", "Hamadan", "Hamadan", true},
		{"enwiki", "Sakartvelo", "Georgia", "Georgia (country)", true}, // the name's second sense
		{"enwiki", "Georgia", "Atlanta", "", false},
		{"enwiki", "Hamadan", "Ivory Coast", "", false},
		{"enwiki", "Hamadan", "Tehran", "", false}, // unknown names name nothing
		{"frwiki", "Côte d'Ivoire", "Ivory Coast", "", false},
		{"dewiki", "Hamedan", "Hamadan", "", false},
	}
	for _, tt := range tests {
		got, ok := tab.SameEntity(tt.wiki, tt.a, tt.b)
		if got != tt.article || ok != tt.ok {
			t.Errorf("SameEntity(%s, %q, %q) = %q, %v; want %q, %v", tt.wiki, tt.a, tt.b, got, ok, tt.article, tt.ok)
		}
		if back, _ := tab.SameEntity(tt.wiki, tt.b, tt.a); back != got {
			t.Errorf("SameEntity(%s, %q, %q) = %q, not symmetric", tt.wiki, tt.b, tt.a, back)
		}
	}
	if got := tab.Articles("enwiki", "GEORGIA"); !reflect.DeepEqual(got, []string{"Georgia (U.S. state)", "Georgia (country)"}) {
		t.Errorf("Articles(Georgia) = %q", got)
	}
	if n, a := tab.Len("enwiki"); n != 7 || a != 6 {
		t.Errorf("enwiki: %d names, %d articles; want 7, 6", n, a)
	}
	if got := tab.Wikis(); !reflect.DeepEqual(got, []string{"enwiki", "frwiki"}) {
		t.Errorf("wikis %q", got)
	}
	var zero Table
	if _, ok := zero.SameEntity("enwiki", "a", "a"); ok {
		t.Error("the zero table knows a name")
	}
}

func TestTableEncoding(t *testing.T) {
	entries := []Entry{{Key: "b", Articles: []string{"B", "A"}}, {Key: "a", Articles: []string{"A"}}}
	b := AppendWiki(nil, "w", entries)
	slices.Reverse(entries)
	if !bytes.Equal(b, AppendWiki(nil, "w", entries)) {
		t.Error("the same entries in another order encode otherwise")
	}
	for i := range b {
		var tab Table
		if err := tab.UnmarshalBinary(b[:i]); err == nil && i > 1 { // the version byte alone is the empty table
			t.Errorf("a table cut at %d of %d bytes decodes", i, len(b))
		}
	}
	if _, err := MergeEncoded(b, b); err == nil {
		t.Error("two tables of one wiki merge")
	}
	var empty Table
	if err := empty.UnmarshalBinary(nil); err != nil || len(empty.Wikis()) != 0 {
		t.Errorf("the empty encoding: %v, %d wikis", err, len(empty.Wikis()))
	}
	if got, err := MergeEncoded(nil, []byte{}); err != nil || len(got) != 0 {
		t.Errorf("merging empty tables: %q, %v", got, err)
	}
}
