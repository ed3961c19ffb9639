package wikitext

import (
	"strconv"
	"strings"
)

// inlineSpecial lists the bytes at which the inline pass has work to do.
const inlineSpecial = "\n{}[]<'_&"

// inline appends the visible text of src[from:to] to s.out, keeping line
// breaks. When inRef is set the range is a <ref> body, in which nested
// <ref> tags are dropped.
func (s *scanner) inline(from, to int, inRef bool) {
	savedBase := s.pendingBase
	s.pendingBase = len(s.pending)
	src := s.src
	i := from
	if i == 0 || src[i-1] == '\n' {
		i = s.lineStart(i, to)
	}
	for i < to {
		j := strings.IndexAny(src[i:to], inlineSpecial)
		if j < 0 {
			s.out = append(s.out, src[i:to]...)
			break
		}
		s.out = append(s.out, src[i:i+j]...)
		i += j
		switch src[i] {
		case '\n':
			s.out = append(s.out, '\n')
			i = s.lineStart(i+1, to)
		case '{':
			i = s.openBrace(i, from, to, inRef)
		case '}':
			i = s.closeBrace(i, to)
		case '[':
			i = s.openBracket(i, to)
		case ']':
			i = s.closeBracket(i, to)
		case '<':
			i = s.openAngle(i, to, inRef)
		case '\'':
			i = s.apostrophes(i, to)
		case '_':
			i = s.underscore(i, to)
		case '&':
			i = s.ampersand(i, to)
		}
	}
	s.pending = s.pending[:s.pendingBase]
	s.pendingBase = savedBase
}

// lineStart handles the start of a line at i: a table starting there is
// skipped, and so is the end marker of a table opened by a template. It
// returns where to continue.
func (s *scanner) lineStart(i, to int) int {
	k := i
	for k < to && (isBlank(s.src[k]) || s.src[k] == ':') {
		k++
	}
	if k+1 < to && s.src[k+1] == '|' && s.src[k] == '{' {
		return s.skipTable(k, to)
	}
	if k+1 < to && s.src[k] == '|' && s.src[k+1] == '}' && (k+2 == to || s.src[k+2] != '}') {
		return k + 2
	}
	return i
}

// skipTable returns the end of the table whose "{|" is at k: just past the
// matching "|}" at the start of a line, or to if there is none. Nested
// tables, templates, comments and opaque tags inside are skipped whole.
func (s *scanner) skipTable(k, to int) int {
	src := s.src
	depth := 0
	atLineStart := true
	for i := k; i < to; {
		if atLineStart {
			atLineStart = false
			j := i
			for j < to && (isBlank(src[j]) || src[j] == ':') {
				j++
			}
			if j+1 < to && src[j] == '{' && src[j+1] == '|' {
				depth++
				i = j + 2
				continue
			}
			if j+1 < to && src[j] == '|' && src[j+1] == '}' {
				depth--
				i = j + 2
				if depth == 0 {
					return i
				}
				continue
			}
			i = j
			continue
		}
		switch src[i] {
		case '\n':
			atLineStart = true
			i++
		case '{':
			i = s.skipBraces(i, to)
		case '<':
			i = s.skipTag(i, to)
		default:
			j := strings.IndexAny(src[i:to], "\n{<")
			if j < 0 {
				return to
			}
			i += j
		}
	}
	return to
}

// skipBraces returns where to continue after the run of '{' at i while
// dropping text: past the whole template if the run opens a matched one,
// past the run otherwise.
func (s *scanner) skipBraces(i, to int) int {
	n := runLength(s.src, i, to, '{')
	if n >= 2 {
		if end := s.templateEnd(i); end > 0 {
			return min(end, to)
		}
	}
	return i + n
}

// skipTag returns where to continue after the '<' at i while dropping text.
func (s *scanner) skipTag(i, to int) int {
	if t := s.tagAt(i, to); t.kind != tagNone {
		return t.end
	}
	return i + 1
}

// dropLine drops text from i to the end of its line, skipping complete
// templates, comments and tags whole, and returns the position of the
// line break (or to).
func (s *scanner) dropLine(i, to int) int {
	for i < to {
		j := strings.IndexAny(s.src[i:to], "\n{<")
		if j < 0 {
			return to
		}
		i += j
		switch s.src[i] {
		case '\n':
			return i
		case '{':
			i = s.skipBraces(i, to)
		case '<':
			i = s.skipTag(i, to)
		}
	}
	return to
}

