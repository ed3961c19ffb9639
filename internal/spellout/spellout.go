// Package spellout writes whole numbers in words, in the languages of the
// Unicode CLDR's spellout rules, and tells whether a phrase is a number
// written so ("ten thousand" is 10000, "dreiundzwanzig" is 23, "cent
// deux" is 102).
//
// A number in figures and the same number in words state one value, and
// the stages that compare facts must not take one for the other's change.
// Rather than a list of number words per language, the package formats
// with the rule-based number format (RBNF) spellout rules that the CLDR
// keeps for some ninety languages (rules/, from the cldr-rbnf package,
// version 48.2.0, under the Unicode License: rules/LICENSE): a phrase
// spells n if one of a language's public rule sets (cardinal, numbering,
// ordinal, in every gender and case) writes n as that phrase, compared
// without case, spaces, hyphens and soft hyphens.
//
// The rules are parsed once, on first use, and are read-only afterwards.
package spellout

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

//go:embed rules/*.txt
var ruleFiles embed.FS

// maxDepth bounds the nesting of substitutions, so that a cycle in the
// rules ends.
const maxDepth = 32

// Spells reports whether phrase writes n in words in the given language
// (a BCP 47 language, "fr"; its regional rules included, fr_BE, fr_CH),
// or in any language of the rules if lang is "" or has none, and returns
// the language of the rules that do. Case, spaces, hyphens and soft
// hyphens do not count ("Twenty one" spells 21).
func Spells(phrase string, n int64, language string) (string, bool) {
	if n < 0 || !Starts(phrase) {
		return "", false
	}
	want := Normalize(phrase)
	names := candidates(phrase)
	if Has(language) {
		names = slices.DeleteFunc(names, func(name string) bool { return !isLanguage(name, language) })
	}
	if len(names) == 0 {
		return "", false // the rules are parsed only for a phrase of number words
	}
	var got strings.Builder
	for _, l := range rules().langs {
		if !slices.Contains(names, l.name) {
			continue
		}
		for _, s := range l.public {
			got.Reset()
			if l.formatTo(&got, s, n, 0) && sameNormal(got.String(), want) {
				return l.tag.String(), true
			}
		}
	}
	return "", false
}

// IsWord reports whether word is a word of some language's spelling of a
// number from 0 to 100, of a hundred, a thousand or a power of ten; a
// word of parts joined by hyphens is one if each part is
// ("quatre-vingt-onze").
func IsWord(word string) bool {
	if isLowerASCII(word) {
		_, ok := index().words[word] // most words: no copy
		return ok
	}
	parts := splitWords(word)
	for _, p := range parts {
		if _, ok := index().words[p]; !ok {
			return false
		}
	}
	return len(parts) > 0
}

// Starts reports whether the first word of phrase starts some language's
// spelling of a number of the word index ("twenty", not "and").
func Starts(phrase string) bool {
	first := phrase
	if i := strings.IndexFunc(phrase, func(r rune) bool { return unicode.IsSpace(r) || unicode.Is(unicode.Pd, r) }); i >= 0 {
		first = phrase[:i]
	}
	if !isLowerASCII(first) {
		first = Normalize(first)
	}
	return index().leads[first]
}

