package parquetfile

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// This file decodes the lines the pipeline writes, which are plain JSON
// objects of known fields, in one pass and without reflection: the fast path
// of decodeCluster and decodeSentence. It decodes exactly what
// encoding/json would, or declines: it reports false for anything it does
// not handle the same way for certain, valid or not (a syntax error, a
// value of another type, null, a key that is not exactly a field's name but
// that encoding/json would match to one, a key seen twice, an escaped key,
// a UTF-16 surrogate, invalid UTF-8 in a decoded string, an out of range
// number, deep nesting), and the caller decodes the line with encoding/json
// instead, which then gives the value or the error it always gave.
// FuzzDecodeCluster and FuzzDecodeSentence check the two agree.

// maxSkipDepth is how deeply nested a value the scanner skips; deeper
// values are left to encoding/json and its own limit.
const maxSkipDepth = 1000

// scanner reads JSON values from a line, at offset i. The strings it
// returns refer to the line's bytes, unless they had escapes.
type scanner struct {
	s   string // the line
	i   int
	buf []byte // scratch space for unescaping
}

// reset starts the scanner on line, which it reads as a string without
// copying it. That is safe as the line's bytes do not change while the
// strings are in use: the lines given to WriteClusters and WriteSentences
// stay as they are until they return, and the rows that refer to them are
// copied into the Parquet writer's buffers before then.
func (p *scanner) reset(line []byte) {
	p.s, p.i = unsafe.String(unsafe.SliceData(line), len(line)), 0
}

// ws skips whitespace.
func (p *scanner) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// consume skips whitespace, then c if it is next, reporting whether it was.
func (p *scanner) consume(c byte) bool {
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// end reports whether only whitespace is left.
func (p *scanner) end() bool {
	p.ws()
	return p.i == len(p.s)
}

// nextKey reads the next key of an object whose '{' has been read, and the
// ':' after it: first says whether it is the first. It reports end at the
// object's '}', and !ok on a syntax error or an escaped key.
func (p *scanner) nextKey(first bool) (key string, end, ok bool) {
	p.ws()
	if p.i >= len(p.s) {
		return "", false, false
	}
	switch p.s[p.i] {
	case '}':
		p.i++
		return "", true, true
	case ',':
		if first {
			return "", false, false
		}
		p.i++
		p.ws()
	default:
		if !first {
			return "", false, false
		}
	}
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return "", false, false
	}
	start := p.i + 1
	for i := start; i < len(p.s); i++ {
		switch c := p.s[i]; {
		case c == '"':
			p.i = i + 1
			if !p.consume(':') {
				return "", false, false
			}
			p.ws()
			return p.s[start:i], false, true
		case c == '\\' || c < ' ':
			return "", false, false
		}
	}
	return "", false, false
}

// object reads a JSON object whose known keys are keys (at most 64): read(i)
// reads the value of keys[i]; the values of other keys are skipped, as
// values at depth. It declines, for the caller to fall back to
// encoding/json, a known key given twice and a key that matches a known one
// only ignoring case (isField).
func (p *scanner) object(keys []string, depth int, read func(i int) bool) bool {
	if !p.consume('{') {
		return false
	}
	var seen uint64
	for first := true; ; first = false {
		key, end, ok := p.nextKey(first)
		switch {
		case !ok:
			return false
		case end:
			return true
		}
		i := slices.Index(keys, key)
		switch {
		case i < 0:
			ok = !isField(key, keys...) && p.skip(depth)
		case seen&(1<<i) != 0:
			return false
		default:
			seen |= 1 << i
			ok = read(i)
		}
		if !ok {
			return false
		}
	}
}

// isField reports whether encoding/json would decode the value of key
// into a field named one of names. A key that is none of them exactly but
// matches one ignoring case (as encoding/json matches, with Unicode's
// simple folding) makes the caller decline.
func isField(key string, names ...string) bool {
	for _, n := range names {
		if strings.EqualFold(key, n) {
			return true
		}
	}
	return false
}

