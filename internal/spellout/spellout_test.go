package spellout

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite index.txt from the rules")

// TestIndex checks that index.txt is the index of the rules' spellings
// (run with -update to rewrite it after the rules change).
func TestIndex(t *testing.T) {
	want := buildIndex(rules())
	if *update {
		if err := os.WriteFile("index.txt", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if indexFile != want && !*update {
		t.Fatal("index.txt is not the index of rules/: run go test ./internal/spellout -run TestIndex -update")
	}
	x, err := readIndex(want)
	if err != nil {
		t.Fatal(err)
	}
	if len(x.words) < 10000 || !x.leads["twenty"] || x.leads["and"] {
		t.Errorf("index of %d words, leads twenty %v and %v", len(x.words), x.leads["twenty"], x.leads["and"])
	}
	if _, err := readIndex("en words x\n"); err == nil {
		t.Error("a malformed index was read")
	}
}

// TestRules parses every language's rules and writes the numbers of the
// word index with each public rule set: a rule set of a language that
// writes none of them is a defect of the parser.
func TestRules(t *testing.T) {
	b := rules()
	if len(b.langs) < 80 {
		t.Fatalf("%d languages, want the CLDR's 80 or more", len(b.langs))
	}
	for _, l := range b.langs {
		if len(l.public) == 0 {
			t.Errorf("%s: no public spellout rule set", l.name)
		}
		for _, s := range l.public {
			written := 0
			for n := int64(0); n <= 1000; n++ {
				if _, ok := l.format(s, n, 0); ok {
					written++
				}
			}
			if written < 1000 {
				t.Errorf("%s %s: wrote %d of the numbers 0 to 1000", l.name, s.name, written)
			}
		}
	}
}

func TestSpell(t *testing.T) {
	for _, c := range []struct {
		lang, set string
		n         int64
		want      string
	}{
		{"en", "spellout-cardinal", 10000, "ten thousand"},
		{"en", "spellout-cardinal", 121, "one hundred twenty-one"},
		{"en", "spellout-cardinal-verbose", 121, "one hundred and twenty-one"},
		{"en", "spellout-ordinal", 23, "twenty-third"},
		{"de", "spellout-numbering", 23, "drei\u00adund\u00adzwanzig"},
		{"de", "spellout-cardinal-masculine", 10000, "zehn\u00adtausend"},
		{"fr", "spellout-cardinal-masculine", 91, "quatre-vingt-onze"},
		{"fr", "spellout-cardinal-masculine", 80, "quatre-vingts"}, // rolled back: 80 is the plural
		{"fr", "spellout-cardinal-masculine", 200, "deux cents"},
		{"fr", "spellout-cardinal-masculine", 201, "deux cent un"},
		{"ru", "spellout-cardinal-masculine", 5000, "пять тысяч"}, // plural choice: other
		{"ru", "spellout-cardinal-masculine", 2000, "две тысячи"}, // few
		{"ru", "spellout-cardinal-masculine", 2021, "две тысячи двадцать один"},
		{"hy", "spellout-cardinal", 25, "քսան\u00adհինգ"},
		{"hi", "spellout-cardinal", 45, "पैंतालीस"},
		{"ta", "spellout-cardinal", 100, "நூறு"},
		{"pl", "spellout-ordinal-masculine", 200, "dwusetny"}, // [a|b]: b when nothing follows
		{"vi", "spellout-cardinal", 25, "hai mươi lăm"},
		{"zh", "spellout-cardinal", 23, "二十三"},
		{"ja", "spellout-cardinal", 10000, "一万"},
	} {
		got, ok := Spell(c.lang, c.set, c.n)
		if !ok || got != c.want {
			t.Errorf("Spell(%s, %s, %d) = %q, %v; want %q", c.lang, c.set, c.n, got, ok, c.want)
		}
	}
	if _, ok := Spell("en", "no-such-set", 1); ok {
		t.Error("Spell with an unknown rule set succeeded")
	}
}

func TestSpells(t *testing.T) {
	for _, c := range []struct {
		phrase string
		n      int64
		lang   string
		want   string // the language of the rules that spell it, "" if none
	}{
		{"ten thousand", 10000, "", "en"},
		{"One Hundred", 100, "en", "en"},
		{"twenty one", 21, "en", "en"},
		{"twenty-first", 21, "en", "en"},
		{"Zehntausend", 10000, "de", "de"},
		{"dreiundzwanzig", 23, "de", "de"},
		{"quatre-vingt-onze", 91, "fr", "fr"},
		{"пять тысяч", 5000, "ru", "ru"},
		{"քսանհինգ", 25, "hy", "hy"},
		{"पैंतालीस", 45, "hi", "hi"},
		{"on", 10, "tr", "tr"}, // Turkish ten
		{"on", 10, "", "az"},   // and Azerbaijani: the first language of the rules that spells it
		{"on", 10, "en", ""},   // not in English
		{"ten thousand", 1000, "", ""},
		{"ten", 10, "fr", ""},   // fr has rules: only French spells
		{"ten", 10, "bn", "en"}, // bn has none: any language
		{"", 0, "", ""},
	} {
		got, ok := Spells(c.phrase, c.n, c.lang)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("Spells(%q, %d, %q) = %q, %v; want %q", c.phrase, c.n, c.lang, got, ok, c.want)
		}
	}
}

func TestIsWordAndHas(t *testing.T) {
	for w, want := range map[string]bool{"hundred": true, "Thousand": true, "dreiundzwanzig": true, "тысяч": true, "hours": false, "Katrina": false} {
		if got := IsWord(w); got != want {
			t.Errorf("IsWord(%q) = %v, want %v", w, got, want)
		}
	}
	for l, want := range map[string]bool{"en": true, "fr": true, "sr-Latn": true, "bn": false, "": false} {
		if got := Has(l); got != want {
			t.Errorf("Has(%q) = %v, want %v", l, got, want)
		}
	}
	if got := Normalize("Drei\u00adund-Zwanzig "); got != "dreiundzwanzig" {
		t.Errorf("Normalize = %q", got)
	}
}

func BenchmarkSpells(b *testing.B) {
	rules()
	for b.Loop() {
		Spells("ten thousand", 10000, "")
		Spells("less than a day", 19, "")
	}
}

func TestStarts(t *testing.T) {
	for w, want := range map[string]bool{"twenty": true, "Twenty-one": true, "one hundred": true, "and": false, "though": false, "hundred": false} {
		if got := Starts(w); got != want {
			t.Errorf("Starts(%q) = %v, want %v", w, got, want)
		}
	}
}
