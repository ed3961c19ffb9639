package categorize

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MinVariantPrefix is the shortest common prefix, in runes, of two forms of
// one word (County, Counties); the prefix must also leave at most two runes
// of the shorter form and three of the longer (so Austria is not Australia).
const MinVariantPrefix = 4

// dropVariants removes from a hunk (removed tokens rem of a, added tokens
// add of b) the tokens replaced by another form of the same thing: a word
// form or spelling (County → Counties, MRE's → MREs), a number written
// otherwise (9 → nine), or a name replaced by its acronym (Federal Emergency
// Management Agency → FEMA). None of them states a different fact.
func dropVariants(a []Token, rem []int, b []Token, add []int) ([]int, []int) {
	rem, add = slices.Clone(rem), slices.Clone(add)
	for k := 0; k < len(rem); {
		j := slices.IndexFunc(add, func(j int) bool { return isVariant(a[rem[k]], b[j]) })
		if j < 0 {
			k++
			continue
		}
		rem = slices.Delete(rem, k, k+1)
		add = slices.Delete(add, j, j+1)
	}
	rem, add = dropAcronyms(a, rem, b, add)
	add, rem = dropAcronyms(b, add, a, rem)
	rem, add = dropCompounds(a, rem, b, add)
	add, rem = dropCompounds(b, add, a, rem)
	rem, add = dropCoreferences(a, rem, b, add)
	add, rem = dropCoreferences(b, add, a, rem)
	return rem, add
}

// dropCompounds removes each hyphenated word of add (late-2005,
// north-east) together with the run of removed words that it joins (late
// 2005), and each closed compound (lowercase) with the two words it joins
// (lower case): the same words, written apart.
func dropCompounds(a []Token, rem []int, b []Token, add []int) ([]int, []int) {
	for k := 0; k < len(add); {
		key := b[add[k]].key()
		parts := strings.Split(key, "-")
		from, n := -1, len(parts)
		for i := range rem {
			if n > 1 && spells(a, rem[i:], parts) {
				from = i
				break
			}
			if n == 1 && i+1 < len(rem) && rem[i+1] == rem[i]+1 && a[rem[i]].key()+a[rem[i+1]].key() == key {
				from, n = i, 2 // a closed compound: "lower case", "lowercase"
				break
			}
		}
		if from < 0 {
			k++
			continue
		}
		rem = slices.Delete(rem, from, from+n)
		add = slices.Delete(add, k, k+1)
	}
	return rem, add
}

// spells reports whether the tokens toks[idx[0]], toks[idx[1]]... have the
// keys parts and are adjacent, or separated by one dash or slash
// (Tennessee–Tombigbee, Mississippi/Louisiana).
func spells(toks []Token, idx []int, parts []string) bool {
	if len(idx) < len(parts) {
		return false
	}
	for n, p := range parts {
		if toks[idx[n]].key() != p {
			return false
		}
		if n > 0 && idx[n] != idx[n-1]+1 && (idx[n] != idx[n-1]+2 || !isJoiner(toks[idx[n]-1])) {
			return false
		}
	}
	return true
}

// isJoiner reports whether t is a dash or a slash, which join the words
// of a compound as a hyphen does.
func isJoiner(t Token) bool {
	return t.Kind == KindPunct && (t.key() == "-" || t.Text == "/")
}

// dropCoreferences removes each personal pronoun of rem together with the
// first run of names of add, which it stands for ("It" and "Alabama", "he"
// and "Dick Cheney"): both name the same thing.
func dropCoreferences(a []Token, rem []int, b []Token, add []int) ([]int, []int) {
	isName := func(j int) bool { return b[j].Kind == KindName || b[j].Kind == KindTitle }
	for k := 0; k < len(rem); {
		from := slices.IndexFunc(add, isName)
		if !personalPronouns[a[rem[k]].key()] || from < 0 {
			k++
			continue
		}
		to := from + 1
		for to < len(add) && add[to] == add[to-1]+1 && isName(add[to]) {
			to++
		}
		rem = slices.Delete(rem, k, k+1)
		add = slices.Delete(add, from, to)
	}
	return rem, add
}