// removed is called after dropping a construct that ended at end. If the
// construct stood alone on its line, the line is removed with it, so that
// it does not split the paragraph around it. It returns where to continue.
func (s *scanner) removed(end, to int) int {
	k := len(s.out)
	for k > 0 && isBlank(s.out[k-1]) {
		k--
	}
	if k > 0 && s.out[k-1] != '\n' {
		return end
	}
	j := end
	for j < to && isBlank(s.src[j]) {
		j++
	}
	if j < to && s.src[j] != '\n' {
		return end
	}
	s.out = s.out[:k]
	if j == to {
		return to
	}
	return s.lineStart(j+1, to)
}

// openBrace handles the '{' at i: a template is rendered if it carries a
// value (render.go) and dropped otherwise, an unmatched
// opening drops the rest of its line, and -{...}- is language conversion.
func (s *scanner) openBrace(i, from, to int, inRef bool) int {
	n := runLength(s.src, i, to, '{')
	if n == 1 {
		if i > from && s.src[i-1] == '-' {
			if end := s.convert(i, to, inRef); end > 0 {
				return end
			}
		}
		s.out = append(s.out, '{')
		return i + 1
	}
	if end := s.templateEnd(i); end > 0 {
		if n == 2 && end <= to && !s.noRender && s.renderTemplate(i, end, to, inRef) {
			return end
		}
		if end < to {
			return s.dropEmptyBrackets(end, to)
		}
		return min(end, to)
	}
	return s.dropLine(i+n, to)
}

// closeBrace drops a stray run of closing braces; a single one is text.
func (s *scanner) closeBrace(i, to int) int {
	if n := runLength(s.src, i, to, '}'); n >= 2 {
		return i + n
	}
	s.out = append(s.out, '}')
	return i + 1
}

// convert handles LanguageConverter markup -{...}- whose '{' is at i: it
// keeps the first variant of "-{zh-hans:X;zh-hant:Y}-" or the whole
// content of "-{X}-". It returns -1 if there is no closing "}-".
func (s *scanner) convert(i, to int, inRef bool) int {
	end := s.find(&s.convClose, i+1, "}-")
	if end < 0 || end+2 > to {
		return -1
	}
	if n := len(s.out); n > 0 && s.out[n-1] == '-' {
		s.out = s.out[:n-1]
	}
	a, b := firstVariant(s.src, i+1, end)
	s.inline(a, b, inRef)
	return end + 2
}

// firstVariant returns the range of the text to show from the content
// src[a:b] of -{...}-: after optional flags ("A|"), either the first
// "code:text" variant up to ';' or the whole content.
func firstVariant(src string, a, b int) (int, int) {
	if k := strings.IndexByte(src[a:b], '|'); k >= 0 && k <= 8 && isFlags(src[a:a+k]) {
		a += k + 1
	}
	k := a
	for k < b && isBlank(src[k]) {
		k++
	}
	c := k
	for c < b && c-k < 16 && (isLowerASCII(src[c]) || src[c] == '-') {
		c++
	}
	if c-k < 2 || c >= b || src[c] != ':' {
		return a, b
	}
	a = c + 1
	if semi := strings.IndexByte(src[a:b], ';'); semi >= 0 {
		b = a + semi
	}
	return a, b
}

func isFlags(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('A' <= c && c <= 'Z' || c == ';' || c == ' ') {
			return false
		}
	}
	return len(s) > 0
}

