package dump

import (
	"bytes"
	"unicode/utf8"
)

// fastParser parses the plain XML that MediaWiki writes about ten times
// faster than encoding/xml. It accepts only a strict subset of well-formed
// XML: ASCII names without a prefix on elements, quoted attribute values,
// the five predefined entities and numeric character references, valid
// UTF-8 characters allowed by XML, and no carriage return, comment, CDATA
// section, processing instruction or DOCTYPE. It reports false on anything
// else, well-formed or not, and the caller then uses encoding/xml, so both
// parsers always agree on what a page holds and on whether it is malformed.
type fastParser struct {
	stack [][]byte // names of the open elements
}

// Byte classes of character data.
const (
	plain   = iota
	special // '&', '>' or 0xEF: look closer
	reject  // a byte the fast path does not take
)

var textClass = func() (t [256]uint8) {
	for c := 0; c < 0x20; c++ {
		t[c] = reject
	}
	t['\t'], t['\n'] = plain, plain
	t['<'] = reject
	t['&'], t['>'], t[0xEF] = special, special, special
	return t
}()

// parse feeds b with the elements of page and reports whether page is in
// the subset it handles.
func (p *fastParser) parse(page []byte, b *builder) bool {
	p.stack = p.stack[:0]
	i := 0
	for i < len(page) {
		if page[i] != '<' {
			j := bytes.IndexByte(page[i:], '<')
			if j < 0 || len(p.stack) == 0 {
				return false
			}
			var ok bool
			if depth := len(p.stack); b.collecting(depth) {
				b.buf, ok = appendText(b.buf, page[i:i+j], false)
			} else {
				_, ok = appendText(nil, page[i:i+j], true)
			}
			if !ok {
				return false
			}
			i += j
			continue
		}
		var ok bool
		if i+1 < len(page) && page[i+1] == '/' {
			i, ok = p.endTag(page, i, b)
		} else {
			if len(p.stack) == 0 && i != 0 {
				return false
			}
			i, ok = p.startTag(page, i, b)
		}
		if !ok {
			return false
		}
		if len(p.stack) == 0 {
			return i == len(page)
		}
	}
	return false
}

// endTag parses the end tag at page[i:] and returns the index after it.
func (p *fastParser) endTag(page []byte, i int, b *builder) (int, bool) {
	if len(p.stack) == 0 {
		return 0, false
	}
	name, k := scanName(page, i+2)
	k = skipSpace(page, k)
	if name == nil || k >= len(page) || page[k] != '>' || !bytes.Equal(name, p.stack[len(p.stack)-1]) {
		return 0, false
	}
	b.end(len(p.stack))
	p.stack = p.stack[:len(p.stack)-1]
	return k + 1, true
}

// startTag parses the start tag at page[i:] and returns the index after it.
func (p *fastParser) startTag(page []byte, i int, b *builder) (int, bool) {
	name, k := scanName(page, i+1)
	if name == nil {
		return 0, false
	}
	var title attrValue
	for {
		afterName := k
		k = skipSpace(page, k)
		if k >= len(page) {
			return 0, false
		}
		switch {
		case page[k] == '>':
			p.stack = append(p.stack, name)
			b.start(len(p.stack), string(name), title)
			return k + 1, true
		case page[k] == '/':
			if k+1 >= len(page) || page[k+1] != '>' {
				return 0, false
			}
			p.stack = append(p.stack, name)
			b.start(len(p.stack), string(name), title)
			b.end(len(p.stack))
			p.stack = p.stack[:len(p.stack)-1]
			return k + 2, true
		case k == afterName:
			return 0, false // attributes must be separated by space
		}
		var attr, value []byte
		attr, value, k = scanAttr(page, k)
		if attr == nil {
			return 0, false
		}
		if string(attr) == "title" {
			v, ok := appendText(nil, value, false)
			if !ok {
				return 0, false
			}
			title = attrValue{s: string(v), ok: true}
		} else if _, ok := appendText(nil, value, true); !ok {
			return 0, false
		}
	}
}