// isLowerASCII reports whether s is lower-case ASCII letters only, its
// own normal form.
func isLowerASCII(s string) bool {
	for i := range len(s) {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

// Spell returns n written in words by the public rule set named set
// ("spellout-cardinal") of the language lang ("en", "sr_Latn"), or false.
func Spell(lang, set string, n int64) (string, bool) {
	for _, l := range rules().langs {
		if l.name == lang {
			if s, ok := l.sets["%"+set]; ok {
				return l.format(s, n, 0)
			}
		}
	}
	return "", false
}

// Has reports whether the rules hold the language ("fr", "sr-Latn").
func Has(language string) bool {
	return language != "" && slices.ContainsFunc(languageNames(), func(name string) bool { return isLanguage(name, language) })
}

// Languages returns the names of the languages with rules, sorted.
func Languages() []string { return slices.Clone(languageNames()) }

// isLanguage reports whether the rules file name ("fr_CH") is of the
// language code ("fr", "fr-CH"; "sr" for sr_Latn).
func isLanguage(name, code string) bool {
	code = strings.ReplaceAll(strings.ToLower(code), "-", "_")
	name = strings.ToLower(name)
	return name == code || strings.HasPrefix(name, code+"_")
}

// Normalize writes a phrase as Spells compares it: NFC, lower case,
// without spaces, hyphens, soft hyphens and joiners.
func Normalize(phrase string) string {
	var b strings.Builder
	for _, r := range norm.NFC.String(phrase) {
		if skipped(r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// sameNormal reports whether Normalize(s) is want, without writing it:
// the rules are in NFC.
func sameNormal(s, want string) bool {
	for _, r := range s {
		if skipped(r) {
			continue
		}
		w, size := utf8.DecodeRuneInString(want)
		if size == 0 || unicode.ToLower(r) != w {
			return false
		}
		want = want[size:]
	}
	return want == ""
}

// skipped reports whether Normalize leaves r out.
func skipped(r rune) bool {
	return unicode.IsSpace(r) || unicode.Is(unicode.Pd, r) || r == '\u00ad' || '\u200b' <= r && r <= '\u200d'
}

// book holds every language's rules, parsed on first use.
type book struct {
	langs []*lang // sorted by name
}

// wordIndex tells which languages write a word in their spellings of
// indexValues; index.txt holds it, made from the rules by TestIndex.
type wordIndex struct {
	// words maps each word to the names of the languages that write it.
	words map[string][]string
	// leads holds the first word of each spelling: "and" never starts
	// one.
	leads map[string]bool
}

var (
	rulesOnce sync.Once
	loaded    *book
	indexOnce sync.Once
	indexed   *wordIndex
)

//go:embed index.txt
var indexFile string

// rules returns the rules, parsing them on first use. The embedded files
// are part of the build: one that does not parse is a build defect that
// TestRules reports.
func rules() *book {
	rulesOnce.Do(func() {
		b, err := load()
		if err != nil {
			panic(err)
		}
		loaded = b
	})
	return loaded
}

// index returns the word index, read on first use from index.txt (a
// build defect if malformed: TestIndex reads it).
func index() *wordIndex {
	indexOnce.Do(func() {
		x, err := readIndex(indexFile)
		if err != nil {
			panic(err)
		}
		indexed = x
	})
	return indexed
}

// languageNames lists the names of the rules files, sorted: "en",
// "sr_Latn"; read once.
var languageNames = sync.OnceValue(languages)

// languages lists the names of the rules files, sorted.
func languages() []string {
	names, _ := ruleFiles.ReadDir("rules") // embedded: cannot fail
	out := make([]string, 0, len(names))
	for _, e := range names {
		if n, ok := strings.CutSuffix(e.Name(), ".txt"); ok {
			out = append(out, n)
		}
	}
	return out
}

// indexValues are the numbers whose spellings make the word index: a
// phrase with a word outside it spells no number in that language.
func indexValues() []int64 {
	var v []int64
	for n := int64(0); n <= 100; n++ {
		v = append(v, n)
	}
	for n := int64(200); n <= 1000; n += 100 {
		v = append(v, n)
	}
	for n := int64(2000); n <= 10000; n += 1000 {
		v = append(v, n)
	}
	return append(v, 100000, 1000000, 2000000, 1000000000, 2000000000, 1000000000000)
}

func load() (*book, error) {
	b := &book{}
	for _, name := range languageNames() {
		data, err := ruleFiles.ReadFile(path.Join("rules", name+".txt"))
		if err != nil {
			return nil, err
		}
		l, err := parse(name, data)
		if err != nil {
			return nil, err
		}
		b.langs = append(b.langs, l)
	}
	return b, nil
}

// buildIndex spells indexValues with every public rule set of every
// language, and writes the index file of their words: per language a
// line "LANG: WORD...", sorted, a word that starts a spelling marked
// with a leading "*".
func buildIndex(b *book) string {
	var out strings.Builder
	out.WriteString("# The words of the spellings of 0-100, the hundreds, thousands and powers of ten in\n")
	out.WriteString("# every public rule set of rules/ (*: a spelling's first word), made by:\n")
	out.WriteString("# go test ./internal/spellout -run TestIndex -update\n")
	for _, l := range b.langs {
		words := map[string]bool{} // word: starts a spelling
		for _, s := range l.public {
			for _, n := range indexValues() {
				text, ok := l.format(s, n, 0)
				if !ok {
					continue
				}
				for k, w := range splitWords(text) {
					words[w] = words[w] || k == 0
				}
			}
		}
		fmt.Fprintf(&out, "%s:", l.name)
		for _, w := range slices.Sorted(maps.Keys(words)) {
			out.WriteByte(' ')
			if words[w] {
				out.WriteByte('*')
			}
			out.WriteString(w)
		}
		out.WriteByte('\n')
	}
	return out.String()
}

// readIndex reads an index file that buildIndex wrote.
func readIndex(text string) (*wordIndex, error) {
	x := &wordIndex{words: map[string][]string{}, leads: map[string]bool{}}
	for n, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lang, words, ok := strings.Cut(line, ":")
		if !ok || lang == "" || strings.ContainsAny(lang, " \t") {
			return nil, fmt.Errorf("spellout: index.txt:%d: want \"LANG: WORD...\"", n+1)
		}
		for _, w := range strings.Fields(words) {
			if lead, ok := strings.CutPrefix(w, "*"); ok {
				w = lead
				x.leads[w] = true
			}
			x.words[w] = append(x.words[w], lang)
		}
	}
	return x, nil
}

// candidates returns the names of the languages that write every word
// of phrase.
func candidates(phrase string) []string {
	var names []string
	for k, w := range splitWords(phrase) {
		in := index().words[w]
		if k == 0 {
			names = slices.Clone(in)
		} else {
			names = slices.DeleteFunc(names, func(n string) bool { return !slices.Contains(in, n) })
		}
		if len(names) == 0 {
			return nil
		}
	}
	return names
}

// splitWords returns the normalised words of a spelling, split at spaces
// and hyphens (not at soft hyphens: "drei\u00adund\u00adzwanzig" is written
// as one word).
func splitWords(s string) []string {
	f := strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.Is(unicode.Pd, r)
	})
	out := f[:0]
	for _, w := range f {
		if w = Normalize(w); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// lang is one language's rule sets.
type lang struct {
	name   string // the file's name: "en", "sr_Latn"
	tag    language.Tag
	sets   map[string]*ruleSet // by name, with its % or %%
	public []*ruleSet          // the public spellout sets, in file order, the year's excepted
}

type ruleSet struct {
	name  string
	rules []rule // by base value, increasing
}

// rule writes the numbers from base up to the next rule's base.
type rule struct {
	base    int64
	divisor int64
	body    []node
	modulus bool // the body holds a remainder substitution
	// unwritable marks a rule of a syntax the package does not read
	// ("0* <#,##0<<"): the numbers it covers are not written.
	unwritable bool
}

// node is a piece of a rule's body: text, a substitution, an optional
// part or a plural choice.
type node struct {
	text    string
	sub     byte   // '<', '>' or '=' for a substitution, else 0
	set     string // the substitution's rule set ("" for the rule's own)
	digits  bool   // the substitution writes digits (=#,##0=)
	present []node // an optional part: written when the remainder is not zero
	absent  []node // the optional part's alternative ([present|absent])
	opt     bool
	plural  map[plural.Form]string // $(cardinal,one{…}other{…})$
	ordinal bool                   // the plural choice is by ordinal category
}

// parse reads one language's rules file, in the ICU syntax of the CLDR's
// *-SpelloutRules.txt files: rule sets "%name:" ("%%name:" private) of
// rules "base[/radix]: body;", whose body holds text and substitutions: <<
// the quotient by the rule's divisor, >> the remainder, = the number
// itself, each in this rule set, in a named one (<%name<) or as digits
// (=#,##0=); [text] is left out when the remainder is zero ([a|b]: b
// then); $(cardinal,one{…}other{…})$ chooses by the quotient's plural
// category (golang.org/x/text's CLDR plural rules). Rules for fractions,
// negative numbers and the year rule sets are not read: the package writes
// whole numbers from 0.
func parse(name string, data []byte) (*lang, error) {
	tag, err := language.Parse(strings.ReplaceAll(name, "_", "-"))
	if err != nil {
		return nil, fmt.Errorf("spellout: %s: %w", name, err)
	}
	l := &lang{name: name, tag: tag, sets: map[string]*ruleSet{}}
	var cur *ruleSet
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "%") && strings.HasSuffix(line, ":"):
			cur = &ruleSet{name: strings.TrimSuffix(line, ":")}
			l.sets[cur.name] = cur
			if isPublic(cur.name) {
				l.public = append(l.public, cur)
			}
			continue
		case cur == nil:
			return nil, fmt.Errorf("spellout: %s:%d: rule outside a rule set", name, n)
		case cur.name == "%%lenient-parse":
			continue // collation rules for parsing, not for writing
		}
		r, ok, err := parseRule(line)
		if err != nil {
			return nil, fmt.Errorf("spellout: %s:%d: %w", name, n, err)
		}
		if ok {
			cur.rules = append(cur.rules, r)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("spellout: %s: %w", name, err)
	}
	for _, s := range l.sets {
		sort.SliceStable(s.rules, func(i, j int) bool { return s.rules[i].base < s.rules[j].base })
	}
	return l, nil
}

// isPublic reports whether a rule set writes numbers in words for a
// reader: public, spellout, and not the year's.
func isPublic(name string) bool {
	return !strings.HasPrefix(name, "%%") && strings.HasPrefix(name, "%spellout-") && !strings.Contains(name, "year")
}

// parseRule reads "base[/radix]: body;". Rules of fractions, negative
// numbers, infinity and NaN are not read (false).
func parseRule(line string) (rule, bool, error) {
	desc, body, ok := strings.Cut(line, ":")
	if !ok {
		return rule{}, false, fmt.Errorf("no descriptor in %q", line)
	}
	base, radix, hasRadix := strings.Cut(strings.ReplaceAll(desc, ",", ""), "/")
	b, err := strconv.ParseInt(base, 10, 64)
	if err != nil {
		return rule{}, false, nil // x.x, -x, Inf, NaN, 0.x
	}
	rx := int64(10)
	if hasRadix {
		if rx, err = strconv.ParseInt(radix, 10, 64); err != nil || rx < 2 {
			return rule{}, false, fmt.Errorf("bad radix in %q", line)
		}
	}
	body = strings.TrimSpace(body)
	body = strings.TrimSuffix(body, ";")
	body = strings.TrimPrefix(body, "'")
	nodes, err := parseBody(body)
	r := rule{base: b, divisor: 1, body: nodes, modulus: hasModulus(nodes), unwritable: err != nil}
	for r.divisor <= b/rx {
		r.divisor *= rx
	}
	return r, true, nil
}

func hasModulus(nodes []node) bool {
	for _, n := range nodes {
		if n.sub == '>' || hasModulus(n.present) || hasModulus(n.absent) {
			return true
		}
	}
	return false
}

// parseBody reads a rule's body into nodes.
func parseBody(body string) ([]node, error) {
	var nodes []node
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			nodes = append(nodes, node{text: text.String()})
			text.Reset()
		}
	}
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '[':
			end := strings.IndexByte(body[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("unclosed [")
			}
			flush()
			inner := body[i+1 : i+end]
			present, absent, _ := strings.Cut(inner, "|")
			p, err := parseBody(present)
			if err != nil {
				return nil, err
			}
			a, err := parseBody(absent)
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, node{opt: true, present: p, absent: a})
			i += end + 1
		case c == '<' || c == '>' || c == '=':
			end := strings.IndexByte(body[i+1:], c)
			if end < 0 {
				return nil, fmt.Errorf("unclosed %c", c)
			}
			flush()
			inner := body[i+1 : i+1+end]
			n := node{sub: c}
			switch {
			case strings.HasPrefix(inner, "%"):
				n.set = inner
			case inner != "":
				n.digits = true
			}
			nodes = append(nodes, n)
			i += end + 2
			if c == '>' && i < len(body) && body[i] == '>' {
				i++ // >>>: the remainder, as >> writes it here
			}
		case strings.HasPrefix(body[i:], "$("):
			end := strings.Index(body[i:], ")$")
			if end < 0 {
				return nil, fmt.Errorf("unclosed $(")
			}
			flush()
			n, err := parsePlural(body[i+2 : i+end])
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, n)
			i += end + 2
		default:
			text.WriteByte(c)
			i++
		}
	}
	flush()
	return nodes, nil
}

