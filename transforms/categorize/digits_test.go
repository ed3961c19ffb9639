package categorize

import (
	"html"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/numeral"
	"github.com/neardup/neardup/testkit/testshared"
)

// TestTokenizeDigitsOfEveryScript: a run of decimal digits of any script
// is one number token keyed in ASCII digits, a year in any script is a
// date, and digits of two scripts side by side are two numbers. (Words
// are shown with the key canonicalKey gives them.)
func TestTokenizeDigitsOfEveryScript(t *testing.T) {
	type tok struct {
		text string
		kind TokenKind
		key  string
	}
	word := func(w string) tok { return tok{w, KindWord, canonicalKey(w, KindWord)} }
	tests := []struct {
		text string
		want []tok
	}{
		{"জনসংখ্যা ৮৭৪৮ জন।", []tok{word("জনসংখ্যা"), {"৮৭৪৮", KindNumber, "8748"}, word("জন"), {"।", KindPunct, "।"}}},
		{"१९४७ साली ४०.४% भाग", []tok{{"१९४७", KindDate, "1947"}, word("साली"), {"४०.४%", KindNumber, "40.4%"}, word("भाग")}},
		{"١٬٢٣٤ كم", []tok{{"١٬٢٣٤", KindNumber, "1234"}, word("كم")}},
		{"۱۳۵۷ و ۱۹۷۹", []tok{{"۱۳۵۷", KindDate, "1357"}, word("و"), {"۱۹۷۹", KindDate, "1979"}}},
		{"೨೦೧೧ರಲ್ಲಿ", []tok{{"೨೦೧೧", KindDate, "2011"}, word("ರಲ್ಲಿ")}},
		{"ತು೦ಗಾ", []tok{word("ತು೦ಗಾ")}}, // a zero for an anusvara, inside a word
		{"৮৭8", []tok{{"৮৭", KindNumber, "87"}, {"8", KindNumber, "8"}}},
		{"’৯৮ সালে", []tok{{"’৯৮", KindNumber, "'98"}, word("সালে")}},
		{"২০২৬年", []tok{{"২০২৬", KindDate, "2026"}, word("年")}},
	}
	for _, tt := range tests {
		var got []tok
		for _, k := range Tokenize(tt.text) {
			got = append(got, tok{k.Text, k.Kind, k.key()})
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Tokenize(%q) =\n  %v\nwant\n  %v", tt.text, got, tt.want)
		}
	}
}