// scanAttr parses name="value" at page[k:]; it returns a nil name if there
// is none in the subset.
func scanAttr(page []byte, k int) (name, value []byte, next int) {
	name, k = scanName(page, k)
	if name == nil {
		return nil, nil, 0
	}
	if k < len(page) && page[k] == ':' {
		local, end := scanName(page, k+1)
		if local == nil {
			return nil, nil, 0
		}
		name, k = page[k-len(name):end], end
	}
	k = skipSpace(page, k)
	if k >= len(page) || page[k] != '=' {
		return nil, nil, 0
	}
	k = skipSpace(page, k+1)
	if k >= len(page) || (page[k] != '"' && page[k] != '\'') {
		return nil, nil, 0
	}
	end := bytes.IndexByte(page[k+1:], page[k])
	if end < 0 {
		return nil, nil, 0
	}
	value = page[k+1 : k+1+end]
	if bytes.IndexByte(value, '<') >= 0 {
		return nil, nil, 0
	}
	return name, value, k + 2 + end
}

// scanName returns the ASCII name without a colon at page[k:] and the index
// after it, or nil.
func scanName(page []byte, k int) ([]byte, int) {
	start := k
	for k < len(page) {
		c := page[k]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' ||
			k > start && ('0' <= c && c <= '9' || c == '-' || c == '.') {
			k++
			continue
		}
		break
	}
	if k == start {
		return nil, k
	}
	return page[start:k], k
}

func skipSpace(page []byte, k int) int {
	for k < len(page) && (page[k] == ' ' || page[k] == '\t' || page[k] == '\n') {
		k++
	}
	return k
}

// appendText appends the decoded character data s to dst and reports
// whether s is in the subset. With checkOnly, nothing is appended. s holds
// no '<' and is valid UTF-8.
func appendText(dst, s []byte, checkOnly bool) ([]byte, bool) {
	from := 0 // s[from:i] is plain and not yet appended
	for i := 0; i < len(s); i++ {
		switch textClass[s[i]] {
		case plain:
			continue
		case reject:
			return dst, false
		}
		switch s[i] {
		case '>':
			if i >= 2 && s[i-1] == ']' && s[i-2] == ']' {
				return dst, false // "]]>" is not allowed in text
			}
		case 0xEF:
			// U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters.
			if i+2 < len(s) && s[i+1] == 0xBF && s[i+2] >= 0xBE {
				return dst, false
			}
		case '&':
			r, n := charRef(s[i:])
			if n == 0 {
				return dst, false
			}
			if !checkOnly {
				dst = append(dst, s[from:i]...)
				dst = utf8.AppendRune(dst, r)
			}
			i += n - 1
			from = i + 1
		}
	}
	if !checkOnly {
		dst = append(dst, s[from:]...)
	}
	return dst, true
}

// charRef decodes the reference at the start of s, which starts with '&',
// and returns it with its length, or a zero length if the fast path does
// not take it.
func charRef(s []byte) (rune, int) {
	semi := bytes.IndexByte(s[:min(len(s), 12)], ';')
	if semi < 2 {
		return 0, 0
	}
	switch string(s[1:semi]) {
	case "lt":
		return '<', semi + 1
	case "gt":
		return '>', semi + 1
	case "amp":
		return '&', semi + 1
	case "quot":
		return '"', semi + 1
	case "apos":
		return '\'', semi + 1
	}
	if s[1] != '#' {
		return 0, 0
	}
	digits, base := s[2:semi], rune(10)
	if len(digits) > 0 && digits[0] == 'x' {
		digits, base = digits[1:], 16
	}
	if len(digits) == 0 || len(digits) > 7 {
		return 0, 0
	}
	var r rune
	for _, c := range digits {
		var d rune
		switch {
		case '0' <= c && c <= '9':
			d = rune(c - '0')
		case base == 16 && 'a' <= c && c <= 'f':
			d = rune(c-'a') + 10
		case base == 16 && 'A' <= c && c <= 'F':
			d = rune(c-'A') + 10
		default:
			return 0, 0
		}
		r = r*base + d
	}
	if !isXMLChar(r) {
		return 0, 0
	}
	return r, semi + 1
}

// isXMLChar reports whether r is allowed in XML 1.0 (the Char production).
func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		0x20 <= r && r <= 0xD7FF ||
		0xE000 <= r && r <= 0xFFFD ||
		0x10000 <= r && r <= 0x10FFFF
}