// pluralForms names the plural categories of the rules' syntax.
var pluralForms = map[string]plural.Form{
	"zero": plural.Zero, "one": plural.One, "two": plural.Two,
	"few": plural.Few, "many": plural.Many, "other": plural.Other,
}

// parsePlural reads "cardinal,one{тысяча}few{тысячи}other{тысяч}".
func parsePlural(s string) (node, error) {
	kind, rest, ok := strings.Cut(s, ",")
	if !ok || kind != "cardinal" && kind != "ordinal" {
		return node{}, fmt.Errorf("bad plural %q", s)
	}
	n := node{plural: map[plural.Form]string{}, ordinal: kind == "ordinal"}
	for rest != "" {
		open := strings.IndexByte(rest, '{')
		end := strings.IndexByte(rest, '}')
		if open < 0 || end < open {
			return node{}, fmt.Errorf("bad plural %q", s)
		}
		form, ok := pluralForms[strings.TrimSpace(rest[:open])]
		if !ok {
			return node{}, fmt.Errorf("bad plural category in %q", s)
		}
		n.plural[form] = rest[open+1 : end]
		rest = rest[end+1:]
	}
	if _, ok := n.plural[plural.Other]; !ok {
		return node{}, fmt.Errorf("plural without other in %q", s)
	}
	return n, nil
}

