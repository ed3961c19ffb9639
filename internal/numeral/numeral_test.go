package numeral

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/runenames"
)

// TestValueOverUnicodeNd checks the layout Value relies on over the whole
// of unicode.Nd: every range has stride 1 and a whole number of runs of
// ten, and each rune's Unicode name is "… DIGIT <its value>" ("BENGALI
// DIGIT EIGHT" for ৮), so every script's digits run zero first.
func TestValueOverUnicodeNd(t *testing.T) {
	names := []string{"ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"}
	var ranges [][3]rune
	for _, r := range unicode.Nd.R16 {
		ranges = append(ranges, [3]rune{rune(r.Lo), rune(r.Hi), rune(r.Stride)})
	}
	for _, r := range unicode.Nd.R32 {
		ranges = append(ranges, [3]rune{rune(r.Lo), rune(r.Hi), rune(r.Stride)})
	}
	digits := 0
	for _, rg := range ranges {
		lo, hi, stride := rg[0], rg[1], rg[2]
		if stride != 1 || (hi-lo+1)%10 != 0 {
			t.Errorf("Nd range %U–%U stride %d: not whole runs of ten", lo, hi, stride)
			continue
		}
		for r := lo; r <= hi; r++ {
			digits++
			v, ok := Value(r)
			z, zok := Zero(r)
			if !ok || !zok || !IsDigit(r) || z+rune(v) != r {
				t.Fatalf("%U: Value %d %v, Zero %U %v, IsDigit %v", r, v, ok, z, zok, IsDigit(r))
			}
			if name := runenames.Name(r); !strings.HasSuffix(name, "DIGIT "+names[v]) {
				t.Errorf("%U %q: Value %d", r, name, v)
			}
		}
	}
	if digits < 600 {
		t.Errorf("only %d digits in unicode.Nd", digits)
	}
	// Every other rune of the planes that hold digits is not one.
	for r := rune(0); r < 0x20000; r++ {
		if _, ok := Value(r); ok != unicode.Is(unicode.Nd, r) || IsDigit(r) != ok {
			t.Fatalf("%U: Value ok %v, IsDigit %v, in Nd %v", r, ok, IsDigit(r), unicode.Is(unicode.Nd, r))
		}
	}
}

// TestZeroToNine reads zero to nine in a number of scripts.
func TestZeroToNine(t *testing.T) {
	for _, digits := range []string{
		"0123456789", "٠١٢٣٤٥٦٧٨٩", "۰۱۲۳۴۵۶۷۸۹", "०१२३४५६७८९", "০১২৩৪৫৬৭৮৯",
		"੦੧੨੩੪੫੬੭੮੯", "૦૧૨૩૪૫૬૭૮૯", "୦୧୨୩୪୫୬୭୮୯", "௦௧௨௩௪௫௬௭௮௯", "౦౧౨౩౪౫౬౭౮౯",
		"೦೧೨೩೪೫೬೭೮೯", "൦൧൨൩൪൫൬൭൮൯", "๐๑๒๓๔๕๖๗๘๙", "໐໑໒໓໔໕໖໗໘໙", "༠༡༢༣༤༥༦༧༨༩",
		"၀၁၂၃၄၅၆၇၈၉", "០១២៣៤៥៦៧៨៩", "᠐᠑᠒᠓᠔᠕᠖᠗᠘᠙", "０１２３４５６７８９", "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗",
		"𝟘𝟙𝟚𝟛𝟜𝟝𝟞𝟟𝟠𝟡", "𞥐𞥑𞥒𞥓𞥔𞥕𞥖𞥗𞥘𞥙",
	} {
		runes := []rune(digits)
		for want, r := range runes {
			if v, ok := Value(r); !ok || v != want {
				t.Errorf("Value(%q) = %d, %v; want %d", r, v, ok, want)
			}
			if z, _ := Zero(r); z != runes[0] {
				t.Errorf("Zero(%q) = %q; want %q", r, z, runes[0])
			}
		}
		if n, ok := Scan(digits, 0); !ok || n.End != len(digits) || n.ASCII != "0123456789" || n.Zero != runes[0] {
			t.Errorf("Scan(%q) = %+v, %v", digits, n, ok)
		}
		if got := ASCII(digits); got != "0123456789" {
			t.Errorf("ASCII(%q) = %q", digits, got)
		}
	}
}

// TestNotDigits checks runes that are numeric but not decimal digits, or
// look like digits.
func TestNotDigits(t *testing.T) {
	for _, r := range []rune{'/', ':', 'a', 'O', '²', '½', '①', 'Ⅻ', '٪', '٫', '〇', '零', '৴', '௰', 'ॐ', -1, 0x10FFFF + 1} {
		if _, ok := Value(r); ok || IsDigit(r) {
			t.Errorf("%q (%U) read as a digit", r, r)
		}
		if _, ok := Scan(string(r), 0); ok {
			t.Errorf("Scan(%q) found a number", string(r))
		}
	}
}

