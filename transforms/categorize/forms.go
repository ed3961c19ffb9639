package categorize

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/currency"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/neardup/neardup/internal/spellout"
)

// Number forms: one value written two ways is not a changed fact. Before a
// hunk's tokens count as replaced values, dropForms removes from both
// sides
//
//   - a number in figures and the words that spell it in some language
//     ("10,000", "ten thousand"; "100", "one hundred"; "23", "dreiundzwanzig"),
//     by the Unicode CLDR's spellout rules (internal/spellout);
//   - the end of a range written in full and abbreviated ("2001–2010",
//     "2001–10"; "68–69", "68–9"; "1891–92", "1891 to 1892"): the same
//     start, and the abbreviated end completed by the start's leading
//     digits is the other end, whatever joins them (a dash, or one word:
//     the language's range word);
//   - a currency's ISO 4217 code and its symbols ("USD", "US$", "$"), by
//     golang.org/x/text/currency: two runs of code and symbol tokens that
//     can name one currency;
//   - a code in another base followed by the base's name and by the base
//     as a subscript ("20hex", "20₁₆", cleaned to "2016"; radix.go);
//   - an acronym and the name it abbreviates, written in full anywhere in
//     the other text ("DEC", "Digital Equipment Corporation"; acronym.go);
//   - a name and its near spelling (spellings.go).
//
// Each decision adds "number_form: a = b" (or "spelling: a ~ b") to the
// pair's mechanisms. A negation followed by a restrictive adverb ("not
// only") is not a negation (restrictedNegation).

// dropForms removes from a hunk h of pair p (removed tokens rem of text
// ta, added tokens add of text tb) the values written in two forms.
func (c *group) dropForms(p *pair, ta *text, rem []int, tb *text, add []int, h hunk) ([]int, []int) {
	a, b := ta.toks, tb.toks
	p.noteRestrictedNegations(a, rem)
	p.noteRestrictedNegations(b, add)
	rem, add = p.dropCurrencies(a, rem, b, add, h)
	if len(rem) == 0 || len(add) == 0 {
		return rem, add
	}
	rem, add = p.dropSpelledAcronyms(a, rem, b, add)
	if len(rem) == 0 || len(add) == 0 {
		return rem, add
	}
	lang := c.language(ta, tb)
	rem, add = p.dropThousandsPoints(a, rem, b, add)
	rem, add = p.dropSpelledNumbers(lang, a, rem, b, add, false)
	add, rem = p.dropSpelledNumbers(lang, b, add, a, rem, true)
	rem, add = p.dropRanges(a, rem, b, add)
	rem, add = p.dropRadixForms(a, rem, b, add)
	rem, add = p.dropNearSpellings(a, rem, b, add)
	return rem, add
}

// language returns the language of the wiki of the texts' first members
// ("enwiki": "en"), or "" if they are of two wikis or of none named.
func (c *group) language(a, b *text) string {
	wa, wb := c.members[a.members[0]].Wiki, c.members[b.members[0]].Wiki
	if wa != wb {
		return ""
	}
	lang, ok := strings.CutSuffix(wa, "wiki")
	if !ok {
		return ""
	}
	return strings.ReplaceAll(lang, "_", "-")
}

// mechanism adds one decision to the pair's mechanisms, once.
func (p *pair) mechanism(name, detail string) {
	m := name + ": " + detail
	if !slices.Contains(p.mechanisms, m) {
		p.mechanisms = append(p.mechanisms, m)
	}
}

// numberForm records that x (of the reference) and y are one value; flip
// says that x is the other text's.
func (p *pair) numberForm(x, y string, flip bool) {
	if flip {
		x, y = y, x
	}
	p.mechanism(MechanismNumberForm, x+" = "+y)
}

// MaxSpelledWords bounds the words of a number written in words.
const MaxSpelledWords = 6