// isVariant reports whether x and y are two forms of one word or number.
func isVariant(x, y Token) bool {
	if x.Kind == KindPunct || y.Kind == KindPunct {
		return false
	}
	vx, okx := numberValue(x)
	vy, oky := numberValue(y)
	if okx != oky && (x.key() == "one" && vy == 1 || y.key() == "one" && vx == 1) {
		return true // "one" is a count only beside a 1
	}
	if okx || oky {
		return okx && oky && (vx == vy || sameYear(x, vx, y, vy))
	}
	kx, ky := x.key(), y.key()
	return sameWord(kx, ky) || sameWord(trimPossessive(kx), trimPossessive(ky))
}

// sameYear reports whether x and y are one year or decade written with two
// and four digits ('98 and 1998, the 60s and the 1960s). Two digits without
// an apostrophe or a decade's s are a count or a day (17 January), not a
// year.
func sameYear(x Token, vx float64, y Token, vy float64) bool {
	if x.Kind == KindDate {
		x, vx, y, vy = y, vy, x, vx
	}
	key := x.key() // in ASCII digits
	decade := strings.HasSuffix(key, "s")
	digits := strings.TrimSuffix(key, "s")
	if !decade {
		var apostrophe bool
		if digits, apostrophe = strings.CutPrefix(key, "'"); !apostrophe {
			return false
		}
	}
	return y.Kind == KindDate && x.Kind == KindNumber && len(digits) == 2 &&
		decade == strings.HasSuffix(y.Text, "s") && int(vy)%100 == int(vx)
}

// sameWord reports whether the keys kx and ky are forms of one word: they
// share their first letter and a long enough prefix.
func sameWord(kx, ky string) bool {
	if kx == "" || ky == "" || kx[0] != ky[0] {
		return false // forms of one word share their first letter
	}
	rx := []rune(joiners.Replace(kx))
	ry := []rune(joiners.Replace(ky))
	p := 0
	for p < len(rx) && p < len(ry) && rx[p] == ry[p] {
		p++
	}
	shorter, longer := min(len(rx), len(ry)), max(len(rx), len(ry))
	return p == longer || p >= MinVariantPrefix && shorter-p <= 2 && longer-p <= 3
}

// trimPossessive removes the possessive ending of a word (Lee's, States').
func trimPossessive(k string) string {
	for _, suffix := range []string{"'s", "’s", "'", "’"} {
		if rest, ok := strings.CutSuffix(k, suffix); ok && rest != "" {
			return rest
		}
	}
	return k
}

// joiners are removed before comparing word forms (MRE's, MREs).
var joiners = strings.NewReplacer("'", "", "’", "", "-", "")

// dropAcronyms removes each acronym of add (FEMA, U.S.) together with the
// run of removed words whose initials spell it, function words skipped
// (Federal Emergency Management Agency; Department of Health).
func dropAcronyms(a []Token, rem []int, b []Token, add []int) ([]int, []int) {
	for k := 0; k < len(add); {
		letters := acronymLetters(b[add[k]])
		from, to, ok := spelledBy(a, rem, letters)
		if !ok {
			k++
			continue
		}
		rem = slices.Delete(rem, from, to)
		add = slices.Delete(add, k, k+1)
	}
	return rem, add
}

// acronymLetters returns the letters of an acronym (two or more upper-case
// letters, dots allowed), or "".
func acronymLetters(t Token) string {
	letters := strings.ReplaceAll(t.Text, ".", "")
	if utf8.RuneCountInString(letters) < 2 || t.Kind == KindNumber || t.Kind == KindDate {
		return ""
	}
	for _, r := range letters {
		if !unicode.IsUpper(r) {
			return ""
		}
	}
	return letters
}

// spelledBy finds a run rem[from:to] of capitalised words, with function
// words between them, whose initials are letters.
func spelledBy(toks []Token, rem []int, letters string) (from, to int, ok bool) {
	if letters == "" {
		return 0, 0, false
	}
	want := []rune(letters)
	for from = range rem {
		n := 0
		for to = from; to < len(rem) && n < len(want); to++ {
			t := toks[rem[to]]
			if functionWords[t.key()] && t.Kind == KindWord {
				if n == 0 {
					break // a run starts with a name
				}
				continue
			}
			if first, _ := utf8.DecodeRuneInString(t.Text); first != want[n] {
				break
			}
			n++
		}
		if n == len(want) {
			return from, to, true
		}
	}
	return 0, 0, false
}

