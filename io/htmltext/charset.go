package htmltext

import (
	"bytes"
	"fmt"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// CharsetError reports a page whose declared charset does not decode too
// many of its bytes: the declaration is wrong, and guessing another
// charset would produce text nobody can vouch for.
type CharsetError struct {
	Charset string // the declared charset's canonical name
	Source  string // where it was declared: "bom", "header" or "meta"
	Bad     int    // bytes (runes, for legacy charsets) that did not decode
	Total   int    // characters decoded
}

func (e *CharsetError) Error() string {
	return fmt.Sprintf("htmltext: %d of %d characters do not decode as %s (declared in the %s)",
		e.Bad, e.Total, e.Charset, e.Source)
}

// decoded is a page's text in UTF-8 and how it was obtained.
type decoded struct {
	text            string
	charset, source string
	repaired        bool
}

var boms = []struct {
	bom   string
	label string
}{
	{"\xef\xbb\xbf", "utf-8"},
	{"\xfe\xff", "utf-16be"},
	{"\xff\xfe", "utf-16le"},
}

// decode converts body to UTF-8: with the charset of its byte order mark,
// else of contentType's charset parameter, else of a <meta> in its first
// 1024 bytes, else sniffed. maxBad is the share of characters a declared
// charset may fail to decode before decode returns a *CharsetError.
func decode(body []byte, contentType string, maxBad float64) (decoded, error) {
	for _, b := range boms {
		if bytes.HasPrefix(body, []byte(b.bom)) {
			return decodeDeclared(body[len(b.bom):], b.label, "bom", maxBad)
		}
	}
	if label := headerCharset(contentType); label != "" {
		if d, err, ok := tryDeclared(body, label, "header", maxBad); ok {
			return d, err
		}
	}
	if label := metaCharset(body); label != "" {
		if d, err, ok := tryDeclared(body, label, "meta", maxBad); ok {
			return d, err
		}
	}
	return sniff(body), nil
}

// tryDeclared decodes body with the charset labelled label, unless the
// label is unknown (ok false).
func tryDeclared(body []byte, label, source string, maxBad float64) (d decoded, err error, ok bool) {
	if _, name := charset.Lookup(label); name == "" {
		return decoded{}, nil, false
	}
	d, err = decodeDeclared(body, label, source, maxBad)
	return d, err, true
}

func decodeDeclared(body []byte, label, source string, maxBad float64) (decoded, error) {
	enc, name := charset.Lookup(label)
	if source == "meta" && strings.HasPrefix(name, "utf-16") {
		// A <meta> that could be read as ASCII is not UTF-16 (HTML
		// Standard, "prescan a byte stream").
		enc, name = charset.Lookup("utf-8")
	}
	var text string
	var bad int
	if name == "utf-8" {
		text, bad = decodeUTF8(body)
	} else {
		out, err := enc.NewDecoder().Bytes(body)
		if err != nil {
			return decoded{}, &CharsetError{Charset: name, Source: source, Bad: len(body), Total: len(body)}
		}
		text = strings.TrimPrefix(string(out), "\ufeff")
		bad = strings.Count(text, "\ufffd")
	}
	total := utf8.RuneCountInString(text)
	if bad > 0 && float64(bad) > maxBad*float64(total) {
		return decoded{}, &CharsetError{Charset: name, Source: source, Bad: bad, Total: total}
	}
	return decoded{text: text, charset: name, source: source, repaired: bad > 0}, nil
}

// decodeUTF8 returns b with each byte that is not part of a valid UTF-8
// sequence replaced by U+FFFD, and how many there were.
func decodeUTF8(b []byte) (string, int) {
	if utf8.Valid(b) {
		return string(b), 0
	}
	var sb strings.Builder
	sb.Grow(len(b) + 16)
	bad := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			bad++
			sb.WriteRune(utf8.RuneError)
		} else {
			sb.Write(b[:size])
		}
		b = b[size:]
	}
	return sb.String(), bad
}

// sniff decodes an undeclared page: as UTF-8 when it has more valid
// multi-byte sequences than invalid bytes (and those are few), else as
// windows-1252, the web's default for undeclared pages.
func sniff(body []byte) decoded {
	multi, bad, runes := 0, 0, 0
	for b := body; len(b) > 0; runes++ {
		r, size := utf8.DecodeRune(b)
		switch {
		case r == utf8.RuneError && size == 1:
			bad++
		case size > 1:
			multi++
		}
		b = b[size:]
	}
	if bad == 0 || (multi > bad && bad*100 <= runes) {
		text, _ := decodeUTF8(body)
		return decoded{text: text, charset: "utf-8", source: "sniffed", repaired: bad > 0}
	}
	enc, name := charset.Lookup("windows-1252")
	out, _ := enc.NewDecoder().Bytes(body)
	return decoded{text: string(out), charset: name, source: "sniffed"}
}

// headerCharset returns the charset parameter of an HTTP Content-Type.
func headerCharset(contentType string) string {
	if contentType == "" {
		return ""
	}
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		return params["charset"]
	}
	// Malformed elsewhere (say, a duplicate parameter): look for charset=.
	return charsetParam(contentType)
}

// charsetParam returns the value of "charset=" in s, as in
// <meta http-equiv="Content-Type" content="text/html; charset=...">.
func charsetParam(s string) string {
	i := strings.Index(strings.ToLower(s), "charset")
	if i < 0 {
		return ""
	}
	s = strings.TrimLeft(s[i+len("charset"):], " \t")
	if !strings.HasPrefix(s, "=") {
		return ""
	}
	s = strings.Trim(strings.TrimLeft(s[1:], " \t"), `"'`)
	if j := strings.IndexAny(s, ` ;"'`); j >= 0 {
		s = s[:j]
	}
	return s
}

// metaCharset returns the charset a <meta> element declares in the first
// 1024 bytes of body, the prescan of the HTML Standard.
func metaCharset(body []byte) string {
	if len(body) > 1024 {
		body = body[:1024]
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if string(name) != "meta" || !hasAttr {
				continue
			}
			if label := metaAttrs(z); label != "" {
				return label
			}
		}
	}
}

func metaAttrs(z *html.Tokenizer) string {
	var cs, content string
	pragma := false
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		switch string(k) {
		case "charset":
			cs = strings.TrimSpace(string(v))
		case "content":
			content = string(v)
		case "http-equiv":
			pragma = strings.EqualFold(strings.TrimSpace(string(v)), "content-type")
		}
	}
	if cs != "" {
		return cs
	}
	if pragma {
		return charsetParam(content)
	}
	return ""
}
