package distinct

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/neardup/neardup/testkit/corpus"
)

// The text of the distinct corpus beyond the chain's sentences: titles,
// template sentences, citations, edits of copies and their wikitext.

// frames are sentences of the kind that bots wrote for whole groups of
// stubs, after the templates Weissman et al. and Ayhan et al. show: every
// member of a template cluster fills {S}, its subject, with another name;
// the other slots ({A}, {B}, {C}: names; {Y}: a year; {D}: a direction) are
// filled once per cluster, as the stubs of one district or one family
// share them. Each is long enough (over 100 characters) to be signed.
var frames = []string{
	"{S} is a village in the administrative district of Gmina {A}, within {B} County, {C} Voivodeship, in {D} Poland.",
	"{S} is a species of sea snail, a marine gastropod mollusk in the family {A}idae, the {B} snails and their allies.",
	"{S} is a moth of the family {A}idae that was first described by {B} {C} in {Y} and is found in the {D} of the country.",
	"{S} is a commune in the {A} department in the {B} region in {D} France, on the left bank of the {C}.",
	"{S} is an unincorporated community in {A} County, {B}, United States, located along the {C} River.",
	"{S} is a genus of flowering plants belonging to the family {A}aceae, native to the tropical regions of {B} and {C}.",
	"{S} is a former municipality in the district of {A} in the canton of {B}, Switzerland, which merged into {C} in {Y}.",
	"{S} was a Roman Catholic titular see in the former Roman province of {A}, in what is now the {D} of {B}.",
	"{S} is a village in the {A} Rural District of the {B} District of {C} Province, in the {D} of the country, with a population recorded at the {Y} census.",
	"{S} is a football club based in {A}, which plays in the {B} League and has its home ground at {C} Park since {Y}.",
}

var directions = []string{"east-central", "southern", "northern", "western", "eastern", "south-eastern", "north-western", "central"}

var disambiguators = []string{"album", "film", "band", "novel", "river", "village", "ship", "song", "surname", "politician", "footballer", "horse"}

var months = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}

var insertedWords = []string{"also", "later", "then", "still", "further", "originally", "officially", "eventually", "largely", "mainly"}

var swappedWords = map[string]string{
	"which": "that", "that": "which", "while": "whereas", "whereas": "while", "although": "though", "though": "although",
	"about": "around", "around": "about", "among": "amongst", "amongst": "among", "until": "till", "towards": "toward",
	"toward": "towards", "upon": "on", "whilst": "while", "often": "frequently", "frequently": "often",
}

// notNames are capitalised words of the training text that are not names.
var notNames = map[string]bool{
	"The": true, "This": true, "That": true, "These": true, "Those": true, "There": true, "Then": true, "They": true,
	"When": true, "While": true, "After": true, "Before": true, "During": true, "However": true, "Its": true,
	"His": true, "Her": true, "And": true, "But": true, "For": true, "With": true, "From": true, "Some": true,
	"Many": true, "Most": true, "Other": true, "Since": true, "Although": true, "Because": true, "Also": true,
	"Who": true, "What": true, "Which": true, "Where": true, "Not": true, "All": true, "One": true, "Two": true,
}

// title returns a new page title.
func (g *generator) title(rng *rand.Rand) string {
	c := g.m.chain
	switch r := rng.IntN(10); {
	case r < 3:
		return c.name(rng)
	case r < 8:
		return c.name(rng) + " " + c.name(rng)
	case r < 9:
		return c.name(rng) + " of " + c.name(rng)
	default:
		return c.name(rng) + " (" + disambiguators[rng.IntN(len(disambiguators))] + ")"
	}
}

// subject returns the subject of a template member: one name or two.
func (g *generator) subject(rng *rand.Rand) []string {
	c := g.m.chain
	if rng.IntN(10) < 3 {
		return []string{c.name(rng), c.name(rng)}
	}
	return []string{c.name(rng)}
}

// fillFrame returns a frame with its cluster's slots filled, the subject
// left as {S}.
func (g *generator) fillFrame(rng *rand.Rand) string {
	c := g.m.chain
	f := frames[rng.IntN(len(frames))]
	return strings.NewReplacer(
		"{A}", c.name(rng), "{B}", c.name(rng), "{C}", c.name(rng),
		"{Y}", strconv.Itoa(1850+rng.IntN(170)), "{D}", directions[rng.IntN(len(directions))],
	).Replace(f)
}

