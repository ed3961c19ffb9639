package wikitext

import (
	"bytes"
	"html"
	"unicode"
	"unicode/utf8"
)

// blocks groups the lines left by the inline pass into paragraphs,
// headings and list items.
type blocks struct {
	dst      []Paragraph
	section  string
	refLevel int // level of the enclosing reference section heading, or 0

	para    []byte // raw text of the paragraph being collected
	decoded []byte // scratch for entity decoding
	norm    []byte // scratch for normalised text

	refText []byte
	refs    []refNote
	nextRef int
}

// build appends to dst the paragraphs of text (the output of the inline
// pass) and of the <ref> bodies anchored in it.
func (b *blocks) build(dst []Paragraph, text, refText []byte, refs []refNote) []Paragraph {
	b.dst, b.section, b.refLevel = dst, "", 0
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
		b.emit(line[i:], ctx)
		b.flushRefs(end)
	case bytes.HasPrefix(line, []byte("----")):
		// A horizontal rule ends the paragraph; text after it starts one.
		b.finishParagraph()
		b.flushRefs(start)
		b.para = append(b.para, bytes.TrimLeft(line, "-")...)
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
	b.section = string(b.normalize(line[level : n-level]))
	if b.refLevel == 0 || level <= b.refLevel {
		b.refLevel = 0
		if isReferenceSection(b.section, level) {
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

// emit appends raw as a paragraph if it holds any letter or digit.
func (b *blocks) emit(raw []byte, ctx Context) {
	text := b.normalize(raw)
	if !hasLetterOrDigit(text) {
		return
	}
	b.dst = append(b.dst, Paragraph{Section: b.section, Context: ctx, Text: string(text)})
}

// normalize decodes HTML character references in raw, drops control and
// invisible formatting characters, and collapses whitespace to single
// spaces without leading or trailing space. The result is only valid until
// the next call.
func (b *blocks) normalize(raw []byte) []byte {
	src := raw
	if bytes.IndexByte(raw, '&') >= 0 {
		b.decoded = append(b.decoded[:0], html.UnescapeString(string(raw))...)
		src = b.decoded
	}
	out := b.norm[:0]
	space := false
	for i := 0; i < len(src); {
		c := src[i]
		size := 1
		if c < utf8.RuneSelf {
			if c <= ' ' || c == 0x7f {
				space = space || isSpace(c)
				i++
				continue
			}
		} else {
			var r rune
			r, size = utf8.DecodeRune(src[i:])
			if size > 1 || r != utf8.RuneError {
				if unicode.IsSpace(r) {
					space = true
					i += size
					continue
				}
				if isInvisible(r) {
					i += size
					continue
				}
			}
		}
		if space && len(out) > 0 {
			out = append(out, ' ')
		}
		space = false
		out = append(out, src[i:i+size]...)
		i += size
	}
	b.norm = out
	return out
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
