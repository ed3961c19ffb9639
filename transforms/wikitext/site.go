package wikitext

import (
	"bytes"
	"embed"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Namespace keys of the namespaces whose links show nothing in the text, as
// in a dump's <siteinfo><namespaces>.
const (
	NamespaceMedia    = -2
	NamespaceFile     = 6
	NamespaceCategory = 14
)

// Site is what the cleaner knows of one wiki: its language and the names of
// its namespaces. A Site is read-only once built and may be shared by any
// number of Cleaners in any number of goroutines.
type Site struct {
	lang string
	// hidden holds the normalized names (see normalizeName) of the file,
	// media and category namespaces and their aliases.
	hidden map[string]struct{}
}

// NewSite compiles a wiki's namespaces: names maps a namespace key (as in
// the dump's <siteinfo><namespaces>, e.g. -2 Media, 6 File, 14 Category) to
// its names on that wiki (the local name from the dump; may be empty or
// nil). lang is the wiki's language code ("en", "de", "hy", "bn", "" if
// unknown).
//
// Links are then removed whose prefix is one of the names given for keys
// -2, 6 and 14, a canonical English name (File, Image, Media, Category), or
// an alias of those namespaces in any language of the tables in
// names/namespaces.txt. Every language's aliases count, not only the wiki's:
// dump headers are not always right (DBpedia's German and French minidumps
// say they are the English Wikipedia), text is copied between wikis with
// its links, and no article links to a page whose title starts with a
// foreign word for "Category:". Keys other than -2, 6 and 14 are ignored.
func NewSite(lang string, names map[int][]string) *Site {
	s := &Site{lang: lang, hidden: make(map[string]struct{})}
	for _, list := range loadTables().namespaces {
		s.addAll(list)
	}
	for _, key := range []int{NamespaceMedia, NamespaceFile, NamespaceCategory} {
		s.addAll(names[key])
	}
	return s
}

// Lang returns the language code the Site was built with.
func (s *Site) Lang() string { return s.lang }

func (s *Site) addAll(names []string) {
	var buf [maxName]byte
	for _, n := range names {
		if key, ok := normalizeName(&buf, n); ok && len(key) > 0 {
			s.hidden[string(key)] = struct{}{}
		}
	}
}

// defaultSite is the Site used when none is set: canonical names and the
// aliases of every language in the tables.
var defaultSite = sync.OnceValue(func() *Site { return NewSite("", nil) })

// orDefault returns s, or the default Site if s is nil.
func (s *Site) orDefault() *Site {
	if s == nil {
		return defaultSite()
	}
	return s
}

// hides reports whether a link whose target starts with prefix followed by
// a colon shows nothing in the text: files, images, media, categories and
// interlanguage links.
func (s *Site) hides(prefix string) bool {
	prefix = strings.TrimSpace(prefix)
	return isLanguageCode(prefix) || s.isHiddenNamespace(prefix)
}

// isHiddenNamespace reports whether prefix names a file, media or category
// namespace of the site. It does not allocate.
func (s *Site) isHiddenNamespace(prefix string) bool {
	var buf [maxName]byte
	key, ok := normalizeName(&buf, prefix)
	if !ok {
		return false
	}
	_, found := s.hidden[string(key)]
	return found
}

// maxName bounds the length in bytes of a normalized namespace name or
// image option; longer text is never one.
const maxName = 64

// normalizeName writes into buf the form of name used for lookups: lower
// case, underscores as spaces, runs of spaces collapsed, surrounding spaces
// trimmed, and returns it. It reports false if the result would not fit in
// buf. It does not allocate.
func normalizeName(buf *[maxName]byte, name string) ([]byte, bool) {
	n := 0
	space := false
	for i := 0; i < len(name); {
		c := name[i]
		if c == '_' || isSpace(c) {
			i++
			space = n > 0
			continue
		}
		if space {
			if n == maxName {
				return nil, false
			}
			buf[n] = ' '
			n++
			space = false
		}
		if c < utf8.RuneSelf {
			if n == maxName {
				return nil, false
			}
			buf[n] = toLower(c)
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(name[i:])
		i += size
		r = unicode.ToLower(r)
		if n+utf8.RuneLen(r) > maxName {
			return nil, false
		}
		n += utf8.EncodeRune(buf[n:], r)
	}
	return buf[:n], true
}

// tables is the parsed content of the data files under names/.
type tables struct {
	// namespaces maps a language code to its file, media and category
	// namespace names.
	namespaces map[string][]string
	// options holds the normalized image options that stand alone (thumb),
	// with a trailing '=' for keyed ones (alt=); weak marks those that
	// count only before a link's last parameter.
	options map[string]optionKind
	// widthSuffixes are the localized forms of "px" in "200px".
	widthSuffixes []string
}

type optionKind uint8

const (
	optionStrong optionKind = iota + 1
	optionWeak
)

//go:embed names/*.txt
var namesFS embed.FS

var loadTables = sync.OnceValue(func() *tables {
	t := &tables{namespaces: make(map[string][]string), options: make(map[string]optionKind)}
	eachEntry("names/namespaces.txt", func(lang, _, name string) {
		t.namespaces[lang] = append(t.namespaces[lang], name)
	})
	eachEntry("names/imageoptions.txt", t.addOption)
	return t
})

// weakOptions are the magic words that are ordinary words too often to
// mark a link as a file link when they are its last parameter.
var weakOptions = map[string]bool{
	"img_right": true, "img_left": true, "img_none": true, "img_center": true,
	"img_framed": true, "img_border": true, "img_baseline": true,
	"img_sub": true, "img_super": true, "img_top": true, "img_text_top": true,
	"img_middle": true, "img_bottom": true, "img_text_bottom": true,
}

func (t *tables) addOption(_, magic, word string) {
	var buf [maxName]byte
	key, ok := normalizeName(&buf, word)
	if !ok || len(key) == 0 {
		return
	}
	switch k := string(key); {
	case strings.HasPrefix(k, "$1"):
		if suffix := k[2:]; suffix != "" && !strings.Contains(suffix, "$1") {
			t.widthSuffixes = append(t.widthSuffixes, suffix)
		}
	case strings.HasSuffix(k, "=$1"):
		t.options[k[:len(k)-2]] = optionStrong
	case strings.Contains(k, "$1"):
		// Forms such as "upright $1" are not used.
	case weakOptions[magic]:
		if t.options[k] != optionStrong {
			t.options[k] = optionWeak
		}
	default:
		t.options[k] = optionStrong
	}
}

// eachEntry calls f with the three fields of every entry line of an
// embedded data file: two words, then the rest of the line.
func eachEntry(path string, f func(a, b, rest string)) {
	data, err := namesFS.ReadFile(path)
	if err != nil {
		panic("wikitext: embedded " + path + ": " + err.Error())
	}
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		a, rest, _ := strings.Cut(line, " ")
		b, rest, _ := strings.Cut(strings.TrimSpace(rest), " ")
		if rest = strings.TrimSpace(rest); rest != "" {
			f(a, b, rest)
		}
	}
}

// maxOptionScan bounds how many bytes of a link's parameters are read when
// looking for image options, so that each link costs constant time however
// links nest.
const maxOptionScan = 256

// hasImageOption reports whether one of the parameters of a link, which
// start after the '|' at pipe and end at limit (the closing "]]" if closed,
// else the end of the text), is an image option. Pipes inside nested links
// and templates do not separate parameters; an unclosed link ends at its
// line break.
func hasImageOption(src string, pipe, limit int, closed bool) bool {
	t := loadTables()
	stop := min(limit, pipe+1+maxOptionScan)
	depth := 0
	start := pipe + 1
	for i := start; i < stop; i++ {
		switch c := src[i]; c {
		case '[', '{':
			if i+1 < stop && src[i+1] == c {
				depth++
				i++
			}
		case ']', '}':
			if i+1 < stop && src[i+1] == c && depth > 0 {
				depth--
				i++
			}
		case '\n':
			if !closed {
				return depth == 0 && t.isOption(src[start:i], true)
			}
		case '|':
			if depth == 0 {
				if t.isOption(src[start:i], false) {
					return true
				}
				start = i + 1
			}
		}
	}
	return stop == limit && depth == 0 && t.isOption(src[start:limit], true)
}

// isOption reports whether param is an image option. Weak options (left,
// frame...) count only if the parameter is not the last one.
func (t *tables) isOption(param string, last bool) bool {
	var buf [maxName]byte
	if eq := strings.IndexByte(param, '='); eq >= 0 {
		key, ok := normalizeName(&buf, param[:eq])
		if !ok || len(key) == 0 || len(key) == maxName {
			return false
		}
		buf[len(key)] = '='
		return t.options[string(buf[:len(key)+1])] == optionStrong
	}
	key, ok := normalizeName(&buf, param)
	if !ok || len(key) == 0 {
		return false
	}
	if kind, found := t.options[string(key)]; found {
		return kind == optionStrong || !last
	}
	return t.isWidth(key)
}

// isWidth reports whether the normalized parameter is an image size such
// as 200px, x150px or 200x150px, with any localized form of "px".
func (t *tables) isWidth(key []byte) bool {
	for _, suffix := range t.widthSuffixes {
		n := len(key) - len(suffix)
		if n > 0 && string(key[n:]) == suffix {
			num := key[:n]
			if num[n-1] == ' ' {
				num = num[:n-1]
			}
			return isSize(num)
		}
	}
	return false
}

// isSize reports whether s is digits, "x" digits, or digits "x" digits.
func isSize(s []byte) bool {
	w, h, two := bytes.Cut(s, []byte("x"))
	if !two {
		return len(s) > 0 && allDigits(s)
	}
	return allDigits(w) && len(h) > 0 && allDigits(h)
}

func allDigits(s []byte) bool {
	for _, c := range s {
		if !isDigit(c) {
			return false
		}
	}
	return true
}