// openBracket handles a run of '[' at i: internal links, and external
// links for a single bracket.
func (s *scanner) openBracket(i, to int) int {
	src := s.src
	n := runLength(src, i, to, '[')
	if n == 1 {
		return s.externalLink(i, to)
	}
	for k := 2; k < n; k++ {
		s.out = append(s.out, '[')
	}
	open := i + n - 2
	end := s.linkEnd(open)
	if end >= 0 && end+2 > to {
		end = -1
	}
	limit := to
	if end >= 0 {
		limit = end
	}

	// The target runs up to the first '|'. A leading colon makes a
	// category, file or language link an ordinary one, which keeps its
	// label.
	t := open + 2
	for t < limit && isBlank(src[t]) {
		t++
	}
	leadingColon := t < limit && src[t] == ':'
	if leadingColon {
		t++
	}
	colon, pipe := -1, -1
scan:
	for j := t; j < limit; j++ {
		switch src[j] {
		case '|':
			pipe = j
			break scan
		case '[', ']', '\n':
			break scan
		case ':':
			if colon < 0 {
				colon = j
			}
		}
	}
	if colon > t && s.isHidden(src[t:colon], leadingColon, pipe, limit, end >= 0) {
		if end < 0 {
			return s.dropLine(open+2, to)
		}
		if next := s.dropEmptyBrackets(end+2, to); next > end+2 {
			return next
		}
		return s.removed(end+2, to)
	}
	if end < 0 {
		return open + 2 // unmatched: drop the brackets, keep the text
	}
	c := closer{at: end, width: 2, label: -1}
	if s.keepLinks && !leadingColon {
		c.label, c.target = len(s.out), [2]int{t, limit}
		if pipe >= 0 {
			c.target[1] = pipe
		}
	}
	s.pending = append(s.pending, c)
	if pipe >= 0 {
		return pipe + 1
	}
	return t
}

// isHidden reports whether the link whose target starts with prefix and a
// colon is removed whole: a file, media, category or interlanguage link; a
// link of unknown prefix with an image option among its parameters (a file
// link in a namespace the site tables do not know); or, with a leading
// colon, a visible link to a category or file page or to another language
// that has no label of its own, so that no namespace-prefixed text remains.
func (s *scanner) isHidden(prefix string, leadingColon bool, pipe, limit int, closed bool) bool {
	if leadingColon {
		return s.site.hides(prefix) && (pipe < 0 || s.labelIsPrefixed(pipe+1, limit))
	}
	return s.site.hides(prefix) || pipe >= 0 && hasImageOption(s.src, pipe, limit, closed)
}

// labelIsPrefixed reports whether the label src[from:limit] of a visible
// link to a hidden namespace is itself a namespace-prefixed name, as in
// [[:Category:X|Category:X]]: such a label only repeats the target.
func (s *scanner) labelIsPrefixed(from, limit int) bool {
	colon := -1
	for j := from; j < limit && j-from <= maxName; j++ {
		if c := s.src[j]; c == ':' {
			colon = j
			break
		} else if c == '|' || c == '[' || c == ']' || c == '\n' {
			break
		}
	}
	return colon > from && s.site.hides(s.src[from:colon])
}

// closeBracket handles a ']' at i: the end of a link whose label is being
// copied, a stray "]]" (dropped) or a literal ']'.
func (s *scanner) closeBracket(i, to int) int {
	for len(s.pending) > s.pendingBase && s.pending[len(s.pending)-1].at < i {
		s.pending = s.pending[:len(s.pending)-1]
	}
	if n := len(s.pending); n > s.pendingBase && s.pending[n-1].at == i {
		c := s.pending[n-1]
		s.pending = s.pending[:n-1]
		if c.label >= 0 && c.label <= len(s.out) {
			s.recordLink(c.target, s.out[c.label:])
		}
		return i + c.width
	}
	if i+1 < to && s.src[i+1] == ']' {
		return i + 2
	}
	s.out = append(s.out, ']')
	return i + 1
}

// recordLink records an internal link whose target is s.src[target[0]:
// target[1]] and whose visible text, as the inline pass wrote it, is
// anchor.
func (s *scanner) recordLink(target [2]int, anchor []byte) {
	var l linkSpan
	l.target[0] = len(s.linkText)
	s.linkText = append(s.linkText, s.src[target[0]:target[1]]...)
	l.target[1] = len(s.linkText)
	s.linkText = append(s.linkText, anchor...)
	l.anchor = [2]int{l.target[1], len(s.linkText)}
	s.linkSpans = append(s.linkSpans, l)
}

