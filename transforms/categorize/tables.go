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
)

// The word tables of the equivalences and contrasts (equiv.go) are data
// files in tables/, embedded in the binary and read once when the package
// is initialised; they are read-only afterwards. A malformed table is a
// build defect (TestTables reads each one).

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
	// plainWords answers, with one lookup, what Tokenize asks of a plain
	// word (ASCII, lower-cased, no period or hyphen): its canonical key
	// and whether it is a number word.
	plainWords = plainWordTable()
)

// plainWord is what the tables say of one plain word.
type plainWord struct {
	key    string // canonicalKey's answer
	number bool   // a number or ordinal word: KindNumber
}

// plainWordTable merges the tables a plain word is looked up in, with
// canonicalKey's precedence: a number word's value, then a unit's name,
// then the American spelling.
func plainWordTable() map[string]plainWord {
	t := make(map[string]plainWord, len(spellings)+len(unitSingles)+len(numberWords)+len(ordinals))
	for w, a := range spellings {
		t[w] = plainWord{key: a}
	}
	for w, u := range unitSingles {
		t[w] = plainWord{key: u}
	}
	for _, m := range []map[string]int{numberWords, ordinals} {
		for w := range m {
			if _, ok := numberWordValue(w); ok {
				t[w] = plainWord{key: canonicalKey(w, KindNumber), number: true}
			}
		}
	}
	return t
}

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