// citation returns the text of a citation as a reference or a
// bibliography shows it, in one of three common styles, with a title made
// of the chain's words.
func (g *generator) citation(rng *rand.Rand) string {
	c := g.m.chain
	g.words = g.run(g.words[:0], 4+rng.IntN(7))
	title := strings.Join(g.words, " ")
	if r, n := utf8.DecodeRuneInString(title); n > 0 && r >= 'a' && r <= 'z' {
		title = string(r-'a'+'A') + title[n:]
	}
	year := 1950 + rng.IntN(70)
	var b strings.Builder
	switch rng.IntN(3) {
	case 0:
		b.WriteString(c.name(rng) + ", " + c.name(rng) + " (" + strconv.Itoa(year) + "). ''" + title + "''. ")
		b.WriteString(c.name(rng) + ": " + publisher(c, rng) + ". p. " + strconv.Itoa(1+rng.IntN(600)) + ".")
	case 1:
		first := 1 + rng.IntN(400)
		b.WriteString(c.name(rng) + " " + c.name(rng) + " (" + strconv.Itoa(year) + "). \"" + title + "\". ''")
		b.WriteString(journal(c, rng) + "'' " + strconv.Itoa(1+rng.IntN(80)) + " (" + strconv.Itoa(1+rng.IntN(12)) + "): ")
		b.WriteString(strconv.Itoa(first) + "–" + strconv.Itoa(first+1+rng.IntN(30)) + ".")
	default:
		b.WriteString("\"" + title + "\". ''" + newspaper(c, rng) + "''. " + date(rng, year) + ". Retrieved " + date(rng, year+1+rng.IntN(8)) + ".")
	}
	return b.String()
}

// citeTemplate returns a {{cite …}} template, which the cleaner removes
// whole, as most references of real pages are.
func (g *generator) citeTemplate(rng *rand.Rand) string {
	c := g.m.chain
	g.words = g.run(g.words[:0], 3+rng.IntN(6))
	title := strings.Join(g.words, " ")
	year := 1990 + rng.IntN(30)
	switch rng.IntN(3) {
	case 0:
		return "{{cite web |url=http://www." + strings.ToLower(c.name(rng)) + ".org/" + strings.ToLower(c.name(rng)) + "/" +
			strconv.Itoa(rng.IntN(100000)) + ".html |title=" + title + " |publisher=" + publisher(c, rng) +
			" |accessdate=" + date(rng, year) + "}}"
	case 1:
		return "{{cite book |last=" + c.name(rng) + " |first=" + c.name(rng) + " |title=" + title + " |publisher=" +
			publisher(c, rng) + " |year=" + strconv.Itoa(year) + " |isbn=978-" + digits(rng, 1) + "-" + digits(rng, 4) +
			"-" + digits(rng, 4) + "-" + digits(rng, 1) + " |page=" + strconv.Itoa(1+rng.IntN(500)) + "}}"
	default:
		return "{{cite news |title=" + title + " |newspaper=" + newspaper(c, rng) + " |date=" + date(rng, year) +
			" |url=http://www." + strings.ToLower(c.name(rng)) + ".com/news/" + strconv.Itoa(rng.IntN(1000000)) + "}}"
	}
}

func publisher(c *chain, rng *rand.Rand) string {
	switch rng.IntN(4) {
	case 0:
		return c.name(rng) + " University Press"
	case 1:
		return c.name(rng) + " Press"
	case 2:
		return c.name(rng) + " Books"
	}
	return c.name(rng) + " & " + c.name(rng)
}

func journal(c *chain, rng *rand.Rand) string {
	switch rng.IntN(3) {
	case 0:
		return "Journal of " + c.name(rng) + " Studies"
	case 1:
		return c.name(rng) + " Review"
	}
	return c.name(rng) + " Quarterly"
}

func newspaper(c *chain, rng *rand.Rand) string {
	switch rng.IntN(3) {
	case 0:
		return "The " + c.name(rng) + " Times"
	case 1:
		return c.name(rng) + " Herald"
	}
	return "The " + c.name(rng) + " Post"
}

func date(rng *rand.Rand, year int) string {
	return strconv.Itoa(1+rng.IntN(28)) + " " + months[rng.IntN(12)] + " " + strconv.Itoa(year)
}

func digits(rng *rand.Rand, n int) string {
	return string(corpus.AppendDigits(nil, rng, n))
}