// dropSpelledNumbers removes each number in figures of rem (of a) with
// the run of words of add (of b) that spells it in the language lang (in
// any language if lang is ""). flip says that a is the other text, for
// the mechanism's order.
func (p *pair) dropSpelledNumbers(lang string, a []Token, rem []int, b []Token, add []int, flip bool) ([]int, []int) {
	for k := 0; k < len(rem); {
		from, to := -1, -1
		for _, v := range wholeFigures(a[rem[k]]) {
			if from, to = spelledRun(lang, b, add, v); from >= 0 {
				break
			}
		}
		if from < 0 {
			k++
			continue
		}
		p.numberForm(a[rem[k]].Text, phrase(pick(b, add[from:to])), flip)
		rem = slices.Delete(rem, k, k+1)
		add = slices.Delete(add, from, to)
	}
	return rem, add
}

// wholeFigures returns the values a whole number written in figures (of
// any script: 10,000, ১০০, 23rd) can have: its value, and for a number
// with points between groups of three digits, the value they separate
// the thousands of (10.000 is 10000 in German).
func wholeFigures(t Token) []int64 {
	first, _ := utf8.DecodeRuneInString(t.Text)
	if !isDigit(first) {
		return nil
	}
	var out []int64
	if v, ok := numberValue(t); ok && v >= 0 && v < 1e15 && v == math.Trunc(v) {
		out = append(out, int64(v))
	}
	if k := t.key(); pointThousands(k) {
		if v, err := strconv.ParseInt(strings.ReplaceAll(k, ".", ""), 10, 64); err == nil {
			out = append(out, v)
		}
	}
	return out
}

// dropThousandsPoints removes each number of rem (of a) and a number of
// add (of b) that is its value written with the other separator of
// thousands (10.000 and 10,000).
func (p *pair) dropThousandsPoints(a []Token, rem []int, b []Token, add []int) ([]int, []int) {
	for k := 0; k < len(rem); k++ {
		x := a[rem[k]]
		vx := wholeFigures(x)
		if len(vx) == 0 {
			continue
		}
		j := slices.IndexFunc(add, func(j int) bool {
			y := b[j]
			if !pointThousands(x.key()) && !pointThousands(y.key()) {
				return false
			}
			return slices.ContainsFunc(wholeFigures(y), func(v int64) bool { return slices.Contains(vx, v) })
		})
		if j < 0 {
			continue
		}
		p.numberForm(x.Text, b[add[j]].Text, false)
		rem = slices.Delete(rem, k, k+1)
		add = slices.Delete(add, j, j+1)
		k--
	}
	return rem, add
}

// pointThousands reports whether k is ASCII digits in groups of three
// separated by points, the first of one to three digits (10.000,
// 1.250.000).
func pointThousands(k string) bool {
	groups := strings.Split(k, ".")
	if len(groups) < 2 || len(groups[0]) == 0 || len(groups[0]) > 3 || !allDigits(groups[0]) {
		return false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 || !allDigits(g) {
			return false
		}
	}
	return true
}

// MinUnknownSpelledRunes is the fewest runes of a number in words of a
// text whose language is not known or has no spellout rules: a shorter word that spells a number
// in some language is as often a word of another ("on" is ten in
// Turkish, "en" one in Swedish).
const MinUnknownSpelledRunes = 4

// spelledRun finds the longest run add[from:to] of adjacent word tokens
// of toks that spells v in the language lang (any, if ""), or returns -1.
func spelledRun(lang string, toks []Token, add []int, v int64) (from, to int) {
	for from = range add {
		if !spellout.Starts(toks[add[from]].Text) {
			continue // "and": no spelling starts so
		}
		to = from
		for to < len(add) && to-from < MaxSpelledWords && (to == from || add[to] == add[to-1]+1) &&
			toks[add[to]].Kind != KindPunct && spellout.IsWord(toks[add[to]].Text) {
			to++
		}
		for ; to > from; to-- {
			words := phrase(pick(toks, add[from:to]))
			if !spellout.Has(lang) && utf8.RuneCountInString(spellout.Normalize(words)) < MinUnknownSpelledRunes {
				continue
			}
			if _, ok := spellout.Spells(words, v, lang); ok {
				return from, to
			}
		}
	}
	return -1, -1
}

