package categorize

import (
	"bufio"
	"embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Equivalence: before two tokens count as different facts, what does not
// change meaning is set aside. Each token's comparison key (Token.key) is
// canonical: Unicode NFKC with diacritics removed (Boumediene, Boumédiène;
// Bronislaw, Bronisław), one form of each dash and quote, acronyms without
// their periods (B.C., BC), American spelling for British (defence,
// defense; organise, organize), digits for number words (seven, 7;
// twenty-third, 23rd), numbers without thousands separators (1,000, 1000)
// and one name per unit (ft, feet). Number words joined to a word by a
// hyphen are split from it (seven-bit, 7-bit). Phrases (miles per hour,
// mph; 40 percent, 40%) are merged by canonicalPhrases before a cluster is
// compared. The tables are data files in tables/.

//go:embed tables/*.txt
var tableFiles embed.FS

// Tables read once from tables/; read-only afterwards.
var (
	spellings   = mustPairs("tables/spelling.txt")
	numberWords = mustValues("tables/numbers.txt")
	ordinals    = mustValues("tables/ordinals.txt")
	unitSingles = mustUnitWords("tables/units.txt")
	unitPhrases = mustUnitPhrases("tables/units.txt")
	// unitStarts holds the first key of every unit phrase.
	unitStarts = phraseStarts(unitPhrases)
	contrasts  = mustSets("tables/contrasts.txt")
)

// tableLines returns the lines of a table that are not blank or comments.
func tableLines(name string) ([]string, error) {
	f, err := tableFiles.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	return lines, sc.Err()
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err) // the tables are embedded: a bad one is a build defect
	}
	return v
}

// mustPairs reads "FROM TO" lines.
func mustPairs(name string) map[string]string {
	return must(readPairs(name))
}

func readPairs(name string) (map[string]string, error) {
	lines, err := tableLines(name)
	if err != nil {
		return nil, err
	}
	m := make(map[string]string, len(lines))
	for n, line := range lines {
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("%s: line %d: want two words, got %q", name, n+1, line)
		}
		m[f[0]] = f[1]
	}
	return m, nil
}

// mustValues reads "WORD VALUE" lines.
func mustValues(name string) map[string]int {
	return must(readValues(name))
}

func readValues(name string) (map[string]int, error) {
	pairs, err := readPairs(name)
	if err != nil {
		return nil, err
	}
	m := make(map[string]int, len(pairs))
	for w, v := range pairs {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, w, err)
		}
		m[w] = n
	}
	return m, nil
}

// unitPhrase is a unit name of several tokens (their keys) and its
// canonical key.
type unitPhrase struct {
	keys  []string
	canon string
}

// unitNames returns each unit name of a units table with the canonical key
// of its line.
func unitNames(name string) (map[string]string, error) {
	lines, err := tableLines(name)
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, line := range lines {
		names := strings.Split(line, "|")
		for _, n := range names {
			if n == "" {
				return nil, fmt.Errorf("%s: empty unit name in %q", name, line)
			}
			m[n] = unitKeyPrefix + names[0]
		}
	}
	return m, nil
}

// isOneWord reports whether a unit name is one token: letters and digits,
// or one other character ("%").
func isOneWord(name string) bool {
	if utf8.RuneCountInString(name) == 1 {
		return true
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !isDigit(r) {
			return false
		}
	}
	return true
}

// mustUnitWords maps the unit names of one token to their canonical keys.
func mustUnitWords(name string) map[string]string {
	m := map[string]string{}
	for n, canon := range must(unitNames(name)) {
		if isOneWord(n) {
			m[n] = canon
		}
	}
	return m
}

// mustUnitPhrases returns the unit names of several tokens, as the keys
// Tokenize gives them, longest first.
func mustUnitPhrases(name string) []unitPhrase {
	var out []unitPhrase
	for n, canon := range must(unitNames(name)) {
		if !isOneWord(n) {
			out = append(out, unitPhrase{keys: keys(Tokenize(n)), canon: canon})
		}
	}
	slices.SortFunc(out, func(x, y unitPhrase) int {
		if c := len(y.keys) - len(x.keys); c != 0 {
			return c
		}
		return slices.Compare(x.keys, y.keys)
	})
	return out
}

// unitKeyPrefix marks the key of a unit, so that it never equals a word's.
const unitKeyPrefix = "\x00"

// mustSets reads lines of words that make one set each, and maps each
// word to its set's line number.
func mustSets(name string) map[string]int {
	lines := must(tableLines(name))
	m := map[string]int{}
	for n, line := range lines {
		for _, w := range strings.Fields(line) {
			m[w] = n + 1
		}
	}
	return m
}

// phraseStarts returns the set of the first keys of phrases.
func phraseStarts(phrases []unitPhrase) map[string]bool {
	m := map[string]bool{}
	for _, p := range phrases {
		m[p.keys[0]] = true
	}
	return m
}

