package wikitext

import (
	"strconv"
	"strings"
	"unicode"
)

// The text of the value templates (render.go), from their arguments
// already cleaned: pure functions of strings.

// rangeWords are what {{convert}} shows for the words that join the values
// of a range ({{convert|10|to|20|km}}).
var rangeWords = map[string]string{
	"-": "–", "–": "–", "to": " to ", "to(-)": " to ", "and": " and ", "and(-)": " and ",
	"or": " or ", "x": " × ", "×": " × ", "by": " × ", "+/-": " ± ", "±": " ± ", "+": " + ",
	",": ", ", "&": " & ",
}

// compoundUnits are the units that {{convert}} takes as the first of two
// ({{convert|6|ft|1|in}}: "6 ft 1 in").
var compoundUnits = map[string]bool{"ft": true, "st": true, "lb": true, "mi": true, "yd": true, "m": true}

// convertText is {{convert}}'s input as MediaWiki shows it: the value or
// range, its integer part grouped by thousands, and the first unit by its
// symbol; the converted values are left out.
func convertText(p []string, units map[string]string, group string) string {
	if len(p) == 0 || p[0] == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(groupDigits(p[0], group, 4))
	i := 1
	for i+1 < len(p) && rangeWords[p[i]] != "" && isNumber(p[i+1]) {
		b.WriteString(rangeWords[p[i]])
		b.WriteString(groupDigits(p[i+1], group, 4))
		i += 2
	}
	if i < len(p) && p[i] != "" {
		b.WriteString(" ")
		b.WriteString(unitSymbol(p[i], units))
		if compoundUnits[p[i]] && i+2 < len(p) && isNumber(p[i+1]) && p[i+2] != "" && !isNumber(p[i+2]) {
			b.WriteString(" " + p[i+1] + " " + unitSymbol(p[i+2], units))
		}
	}
	return b.String()
}

func unitSymbol(code string, units map[string]string) string {
	if sym, ok := units[code]; ok {
		return sym
	}
	return code
}

// isNumber reports whether s is a number as templates take it: optional
// sign, digits of any script, '.' or ',' between them, an optional
// fraction "+1/2" or exponent "e6".
func isNumber(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "−")
	digits := 0
	for _, r := range s {
		switch {
		case isDecimalDigit(r):
			digits++
		case r == '.' || r == ',' || r == '+' || r == '/' || r == 'e' || r == 'E':
		default:
			return false
		}
	}
	return digits > 0
}

// groupDigits groups the integer part of an unsigned ASCII decimal number by
// thousands with sep, when it has at least min digits; anything else is
// returned as it is.
func groupDigits(s, sep string, min int) string {
	sign := ""
	for _, minus := range []string{"-", "−"} {
		if strings.HasPrefix(s, minus) {
			sign, s = minus, s[len(minus):]
			break
		}
	}
	intPart, frac, hasFrac := strings.Cut(s, ".")
	if intPart == "" || len(intPart) < min || !allASCIIDigits(intPart) || hasFrac && !allASCIIDigits(frac) {
		return sign + s
	}
	var b strings.Builder
	b.WriteString(sign)
	for i := range len(intPart) {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteByte(intPart[i])
	}
	if hasFrac {
		b.WriteString(".")
		b.WriteString(frac)
	}
	return b.String()
}