// dropRanges removes the end of a range that one text writes in full and
// the other abbreviated ("2001–2010", "2001–10"), with the word that joins
// the range's ends in one of them ("1891 to 1892"). The range's start must
// be the same number in both, and the abbreviated end, completed by the
// start's leading digits, the other end.
func (p *pair) dropRanges(a []Token, rem []int, b []Token, add []int) ([]int, []int) {
	for k := 0; k < len(rem); k++ {
		startA, joinA, ok := rangeStart(a, rem[k])
		if !ok {
			continue
		}
		for n, j := range add {
			startB, joinB, ok := rangeStart(b, j)
			if !ok || startA.key() != startB.key() || !sameRangeEnd(startA.key(), a[rem[k]].key(), b[j].key()) {
				continue
			}
			p.numberForm(phrase(a[joinA-1:rem[k]+1]), phrase(b[joinB-1:j+1]), false)
			rem = slices.Delete(rem, k, k+1)
			add = slices.Delete(add, n, n+1)
			rem = slices.DeleteFunc(rem, func(i int) bool { return i == joinA })
			add = slices.DeleteFunc(add, func(i int) bool { return i == joinB })
			k = -1 // start again: indices moved
			break
		}
	}
	return rem, add
}

// rangeStart returns the start of the range that toks[i] ends, and the
// index of the token joining them: toks[i] is a number after a dash or
// slash, or after one word that is neither a name nor a number ("to",
// "bis", "à"), itself after a number.
func rangeStart(toks []Token, i int) (Token, int, bool) {
	if i < 2 || !isFigure(toks[i]) || !isFigure(toks[i-2]) {
		return Token{}, 0, false
	}
	join := toks[i-1]
	if !isJoiner(join) && (join.Kind != KindWord || strings.ContainsFunc(join.Text, func(r rune) bool { return !unicode.IsLetter(r) })) {
		return Token{}, 0, false
	}
	return toks[i-2], i - 1, true
}

// isFigure reports whether t is a number written in figures.
func isFigure(t Token) bool {
	first, _ := utf8.DecodeRuneInString(t.Text)
	return (t.Kind == KindNumber || t.Kind == KindDate) && isDigit(first)
}

// sameRangeEnd reports whether ends x and y of ranges starting at start
// (keys, in ASCII digits) are one number, one of them written with fewer
// digits than the start: completed by the start's leading digits, it is
// the other (219–29 and 219–229).
func sameRangeEnd(start, x, y string) bool {
	if !allDigits(start) || !allDigits(x) || !allDigits(y) || len(x) == len(y) {
		return false
	}
	short, long := x, y
	if len(short) > len(long) {
		short, long = long, short
	}
	if len(short) >= len(start) || len(long) != len(start) {
		return false
	}
	return start[:len(start)-len(short)]+short == long
}