// copyEdit returns a copy of words with one stylistic edit, two in a long
// sentence: a word deleted or inserted, a function word swapped for
// another, or a comma added or removed. Names and numbers are left alone,
// so that the copy says the same thing.
func copyEdit(words []string, rng *rand.Rand) []string {
	out := append([]string(nil), words...)
	edits := 1
	if len(words) >= 30 {
		edits = 2
	}
	for e := 0; e < edits; e++ {
		for try := 0; try < 8; try++ {
			if len(out) < 4 {
				return out
			}
			k := 1 + rng.IntN(len(out)-2) // neither the first word nor the last
			w := out[k]
			lower := isLowerWord(w)
			switch rng.IntN(4) {
			case 0:
				if !lower {
					continue
				}
				out = append(out[:k], out[k+1:]...)
			case 1:
				if !lower {
					continue
				}
				out = append(out[:k+1], out[k:]...)
				out[k] = insertedWords[rng.IntN(len(insertedWords))]
			case 2:
				s, ok := swappedWords[w]
				if !ok {
					continue
				}
				out[k] = s
			default:
				switch {
				case strings.HasSuffix(w, ",") && isLowerWord(w[:len(w)-1]):
					out[k] = w[:len(w)-1]
				case lower:
					out[k] = w + ","
				default:
					continue
				}
			}
			break
		}
	}
	return out
}

// isLowerWord reports whether w is a word of lower-case ASCII letters.
func isLowerWord(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// hasNumber reports whether a word of words holds a digit.
func hasNumber(words []string) bool {
	for _, w := range words {
		if strings.ContainsAny(w, "0123456789") {
			return true
		}
	}
	return false
}

// changeNumber returns a copy of words with one number changed, as a fact
// updated in one copy and not in another: a year moves by 1 to 9 years,
// another number becomes another of as many digits.
func changeNumber(words []string, rng *rand.Rand) []string {
	var at []int
	for k, w := range words {
		if strings.ContainsAny(w, "0123456789") {
			at = append(at, k)
		}
	}
	out := append([]string(nil), words...)
	if len(at) == 0 {
		return out
	}
	k := at[rng.IntN(len(at))]
	w := out[k]
	// The first run of digits of the word.
	i := strings.IndexAny(w, "0123456789")
	j := i
	for j < len(w) && w[j] >= '0' && w[j] <= '9' {
		j++
	}
	old := w[i:j]
	var repl string
	if n, err := strconv.Atoi(old); err == nil && len(old) == 4 && n >= 1500 && n <= 2030 {
		d := 1 + rng.IntN(9)
		if rng.IntN(2) == 0 || n+d > 2030 {
			d = -d
		}
		repl = strconv.Itoa(n + d)
	} else {
		for range 8 {
			if repl = digits(rng, len(old)); repl != old && repl != "0" {
				break
			}
		}
	}
	out[k] = w[:i] + repl + w[j:]
	return out
}

// appendWiki appends a sentence's words as escaped wikitext, with links:
// a run of capitalised words becomes [[Run]] (sometimes piped from a
// disambiguated title), now and then a common word [[word]].
func appendWiki(dst []byte, words []string, rng *rand.Rand) []byte {
	for k := 0; k < len(words); k++ {
		if k > 0 {
			dst = append(dst, ' ')
		}
		w := words[k]
		switch {
		case k > 0 && w[0] >= 'A' && w[0] <= 'Z' && isName(trimPunct(w)) && rng.IntN(6) == 0:
			// A link over this name and the capitalised words after it.
			end := k + 1
			for end < len(words) && end < k+3 && words[end-1] == trimPunct(words[end-1]) && isName(trimPunct(words[end])) {
				end++
			}
			last := words[end-1]
			label := strings.Join(words[k:end-1], " ")
			if label != "" {
				label += " "
			}
			bare := trimPunct(last)
			label += bare
			dst = append(dst, "[["...)
			if rng.IntN(5) == 0 {
				dst = corpus.AppendEscaped(dst, label+" ("+disambiguators[rng.IntN(len(disambiguators))]+")")
				dst = append(dst, '|')
			}
			dst = corpus.AppendEscaped(dst, label)
			dst = append(dst, "]]"...)
			dst = corpus.AppendEscaped(dst, last[len(bare):])
			k = end - 1
		case len(w) >= 6 && isLowerWord(w) && rng.IntN(60) == 0:
			dst = append(dst, "[["...)
			dst = append(dst, w...)
			dst = append(dst, "]]"...)
		default:
			dst = corpus.AppendEscaped(dst, w)
		}
	}
	return dst
}

// trimPunct returns w without its trailing ",.;:".
func trimPunct(w string) string {
	i := len(w)
	for i > 0 && (w[i-1] == ',' || w[i-1] == '.' || w[i-1] == ';' || w[i-1] == ':') {
		i--
	}
	return w[:i]
}

// runes returns the number of characters of the words joined by spaces:
// what the pipeline's shingle window measures.
func runes(words []string) int {
	n := len(words) - 1
	for _, w := range words {
		n += utf8.RuneCountInString(w)
	}
	return max(n, 0)
}
