// Package alias learns, from a wiki's own dump, which names written in its
// text name one article, so that "Côte d'Ivoire" replaced by "Ivory Coast"
// reads as the same entity under two names, not as a changed fact.
//
// A redirect makes its title another name of its target; a link says that
// the text it shows names the page it targets; a page's title names the
// page. From these claims Build makes a Table per wiki: for each name, the
// few articles it names most often. Nothing here knows a language: every
// name comes from the wiki's own pages.
//
//   - Title normalises a title as MediaWiki does; Key folds a name for
//     lookups.
//   - The table is bounded (MaxSenses, Config.MaxNames) and the same, byte
//     for byte, whatever the order the claims come in.
//
// In full: docs/categories.md, "Two names of one article".
package alias

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Title normalises a page title as MediaWiki does: the fragment after '#'
// dropped, underscores read as spaces, runs of white space collapsed and
// trimmed, and the first letter in upper case. "ivory_coast#History" is
// "Ivory coast".
func Title(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	var b strings.Builder
	b.Grow(len(s))
	space, first := false, true
	for _, r := range s {
		if r == '_' || unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if first {
			r, first = unicode.ToUpper(r), false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Key is the form of a name used for lookups: its Title with case folded,
// white space, underscores and punctuation dropped, and the nonspacing
// marks of cased letters removed (after canonical decomposition). Marks of
// letters without case (the vowel signs of Indic scripts, the voicing
// marks of kana) are kept: there they are letters, not accents. A name
// made only of what is dropped has the empty key.
func Key(name string) string {
	if i := strings.IndexByte(name, '#'); i >= 0 {
		name = name[:i]
	}
	if !isASCII(name) {
		name = norm.NFD.String(name)
	}
	var b strings.Builder
	b.Grow(len(name))
	cased := false // the last letter kept has case
	for _, r := range name {
		switch {
		case r == '_' || unicode.IsSpace(r) || unicode.IsPunct(r):
			cased = false
		case unicode.Is(unicode.Mn, r):
			if !cased {
				b.WriteRune(r)
			}
		default:
			cased = hasCase(r)
			b.WriteRune(fold(r))
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return norm.NFC.String(b.String())
}

// fold folds the case of r: the lower case of its upper case, so that Σ, σ
// and ς, or K and the Kelvin sign, fold alike.
func fold(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(unicode.ToUpper(r))
}

// hasCase reports whether r is a letter with an upper and a lower case.
func hasCase(r rune) bool {
	return unicode.ToUpper(r) != unicode.ToLower(r) || unicode.IsUpper(r) || unicode.IsLower(r)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
