package categorize

import (
	"strings"
	"testing"
	"unicode"
)

// TestPlainWordKind checks that the one-lookup path of Tokenize gives every
// word the kind and key of wordKind and canonicalKey: every word of the
// tables, capitalised and not, at a sentence's start and inside it.
func TestPlainWordKind(t *testing.T) {
	words := []string{"seven", "Seven", "twenty-one", "third", "Third", "defence", "colour", "organisation", "ft", "feet",
		"May", "may", "March", "The", "the", "I", "U.S.", "B.C.", "Échelle", "analysed", "realise", "ten", "Ten"}
	for _, m := range []map[string]string{spellings, unitSingles} {
		for w := range m {
			words = append(words, w)
		}
	}
	for _, m := range []map[string]int{numberWords, ordinals} {
		for w := range m {
			words = append(words, w)
		}
	}
	checkPlainWords(t, words)
}

// TestPlainWordKindKatrina does the same for every word of the Katrina
// export.
func TestPlainWordKindKatrina(t *testing.T) {
	var words []string
	for _, s := range loadKatrina(t) {
		words = append(words, strings.FieldsFunc(s.text, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' && r != '.' })...)
	}
	checkPlainWords(t, words)
}

func checkPlainWords(t *testing.T, words []string) {
	t.Helper()
	for _, w := range words {
		if w == "" {
			continue
		}
		for _, v := range []string{w, strings.ToUpper(w[:1]) + w[1:]} {
			lower := strings.ToLower(v)
			for _, start := range []bool{false, true} {
				wantKind := wordKind(Token{Text: v, lower: lower}, start)
				wantKey := canonicalKey(lower, wantKind)
				kind, key := plainWordKind(v, lower, start)
				if key == "" {
					key = canonicalKey(lower, kind)
				}
				if kind != wantKind || key != wantKey {
					t.Fatalf("plainWordKind(%q, start %v) = %s %q, want %s %q", v, start, kind, key, wantKind, wantKey)
				}
			}
		}
	}
}
