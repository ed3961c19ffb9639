package main

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Flags say how a sentence shows a lost fact.
type Flags uint8

const (
	// SpaceBeforeStop: the sentence ends in a space and a terminator
	// ("rise to almost ."): something that stood before the full stop was
	// dropped.
	SpaceBeforeStop Flags = 1 << iota
	// EmptyBrackets: "()", "( )", "(, )", "[]": what the brackets held was
	// dropped.
	EmptyBrackets
	// UnitWithoutValue: a unit of measure with no number before it
	// ("about °C", "72 m2" → "m2").
	UnitWithoutValue
	// Navigation: a row of short items separated by "|", "-", "·" or "•",
	// or a lone number, taken for a sentence.
	Navigation
)

// String lists the flags by short names, "-" for none.
func (f Flags) String() string {
	if f == 0 {
		return "-"
	}
	var names []string
	for i, n := range []string{"stop", "brackets", "unit", "nav"} {
		if f&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, ",")
}

// Count tallies sentences by Flags.
type Count struct {
	Sentences, SpaceBeforeStop, EmptyBrackets, UnitWithoutValue, Navigation, Lost int
}

func (c *Count) addSentence(f Flags) {
	c.Sentences++
	if f&SpaceBeforeStop != 0 {
		c.SpaceBeforeStop++
	}
	if f&EmptyBrackets != 0 {
		c.EmptyBrackets++
	}
	if f&UnitWithoutValue != 0 {
		c.UnitWithoutValue++
	}
	if f&Navigation != 0 {
		c.Navigation++
	}
	if f&(SpaceBeforeStop|EmptyBrackets|UnitWithoutValue) != 0 {
		c.Lost++
	}
}

func (c *Count) add(o Count) {
	c.Sentences += o.Sentences
	c.SpaceBeforeStop += o.SpaceBeforeStop
	c.EmptyBrackets += o.EmptyBrackets
	c.UnitWithoutValue += o.UnitWithoutValue
	c.Navigation += o.Navigation
	c.Lost += o.Lost
}

func (c Count) print(name string) {
	fmt.Printf("| %s | %d | %d | %d | %d | %d | %d |\n", name, c.Sentences, c.SpaceBeforeStop, c.EmptyBrackets, c.UnitWithoutValue, c.Navigation, c.Lost)
}

// Check returns the flags of a sentence.
func Check(s string) Flags {
	var f Flags
	if endsWithSpaceBeforeStop(s) {
		f |= SpaceBeforeStop
	}
	if hasEmptyBrackets(s) {
		f |= EmptyBrackets
	}
	if hasUnitWithoutValue(s) {
		f |= UnitWithoutValue
	}
	if isNavigation(s) {
		f |= Navigation
	}
	return f
}

func endsWithSpaceBeforeStop(s string) bool {
	r, n := utf8.DecodeLastRuneInString(s)
	if !unicode.Is(unicode.Sentence_Terminal, r) {
		return false
	}
	return strings.HasSuffix(s[:len(s)-n], " ")
}

// hasEmptyBrackets reports an opening bracket followed, after only spaces
// and separators, by its closing one.
func hasEmptyBrackets(s string) bool {
	for i, r := range s {
		closer, ok := map[rune]rune{'(': ')', '[': ']', '（': '）'}[r]
		if !ok {
			continue
		}
		rest := s[i+utf8.RuneLen(r):]
		j := strings.IndexFunc(rest, func(c rune) bool { return !strings.ContainsRune(" ,;:–-", c) })
		if j >= 0 && []rune(rest[j:])[0] == closer {
			return true
		}
	}
	return false
}

// units are symbols that a rendered value puts after its number; "ha" and
// "mi" are left out, as words of too many languages ("ha tenido", "mi ne").
var units = map[string]bool{
	"°C": true, "°F": true, "km": true, "km2": true, "km²": true, "m2": true, "m²": true,
	"sq mi": true, "kg": true, "lb": true, "ft": true, "cm": true, "mm": true, "mph": true, "km/h": true,
	"kW": true, "MW": true, "m3": true, "m³": true,
}

// hasUnitWithoutValue reports a unit symbol with no number among the three
// words before it ("93,000 sq ft", "3.5 million km2" have one) that is not
// a rate ("per km2").
func hasUnitWithoutValue(s string) bool {
	words := strings.Fields(s)
	for i, w := range words {
		w = strings.TrimRight(w, ".,;:)!?")
		if !units[w] {
			continue
		}
		if i > 0 && (words[i-1] == "per" || strings.HasSuffix(words[i-1], "/")) {
			continue
		}
		valued := false
		for k := max(0, i-3); k < i; k++ {
			if strings.IndexFunc(words[k], func(r rune) bool { return unicode.IsDigit(r) || strings.ContainsRune("½¼¾", r) }) >= 0 {
				valued = true
			}
		}
		if !valued {
			return true
		}
	}
	return false
}

// isNavigation reports a row of four or more short items separated by
// "|", " - ", "·" or "•", or a sentence of digits and punctuation only.
func isNavigation(s string) bool {
	if strings.IndexFunc(s, unicode.IsLetter) < 0 {
		return true
	}
	for _, sep := range []string{"|", " - ", " – ", "·", "•"} {
		items := strings.Split(s, sep)
		if len(items) < 4 {
			continue
		}
		short := 0
		for _, it := range items {
			if len(strings.Fields(it)) <= 3 {
				short++
			}
		}
		if short*4 >= len(items)*3 {
			return true
		}
	}
	return false
}
