package webcorpus

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// token matches the words a template's slots may hold: capitalised words
// and numbers. Masking them turns a sentence into its template key.
var token = regexp.MustCompile(`\p{Lu}[\p{L}'’-]*|[0-9](?:[0-9.,]*[0-9])?`)

// Template families: sentences of one dump that are equal once their
// capitalised words and numbers are masked, in at least minFamily
// articles, with at least two texts, and at least minSkeleton letters
// left unmasked.
const (
	minFamily   = 3
	minSkeleton = 30
)

// family is the sentences of a source sharing one template key, by
// article index.
type family struct {
	key   string
	texts map[int]string
}

// templateKey masks the slot words of s.
func templateKey(s string) string {
	return token.ReplaceAllStringFunc(s, func(w string) string {
		if c := w[0]; '0' <= c && c <= '9' {
			return "#"
		}
		return "X"
	})
}

// families finds the template families of a source's articles.
func families(arts []Article) map[string]*family {
	all := map[string]*family{}
	for ai := range arts {
		for _, s := range arts[ai].Sentences {
			if !s.Prose {
				continue
			}
			k := templateKey(s.Text)
			f := all[k]
			if f == nil {
				f = &family{key: k, texts: map[int]string{}}
				all[k] = f
			}
			f.texts[ai] = s.Text
		}
	}
	out := map[string]*family{}
	for k, f := range all {
		if len(f.texts) >= minFamily && distinct(f.texts) >= 2 && letters(k) >= minSkeleton {
			out[k] = f
		}
	}
	return out
}

func distinct(texts map[int]string) int {
	seen := map[string]bool{}
	for _, t := range texts {
		seen[t] = true
	}
	return len(seen)
}

func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) && r != 'X' {
			n++
		}
	}
	return n
}

// templated returns the ordinals of the sentences of article ai that
// belong to a family, one per key.
func templated(a *Article, ai int, fams map[string]*family) []int {
	var out []int
	seen := map[string]bool{}
	for i, s := range a.Sentences {
		k := templateKey(s.Text)
		if f := fams[k]; f != nil && s.Prose && !seen[k] && f.texts[ai] == s.Text {
			seen[k] = true
			out = append(out, i)
		}
	}
	return out
}

// slots returns, for each token of the template of text, whether the page
// must replace it: a number, a word that differs among the family's
// sentences, or a word of the article's title.
func slots(text string, f *family, title string) []bool {
	locs := token.FindAllStringIndex(text, -1)
	others := make([][][]int, 0, len(f.texts))
	var texts []string
	for _, t := range f.texts {
		texts = append(texts, t)
	}
	slices.Sort(texts)
	for _, t := range texts {
		others = append(others, token.FindAllStringIndex(t, -1))
	}
	titleWords := map[string]bool{}
	for _, w := range token.FindAllString(title, -1) {
		titleWords[w] = true
	}
	out := make([]bool, len(locs))
	for i, l := range locs {
		w := text[l[0]:l[1]]
		out[i] = isNumber(w) && !isYear(w) || titleWords[w] || sameStem(w, titleWords)
		for j, o := range others {
			if len(o) == len(locs) && texts[j][o[i][0]:o[i][1]] != w && !isYear(w) {
				out[i] = true
			}
		}
	}
	return out
}

// sameStem reports whether w and one of words of four letters or more
// differ only in their last two letters (a declined form of a title word).
func sameStem(w string, words map[string]bool) bool {
	a := []rune(w)
	for t := range words {
		b := []rune(t)
		if len(a) < 4 || len(b) < 4 {
			continue
		}
		n := min(len(a), len(b)) - 2
		if string(a[:n]) == string(b[:n]) {
			return true
		}
	}
	return false
}

// isYear reports whether w is a year of 1500 to 2099: a date, kept, not
// one of the entity's numbers.
func isYear(w string) bool {
	return len(w) == 4 && isNumber(w) && ("1500" <= w && w <= "2099")
}

func isNumber(w string) bool { return w != "" && '0' <= w[0] && w[0] <= '9' }

// namer invents the names and numbers of a made-up entity, consistently:
// a word's stem is replaced by the same invented stem wherever it occurs
// and keeps its ending, so declined forms stay declined.
type namer struct {
	r     *rng
	stems map[string]string
	used  map[string]bool
}

func newNamer(r *rng) *namer {
	return &namer{r: r, stems: map[string]string{}, used: map[string]bool{}}
}

// fill returns text with its slot tokens replaced, and the replacements
// ("old → new").
func (n *namer) fill(text string, slot []bool) (string, []string) {
	locs := token.FindAllStringIndex(text, -1)
	var b strings.Builder
	var edits []string
	last := 0
	for i, l := range locs {
		if i >= len(slot) || !slot[i] {
			continue
		}
		w := text[l[0]:l[1]]
		nw := n.replace(w)
		b.WriteString(text[last:l[0]])
		b.WriteString(nw)
		last = l[1]
		edits = append(edits, w+" → "+nw)
	}
	b.WriteString(text[last:])
	return b.String(), edits
}

// replace returns the made-up stand-in of a name or number.
func (n *namer) replace(w string) string {
	if isNumber(w) {
		return n.number(w)
	}
	runes := []rune(w)
	end := 0
	switch {
	case len(runes) >= 6:
		end = 2
	case len(runes) >= 4:
		end = 1
	}
	stem, ending := string(runes[:len(runes)-end]), string(runes[len(runes)-end:])
	ns, ok := n.stems[stem]
	for !ok || ns == stem {
		ns = n.invent(runes[0], utf8.RuneCountInString(stem))
		ok = !n.used[ns]
	}
	n.stems[stem], n.used[ns] = ns, true
	return ns + ending
}

// number returns a different number of the same shape.
func (n *namer) number(w string) string {
	for {
		b := []byte(w)
		for i, c := range b {
			if '0' <= c && c <= '9' {
				b[i] = byte('0' + n.r.intn(10))
				if i == 0 {
					b[i] = byte('1' + n.r.intn(9))
				}
			}
		}
		if string(b) != w {
			return string(b)
		}
	}
}

// alphabets are consonants and vowels of the scripts names are made in.
var alphabets = []struct {
	table              *unicode.RangeTable
	consonants, vowels []rune
}{
	{unicode.Cyrillic, []rune("бвгдзклмнпрстхчш"), []rune("аеиоуяі")},
	{unicode.Greek, []rune("βγδζθκλμνπρστφχ"), []rune("αεηιουω")},
	{unicode.Latin, []rune("bcdfghklmnprstvz"), []rune("aeiou")},
}

// invent makes a capitalised stem of about size letters in the script of
// like.
func (n *namer) invent(like rune, size int) string {
	a := alphabets[len(alphabets)-1]
	for _, al := range alphabets {
		if unicode.Is(al.table, like) {
			a = al
			break
		}
	}
	size = max(size, 3)
	out := make([]rune, 0, size)
	for i := 0; len(out) < size; i++ {
		if i%2 == 0 {
			out = append(out, a.consonants[n.r.intn(len(a.consonants))])
		} else {
			out = append(out, a.vowels[n.r.intn(len(a.vowels))])
		}
	}
	out[0] = unicode.ToUpper(out[0])
	return string(out)
}