func allDigits(s string) bool {
	for i := range len(s) {
		if !isASCIIDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// MaxCurrencyTokens bounds the tokens of a currency's code or symbol
// ("US", "$").
const MaxCurrencyTokens = 3

// dropCurrencies removes the tokens of a currency's code or symbol that a
// hunk replaces by another code or symbol of the same currency ("USD",
// "US$", "$"; "EUR", "€"). The runs are taken whole, though the hunk may
// hold only a part of one ("US" of "US$").
func (p *pair) dropCurrencies(a []Token, rem []int, b []Token, add []int, h hunk) ([]int, []int) {
	fromA, toA, codesA := currencyRun(a, h.A0, h.A1)
	if codesA == nil {
		return rem, add
	}
	fromB, toB, codesB := currencyRun(b, h.B0, h.B1)
	if codesB == nil || !slices.ContainsFunc(codesA, func(c string) bool { return slices.Contains(codesB, c) }) {
		return rem, add
	}
	x, y := phrase(a[fromA:toA]), phrase(b[fromB:toB])
	if x == y {
		return rem, add
	}
	p.numberForm(strings.ReplaceAll(x, " ", ""), strings.ReplaceAll(y, " ", ""), false)
	rem = slices.DeleteFunc(rem, func(i int) bool { return fromA <= i && i < toA })
	add = slices.DeleteFunc(add, func(i int) bool { return fromB <= i && i < toB })
	return rem, add
}

// currencyRun finds the longest run of currency tokens (symbols, or
// letters: "US", "$") that meets toks[i0:i1] and whose text names a
// currency, and returns it with the ISO codes of the currencies it can
// name; nil if there is none.
func currencyRun(toks []Token, i0, i1 int) (from, to int, codes []string) {
	names := currencies()
	best := 0
	for f := max(i0-MaxCurrencyTokens+1, 0); f < min(i1, len(toks)); f++ {
		if !names.starts[toks[f].Text] {
			continue // no code or symbol starts so: most words
		}
		text := ""
		for t := f; t < len(toks) && t-f < MaxCurrencyTokens && isCurrencyToken(toks[t]); t++ {
			text += toks[t].Text
			if t+1 <= i0 || t+1-f <= best {
				continue // the run does not meet the hunk yet, or is no longer
			}
			if c := names.codes[text]; c != nil {
				from, to, codes, best = f, t+1, c, t+1-f
			}
		}
	}
	return from, to, codes
}

// isCurrencyToken reports whether t may be (a part of) a currency's code or
// symbol: a currency sign (unicode.Sc), or a short word of letters.
func isCurrencyToken(t Token) bool {
	if t.Kind == KindNumber || t.Kind == KindDate || utf8.RuneCountInString(t.Text) > 4 {
		return false
	}
	for _, r := range t.Text {
		if !unicode.Is(unicode.Sc, r) && !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// currencyNames are the codes and symbols of the currencies.
type currencyNames struct {
	codes  map[string][]string // the ISO codes each name can stand for
	starts map[string]bool     // the first token of each name, as written
}

var (
	currencyOnce sync.Once
	currencyData currencyNames
)

// currencies maps the ISO 4217 code and the symbols of every currency, in
// English and in the language of each region that used it (golang.org/x/text/currency's
// CLDR data), to the codes of the currencies they can name: "$" names the
// US, Canadian, Australian... dollars, "US$" and "USD" the US dollar. It
// is built once, on first use, and read-only afterwards.
func currencies() currencyNames {
	currencyOnce.Do(func() {
		m := map[string][]string{}
		addName := func(name, code string) {
			if name != "" && !slices.Contains(m[name], code) {
				m[name] = append(m[name], code)
			}
		}
		printers := map[language.Tag]*message.Printer{}
		printer := func(t language.Tag) *message.Printer {
			if p, ok := printers[t]; ok {
				return p
			}
			p := message.NewPrinter(t)
			printers[t] = p
			return p
		}
		it := currency.Query(currency.Historical, currency.NonTender)
		for it.Next() {
			u, r := it.Unit(), it.Region()
			code := u.String()
			addName(code, code)
			base, _ := language.Make("und-" + r.String()).Base()
			local, _ := language.Compose(base, r)
			for _, t := range []language.Tag{language.English, language.Make("en-" + r.String()), local} {
				for _, f := range []currency.Formatter{currency.Symbol, currency.NarrowSymbol} {
					addName(printer(t).Sprint(f(u)), code)
				}
			}
		}
		starts := map[string]bool{}
		for name := range m {
			if toks := Tokenize(name); len(toks) > 0 {
				starts[toks[0].Text] = true
			}
		}
		currencyData = currencyNames{codes: m, starts: starts}
	})
	return currencyData
}

// restrictedNegation reports whether the negation toks[i] restricts the
// adverb after it rather than denying the statement ("not only", "not
// just", "not merely"): "not only A but B" states A.
func restrictedNegation(toks []Token, i int) bool {
	return i+1 < len(toks) && quantityModifiers[toks[i+1].key()] == "exact"
}

// noteRestrictedNegations records each restricted negation of toks[idx]
// ("not only"), which negationConflict does not count.
func (p *pair) noteRestrictedNegations(toks []Token, idx []int) {
	for _, i := range idx {
		if isNegation(toks[i]) && restrictedNegation(toks, i) {
			p.mechanism(MechanismNumberForm, toks[i].Text+" "+toks[i+1].Text+" = a restriction, not a negation")
		}
	}
}
