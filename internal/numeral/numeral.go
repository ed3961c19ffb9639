// Package numeral reads the decimal digits of every script as numbers.
//
// Unicode gives decimal digits (general category Nd) to some seventy
// scripts: 0–9, Arabic-Indic ٠–٩, Devanagari ०–९, Bengali ০–৯, Kannada
// ೦–೯, Thai ๐–๙, full-width ０–９ and others. A figure written in any of
// them is a figure: "৮৭৪৯" is 8749, and a sentence whose ৮৭৪৮ became ৮৭৪৯
// changed a number, not its punctuation. The stages that compare facts
// read numbers here, so that every script's digits have their value and
// one number compares equal however it is written.
//
// Unicode lays out each script's decimal digits as one contiguous run of
// ten, zero first (the Unicode Standard, 4.6 Numeric Value), so a digit's
// value is its distance from its zero; the tests check that over the whole
// of unicode.Nd.
package numeral

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsDigit reports whether r is a decimal digit of any script (unicode.Nd),
// as unicode.IsDigit does, with ASCII answered first.
func IsDigit(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	_, ok := zero(r)
	return ok
}

// Value returns the value (0–9) of the decimal digit r of any script.
func Value(r rune) (int, bool) {
	if r < utf8.RuneSelf {
		return int(r - '0'), '0' <= r && r <= '9'
	}
	z, ok := zero(r)
	return int(r - z), ok
}

// Zero returns the zero of the decimal digit r: the digit of the same
// script whose value is 0 ('0' for '7', '০' for '৭').
func Zero(r rune) (rune, bool) {
	if r < utf8.RuneSelf {
		return '0', '0' <= r && r <= '9'
	}
	return zero(r)
}

// zero finds the run of unicode.Nd that holds r, by binary search over its
// ranges (stride 1, each a whole number of runs of ten).
func zero(r rune) (rune, bool) {
	if r < 0x660 { // the first digits after ASCII: Arabic-Indic
		return 0, false
	}
	if r <= 0xffff {
		rs := unicode.Nd.R16
		i := sort.Search(len(rs), func(i int) bool { return rune(rs[i].Hi) >= r })
		if i == len(rs) || r < rune(rs[i].Lo) {
			return 0, false
		}
		lo := rune(rs[i].Lo)
		return r - (r-lo)%10, true
	}
	rs := unicode.Nd.R32
	i := sort.Search(len(rs), func(i int) bool { return rune(rs[i].Hi) >= r })
	if i == len(rs) || r < rune(rs[i].Lo) {
		return 0, false
	}
	lo := rune(rs[i].Lo)
	return r - (r-lo)%10, true
}

// Number is a number of a text: a run of digits of one script, with "." or
// "," between two of them (4.5, 1,000, 12,7), and the Arabic decimal and
// thousands separators '٫' and '٬' read as "." and ",".
type Number struct {
	Start, End int // the number as written: text[Start:End]
	// Zero is the zero of its digits' script: '0', '০', '०', '٠'…
	Zero rune
	// ASCII is the number written with the digits 0–9, and '.' and ','
	// for its separators, as written: "8749" for "৮৭৪৯", "1,000" for
	// "١٬٠٠٠". Two numbers with the same value in any scripts have the
	// same ASCII form; it is a string, so no run of digits overflows.
	ASCII string
}

// Scan reads the number that starts at text[i]. It returns false if
// text[i] does not start a decimal digit. The run ends at the first rune
// that is neither a digit of the same script nor a separator followed by
// one: "৮৭8" is the number "৮৭" followed by the number "8".
func Scan(text string, i int) (Number, bool) {
	if i < len(text) && '0' <= text[i] && text[i] <= '9' {
		end := scanASCII(text, i)
		if !arabicSeparatorAt(text, end) {
			return Number{Start: i, End: end, Zero: '0', ASCII: text[i:end]}, true
		}
		var b strings.Builder
		b.WriteString(text[i:end])
		end = scanRunes(&b, text, end, '0')
		return Number{Start: i, End: end, Zero: '0', ASCII: b.String()}, true
	}
	r, size := utf8.DecodeRuneInString(text[i:])
	z, ok := Zero(r)
	if !ok {
		return Number{}, false
	}
	var b strings.Builder
	b.WriteByte(byte('0' + r - z))
	end := scanRunes(&b, text, i+size, z)
	return Number{Start: i, End: end, Zero: z, ASCII: b.String()}, true
}

// scanRunes reads on from text[j] the digits of zero z and the separators
// between them, writing their ASCII form to b, and returns where the
// number ends.
func scanRunes(b *strings.Builder, text string, j int, z rune) int {
	for j < len(text) {
		r, size := utf8.DecodeRuneInString(text[j:])
		if v := r - z; 0 <= v && v <= 9 {
			b.WriteByte(byte('0' + v))
			j += size
			continue
		}
		sep, ok := separator(r)
		if !ok {
			return j
		}
		next, nsize := utf8.DecodeRuneInString(text[j+size:])
		v := next - z
		if v < 0 || v > 9 {
			return j
		}
		b.WriteByte(sep)
		b.WriteByte(byte('0' + v))
		j += size + nsize
	}
	return j
}

// scanASCII returns the end of the ASCII number starting at text[i].
func scanASCII(text string, i int) int {
	for i < len(text) {
		switch c := text[i]; {
		case '0' <= c && c <= '9':
			i++
		case (c == '.' || c == ',') && i+1 < len(text) && '0' <= text[i+1] && text[i+1] <= '9':
			i += 2
		default:
			return i
		}
	}
	return i
}

// arabicSeparatorAt reports whether text[j:] starts with an Arabic
// separator before an ASCII digit (1٫5).
func arabicSeparatorAt(text string, j int) bool {
	if j == len(text) || text[j] < utf8.RuneSelf {
		return false
	}
	r, size := utf8.DecodeRuneInString(text[j:])
	if _, ok := separator(r); !ok || j+size == len(text) {
		return false
	}
	return '0' <= text[j+size] && text[j+size] <= '9'
}

// separator returns the ASCII form of a separator between digits.
func separator(r rune) (byte, bool) {
	switch r {
	case '.', '٫': // U+066B ARABIC DECIMAL SEPARATOR
		return '.', true
	case ',', '٬': // U+066C ARABIC THOUSANDS SEPARATOR
		return ',', true
	}
	return 0, false
}

// ASCII returns s with every decimal digit written as the ASCII digit of
// its value and the Arabic separators as "." and ","; every other byte is
// kept, invalid UTF-8 included. It returns s itself when there is nothing
// to rewrite.
func ASCII(s string) string {
	i := indexNonASCII(s)
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if c, ok := asciiOf(r); ok && r >= utf8.RuneSelf {
			b = append(b, c)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// indexNonASCII returns the index of the first digit or separator of s
// that is not ASCII, or -1.
func indexNonASCII(s string) int {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if _, ok := asciiOf(r); ok {
			return i
		}
		i += size
	}
	return -1
}

// asciiOf returns the ASCII digit or separator that a non-ASCII rune
// stands for.
func asciiOf(r rune) (byte, bool) {
	if v, ok := Value(r); ok {
		return byte('0' + v), true
	}
	return separator(r)
}
