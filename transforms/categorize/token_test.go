package categorize

import (
	"slices"
	"strings"
	"testing"
)

// toks builds tokens from "text/kind" pairs; kinds are abbreviated p, w, n
// (name), d, # (number), t.
func toks(spec ...string) []Token {
	kinds := map[string]TokenKind{"p": KindPunct, "w": KindWord, "n": KindName, "d": KindDate, "#": KindNumber, "t": KindTitle}
	out := make([]Token, len(spec))
	for i, s := range spec {
		j := strings.LastIndexByte(s, '/')
		out[i] = newToken(s[:j], kinds[s[j+1:]])
	}
	return out
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		text string
		want []Token
	}{
		{"", nil},
		{" \t\n", nil},
		{"Of the agricultural land 40.4% is used", toks("Of/w", "the/w", "agricultural/w", "land/w", "40.4%/#", "is/w", "used/w")},
		{"Bulgaria, a nation of 7 million", toks("Bulgaria/n", ",/p", "a/w", "nation/w", "of/w", "7/#", "million/w")},
		{"In May 2008, the U.S. Army paid $1,000 (3rd time).", toks("In/w", "May/d", "2008/d", ",/p", "the/w", "U.S./n", "Army/n", "paid/w", "$/p", "1,000/#", "(/p", "3rd/#", "time/w", ")/p", "./p")},
		{"Springer-Verlag, Berlin, 2006.", toks("Springer-Verlag/n", ",/p", "Berlin/n", ",/p", "2006/d", "./p")},
		{"It may rain. May I? The 1990s saw twenty-one storms; Wikipedia's e.g. case", toks("It/w", "may/w", "rain/w", "./p", "May/w", "I/w", "?/p", "The/w", "1990s/d", "saw/w", "twenty-one/#", "storms/w", ";/p", "Wikipedia's/n", "e.g./w", "case/w")},
		{"Neotropical Ichthyology 11 (1): 73-80.", toks("Neotropical/n", "Ichthyology/n", "11/#", "(/p", "1/#", ")/p", ":/p", "73/#", "-/p", "80/#", "./p")},
		{"Komjáth Péter: Problems and Theorems", toks("Komjáth/n", "Péter/n", ":/p", "Problems/n", "and/w", "Theorems/n")},
		{"Bruce E. and end.The 2100 5th-century 2.", toks("Bruce/n", "E/n", "./p", "and/w", "end/w", "./p", "The/w", "2100/#", "5th/#", "-/p", "century/w", "2/#", "./p")},
		{"Two nine Nine one", toks("Two/#", "nine/#", "Nine/#", "one/w")},
		{"Inspired by Reading. Located Reading in", toks("Inspired/w", "by/w", "Reading/n", "./p", "Located/n", "Reading/n", "in/w")},
		{"a\xffb", []Token{newToken("a", KindWord), newToken("\xff", KindPunct), newToken("b", KindWord)}},
	}
	for _, tt := range tests {
		if got := Tokenize(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Tokenize(%q) =\n  %v\nwant\n  %v", tt.text, got, tt.want)
		}
	}
}

func TestNumberValue(t *testing.T) {
	tests := []struct {
		tok  Token
		want float64
		ok   bool
	}{
		{newToken("7", KindNumber), 7, true},
		{newToken("4.5", KindNumber), 4.5, true},
		{newToken("1,000", KindNumber), 1000, true},
		{newToken("40.4%", KindNumber), 40.4, true},
		{newToken("3rd", KindNumber), 3, true},
		{newToken("1990s", KindDate), 1990, true},
		{newToken("nine", KindNumber), 9, true},
		{newToken("Twenty-One", KindNumber), 21, true},
		{newToken("seven", KindWord), 0, false},
		{newToken("Paris", KindName), 0, false},
	}
	for _, tt := range tests {
		got, ok := numberValue(tt.tok)
		if got != tt.want || ok != tt.ok {
			t.Errorf("numberValue(%v) = %v, %v; want %v, %v", tt.tok, got, ok, tt.want, tt.ok)
		}
	}
	for _, w := range []string{"one", "twenty-ten", "ten-one", "forty-", "-five", "hundred"} {
		if v, ok := numberWordValue(w); ok {
			t.Errorf("numberWordValue(%q) = %d, true; want false", w, v)
		}
	}
}

