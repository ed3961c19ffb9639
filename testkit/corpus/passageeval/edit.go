package passageeval

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/tokenspan"
)

// editor edits sentences for the kinds of copy, drawing from a random
// source: it changes numbers, puts synonyms for English words, drops
// English adjectives and adverbs, and, in any language, puts another word
// of the corpus (vocab) for a word.
type editor struct {
	rng   *rand.Rand
	vocab []string // words of four letters or more, lower case, sorted
	lang  string
}

// edit is one way to change one word or number of a sentence.
type edit func(text string) string

// edits lists the single edits that apply to text. The first word is left
// alone, so that the sentence still starts as a sentence.
func (e *editor) edits(text string) []edit {
	ws := tokenspan.Words(text)
	if len(ws) < 2 {
		return nil
	}
	var out []edit
	for _, n := range tokenspan.Numbers(text) {
		if n.Start > ws[0].Start {
			out = append(out, func(t string) string { return tokenspan.Replace(t, n, e.number(t[n.Start:n.End])) })
		}
	}
	for _, w := range ws[1:] {
		word := text[w.Start:w.End]
		lower := strings.ToLower(word)
		if syn, ok := synonyms[lower]; ok && e.lang == "en" {
			out = append(out, func(t string) string { return tokenspan.Replace(t, w, tokenspan.MatchCase(word, syn)) })
		}
		if droppable[lower] && e.lang == "en" && w.Start > 0 && text[w.Start-1] == ' ' && w.End < len(text) && text[w.End] == ' ' {
			out = append(out, func(t string) string { return t[:w.Start] + t[w.End+1:] })
		}
		if utf8.RuneCountInString(word) >= 4 && len(e.vocab) > 0 {
			out = append(out, func(t string) string { return tokenspan.Replace(t, w, tokenspan.MatchCase(word, e.word(lower))) })
		}
	}
	return out
}

// number returns digits with one digit changed (never to a leading zero).
func (e *editor) number(digits string) string {
	b := []byte(digits)
	i := e.rng.IntN(len(b))
	d := int(b[i]-'0') + 1 + e.rng.IntN(8)
	if d%10 == 0 && i == 0 && len(b) > 1 {
		d++
	}
	b[i] = byte('0' + d%10)
	return string(b)
}

// word returns a word of the vocabulary other than not, of about its
// length (two letters more or fewer) and in its script, as a copy-editor
// puts one word for another; any other word if a thousand draws find
// none such.
func (e *editor) word(not string) string {
	n := utf8.RuneCountInString(not)
	r, _ := utf8.DecodeRuneInString(not)
	script := scriptOf(r)
	w := not
	for range 1000 {
		w = e.vocab[e.rng.IntN(len(e.vocab))]
		first, _ := utf8.DecodeRuneInString(w)
		if m := utf8.RuneCountInString(w); w != not && m >= n-2 && m <= n+2 && scriptOf(first) == script {
			break
		}
	}
	return w
}

// scripts are the scripts scriptOf tells apart.
var scripts = []*unicode.RangeTable{
	unicode.Latin, unicode.Greek, unicode.Cyrillic, unicode.Armenian, unicode.Georgian, unicode.Hebrew,
	unicode.Arabic, unicode.Devanagari, unicode.Bengali, unicode.Thai, unicode.Han, unicode.Hiragana,
	unicode.Katakana, unicode.Hangul,
}

// scriptOf returns the index in scripts of r's script, or -1.
func scriptOf(r rune) int {
	for i, t := range scripts {
		if unicode.Is(t, r) {
			return i
		}
	}
	return -1
}

// reword changes one or two words or numbers of text, each edit drawn from
// those that apply (edits); ok is false if none does.
func (e *editor) reword(text string) (string, bool) {
	n := 1 + e.rng.IntN(2)
	out := text
	for range n {
		// Edits are listed on the text as it is: positions move with
		// every edit.
		es := e.edits(out)
		if len(es) == 0 {
			break
		}
		out = es[e.rng.IntN(len(es))](out)
	}
	return out, out != text
}