// str reads a string.
func (p *scanner) str() (string, bool) {
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return "", false
	}
	start := p.i + 1
	ascii := true
	for i := start; i < len(p.s); i++ {
		switch c := p.s[i]; {
		case c == '"':
			p.i = i + 1
			t := p.s[start:i]
			if !ascii && !utf8.ValidString(t) {
				return "", false
			}
			return t, true
		case c == '\\':
			return p.unescape(start, i)
		case c < ' ':
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// unescape reads the rest of a string that starts at start and has a
// backslash at i.
func (p *scanner) unescape(start, i int) (string, bool) {
	b := append(p.buf[:0], p.s[start:i]...)
	defer func() { p.buf = b[:0] }()
	for i < len(p.s) {
		switch c := p.s[i]; {
		case c == '"':
			p.i = i + 1
			if !utf8.Valid(b) {
				return "", false
			}
			return string(b), true
		case c < ' ':
			return "", false
		case c != '\\':
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(p.s) {
			return "", false
		}
		switch e := p.s[i+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(p.s[i+2:])
			if !ok || utf16.IsSurrogate(r) {
				return "", false
			}
			b = utf8.AppendRune(b, r)
			i += 4
		default:
			return "", false
		}
		i += 2
	}
	return "", false
}

// hex4 decodes the four hexadecimal digits that s starts with.
func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// number reads a number, returning its text.
func (p *scanner) number() (string, bool) {
	s, i := p.s, p.i
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i >= len(s):
		return "", false
	case s[i] == '0':
		i++
	case '1' <= s[i] && s[i] <= '9':
		i = digits(s, i+1)
	default:
		return "", false
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return "", false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return "", false
		}
		i = j
	}
	t := s[p.i:i]
	p.i = i
	return t, true
}

// digits returns the offset of the first byte from i on in s that is not a
// decimal digit.
func digits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// int reads an integer, as encoding/json reads one into an int64.
func (p *scanner) int() (int64, bool) {
	t, ok := p.number()
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(t, 10, 64)
	return n, err == nil
}

// float reads a number, as encoding/json reads one into a float64.
func (p *scanner) float() (float64, bool) {
	t, ok := p.number()
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(t, 64)
	return f, err == nil
}

// skip reads any value, at a depth of nesting.
func (p *scanner) skip(depth int) bool {
	if p.i >= len(p.s) {
		return false
	}
	switch c := p.s[p.i]; c {
	case '{':
		if depth >= maxSkipDepth {
			return false
		}
		p.i++
		if p.consume('}') {
			return true
		}
		for {
			p.ws()
			if !p.skipString() || !p.consume(':') {
				return false
			}
			p.ws()
			if !p.skip(depth + 1) {
				return false
			}
			if !p.consume(',') {
				return p.consume('}')
			}
		}
	case '[':
		if depth >= maxSkipDepth {
			return false
		}
		p.i++
		if p.consume(']') {
			return true
		}
		for {
			p.ws()
			if !p.skip(depth + 1) {
				return false
			}
			if !p.consume(',') {
				return p.consume(']')
			}
		}
	case '"':
		return p.skipString()
	case 't':
		return p.literal("true")
	case 'f':
		return p.literal("false")
	case 'n':
		return p.literal("null")
	default:
		_, ok := p.number()
		return ok
	}
}

// literal reads the literal lit.
func (p *scanner) literal(lit string) bool {
	if !strings.HasPrefix(p.s[p.i:], lit) {
		return false
	}
	p.i += len(lit)
	return true
}

// skipString reads a string without decoding it.
func (p *scanner) skipString() bool {
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return false
	}
	for i := p.i + 1; i < len(p.s); i++ {
		switch c := p.s[i]; {
		case c == '"':
			p.i = i + 1
			return true
		case c < ' ':
			return false
		case c == '\\':
			if i+1 >= len(p.s) {
				return false
			}
			switch p.s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if _, ok := hex4(p.s[i+2:]); !ok {
					return false
				}
				i += 5
			default:
				return false
			}
		}
	}
	return false
}
