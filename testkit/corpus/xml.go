package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// AppendEscaped appends s escaped for the text of an XML element or
// attribute as MediaWiki's dumps write it ('&', '<', '>' and '"').
func AppendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			dst = append(dst, "&amp;"...)
		case '<':
			dst = append(dst, "&lt;"...)
		case '>':
			dst = append(dst, "&gt;"...)
		case '"':
			dst = append(dst, "&quot;"...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// Escape returns s escaped as AppendEscaped escapes it.
func Escape(s string) string { return string(AppendEscaped(make([]byte, 0, len(s)+len(s)/8), s)) }

// ErrNoText is returned for a page without a <text> element to replace.
var ErrNoText = errors.New("no <text>…</text> element in the page")

// TextSpan returns where the content of the last <text> element of a raw
// <page> (its last revision's wikitext) is; ok is false if it has none,
// or an empty <text/>.
func TextSpan(page []byte) (start, end int, ok bool) {
	open := lastTextTag(page)
	if open < 0 {
		return 0, 0, false
	}
	gt := bytes.IndexByte(page[open:], '>')
	if gt < 0 || page[open+gt-1] == '/' {
		return 0, 0, false
	}
	start = open + gt + 1
	n := bytes.Index(page[start:], []byte("</text>"))
	if n < 0 {
		return 0, 0, false
	}
	return start, start + n, true
}

// lastTextTag returns the offset of the last "<text" start tag of page
// (followed by a space, '>' or '/'), or -1.
func lastTextTag(page []byte) int {
	for end := len(page); ; {
		i := bytes.LastIndex(page[:end], []byte("<text"))
		if i < 0 {
			return -1
		}
		if j := i + len("<text"); j < len(page) && bytes.IndexByte([]byte(" \t\r\n>/"), page[j]) >= 0 {
			return i
		}
		end = i
	}
}

// textEscaper escapes the characters that the content of an XML element
// may not hold as they are ('>' too, as dumps do, and '\r', which XML
// would read as a line feed); quotes are left as they are.
var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#13;")

// ReplaceText returns a raw <page> element of a dump with the content of
// its last <text> element (the last revision's) replaced by text, escaped;
// everything else, ids included, is kept byte for byte.
func ReplaceText(page []byte, text string) ([]byte, error) {
	start, end, ok := TextSpan(page)
	if !ok {
		return nil, ErrNoText
	}
	out := make([]byte, 0, len(page)+len(text)-(end-start))
	out = append(out, page[:start]...)
	out = append(out, textEscaper.Replace(text)...)
	return append(out, page[end:]...), nil
}

// ReplaceID returns the page with the first <id> after the first mark
// replaced: its own id after "</title>", its revision's after
// "<revision".
func ReplaceID(page []byte, mark string, id int64) ([]byte, error) {
	t := bytes.Index(page, []byte(mark))
	if t < 0 {
		return nil, fmt.Errorf("page without %s", mark)
	}
	open := bytes.Index(page[t:], []byte("<id>"))
	if open < 0 {
		return nil, fmt.Errorf("page without <id> after %s", mark)
	}
	start := t + open + len("<id>")
	end := bytes.Index(page[start:], []byte("</id>"))
	if end < 0 {
		return nil, errors.New("page with an unclosed <id>")
	}
	out := make([]byte, 0, len(page)+20)
	out = append(out, page[:start]...)
	out = strconv.AppendInt(out, id, 10)
	return append(out, page[start+end:]...), nil
}

// Footer ends a MediaWiki XML dump.
const Footer = "</mediawiki>\n"
