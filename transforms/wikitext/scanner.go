package wikitext

import "strings"

// span is a matched pair of template braces or link brackets, recorded in
// the order the opening was seen (so sorted by start). For a template,
// [start, end) covers the whole template; for a link, start is the
// position of "[[" and end the position of the closing "]]". end is -1 while
// (or if) the opening is unmatched.
type span struct {
	start, end int
}

// openBraces is an unclosed run of '{' on the matching stack.
type openBraces struct {
	template int // index in scanner.templates
	count    int // braces of the run not yet matched
	brackets int // height of the bracket stack when the run was opened
}

// closer is a pending end of a link whose label is being copied.
type closer struct {
	at    int // position of the closing bracket(s)
	width int // 2 for "]]", 1 for "]"
	// label is the offset in scanner.out where the visible text of an
	// internal link starts, and target the range of its target in the
	// source, when the link is recorded (Cleaner.KeepLinks); label is -1
	// otherwise.
	label  int
	target [2]int
}

// linkSpan is a recorded internal link: the ranges of its target and of
// its visible text in scanner.linkText.
type linkSpan struct {
	target, anchor [2]int
}

// refNote is the cleaned body of a <ref> tag waiting to be emitted as a
// Reference paragraph after the paragraph holding its anchor.
type refNote struct {
	anchor     int // offset in scanner.out where the ref stood
	start, end int // bytes of scanner.refText
}

// scanner holds the state of the matching and inline passes over one text.
type scanner struct {
	src  string
	site *Site // never nil during a pass

	// Matching pass results and stacks.
	templates []span
	links     []span
	braces    []openBraces
	brackets  []int // indices in links

	// Inline pass state.
	tplCur, linkCur int // cursors into templates and links
	out             []byte
	refText         []byte
	refs            []refNote
	pending         []closer
	pendingBase     int

	// The internal links, recorded when keepLinks is set: their targets
	// and visible texts, as written, one after the other in linkText.
	keepLinks bool
	linkText  []byte
	linkSpans []linkSpan

	// Rendering of templates that carry values (render.go): the
	// arguments of the templates being rendered, innermost last.
	args        []tplArg
	renderDepth int
	noRender    bool
	// writingRef is set while out holds a <ref> body's text (refText),
	// whose offsets are not those of the refs' anchors.
	writingRef bool

	// Remembered searches, so repeated searches stay linear.
	commentEnd     memo
	angle          memo // '<', '>' or '\n'
	angleMultiline memo // '<' or '>'
	extClose       memo
	convClose      memo
	lineEnd        memo
	closeTags      [numPaired]memo
}

func (s *scanner) reset(text string, site *Site) {
	*s = scanner{
		src:       text,
		site:      site,
		templates: s.templates[:0],
		links:     s.links[:0],
		braces:    s.braces[:0],
		brackets:  s.brackets[:0],
		out:       s.out[:0],
		refText:   s.refText[:0],
		refs:      s.refs[:0],
		pending:   s.pending[:0],
		args:      s.args[:0],
		linkText:  s.linkText[:0],
		linkSpans: s.linkSpans[:0],
	}
	if cap(s.out) < len(text) {
		// The inline pass rarely writes more than it reads.
		s.out = make([]byte, 0, len(text))
	}
}

// memo remembers the result of the last forward search for one pattern.
// A search from p that found the pattern at f answers every search from
// q in [p, f]; a search from p that found nothing answers every search from
// q >= p. Each byte is therefore examined at most once per pattern and pass.
type memo struct {
	valid    bool
	from, at int // at < 0: not found
	end      int // just past the match
}

func (m *memo) lookup(from int) (at, end int, ok bool) {
	if m.valid && from >= m.from && (m.at < 0 || from <= m.at) {
		return m.at, m.end, true
	}
	return 0, 0, false
}

func (m *memo) store(from, at, end int) (int, int) {
	*m = memo{valid: true, from: from, at: at, end: end}
	return at, end
}

// find returns the first occurrence of needle at or after from, or -1,
// through m.
func (s *scanner) find(m *memo, from int, needle string) int {
	if at, _, ok := m.lookup(from); ok {
		return at
	}
	at := strings.Index(s.src[from:], needle)
	if at >= 0 {
		at += from
	}
	at, _ = m.store(from, at, at+len(needle))
	return at
}

// findAny returns the first byte of chars at or after from, or -1, through m.
func (s *scanner) findAny(m *memo, from int, chars string) int {
	if at, _, ok := m.lookup(from); ok {
		return at
	}
	at := strings.IndexAny(s.src[from:], chars)
	if at >= 0 {
		at += from
	}
	at, _ = m.store(from, at, at+1)
	return at
}

// findClose returns the position of the first closing tag "</name>"
// (case-insensitive, spaces allowed before '>') at or after from and the
// position just past it, or -1, -1.
func (s *scanner) findClose(m *memo, from int, name string) (at, end int) {
	if at, end, ok := m.lookup(from); ok {
		return at, end
	}
	for p := from; ; {
		k := strings.Index(s.src[p:], "</")
		if k < 0 {
			return m.store(from, -1, -1)
		}
		p += k + 2
		if len(s.src)-p < len(name) || !strings.EqualFold(s.src[p:p+len(name)], name) {
			continue
		}
		q := p + len(name)
		for q < len(s.src) && isSpace(s.src[q]) {
			q++
		}
		if q < len(s.src) && s.src[q] == '>' {
			return m.store(from, p-2, q+1)
		}
	}
}

// endOfLine returns the position of the next '\n' at or after from, or to.
func (s *scanner) endOfLine(from, to int) int {
	at := s.findAny(&s.lineEnd, from, "\n")
	if at < 0 || at > to {
		return to
	}
	return at
}

// templateEnd returns the end of the template whose opening run of braces
// starts at i, or -1 if that run is unmatched or unknown. Calls come with
// non-decreasing i but for the arguments of rendered templates.
func (s *scanner) templateEnd(i int) int {
	if s.tplCur > 0 && s.templates[s.tplCur-1].start >= i {
		// Rendering a template reads its arguments in its own order.
		s.tplCur = firstAtOrAfter(s.templates, i)
	}
	for s.tplCur < len(s.templates) && s.templates[s.tplCur].start < i {
		s.tplCur++
	}
	if s.tplCur < len(s.templates) && s.templates[s.tplCur].start == i {
		return s.templates[s.tplCur].end
	}
	return -1
}

// linkEnd returns the position of the "]]" closing the "[[" at i, or -1.
// Calls come with non-decreasing i but for the arguments of rendered
// templates.
func (s *scanner) linkEnd(i int) int {
	if s.linkCur > 0 && s.links[s.linkCur-1].start >= i {
		s.linkCur = firstAtOrAfter(s.links, i)
	}
	for s.linkCur < len(s.links) && s.links[s.linkCur].start < i {
		s.linkCur++
	}
	if s.linkCur < len(s.links) && s.links[s.linkCur].start == i {
		return s.links[s.linkCur].end
	}
	return -1
}

// runLength returns how many times c repeats from i (before to).
func runLength(src string, i, to int, c byte) int {
	n := 0
	for i+n < to && src[i+n] == c {
		n++
	}
	return n
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r'
}

// firstAtOrAfter returns the index of the first span of list (sorted by
// start) that starts at or after i.
func firstAtOrAfter(list []span, i int) int {
	lo, hi := 0, len(list)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if list[m].start < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