func TestIsVariant(t *testing.T) {
	tests := []struct {
		x, y Token
		want bool
	}{
		{newToken("County", KindName), newToken("Counties", KindName), true},
		{newToken("MRE's", KindName), newToken("MREs", KindName), true},
		{newToken("Katrina", KindTitle), newToken("Katrina's", KindName), true},
		{newToken("9", KindNumber), newToken("nine", KindNumber), true},
		{newToken("Two", KindNumber), newToken("2", KindNumber), true},
		{newToken("Austria", KindName), newToken("Australia", KindName), false},
		{newToken("Iran", KindName), newToken("Iraq", KindName), false},
		{newToken("Bush", KindName), newToken("Obama", KindName), false},
		{newToken("Lee's", KindName), newToken("Lee", KindName), true},
		{newToken("States’", KindName), newToken("States", KindName), true},
		{newToken("1913", KindDate), newToken("1912", KindDate), false},
		{newToken("7", KindNumber), newToken("seven", KindWord), false},
		{newToken(",", KindPunct), newToken(",", KindPunct), false},
	}
	for _, tt := range tests {
		if got := isVariant(tt.x, tt.y); got != tt.want {
			t.Errorf("isVariant(%v, %v) = %v, want %v", tt.x, tt.y, got, tt.want)
		}
	}
}

func TestDropVariants(t *testing.T) {
	tests := []struct {
		a, b             string
		wantRem, wantAdd []string
	}{
		{"Federal Emergency Management Agency", "FEMA", nil, nil},
		{"Department of Health and Human Services", "DHHS", nil, nil},
		{"US", "United States", nil, nil},
		{"the Federal Agency", "FA", []string{"the"}, nil},
		{"Hancock Counties", "County", []string{"Hancock"}, nil},
		{"Serbia", "Greece", []string{"Serbia"}, []string{"Greece"}},
		{"Bulgaria Serbia", "BG", []string{"Bulgaria", "Serbia"}, []string{"BG"}},
	}
	for _, tt := range tests {
		a, b := Tokenize(tt.a), Tokenize(tt.b)
		rem, add := dropVariants(a, indices(a), b, indices(b))
		if got := texts(a, rem); !slices.Equal(got, tt.wantRem) {
			t.Errorf("dropVariants(%q, %q) removed %q, want %q", tt.a, tt.b, got, tt.wantRem)
		}
		if got := texts(b, add); !slices.Equal(got, tt.wantAdd) {
			t.Errorf("dropVariants(%q, %q) added %q, want %q", tt.a, tt.b, got, tt.wantAdd)
		}
	}
}

func indices(toks []Token) []int {
	var idx []int
	for i := range toks {
		idx = append(idx, i)
	}
	return idx
}

func texts(toks []Token, idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, toks[i].Text)
	}
	return out
}

func TestAlign(t *testing.T) {
	tests := []struct {
		a, b string
		want []Change
	}{
		{"same words here", "same words here", nil},
		{"", "", nil},
		{"", "New text", []Change{{KindName, "", "New"}, {KindWord, "", "text"}}},
		{"Old text.", "", []Change{{KindName, "Old", ""}, {KindWord, "text", ""}, {KindPunct, ".", ""}}},
		{"Bulgaria, a poor nation of 7 million", "Bulgaria a poor nation of 4.5 million",
			[]Change{{KindPunct, ",", ""}, {KindNumber, "7", "4.5"}}},
		{"It was the cat", "It was The cat", []Change{{KindName, "the", "The"}}},
		{"Bush had a rating", "Bush, a US President, had a rating",
			[]Change{{KindWord, "", "a"}, {KindName, "", "US"}, {KindName, "", "President"}, {KindPunct, "", ","}, {KindPunct, "", ","}}},
		{"Bush had a rating of 22% in 2008.", "Obama had a rating of 56% in 2012.",
			[]Change{{KindName, "Bush", "Obama"}, {KindNumber, "22%", "56%"}, {KindDate, "2008", "2012"}}},
		{"in dry areas usually at night", "in dry areas only at night", []Change{{KindWord, "usually", "only"}}},
	}
	for _, tt := range tests {
		if got := Align(Tokenize(tt.a), Tokenize(tt.b)); !slices.Equal(got, tt.want) {
			t.Errorf("Align(%q, %q) =\n  %v\nwant\n  %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestAlignLarge: beyond MaxDiffCells the differing middles are one
// replacement, paired token by token.
func TestAlignLarge(t *testing.T) {
	var a, b []Token
	a = append(a, newToken("start", KindWord))
	b = append(b, newToken("start", KindWord))
	for i := range 600 {
		a = append(a, newToken("a"+strings.Repeat("x", i%7), KindWord))
		b = append(b, newToken("b"+strings.Repeat("y", i%5), KindWord))
	}
	got := Align(a, b)
	if len(got) != 600 || got[0] != (Change{KindWord, "a", "b"}) || got[599] != (Change{KindWord, "a" + strings.Repeat("x", 599%7), "b" + strings.Repeat("y", 599%5)}) {
		t.Errorf("Align of 600 differing tokens: %d changes, first %v", len(got), got[:min(len(got), 1)])
	}
}