// format writes n with the rule set s.
func (l *lang) format(s *ruleSet, n int64, depth int) (string, bool) {
	var b strings.Builder
	if !l.formatTo(&b, s, n, depth) {
		return "", false
	}
	return b.String(), true
}

// formatTo writes n with the rule set s to b.
func (l *lang) formatTo(b *strings.Builder, s *ruleSet, n int64, depth int) bool {
	if depth > maxDepth || s == nil {
		return false
	}
	k := sort.Search(len(s.rules), func(k int) bool { return s.rules[k].base > n }) - 1
	if k < 0 {
		return false
	}
	r := s.rules[k]
	if r.modulus && n%r.divisor == 0 && r.base%r.divisor != 0 && k > 0 {
		r = s.rules[k-1] // the rule for n's round neighbours, as ICU rolls back
	}
	if r.unwritable {
		return false
	}
	return l.write(b, s, r, r.body, n, depth)
}

// write writes the nodes of rule r of set s for n.
func (l *lang) write(b *strings.Builder, s *ruleSet, r rule, nodes []node, n int64, depth int) bool {
	for _, nd := range nodes {
		switch {
		case nd.opt:
			part := nd.present
			if n%r.divisor == 0 {
				part = nd.absent
			}
			if !l.write(b, s, r, part, n, depth) {
				return false
			}
		case nd.plural != nil:
			rules := plural.Cardinal
			if nd.ordinal {
				rules = plural.Ordinal
			}
			q := n / r.divisor
			text, ok := nd.plural[rules.MatchPlural(l.tag, int(q%1000000), 0, 0, 0, 0)]
			if !ok {
				text = nd.plural[plural.Other]
			}
			b.WriteString(text)
		case nd.sub != 0:
			v := n
			switch nd.sub {
			case '<':
				v = n / r.divisor
			case '>':
				v = n % r.divisor
			}
			if nd.digits {
				b.WriteString(strconv.FormatInt(v, 10))
				continue
			}
			set := s
			if nd.set != "" {
				set = l.sets[nd.set]
			}
			if nd.sub == '=' && set == s {
				return false // a rule that writes itself
			}
			if !l.formatTo(b, set, v, depth+1) {
				return false
			}
		default:
			b.WriteString(nd.text)
		}
	}
	return true
}