// paraphrase rewrites text heavily: its clauses reordered (the part after
// its first comma put first) and half of its words of four letters or
// more replaced, by a synonym if there is one, else by another word of the
// corpus.
func (e *editor) paraphrase(text string) string {
	text = reorder(text)
	ws := tokenspan.Words(text)
	var long []tokenspan.Span
	for _, w := range ws[1:] {
		if utf8.RuneCountInString(text[w.Start:w.End]) >= 4 {
			long = append(long, w)
		}
	}
	e.rng.Shuffle(len(long), func(i, j int) { long[i], long[j] = long[j], long[i] })
	long = long[:(len(long)+1)/2]
	// Replace from the end, so that earlier positions stay valid.
	slices.SortFunc(long, func(x, y tokenspan.Span) int { return cmp.Compare(y.Start, x.Start) })
	for _, w := range long {
		word := text[w.Start:w.End]
		lower := strings.ToLower(word)
		with, ok := synonyms[lower]
		if !ok || e.lang != "en" {
			if len(e.vocab) == 0 {
				continue
			}
			with = e.word(lower)
		}
		text = tokenspan.Replace(text, w, tokenspan.MatchCase(word, with))
	}
	return text
}

// reorder moves the clause after a sentence's first comma to its front:
// "In 1990, the town grew." becomes "The town grew, in 1990." The
// sentence's final punctuation (Greek's question mark too) stays last. A sentence without a comma is
// returned as it is.
func reorder(text string) string {
	body := strings.TrimRightFunc(text, func(r rune) bool {
		return unicode.In(r, unicode.Sentence_Terminal, unicode.Terminal_Punctuation)
	})
	end := text[len(body):]
	i := strings.Index(body, ", ")
	if i <= 0 || i+2 >= len(body) {
		return text
	}
	first, rest := body[:i], body[i+2:]
	return upperFirst(rest) + ", " + lowerFirst(first) + end
}

// upperFirst capitalises the first letter of s.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// lowerFirst puts the first letter of s in lower case, unless the word is
// an acronym (its second letter is upper case too).
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r2, _ := utf8.DecodeRuneInString(s[n:]); unicode.IsUpper(r2) {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// synonyms are English words and a word that can stand for each in most
// sentences: the light edits a copy-editor makes.
var synonyms = map[string]string{
	"large": "big", "big": "large", "small": "little", "little": "small", "began": "started",
	"started": "began", "begin": "start", "start": "begin", "major": "main", "main": "principal",
	"important": "significant", "significant": "important", "famous": "renowned", "often": "frequently",
	"frequently": "often", "usually": "typically", "typically": "usually", "several": "various",
	"various": "several", "many": "numerous", "numerous": "many", "city": "town", "town": "city",
	"area": "region", "region": "area", "country": "nation", "nation": "country", "built": "constructed",
	"constructed": "built", "created": "made", "made": "created", "used": "employed", "called": "named",
	"named": "called", "early": "initial", "first": "initial", "shows": "reveals", "includes": "contains",
	"include": "contain", "included": "contained", "helped": "aided", "about": "around", "around": "about",
	"between": "among", "during": "throughout", "because": "since", "although": "though",
	"though": "although", "while": "whereas", "similar": "comparable", "different": "distinct",
	"distinct": "different", "common": "widespread", "modern": "contemporary", "ancient": "old",
	"rapidly": "quickly", "quickly": "rapidly", "largest": "biggest", "biggest": "largest", "wrote": "penned",
	"said": "stated", "stated": "said", "described": "depicted", "considered": "regarded",
	"regarded": "considered", "believed": "thought", "allowed": "permitted", "permitted": "allowed",
	"caused": "produced", "destroyed": "ruined", "damaged": "harmed", "located": "situated",
	"situated": "located", "approximately": "roughly", "roughly": "approximately", "nearly": "almost",
	"almost": "nearly", "mostly": "largely", "largely": "mostly", "mainly": "chiefly",
	"primarily": "mainly", "especially": "particularly", "particularly": "especially", "entire": "whole",
	"whole": "entire", "total": "overall", "moved": "relocated", "remained": "stayed", "stayed": "remained",
	"appeared": "emerged", "finished": "completed", "completed": "finished", "attempted": "tried",
	"tried": "attempted", "war": "conflict", "received": "got", "returned": "came back",
	"known": "recognised", "became": "grew", "later": "subsequently", "however": "nevertheless",
	"people": "persons", "work": "labour", "works": "writings", "new": "novel", "old": "aged",
}

// droppable are English adjectives and adverbs that most sentences read
// well without.
var droppable = map[string]bool{
	"very": true, "also": true, "new": true, "old": true, "large": true, "small": true, "major": true,
	"first": true, "early": true, "several": true, "many": true, "important": true, "main": true,
	"great": true, "long": true, "popular": true, "famous": true, "original": true, "modern": true,
	"ancient": true, "various": true, "local": true, "national": true, "public": true, "significant": true,
	"often": true, "still": true, "only": true, "already": true, "widely": true, "largely": true,
	"mostly": true, "especially": true, "generally": true, "usually": true, "eventually": true,
	"initially": true, "officially": true, "severe": true, "strong": true, "heavy": true,
}
