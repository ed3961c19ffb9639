package wikitext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// entityEnd returns the end of the HTML character reference starting at
// src[i] == '&' (&name; &#123; &#x1F;) if it ends before to, or -1.
func entityEnd[T string | []byte](src T, i, to int) int {
	j := i + 1
	if j < to && src[j] == '#' {
		j++
		hex := j < to && (src[j] == 'x' || src[j] == 'X')
		if hex {
			j++
		}
		start := j
		for j < to && j-start < 8 && (isDigit(src[j]) || hex && isHexLetter(src[j])) {
			j++
		}
		if j == start || j >= to || src[j] != ';' {
			return -1
		}
		return j + 1
	}
	start := j
	for j < to && j-start < 32 && (isLetterASCII(src[j]) || isDigit(src[j])) {
		j++
	}
	if j == start || !isLetterASCII(src[start]) || j >= to || src[j] != ';' {
		return -1
	}
	return j + 1
}

// maxMagicWord bounds the length of a behaviour switch name.
const maxMagicWord = 64

// magicWordEnd returns the end of a behaviour switch such as __NOTOC__ or
// __KEIN_INHALTSVERZEICHNIS__ whose name starts at k (after "__"), or -1.
// Names are upper-case letters and single underscores, so that Python's
// __init__ stays text.
func magicWordEnd(src string, k, to int) int {
	letters := 0
	for j := k; j < to && j-k < maxMagicWord; {
		c := src[j]
		switch {
		case c == '_':
			if j+1 < to && src[j+1] == '_' {
				if letters == 0 {
					return -1
				}
				return j + 2
			}
			j++
		case 'A' <= c && c <= 'Z':
			letters++
			j++
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(src[j:to])
			if !unicode.IsLetter(r) || unicode.IsLower(r) {
				return -1
			}
			letters++
			j += size
		default:
			return -1
		}
	}
	return -1
}

// hasURLScheme reports whether s starts with a URL that MediaWiki accepts
// in an external link.
func hasURLScheme(s string) bool {
	if strings.HasPrefix(s, "//") {
		return true
	}
	var buf [12]byte
	k := 0
	for k < len(s) && k < len(buf) && isLetterASCII(s[k]) {
		buf[k] = toLower(s[k])
		k++
	}
	if k == 0 || k >= len(s) || s[k] != ':' {
		return false
	}
	switch string(buf[:k]) {
	case "http", "https", "ftp", "ftps", "sftp", "irc", "ircs", "gopher",
		"telnet", "nntp", "worldwind", "svn", "git", "mms", "ssh", "redis":
		return strings.HasPrefix(s[k:], "://")
	case "mailto", "news", "urn", "xmpp", "sip", "sips", "tel", "sms",
		"geo", "bitcoin", "magnet", "matrix":
		return true
	}
	return false
}

// isLanguageCode reports whether s looks like a Wikipedia language code
// used as an interlanguage link prefix: 2–3 lower-case letters, optionally
// followed by hyphenated parts (zh-min-nan, be-x-old), or "simple".
func isLanguageCode(s string) bool {
	if s == "simple" {
		return true
	}
	i := 0
	for i < len(s) && isLowerASCII(s[i]) {
		i++
	}
	if i < 2 || i > 3 {
		return false
	}
	for i < len(s) {
		if s[i] != '-' {
			return false
		}
		i++
		start := i
		for i < len(s) && i-start < 8 && (isLowerASCII(s[i]) || isDigit(s[i])) {
			i++
		}
		if i == start {
			return false
		}
	}
	return true
}

// skipRedirect returns the position after a leading "#REDIRECT [[...]]"
// line (in any of the common languages), or 0.
func skipRedirect(text string) int {
	i := 0
	for i < len(text) && isSpace(text[i]) {
		i++
	}
	if i >= len(text) || text[i] != '#' {
		return 0
	}
	j := i + 1
	for j < len(text) && j-i < 40 && !isSpace(text[j]) && text[j] != '[' && text[j] != ':' {
		j++
	}
	if !isRedirectWord(strings.ToLower(text[i+1 : j])) {
		return 0
	}
	for j < len(text) && (isBlank(text[j]) || text[j] == ':') {
		j++
	}
	if !strings.HasPrefix(text[j:], "[[") {
		return 0
	}
	if nl := strings.IndexByte(text[j:], '\n'); nl >= 0 {
		return j + nl + 1
	}
	return len(text)
}

func isRedirectWord(w string) bool {
	switch w {
	case "redirect", "weiterleitung", "redirection", "redirección",
		"redireccion", "rinvia", "rinvio", "doorverwijzing", "patrz",
		"przekieruj", "перенаправление", "перенапр",
		"перенаправлення", "redirecionamento", "redireciona", "重定向",
		"转到", "轉到", "跳转", "転送", "リダイレクト", "넘겨주기",
		"ανακατεύθυνση", "alidirektu", "alidirekto", "redirigeix",
		"redirixir", "ohjaus", "uudelleenohjaus", "omdirigering",
		"yönlendirme", "átirányítás", "đổi", "alih", "تحويل", "הפניה",
		"تغییرمسیر", "ಮರುನಿರ್ದೇಶನ":
		return true
	}
	return false
}

func isASCII[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool       { return '0' <= c && c <= '9' }
func isLowerASCII(c byte) bool  { return 'a' <= c && c <= 'z' }
func isLetterASCII(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isHexLetter(c byte) bool   { return 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