// numberValue returns the value of a number token (7, 4.5, 1,000, 40.4%,
// 3rd, 1990s, nine, twenty-one), or false.
func numberValue(t Token) (float64, bool) {
	if t.Kind != KindNumber && t.Kind != KindDate {
		return 0, false
	}
	if v, ok := numberWordValue(strings.ToLower(t.Text)); ok {
		return float64(v), true
	}
	s := strings.ReplaceAll(t.key(), ",", "")
	s = strings.TrimLeft(s, "'") // '98
	s = strings.TrimRight(s, "%stndrh")
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// numberWordValue returns the value of an English number word from two to
// ninety-nine, cardinal or ordinal (a hyphenated compound included:
// twenty-one, twenty-third), or false. "One" and "first" are left out:
// they are more often a pronoun or an adverb than a count.
func numberWordValue(key string) (int, bool) {
	if len(key) < 3 {
		return 0, false
	}
	switch key[0] { // every number word starts with one of these
	case 'e', 'f', 'n', 's', 't':
	default:
		return 0, false
	}
	if v, ok := numberWords[key]; ok {
		return v, true
	}
	if v, ok := ordinals[key]; ok {
		return v, true
	}
	tens, units, ok := strings.Cut(key, "-")
	if !ok {
		return 0, false
	}
	t, okT := numberWords[tens]
	u, okU := numberWords[units]
	if !okU {
		u, okU = ordinals[units]
	}
	switch units {
	case "one", "first":
		u, okU = 1, true
	case "second":
		u, okU = 2, true
	}
	if !okT || !okU || t < 20 || t%10 != 0 || u >= 10 {
		return 0, false
	}
	return t + u, true
}

// duration returns the length in hours of the first span of time that
// toks[idx] state as a count and a unit ("24 hours", "one day", "a week"),
// or false.
func duration(toks []Token, idx []int) (float64, bool) {
	for n, i := range idx {
		if n+1 == len(idx) || idx[n+1] != i+1 {
			continue
		}
		hours, ok := timeUnits[trimPlural(toks[i+1].key())]
		if !ok {
			continue
		}
		if v, ok := numberValue(toks[i]); ok {
			return v * hours, true
		}
		if k := toks[i].key(); k == "one" || k == "a" || k == "an" {
			return hours, true
		}
	}
	return 0, false
}

// sameDuration reports whether both sides of a hunk state the same span of
// time in different units ("24 hours", "one day").
func sameDuration(a []Token, rem []int, b []Token, add []int) bool {
	da, okA := duration(a, rem)
	db, okB := duration(b, add)
	return okA && okB && da == db
}

func trimPlural(k string) string {
	if len(k) > 3 {
		return strings.TrimSuffix(k, "s")
	}
	return k
}

// timeUnits are units of time in hours.
var timeUnits = map[string]float64{
	"minute": 1.0 / 60, "hour": 1, "day": 24, "week": 7 * 24, "fortnight": 14 * 24,
}

// Near spellings: a name replaced by a name spelled nearly the same is one
// name spelled two ways (Egpytian, Egyptian; Hamedan, Hamadan), and an
// abbreviation is the word it shortens (Ave, Avenue; St, Street). The
// names the dump links are resolved by the run's Knowledge (same_entity);
// this is the fallback for the names it does not link.
const (
	// MinSpellingRunes is the fewest runes of the shorter of two names
	// compared by edit distance: shorter names differing in one letter are
	// as often two names (Iran, Iraq; Mali, Bali).
	// The labelled clusters hold Steco and Stemco, two joint ventures.
	MinSpellingRunes = 6
	// SpellingRunesPerEdit is the runes of the longer name per edit
	// allowed: one edit for 6 to 11 runes (Hamedan, Hamadan), two from 12.
	SpellingRunesPerEdit = 6
	// MaxAbbreviationRunes bounds an abbreviation's runes (Blvd, Dept).
	MaxAbbreviationRunes = 4
)

// dropNearSpellings removes each name of rem (of a) together with a name
// of add (of b) that spells it nearly the same or that it abbreviates, or
// the other way round. Two words that are each a word of its own page's
// title are the names of two pages, not one name spelled two ways.
func (p *pair) dropNearSpellings(a []Token, rem []int, b []Token, add []int) ([]int, []int) {
	for k := 0; k < len(rem); {
		x := a[rem[k]]
		j := slices.IndexFunc(add, func(j int) bool {
			y := b[j]
			if !isNameKind(x) || !isNameKind(y) || x.Kind == KindTitle && y.Kind == KindTitle {
				return false
			}
			return spelledAlike(x, y)
		})
		if j < 0 {
			k++
			continue
		}
		p.mechanism(MechanismSpelling, x.Text+" ~ "+b[add[j]].Text)
		rem = slices.Delete(rem, k, k+1)
		add = slices.Delete(add, j, j+1)
	}
	return rem, add
}

func isNameKind(t Token) bool { return t.Kind == KindName || t.Kind == KindTitle }

// spelledAlike reports whether words x and y are one word spelled two
// ways: on their keys (case and diacritics folded, in any script's runes),
// with the same first rune, either at a small edit distance (at most one
// edit per SpellingRunesPerEdit runes, MinSpellingRunes at least), or one
// an abbreviation or the initial of the other.
func spelledAlike(x, y Token) bool {
	if !isWordToken(x) || !isWordToken(y) || functionWords[x.key()] || functionWords[y.key()] {
		return false
	}
	kx, ky := x.key(), y.key()
	if fx, _ := utf8.DecodeRuneInString(kx); fx != firstRune(ky) || kx == ky {
		return false // the cheap answer for most pairs of names
	}
	nx, ny := utf8.RuneCountInString(kx), utf8.RuneCountInString(ky)
	if n := max(nx, ny); min(nx, ny) > 1 && 2*min(nx, ny) > n && (min(nx, ny) < MinSpellingRunes || n-min(nx, ny) > n/SpellingRunesPerEdit) {
		return false // neither an abbreviation nor a near spelling
	}
	rx, ry := []rune(strings.ReplaceAll(kx, ".", "")), []rune(strings.ReplaceAll(ky, ".", ""))
	if len(rx) == 0 || len(ry) == 0 || rx[0] != ry[0] || slices.Equal(rx, ry) {
		return false
	}
	if len(rx) > len(ry) {
		rx, ry = ry, rx
		x, y = y, x
	}
	if abbreviates(rx, ry) || isInitialOf(x, ry) {
		return true
	}
	if len(rx) < MinSpellingRunes {
		return false
	}
	limit := len(ry) / SpellingRunesPerEdit
	return len(ry)-len(rx) <= limit && editDistance(rx, ry, limit) <= limit
}

// isWordToken reports whether t is a word of letters (marks and inner
// hyphens or apostrophes allowed), not a number, a date or a sign.
func isWordToken(t Token) bool {
	if t.Kind == KindPunct || t.Kind == KindNumber || t.Kind == KindDate {
		return false
	}
	first, _ := utf8.DecodeRuneInString(t.Text)
	return unicode.IsLetter(first)
}

// abbreviates reports whether short (at most MaxAbbreviationRunes runes,
// at most half of long's) abbreviates long: a prefix of it (Ave, Avenue;
// Corp, Corporation) or a contraction, its runes found in order in long
// and its last rune long's last (St, Street; Dept, Department; Blvd,
// Boulevard).
func abbreviates(short, long []rune) bool {
	if len(short) < 2 || len(short) > MaxAbbreviationRunes || 2*len(short) > len(long) {
		return false
	}
	if slices.Equal(short, long[:len(short)]) {
		return true
	}
	if short[len(short)-1] != long[len(long)-1] {
		return false
	}
	k := 0
	for _, r := range long {
		if k < len(short) && r == short[k] {
			k++
		}
	}
	return k == len(short)
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// isInitialOf reports whether x is the initial of the name whose key's
// runes are name: one upper-case letter, its first (Perry O., Perry
// Oliver).
func isInitialOf(x Token, name []rune) bool {
	r, size := utf8.DecodeRuneInString(x.Text)
	return size == len(x.Text) && unicode.IsUpper(r) && len(name) > 1
}

// editDistance returns the optimal-string-alignment distance between x
// and y (insertions, deletions, substitutions and transpositions of two
// adjacent runes: Egpytian, Egyptian is one edit), or limit+1 once it
// exceeds limit.
func editDistance(x, y []rune, limit int) int {
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}
