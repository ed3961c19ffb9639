package wikitext

import (
	"bytes"
	"html"
	"unicode"
	"unicode/utf8"
)

// blocks groups the lines left by the inline pass into paragraphs,
// headings and list items.
//
// The sections and texts of a page are collected in one buffer and turned
// into a single string at the end, which the paragraphs then share: one
// allocation per page instead of one per paragraph.
type blocks struct {
	dst      []Paragraph
	base     int     // len(dst) before this page
	texts    []byte  // normalised sections and paragraph texts of the page
	spans    []spans // where each new paragraph's strings lie in texts
	section  [2]int  // the current section in texts
	refLevel int     // level of the enclosing reference section heading, or 0

	para    []byte // raw text of the paragraph being collected
	decoded []byte // scratch for entity decoding

	refText []byte
	refs    []refNote
	nextRef int

	debris int // navigation rows and lone numbers dropped (debris.go)
}

// spans locates a paragraph's section and text in blocks.texts.
type spans struct {
	section, text [2]int
}

// build appends to dst the paragraphs of text (the output of the inline
// pass) and of the <ref> bodies anchored in it.
func (b *blocks) build(dst []Paragraph, text, refText []byte, refs []refNote) []Paragraph {
	b.dst, b.base = dst, len(dst)
	b.texts, b.spans = b.texts[:0], b.spans[:0]
	if n := len(text) + len(refText); cap(b.texts) < n {
		b.texts = make([]byte, 0, n)
	}
	b.section, b.refLevel, b.debris = [2]int{}, 0, 0
	b.para = b.para[:0]
	b.refText, b.refs, b.nextRef = refText, refs, 0
	for start := 0; start < len(text); {
		end := bytes.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		b.line(text[start:end], start, end)
		start = end + 1
	}
	b.finishParagraph()
	b.flushRefs(len(text))

	all := string(b.texts)
	for i, sp := range b.spans {
		p := &b.dst[b.base+i]
		p.Section = all[sp.section[0]:sp.section[1]]
		p.Text = all[sp.text[0]:sp.text[1]]
	}
	out := b.dst
	b.dst, b.refText, b.refs = nil, nil, nil
	return out
}

// line handles one line spanning text[start:end].
func (b *blocks) line(line []byte, start, end int) {
	switch {
	case isBlankLine(line):
		b.finishParagraph()
		b.flushRefs(end)
	case line[0] == '=' && b.heading(line, start):
	case line[0] == '*' || line[0] == '#' || line[0] == ';' || line[0] == ':':
		b.finishParagraph()
		b.flushRefs(start)
		i := 0
		for i < len(line) && (line[i] == '*' || line[i] == '#' || line[i] == ';' || line[i] == ':') {
			i++
		}
		ctx := List
		if b.refLevel > 0 {
			ctx = Reference
		}
		if isDebris(line[i:]) {
			b.debris++
		} else {
			b.emit(line[i:], ctx)
		}
		b.flushRefs(end)
	case bytes.HasPrefix(line, []byte("----")):
		// A horizontal rule ends the paragraph; text after it starts one.
		b.finishParagraph()
		b.flushRefs(start)
		b.para = append(b.para, bytes.TrimLeft(line, "-")...)
	case isDebris(line):
		b.debris++
	default:
		if len(b.para) > 0 {
			b.para = append(b.para, ' ')
		}
		b.para = append(b.para, line...)
	}
}

// heading handles line if it is a heading (= Title = ... ====== Title
// ======) and reports whether it was.
func (b *blocks) heading(line []byte, start int) bool {
	line = bytes.TrimRight(line, " \t\r")
	n := len(line)
	lead, trail := 0, 0
	for lead < n && line[lead] == '=' {
		lead++
	}
	for trail < n && line[n-1-trail] == '=' {
		trail++
	}
	level := min(lead, trail, 6)
	if lead == n {
		level = min((n-1)/2, 6)
	}
	if level == 0 {
		return false
	}
	b.finishParagraph()
	b.flushRefs(start)
	from := len(b.texts)
	b.texts = b.appendNormalized(b.texts, line[level:n-level])
	b.section = [2]int{from, len(b.texts)}
	if b.refLevel == 0 || level <= b.refLevel {
		b.refLevel = 0
		if isReferenceSection(b.texts[from:], level) {
			b.refLevel = level
		}
	}
	return true
}

// finishParagraph emits the paragraph being collected, if any.
func (b *blocks) finishParagraph() {
	if len(b.para) == 0 {
		return
	}
	ctx := Prose
	if b.refLevel > 0 {
		ctx = Reference
	}
	b.emit(b.para, ctx)
	b.para = b.para[:0]
}

// flushRefs emits the <ref> bodies anchored at or before offset limit.
func (b *blocks) flushRefs(limit int) {
	for ; b.nextRef < len(b.refs) && b.refs[b.nextRef].anchor <= limit; b.nextRef++ {
		r := b.refs[b.nextRef]
		b.emit(b.refText[r.start:r.end], Reference)
	}
}

// emit adds raw as a paragraph if it holds any letter or digit.
func (b *blocks) emit(raw []byte, ctx Context) {
	from := len(b.texts)
	b.texts = b.appendNormalized(b.texts, raw)
	if !hasLetterOrDigit(b.texts[from:]) {
		b.texts = b.texts[:from]
		return
	}
	b.dst = append(b.dst, Paragraph{Context: ctx})
	b.spans = append(b.spans, spans{section: b.section, text: [2]int{from, len(b.texts)}})
}