// externalLink handles the single '[' at i: "[url label]" keeps the label,
// "[url]" is dropped, anything else is text.
func (s *scanner) externalLink(i, to int) int {
	src := s.src
	if !hasURLScheme(src[i+1 : to]) {
		s.out = append(s.out, '[')
		return i + 1
	}
	end := s.findAny(&s.extClose, i+1, "]\n")
	if end < 0 || end >= to || src[end] != ']' {
		s.out = append(s.out, '[')
		return i + 1
	}
	j := i + 1
	for j < end && src[j] != ' ' && src[j] != '\t' {
		j++
	}
	if j == end {
		// A link without a label shows a number, like a footnote.
		s.tidyBefore(end+1, to)
		return s.dropEmptyBrackets(end+1, to)
	}
	s.pending = append(s.pending, closer{at: end, width: 1, label: -1})
	return j + 1
}

// openAngle handles the '<' at i.
func (s *scanner) openAngle(i, to int, inRef bool) int {
	t := s.tagAt(i, to)
	switch t.kind {
	case tagNone:
		s.out = append(s.out, '<')
		return i + 1
	case tagComment:
		s.tidyBefore(t.end, to)
		return s.removed(t.end, to)
	case tagBreak:
		s.out = append(s.out, ' ')
	case tagNowiki:
		if t.hasBody {
			s.literal(t.body, t.bodyEnd)
		}
	case tagOpaque:
		mark := len(s.out)
		if t.hasBody && !s.noRender && strings.EqualFold(s.src[i+1:min(i+5, to)], "math") {
			s.out = appendMath(s.out, s.src[t.body:t.bodyEnd])
		}
		if len(s.out) == mark && t.end < to {
			return s.dropEmptyBrackets(t.end, to)
		}
	case tagRef:
		if t.hasBody && !inRef {
			s.ref(t.body, t.bodyEnd)
		}
		s.tidyBefore(t.end, to)
	}
	return t.end
}

// ref cleans the body src[body:bodyEnd] of a <ref> into s.refText and
// anchors it at the current end of s.out.
func (s *scanner) ref(body, bodyEnd int) {
	main := s.out
	s.out, s.writingRef = s.refText, true
	start := len(s.out)
	s.inline(body, bodyEnd, true)
	s.refText = s.out
	s.out, s.writingRef = main, false
	s.refs = append(s.refs, refNote{anchor: len(s.out), start: start, end: len(s.refText)})
}

// literal copies the <nowiki> content src[a:b] as text. Characters that
// mean something at the start or end of a line are written as numeric
// character references, which the block pass leaves alone and decodes at
// the end.
func (s *scanner) literal(a, b int) {
	for k := a; k < b; k++ {
		switch c := s.src[k]; c {
		case '&':
			if e := entityEnd(s.src, k, b); e > 0 {
				s.out = append(s.out, s.src[k:e]...)
				k = e - 1
			} else {
				s.out = append(s.out, "&amp;"...)
			}
		case '*', '#', ':', ';', '=', '-':
			s.out = append(s.out, "&#"...)
			s.out = strconv.AppendInt(s.out, int64(c), 10)
			s.out = append(s.out, ';')
		default:
			s.out = append(s.out, c)
		}
	}
}

// apostrophes drops bold and italic markup: runs of 2, 3 and 5
// apostrophes. A run of 4 keeps one apostrophe, longer runs keep the
// excess, as in MediaWiki.
func (s *scanner) apostrophes(i, to int) int {
	n := runLength(s.src, i, to, '\'')
	keep := 0
	switch {
	case n == 1, n == 4:
		keep = 1
	case n > 5:
		keep = n - 5
	}
	for ; keep > 0; keep-- {
		s.out = append(s.out, '\'')
	}
	return i + n
}

// underscore drops behaviour switches such as __NOTOC__.
func (s *scanner) underscore(i, to int) int {
	if i+1 < to && s.src[i+1] == '_' {
		if end := magicWordEnd(s.src, i+2, to); end > 0 {
			return s.removed(end, to)
		}
	}
	s.out = append(s.out, '_')
	return i + 1
}

// ampersand copies a character reference that stands whole in the source
// and escapes a bare '&', so that decoding at the end only decodes
// references present in the input.
func (s *scanner) ampersand(i, to int) int {
	if end := entityEnd(s.src, i, to); end > 0 {
		s.out = append(s.out, s.src[i:end]...)
		return end
	}
	s.out = append(s.out, "&amp;"...)
	return i + 1
}
