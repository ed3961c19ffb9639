package sentence

import (
	"embed"
	"strings"
	"sync"
)

// Rules are the splitting rules of one language; safe for concurrent use.
type Rules struct {
	// ascii is the terminator kind of each ASCII character.
	ascii [128]uint8
	// abbreviations and openers are the language's tables (see
	// abbreviations/*.txt and openers/*.txt); maxAbbreviationLen is the
	// length in bytes of the longest abbreviation.
	abbreviations      map[string]abbreviation
	maxAbbreviationLen int
	openers            map[string]bool
	// ordinals are the words that may follow an ordinal number ("19.
	// Jahrhundert") besides the month names (see ordinals/*.txt).
	ordinals map[string]bool
	// pronounI says that "I" after a word that does not start with an
	// upper-case letter is the English pronoun, not an initial.
	pronounI bool
}

//go:embed abbreviations/*.txt openers/*.txt ordinals/*.txt
var tables embed.FS

// language describes the rules of a language, built once on first use.
type language struct {
	tables    string // base name of the table files
	colonEnds bool   // an ASCII ':' is a full stop (Armenian)
	pronounI  bool
	once      sync.Once
	rules     *Rules
}

// languages maps the wiki language codes with rules of their own to them.
// The map and the pointers in it are never written after initialisation.
var languages = map[string]*language{
	"en": english,
	"de": {tables: "de"},
	"fr": {tables: "fr"},
	"es": {tables: "es"},
	"it": {tables: "it"},
	"ru": {tables: "ru"},
	"da": {tables: "da"},
	"ar": {tables: "ar"},
	"hy": {tables: "en", colonEnds: true},
}

var (
	english = &language{tables: "en", pronounI: true}
	neutral = &language{tables: "en"}
)

// RulesFor returns the rules for a wiki's language code ("en", "de", "hy",
// "simple" = English, "" or unknown = language-neutral rules with the
// English abbreviations). Codes like "zh-yue", "be-tarask" fall back to
// their base language. It returns the same *Rules for the same code.
func RulesFor(lang string) *Rules {
	l := neutral
	if lang != "" {
		if lang == "simple" {
			lang = "en"
		}
		base, _, _ := strings.Cut(lang, "-")
		if known, ok := languages[base]; ok {
			l = known
		}
	}
	l.once.Do(l.build)
	return l.rules
}

func (l *language) build() {
	r := &Rules{pronounI: l.pronounI}
	for _, c := range ".!?" {
		r.ascii[c] = latinTerminator
	}
	if l.colonEnds {
		r.ascii[':'] = latinTerminator
	}
	r.abbreviations, r.maxAbbreviationLen = parseAbbreviations(readTable("abbreviations/" + l.tables + ".txt"))
	r.openers = parseWords(readTable("openers/" + l.tables + ".txt"))
	r.ordinals = parseWords(readTable("ordinals/" + l.tables + ".txt"))
	l.rules = r
}

// readTable returns the embedded table file name, or "" if there is none.
func readTable(name string) string {
	data, err := tables.ReadFile(name)
	if err != nil {
		return ""
	}
	return string(data)
}

// parseWords returns the set of the words of data, one a line; '#' starts
// a comment.
func parseWords(data string) map[string]bool {
	words := map[string]bool{}
	for line := range strings.Lines(data) {
		line, _, _ = strings.Cut(line, "#")
		if word := strings.TrimSpace(line); word != "" {
			words[word] = true
		}
	}
	return words
}