// TestCompareDigitsOfEveryScript: a number changed in Bengali, Devanagari,
// Arabic-Indic or Kannada digits is a number (or date) fact with both
// values as written; the same number written in other digits is not.
func TestCompareDigitsOfEveryScript(t *testing.T) {
	tests := []struct {
		name, a, b string
		kind       string
		want       []Fact
	}{
		{"Bengali count", "২০১১ সালের আদমশুমারি অনুসারে গ্রামের জনসংখ্যা ৮৭৪৮ জন।", "২০১১ সালের আদমশুমারি অনুসারে গ্রামের জনসংখ্যা ৮৭৪৯ জন।", FactualDrift,
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactNumber, Slot: 6, Context: "আদমশুমারি অনুসারে গ্রামের জনসংখ্যা", From: "৮৭৪৮", To: "৮৭৪৯"}}},
		{"Bengali year", "২০১১ সালের আদমশুমারি অনুসারে গ্রামের জনসংখ্যা ৮৭৪৮ জন।", "২০০১ সালের আদমশুমারি অনুসারে গ্রামের জনসংখ্যা ৮৭৪৮ জন।", FactualDrift,
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactDate, Slot: 0, Context: "", From: "২০১১", To: "২০০১"}}},
		{"Marathi year", "भारताला १५ ऑगस्ट १९४७ रोजी ब्रिटिश राजवटीपासून स्वातंत्र्य मिळाले.", "भारताला १५ ऑगस्ट १९४८ रोजी ब्रिटिश राजवटीपासून स्वातंत्र्य मिळाले.", FactualDrift,
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactDate, Slot: 3, Context: "भारताला १५ ऑगस्ट", From: "१९४७", To: "१९४८"}}},
		{"Hindi decimal", "गाँव की साक्षरता दर ७४.०४ प्रतिशत है, जो राज्य के औसत से अधिक है।", "गाँव की साक्षरता दर ७६.०४ प्रतिशत है, जो राज्य के औसत से अधिक है।", FactualDrift,
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactNumber, Slot: 4, Context: "गाँव की साक्षरता दर", From: "७४.०४", To: "७६.०४"}}},
		{"Arabic-Indic separators", "يبلغ عدد سكان المدينة ١٬٢٣٤ نسمة حسب إحصاء عام ٢٠٠٦ الرسمي.", "يبلغ عدد سكان المدينة ١٬٥٣٤ نسمة حسب إحصاء عام ٢٠٠٦ الرسمي.", FactualDrift,
			[]Fact{{A: 0, B: 1, Change: ChangeReplaced, Type: FactNumber, Slot: 4, Context: "يبلغ عدد سكان المدينة", From: "١٬٢٣٤", To: "١٬٥٣٤"}}},
		{"Bengali and ASCII digits", "২০১১ সালের আদমশুমারি অনুসারে গ্রামের জনসংখ্যা ৮৭৪৮ জন।", "2011 সালের আদমশুমারি অনুসারে গ্রামের জনসংখ্যা 8748 জন।", CopyEdit, nil},
		{"Arabic-Indic and ASCII separators", "يبلغ عدد سكان المدينة ١٬٢٣٤ نسمة حسب إحصاء عام ٢٠٠٦ الرسمي.", "يبلغ عدد سكان المدينة 1234 نسمة حسب إحصاء عام 2006 الرسمي.", CopyEdit, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(Member{Context: "prose", Text: tt.a}, Member{Context: "prose", Text: tt.b})
			want := tt.want
			if want == nil {
				want = []Fact{}
			}
			if got.Kind != tt.kind || !reflect.DeepEqual(got.Facts, want) {
				t.Errorf("Compare(%q, %q) = %s/%s with facts\n  %+v\nwant %s with\n  %+v", tt.a, tt.b, got.Kind, got.Rule, got.Facts, tt.kind, want)
			}
		})
	}
}

// TestSegmentsDigitsOfEveryScript: the evidence highlights a changed
// Bengali number as one changed run, not digit by digit.
func TestSegmentsDigitsOfEveryScript(t *testing.T) {
	sa, sb := Segments("গ্রামের জনসংখ্যা ৮৭৪৮ জন।", "গ্রামের জনসংখ্যা ৮৭৪৯ জন।")
	wa := []Segment{{Text: "গ্রামের জনসংখ্যা "}, {Text: "৮৭৪৮", Changed: true}, {Text: " জন।"}}
	wb := []Segment{{Text: "গ্রামের জনসংখ্যা "}, {Text: "৮৭৪৯", Changed: true}, {Text: " জন।"}}
	if !slices.Equal(sa, wa) || !slices.Equal(sb, wb) {
		t.Errorf("Segments =\n  %v\n  %v\nwant\n  %v\n  %v", sa, sb, wa, wb)
	}
}

// kannadaSentences reads the prose sentences of the Kannada Wikipedia page
// of ../shared/data/wikiclean-pages (Shivamogga, 2018) that hold a number
// in Kannada digits, cleaned as loadKatrina cleans.
func kannadaSentences(tb testing.TB) []string {
	tb.Helper()
	kannadaNumber := regexp.MustCompile(`[೦-೯]+`)
	end := regexp.MustCompile(`[.!?।]\s+`)
	var out []string
	for _, p := range testshared.DumpPages(tb, "wikiclean-pages/knwiki-20180614-id1.xml") {
		text := p.Text
		for range 5 {
			text = wikiTemplate.ReplaceAllString(text, "")
		}
		text = html.UnescapeString(wikiRef.ReplaceAllString(html.UnescapeString(text), ""))
		text = wikiLink.ReplaceAllString(text, "$1")
		text = strings.NewReplacer("'''", "", "''", "").Replace(text)
		for line := range strings.SplitSeq(text, "\n") {
			if strings.HasPrefix(line, "|") || strings.HasPrefix(line, "<") || strings.HasPrefix(line, "*") {
				continue // infobox, table or list rows
			}
			for _, s := range end.Split(line, -1) {
				if s = strings.TrimSpace(s); kannadaNumber.MatchString(s) && len(Tokenize(s)) >= 8 {
					out = append(out, s+".")
				}
			}
		}
	}
	return out
}