// canonicalKey returns the comparison key of a token of the given kind
// whose text in lower case is lower.
func canonicalKey(lower string, kind TokenKind) string {
	if !isASCII(lower) {
		lower = fold(lower)
	}
	switch kind {
	case KindPunct:
		if u, ok := unitSingles[lower]; ok {
			return u // %
		}
		return lower
	case KindNumber, KindDate:
		if v, ok := numberWordValue(lower); ok {
			return strconv.Itoa(v) + ordinalSuffix(lower)
		}
		return withoutThousands(lower)
	}
	if strings.Contains(lower, ".") {
		lower = strings.ReplaceAll(lower, ".", "") // an acronym: b.c., u.s.a.
	}
	if u, ok := unitSingles[lower]; ok {
		return u
	}
	if a, ok := spellings[lower]; ok {
		return a
	}
	return americanSuffix(lower)
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// fold applies NFKC, removes diacritics, and writes letters that do not
// decompose (ł, ø, ß…), dashes and quotes in one ASCII form.
func fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if m, ok := foldRunes[r]; ok {
			b.WriteString(m)
			continue
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
}

// foldRunes are the letters without a decomposition and the punctuation
// that fold writes otherwise.
var foldRunes = map[rune]string{
	'ł': "l", 'ø': "o", 'đ': "d", 'ß': "ss", 'æ': "ae", 'œ': "oe", 'ı': "i", 'þ': "th", 'ð': "d", 'ħ': "h",
	'‐': "-", '‑': "-", '‒': "-", '–': "-", '—': "-", '―': "-", '−': "-",
	'‘': "'", '’': "'", '‚': "'", '‛': "'", '′': "'", 'ʼ': "'",
	'“': `"`, '”': `"`, '„': `"`, '‟': `"`, '″': `"`, '«': `"`, '»': `"`,
}

// ordinalSuffix returns "st", "nd", "rd" or "th" for an ordinal number
// word, "" for a cardinal.
func ordinalSuffix(word string) string {
	switch last := word[strings.LastIndexByte(word, '-')+1:]; {
	case last == "first":
		return "st"
	case last == "second":
		return "nd"
	case last == "third":
		return "rd"
	case ordinals[last] > 0:
		return "th"
	}
	return ""
}

// withoutThousands removes the commas that separate thousands in a number
// (1,000,000), and writes a decimal comma as a point (12,7).
func withoutThousands(num string) string {
	if !strings.Contains(num, ",") {
		return num
	}
	groups := strings.Split(num, ",")
	for _, g := range groups[1:] {
		if len(g) < 3 || !isDigit(rune(g[0])) || !isDigit(rune(g[1])) || !isDigit(rune(g[2])) {
			if len(groups) == 2 && !strings.Contains(num, ".") {
				return groups[0] + "." + groups[1] // 12,7: a decimal comma
			}
			return num
		}
	}
	return strings.Join(groups, "")
}

// americanSuffix writes the British -is-/-ys- forms of verbs and their
// derivatives (organise, organisation, analysed) with z. Both sides of a
// comparison get the same key, so a word that is not such a verb
// (promise, promised) is only renamed, never confused with another.
func americanSuffix(w string) string {
	if n := len(w); n < 6 || !strings.Contains(w[n-min(n, 8):], "s") {
		return w // every suffix below holds an s
	}
	for _, suffix := range americanSuffixes {
		if stem, ok := strings.CutSuffix(w, suffix.british); ok && utf8.RuneCountInString(stem) >= 3 {
			return stem + suffix.american
		}
	}
	return w
}

var americanSuffixes = []struct{ british, american string }{
	{"isations", "izations"}, {"isational", "izational"}, {"isation", "ization"},
	{"ising", "izing"}, {"ised", "ized"}, {"ises", "izes"}, {"ise", "ize"},
	{"yse", "yze"}, {"ysed", "yzed"}, {"ysing", "yzing"},
}

// canonicalPhrases merges the tokens of a unit name of several words
// ("miles per hour", "per cent") into one token keyed by the unit's
// canonical name, and a number followed by the percent unit ("40
// percent") into one number keyed like "40%".
func canonicalPhrases(toks []Token) []Token {
	first := -1
	for i := range toks {
		if n, _ := matchUnit(toks, i); n > 0 {
			first = i
			break
		}
	}
	if first < 0 {
		return toks // nothing to merge, as in most sentences
	}
	out := slices.Clone(toks[:first])
	for i := first; i < len(toks); {
		n, canon := matchUnit(toks, i)
		if n == 0 {
			out = append(out, toks[i])
			i++
			continue
		}
		merged := Token{Text: phrase(toks[i : i+n]), Kind: KindWord, lower: canon}
		if last := len(out) - 1; canon == percentKey && last >= 0 && out[last].Kind == KindNumber {
			out[last] = Token{Text: out[last].Text + " " + merged.Text, Kind: KindNumber, lower: out[last].key() + "%"}
		} else {
			out = append(out, merged)
		}
		i += n
	}
	return out
}

// percentKey is the key of the percent unit.
const percentKey = unitKeyPrefix + "%"

// matchUnit returns the number of tokens from toks[i] that name a unit (a
// name of several tokens, or "percent") and its canonical key, or 0.
func matchUnit(toks []Token, i int) (int, string) {
	key := toks[i].key()
	if key == percentKey {
		return 1, percentKey
	}
	if !unitStarts[key] {
		return 0, ""
	}
	for _, p := range unitPhrases {
		if i+len(p.keys) > len(toks) {
			continue
		}
		match := true
		for k, key := range p.keys {
			match = match && toks[i+k].key() == key
		}
		if match {
			return len(p.keys), p.canon
		}
	}
	return 0, ""
}

// contrast reports whether the tokens toks[rem] and toks2[add] hold two
// different words of one set of contrasts (damaged, collapsed), and which.
func contrast(a []Token, rem []int, b []Token, add []int) (from, to string, ok bool) {
	for _, i := range rem {
		set, in := contrasts[a[i].key()]
		if !in {
			continue
		}
		for _, j := range add {
			if contrasts[b[j].key()] == set && b[j].key() != a[i].key() {
				return a[i].Text, b[j].Text, true
			}
		}
	}
	return "", "", false
}
