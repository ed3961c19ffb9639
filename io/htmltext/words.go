package htmltext

import (
	"embed"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// isCJK reports whether r belongs to a script written without spaces
// between words, whose characters count as a word each.
func isCJK(r rune) bool {
	return r >= 0x2e80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r))
}

// words calls yield for each word of s and its width in columns: a run of
// non-space characters with a letter or a digit, each Han, Hiragana or
// Katakana character being a word of two columns of its own. Runs of
// punctuation alone are not words.
func words(s string, yield func(w string, width int)) {
	start, width, alnum := -1, 0, false
	flush := func(end int) {
		if start >= 0 && alnum {
			yield(s[start:end], width)
		}
		start, width, alnum = -1, 0, false
	}
	for i, r := range s {
		switch {
		case unicode.IsSpace(r):
			flush(i)
		case isCJK(r):
			flush(i)
			yield(s[i:i+utf8.RuneLen(r)], 2)
		default:
			if start < 0 {
				start = i
			}
			width++
			alnum = alnum || unicode.IsLetter(r) || unicode.IsDigit(r)
		}
	}
	flush(len(s))
}

// countWords returns how many words s has.
func countWords(s string) int {
	n := 0
	words(s, func(string, int) { n++ })
	return n
}

// wrapWidth is the line width at which Kohlschütter et al. wrap a block's
// text to measure its text density.
const wrapWidth = 80

// textDensity returns s's words and its text density: the words per line
// of the lines filled to wrapWidth columns when s is wrapped (the last,
// partial line not counted), or its word count if it fits on one line.
func textDensity(s string) (n int, density float64) {
	lines, lineLen, lineWords := 0, 0, 0
	words(s, func(_ string, width int) {
		n++
		lineWords++
		lineLen += width + 1
		if lineLen > wrapWidth {
			lines++
			lineLen, lineWords = width, 1
		}
	})
	if lines == 0 {
		return n, float64(n)
	}
	return n, float64(n-lineWords) / float64(lines)
}

// hasSentenceEnd reports whether s has a sentence's final punctuation: one
// of . ! ? … followed by a space, a closing quote or bracket, or the end,
// or a CJK, Greek, Arabic or Devanagari full stop or question mark.
func hasSentenceEnd(s string) bool {
	prev := rune(-1)
	for _, r := range s {
		switch r {
		case '。', '！', '？', '｡', ';', '؟', '۔', '।':
			return true
		}
		if isFinalStop(prev) && (unicode.IsSpace(r) || strings.ContainsRune(`"')]»”’`, r)) {
			return true
		}
		prev = r
	}
	return isFinalStop(prev)
}

func isFinalStop(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '…' }

//go:embed stopwords/*.txt
var stopwordFiles embed.FS

// stopLang is a language with a stopword list: its tag and its bit in the
// stopword table.
type stopLang struct {
	tag string
	bit uint32
}

// stopTable maps each stopword to the set of languages (bits) that list it.
type stopTable struct {
	langs []stopLang
	words map[string]uint32
}

// stopwords returns the stopword table built from stopwords/*.txt: one
// file per language, named after its tag, a word per line.
var stopwords = sync.OnceValue(func() *stopTable {
	t := &stopTable{words: make(map[string]uint32)}
	entries, _ := stopwordFiles.ReadDir("stopwords")
	for i, e := range entries {
		data, _ := stopwordFiles.ReadFile("stopwords/" + e.Name())
		l := stopLang{tag: strings.TrimSuffix(e.Name(), ".txt"), bit: 1 << i}
		t.langs = append(t.langs, l)
		for _, w := range strings.Fields(string(data)) {
			t.words[strings.ToLower(w)] |= l.bit
		}
	}
	return t
})

// lookup returns the language whose tag (primary subtag) is lang.
func (t *stopTable) lookup(lang string) (stopLang, bool) {
	primary, _, _ := strings.Cut(lang, "-")
	for _, l := range t.langs {
		if l.tag == primary {
			return l, true
		}
	}
	return stopLang{}, false
}

// normWords calls yield with each word of s lower-cased, stripped of
// leading and trailing punctuation and split at apostrophes ("l'homme"
// gives "l" and "homme").
func normWords(s string, yield func(w string)) {
	words(s, func(w string, _ int) {
		for part := range strings.FieldsFuncSeq(w, func(r rune) bool { return r == '\'' || r == '’' }) {
			part = strings.TrimFunc(part, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
			if part != "" {
				yield(strings.ToLower(part))
			}
		}
	})
}

// minStopShare is the share of a text's words that must be stopwords of a
// language for guessLang to pick it: below, the text is in none of them.
const minStopShare = 0.05

// guessLang returns the language whose stopwords are most frequent in
// paras, and false if none reaches minStopShare of the words.
func (t *stopTable) guessLang(paras []string) (stopLang, bool) {
	hits := make([]int, len(t.langs))
	total := 0
	for _, p := range paras {
		normWords(p, func(w string) {
			total++
			bits := t.words[w]
			for i := range t.langs {
				if bits&t.langs[i].bit != 0 {
					hits[i]++
				}
			}
		})
	}
	best := -1
	for i, h := range hits {
		if h > 0 && (best < 0 || h > hits[best]) {
			best = i
		}
	}
	if best < 0 || float64(hits[best]) < minStopShare*float64(total) {
		return stopLang{}, false
	}
	return t.langs[best], true
}

// count returns how many words of s are stopwords of l.
func (t *stopTable) count(s string, l stopLang) int {
	n := 0
	normWords(s, func(w string) {
		if t.words[w]&l.bit != 0 {
			n++
		}
	})
	return n
}