func allASCIIDigits(s string) bool {
	for i := range len(s) {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// valText is {{val}}: prefix, number, uncertainty, exponent, unit and unit
// per, suffix.
func valText(p []string, arg func(string) string) string {
	if len(p) == 0 || p[0] == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(arg("p"))
	b.WriteString(p[0])
	switch {
	case len(p) >= 3 && p[1] != "" && p[2] != "":
		b.WriteString("+" + strings.TrimPrefix(p[1], "+") + "−" + strings.TrimLeft(p[2], "-−"))
	case len(p) >= 2 && p[1] != "":
		if strings.HasPrefix(p[1], "(") {
			b.WriteString(p[1])
		} else {
			b.WriteString(" ± " + p[1])
		}
	}
	if e := arg("e"); e != "" {
		b.WriteString("×10" + e)
	}
	if u := firstOf(arg("u"), arg("ul")); u != "" {
		b.WriteString(" " + u)
	}
	if up := firstOf(arg("up"), arg("upl")); up != "" {
		b.WriteString("/" + up)
	}
	b.WriteString(arg("s"))
	return b.String()
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// fracText is {{frac}}: "/4" for one argument, "1/4", "3 1/4".
func fracText(p []string) string {
	switch len(p) {
	case 0:
		return ""
	case 1:
		return "1/" + p[0]
	case 2:
		return p[0] + "/" + p[1]
	}
	return p[0] + " " + p[1] + "/" + p[2]
}

// shipText is {{ship}}: "HMS Exeter (68)".
func shipText(p []string) string {
	out := strings.TrimSpace(strings.Join(p[:min(len(p), 2)], " "))
	if len(p) > 2 && p[2] != "" {
		out += " (" + p[2] + ")"
	}
	return out
}

// heightText is {{height}}: metres, centimetres, or feet and inches.
func heightText(arg func(string) string) string {
	var parts []string
	for _, u := range []string{"m", "cm", "ft", "in"} {
		if v := arg(u); v != "" {
			parts = append(parts, v+" "+u)
		}
	}
	return strings.Join(parts, " ")
}

// dateText is a date template's date: year, month, day from the first
// three arguments (or one ISO date), in the language's order (dates.txt);
// with aged, "(aged N)" from the birth date in arguments 4-6 follows in
// English.
func dateText(p []string, arg func(string) string, st *dateStyle, aged bool, lang string) string {
	if len(p) == 1 {
		if y, m, d, ok := isoDate(p[0]); ok {
			p = []string{y, m, d}
		}
	}
	if len(p) == 0 || p[0] == "" {
		return ""
	}
	y, m, d := p[0], "", ""
	if len(p) > 1 {
		m = p[1]
	}
	if len(p) > 2 {
		d = p[2]
	}
	if len(y) <= 2 && len(d) >= 3 && allASCIIDigits(y) && allASCIIDigits(d) {
		// Day first, as the French {{date|11|novembre|1866}}.
		y, d = d, y
	}
	order := st.order
	if df := strings.ToLower(arg("df")); st.dmy != "" && (df == "y" || df == "yes") {
		order = st.dmy
	}
	out := formatDate(order, st.months, y, m, d)
	if aged && len(p) >= 6 && lang == "en" {
		if age, ok := ageAt(p[:3], p[3:6]); ok {
			out += " (aged " + strconv.Itoa(age) + ")"
		}
	}
	return out
}

// isoDate splits "2001-09-11" into its parts.
func isoDate(s string) (y, m, d string, ok bool) {
	parts := strings.Split(s, "-")
	if len(parts) != 3 || len(parts[0]) != 4 || !allASCIIDigits(parts[0]) || !allASCIIDigits(parts[1]) || !allASCIIDigits(parts[2]) {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[2], true
}

// formatDate writes a date by order (Y year, D day, M month name, N month
// number; other characters as they are). Without a day, the day and the
// text that goes with it are left out; without a month, the year alone
// is the date. A language without an order writes Y-MM-DD.
func formatDate(order string, months []string, y, m, d string) string {
	num, isNum := monthNumber(m)
	if m == "" {
		return y
	}
	if order == "" {
		if !isNum || !allASCIIDigits(d) && d != "" {
			return strings.TrimSpace(y + " " + m + " " + d)
		}
		out := y + "-" + twoDigits(num)
		if d != "" {
			n, _ := strconv.Atoi(d)
			out += "-" + twoDigits(n)
		}
		return out
	}
	name := m
	if isNum && num >= 1 && num <= 12 && len(months) == 12 {
		name = months[num-1]
	}
	if isNum {
		m = strconv.Itoa(num)
	}
	if d != "" {
		if n, err := strconv.Atoi(d); err == nil {
			d = strconv.Itoa(n)
		}
	} else {
		order = withoutDay(order)
	}
	var b strings.Builder
	for _, r := range order {
		switch r {
		case 'Y':
			b.WriteString(y)
		case 'D':
			b.WriteString(d)
		case 'M':
			b.WriteString(name)
		case 'N':
			b.WriteString(m)
		default:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}

// withoutDay removes the day and the text after it from a date order, or
// the text before it when the day comes first after words of its own
// ("ngày D tháng N năm Y").
func withoutDay(order string) string {
	i := strings.IndexByte(order, 'D')
	if i < 0 {
		return order
	}
	next := strings.IndexAny(order[i+1:], "YMN")
	if next < 0 {
		next = len(order) - i - 1
	}
	if i > 0 && !strings.ContainsAny(order[:i], "YMN") {
		return order[i+1:]
	}
	return order[:i] + order[i+1+next:]
}

func monthNumber(m string) (int, bool) {
	n, err := strconv.Atoi(m)
	return n, err == nil && n >= 1 && n <= 12
}

func twoDigits(n int) string {
	if n < 10 && n >= 0 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// ageAt returns the age in whole years at date at of someone born at born,
// both year, month, day.
func ageAt(at, born []string) (int, bool) {
	var v [6]int
	for i, s := range append(append([]string{}, at...), born...) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, false
		}
		v[i] = n
	}
	age := v[0] - v[3]
	if v[1] < v[4] || v[1] == v[4] && v[2] < v[5] {
		age--
	}
	return age, age >= 0
}

// isDecimalDigit reports whether r is a decimal digit of any script
// (Unicode category Nd).
func isDecimalDigit(r rune) bool {
	if r < 0x80 {
		return '0' <= r && r <= '9'
	}
	return unicode.IsDigit(r)
}