// TestKannadaNumbersOnRealText changes each number written in Kannada
// digits in the real sentences of a Kannada page, one at a time: each
// change is a number or date fact whose values are the two numbers, and
// writing the number in ASCII digits instead changes no fact.
func TestKannadaNumbersOnRealText(t *testing.T) {
	sentences := kannadaSentences(t)
	if len(sentences) < 5 {
		t.Fatalf("only %d Kannada sentences with numbers: %q", len(sentences), sentences)
	}
	checked := 0
	for _, s := range sentences {
		for _, n := range numbers(s) {
			if n.Zero == '0' {
				continue
			}
			last, size := utf8.DecodeLastRuneInString(s[:n.End])
			v, _ := numeral.Value(last)
			changed := s[:n.End-size] + string(n.Zero+rune((v+1)%10)) + s[n.End:]
			a, b := Member{Context: "prose", Text: s}, Member{Context: "prose", Text: changed}
			got := Compare(a, b)
			if got.Kind != FactualDrift || len(got.Facts) != 1 || got.Facts[0].From != s[n.Start:n.End] ||
				got.Facts[0].To != changed[n.Start:n.End] || got.Facts[0].Type != FactNumber && got.Facts[0].Type != FactDate {
				t.Errorf("%q → %q: %s/%s with facts %+v", s[n.Start:n.End], changed[n.Start:n.End], got.Kind, got.Rule, got.Facts)
			}
			ascii := s[:n.Start] + n.ASCII + s[n.End:]
			if got := Compare(a, Member{Context: "prose", Text: ascii}); got.Kind != CopyEdit {
				t.Errorf("%q → %q: %s/%s with facts %+v, want copy_edit", s[n.Start:n.End], n.ASCII, got.Kind, got.Rule, got.Facts)
			}
			checked++
		}
	}
	t.Logf("%d numbers in %d sentences", checked, len(sentences))
	if checked < 10 {
		t.Errorf("only %d Kannada numbers checked", checked)
	}
}

// numbers returns the numbers of text that are not inside a word (the
// Kannada zero written for an anusvara, ತು೦ಗಾ, is a letter of its word).
func numbers(text string) []numeral.Number {
	var out []numeral.Number
	for i := 0; i < len(text); {
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		n, ok := numeral.Scan(text, i)
		if !ok || unicode.IsLetter(before) || unicode.IsMark(before) {
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
			continue
		}
		out = append(out, n)
		i = n.End
	}
	return out
}

// TestNumberValueDigitsOfEveryScript: a number's value is read from its
// digits in any script.
func TestNumberValueDigitsOfEveryScript(t *testing.T) {
	for _, tt := range []struct {
		tok  Token
		want float64
	}{
		{newToken("৮৭৪৯", KindNumber), 8749},
		{newToken("১,২৩৪.৫", KindNumber), 1234.5},
		{newToken("٤٠٫٤%", KindNumber), 40.4},
		{newToken("१९९०s", KindDate), 1990},
		{newToken("’೯೮", KindNumber), 98},
		{newToken("１２,７", KindNumber), 12.7},
	} {
		if got, ok := numberValue(tt.tok); !ok || got != tt.want {
			t.Errorf("numberValue(%q) = %v, %v; want %v", tt.tok.Text, got, ok, tt.want)
		}
	}
	// A year in two digits is the year in four, in any script.
	a := Member{Context: "prose", Text: "দলটি ’৯৮ সালে তাদের প্রথম অ্যালবাম প্রকাশ করে এবং ভালো সমালোচনা পায়।"}
	b := Member{Context: "prose", Text: "দলটি ১৯৯৮ সালে তাদের প্রথম অ্যালবাম প্রকাশ করে এবং ভালো সমালোচনা পায়।"}
	if got := Compare(a, b); got.Kind != CopyEdit {
		t.Errorf("’৯৮ and ১৯৯৮: %s/%s with facts %+v, want copy_edit", got.Kind, got.Rule, got.Facts)
	}
}