func TestScan(t *testing.T) {
	for _, c := range []struct {
		text  string
		at    int
		want  string // the number as written
		ascii string
	}{
		{"8749 people", 0, "8749", "8749"},
		{"৮৭৪৯ জন", 0, "৮৭৪৯", "8749"},
		{"জনসংখ্যা ৮৭৪৮।", len("জনসংখ্যা "), "৮৭৪৮", "8748"},
		{"१९४७ साली", 0, "१९४७", "1947"},
		{"४०.४% भाग", 0, "४०.४", "40.4"},
		{"1,000,000.", 0, "1,000,000", "1,000,000"},
		{"১,২৩৪,৫৬৭ টাকা", 0, "১,২৩৪,৫৬৭", "1,234,567"},
		{"١٬٢٣٤٫٥ كم", 0, "١٬٢٣٤٫٥", "1,234.5"},
		{"12,7 °C", 0, "12,7", "12,7"},
		{"3.", 0, "3", "3"},              // a full stop, not a decimal point
		{"৩.৫.", 0, "৩.৫", "3.5"},        // the last stop ends the sentence
		{"৩, ৫", 0, "৩", "3"},            // a comma before a space
		{"৮৭8", 0, "৮৭", "87"},           // mixed scripts are two numbers
		{"৮৭8", len("৮৭"), "8", "8"},     // … the second one
		{"12৩", 0, "12", "12"},           // ASCII then Bengali
		{"1٫5", 0, "1٫5", "1.5"},         // ASCII digits, Arabic decimal separator
		{"1٫x", 0, "1", "1"},             // a separator not followed by a digit
		{"৫,5", 0, "৫", "5"},             // a separator followed by another script's digit
		{"２０２６年", 0, "２０２６", "2026"},     // full-width
		{"೨೦೧೧ರಲ್ಲಿ", 0, "೨೦೧೧", "2011"}, // Kannada, a suffix joined
		{"𝟏𝟐 and 𝟭𝟮", 0, "𝟏𝟐", "12"},     // mathematical bold
		{"๒๕๖๙\xff", 0, "๒๕๖๙", "2569"},  // Thai before invalid UTF-8
		{"7\xff", 0, "7", "7"},
	} {
		n, ok := Scan(c.text, c.at)
		if !ok || c.text[n.Start:n.End] != c.want || n.Start != c.at || n.ASCII != c.ascii {
			t.Errorf("Scan(%q, %d) = %q %+v, %v; want %q, %q", c.text, c.at, c.text[n.Start:n.End], n, ok, c.want, c.ascii)
		}
	}
}

// TestHugeRun checks that a run of digits longer than any integer keeps
// every digit.
func TestHugeRun(t *testing.T) {
	bengali := strings.Repeat("৯৮৭৬৫৪৩২১০", 100)
	n, ok := Scan(bengali+" টাকা", 0)
	if want := strings.Repeat("9876543210", 100); !ok || n.ASCII != want || n.End != len(bengali) {
		t.Errorf("Scan of 1000 Bengali digits: %d digits, end %d, %v", len(n.ASCII), n.End, ok)
	}
}

func TestASCII(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"plain 42", "plain 42"},
		{"জনসংখ্যা ৮৭৪৮ থেকে ৮৭৪৯", "জনসংখ্যা 8748 থেকে 8749"},
		{"१,२३४.५", "1,234.5"},
		{"١٬٢٣٤٫٥", "1,234.5"},
		{"Ελλάδα 1821", "Ελλάδα 1821"},
		{"bad \xff ৫ \xfe", "bad \xff 5 \xfe"},
		{"²½①", "²½①"},
	} {
		if got := ASCII(c.in); got != c.want {
			t.Errorf("ASCII(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

func BenchmarkScanASCII(b *testing.B) {
	text := "Of the agricultural land 40.4% is used for growing crops and 1,234,567 m2"
	for b.Loop() {
		for i := range len(text) {
			Scan(text, i)
		}
	}
}

// FuzzScan checks, for any text and position, that a number read is a
// run of one script's digits and separators, each separator between two
// digits, whose ASCII form is ASCII of its text; and that no digit starts
// a run Scan refuses.
func FuzzScan(f *testing.F) {
	f.Add("জনসংখ্যা ৮৭৪৮ জন।", 18)
	f.Add("1,000.5 and ١٬٢٣٤٫٥", 12)
	f.Add("৮৭8\xff", 0)
	f.Fuzz(func(t *testing.T, text string, i int) {
		if len(text) == 0 {
			return
		}
		i = int(uint(i) % uint(len(text)))
		r, _ := utf8.DecodeRuneInString(text[i:])
		n, ok := Scan(text, i)
		if ok != IsDigit(r) {
			t.Fatalf("Scan(%q, %d) ok %v, IsDigit(%q) %v", text, i, ok, r, IsDigit(r))
		}
		if !ok {
			return
		}
		run := text[n.Start:n.End]
		if n.Start != i || n.End <= i || ASCII(run) != n.ASCII {
			t.Fatalf("Scan(%q, %d) = %+v; ASCII of %q is %q", text, i, n, run, ASCII(run))
		}
		digits := []rune(run)
		for k, d := range digits {
			if v := d - n.Zero; 0 <= v && v <= 9 {
				continue
			}
			if _, sep := separator(d); !sep || k == 0 || k == len(digits)-1 {
				t.Fatalf("Scan(%q, %d) = %q: %q is neither a digit of %q nor a separator between two", text, i, run, d, n.Zero)
			}
		}
		if strings.Trim(n.ASCII, "0123456789.,") != "" {
			t.Fatalf("ASCII form %q", n.ASCII)
		}
		if next, _ := utf8.DecodeRuneInString(text[n.End:]); next-n.Zero >= 0 && next-n.Zero <= 9 {
			t.Fatalf("Scan(%q, %d) stopped before the digit %q", text, i, next)
		}
	})
}