// appendNormalized appends raw to dst after decoding HTML character
// references, dropping control and invisible formatting characters, and
// collapsing whitespace to single spaces without leading or trailing
// space.
func (b *blocks) appendNormalized(dst, raw []byte) []byte {
	src := raw
	if bytes.IndexByte(raw, '&') >= 0 {
		b.decoded = appendUnescaped(b.decoded[:0], raw)
		src = b.decoded
	}
	start := len(dst)
	space := false
	for i := 0; i < len(src); {
		c := src[i]
		if isPrintableASCII(c) {
			// Copy a stretch of printable ASCII with single spaces at once.
			j := i + 1
			for j < len(src) {
				if isPrintableASCII(src[j]) {
					j++
				} else if src[j] == ' ' && j+1 < len(src) && isPrintableASCII(src[j+1]) && !isDetachedStop(src, j+1) {
					j += 2
				} else {
					break
				}
			}
			if space && len(dst) > start && !isDetachedStop(src, i) {
				dst = append(dst, ' ')
			}
			space = false
			dst = append(dst, src[i:j]...)
			i = j
			continue
		}
		if c < utf8.RuneSelf {
			// Whitespace or a control character.
			space = space || isSpace(c)
			i++
			continue
		}
		if !mayBeBlank[c] {
			// A run of characters none of which is white space or
			// invisible: their lead bytes say so.
			j := i + 1
			for j < len(src) && src[j] >= utf8.RuneSelf && !mayBeBlank[src[j]] {
				j++
			}
			if space && len(dst) > start {
				dst = append(dst, ' ')
			}
			space = false
			dst = append(dst, src[i:j]...)
			i = j
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if unicode.IsSpace(r) {
			space = true
			i += size
			continue
		}
		if isInvisible(r) {
			i += size
			continue
		}
		if space && len(dst) > start {
			dst = append(dst, ' ')
		}
		space = false
		dst = append(dst, src[i:i+size]...)
		i += size
	}
	return dst
}

// mayBeBlank marks the lead bytes of the UTF-8 encodings of the
// characters that are white space (unicode.IsSpace) or invisible
// (isInvisible); no other byte starts one. (Continuation bytes, 0x80 to
// 0xBF, are never marked.)
var mayBeBlank = func() (lead [256]bool) {
	var buf [utf8.UTFMax]byte
	mark := func(r rune) {
		utf8.EncodeRune(buf[:], r)
		lead[buf[0]] = true
	}
	for _, rg := range unicode.White_Space.R16 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			mark(r)
		}
	}
	for _, rg := range unicode.White_Space.R32 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			mark(r)
		}
	}
	for r := rune(utf8.RuneSelf); r <= 0xFFFF; r++ { // isInvisible's characters are all below 0x10000
		if isInvisible(r) {
			mark(r)
		}
	}
	mark(utf8.RuneError) // invalid input decodes to it: let the slow path see it
	return lead
}()

// isDetachedStop reports whether src[i] is a full stop or comma that ends
// a word but was typed after a space ("at 10.0% .", "evolution , and"): the
// space is dropped, so that a copy whose editor removed it reads the same.
// A stop before a digit (" .5") or another stop (" . . .") keeps it.
func isDetachedStop(src []byte, i int) bool {
	if c := src[i]; c != '.' && c != ',' {
		return false
	}
	return i+1 == len(src) || isSpace(src[i+1]) && (i+2 == len(src) || src[i+2] != '.')
}

func isPrintableASCII(c byte) bool {
	return ' ' < c && c < 0x7f
}

// appendUnescaped appends raw to dst with HTML character references
// decoded like html.UnescapeString does, without allocating for the
// common ones.
func appendUnescaped(dst, raw []byte) []byte {
	for {
		k := bytes.IndexByte(raw, '&')
		if k < 0 {
			return append(dst, raw...)
		}
		dst = append(dst, raw[:k]...)
		raw = raw[k:]
		n := entityLength(raw)
		if n == 0 {
			dst = append(dst, '&')
			raw = raw[1:]
			continue
		}
		switch string(raw[:n]) {
		case "&amp;":
			dst = append(dst, '&')
		case "&lt;":
			dst = append(dst, '<')
		case "&gt;":
			dst = append(dst, '>')
		case "&quot;":
			dst = append(dst, '"')
		case "&nbsp;":
			dst = append(dst, "\u00a0"...)
		case "&ndash;":
			dst = append(dst, "\u2013"...)
		case "&mdash;":
			dst = append(dst, "\u2014"...)
		default:
			dst = append(dst, html.UnescapeString(string(raw[:n]))...)
		}
		raw = raw[n:]
	}
}

// entityLength returns the length of the character reference at the
// start of b, or 0.
func entityLength(b []byte) int {
	return max(entityEnd(b, 0, len(b)), 0)
}

// isInvisible reports whether r is a formatting character that shows
// nothing (soft hyphen, zero-width space, direction marks, BOM). Joiners,
// which matter in several scripts, are kept.
func isInvisible(r rune) bool {
	switch {
	case r == 0xAD, r == 0x200B, r == 0x200E, r == 0x200F, r == 0xFEFF,
		0x202A <= r && r <= 0x202E, 0x2060 <= r && r <= 0x2064,
		0x2066 <= r && r <= 0x2069:
		return true
	}
	return false
}

func isBlankLine(line []byte) bool {
	for _, c := range line {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

func hasLetterOrDigit(text []byte) bool {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if isLetterASCII(c) || isDigit(c) {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			return true
		}
		i += size
	}
	return false
}
