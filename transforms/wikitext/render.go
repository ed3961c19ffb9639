package wikitext

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"
)

// Rendering templates that carry values.
//
// Most templates show nothing a reader would quote (infoboxes, navigation,
// citations, maintenance tags) and the cleaner drops them. Some show a
// value in the middle of a sentence: {{convert|27|C}} is "27 °C",
// {{nowrap|Apollo 8}} is "Apollo 8", {{birth date|1950|5|17}} is "May 17,
// 1950". Dropping those leaves "rise to almost ." and makes copies that
// differ only in the dropped value look identical. The templates in
// names/templates.txt are rendered instead, as the template documentation
// says MediaWiki shows them, without their conversions, icons and links.

// renderKind says how a template is rendered.
type renderKind uint8

const (
	renderNone renderKind = iota
	renderText
	renderLiteral
	renderPrefix
	renderJoin
	renderConvert
	renderVal
	renderFrac
	renderHeight
	renderFormatnum
	renderDate
	renderShip
	renderFootnote
	// renderLanguageText is a template named by a language code, alone or
	// after a hyphen ({{en|...}}, {{vol-lt|...}}): with one unnamed
	// argument and no named one, its text.
	renderLanguageText
)

var renderKinds = map[string]renderKind{
	"text": renderText, "literal": renderLiteral, "prefix": renderPrefix, "join": renderJoin,
	"convert": renderConvert, "val": renderVal, "frac": renderFrac, "height": renderHeight,
	"formatnum": renderFormatnum, "date": renderDate, "ship": renderShip, "footnote": renderFootnote,
}

// renderRule is one entry of names/templates.txt.
type renderRule struct {
	kind  renderKind
	param string // with '_' as ' ' and "-" as ""
}

// namePattern is an entry whose name starts or ends with '*'.
type namePattern struct {
	affix string
	rule  renderRule
}

// dateStyle is how a language writes dates and numbers (names/dates.txt).
type dateStyle struct {
	order, dmy string
	months     []string
	group      string
}

// renderTables is the parsed content of templates.txt, units.txt and
// dates.txt.
type renderTables struct {
	exact    map[string]renderRule
	prefixes []namePattern // "lang-*"
	suffixes []namePattern // "* icon"
	units    map[string]string
	styles   map[string]*dateStyle
	fallback dateStyle // of a language dates.txt does not list
}

var loadRenderTables = sync.OnceValue(func() *renderTables {
	t := &renderTables{exact: map[string]renderRule{}, units: map[string]string{}, styles: map[string]*dateStyle{},
		fallback: dateStyle{group: ","}}
	eachEntry("names/templates.txt", t.addTemplate)
	eachEntry("names/units.txt", func(_, code, symbol string) { t.units[code] = unescapeParam(symbol) })
	eachEntry("names/dates.txt", t.addStyle)
	return t
})

func (t *renderTables) addTemplate(kind, param, name string) {
	k, ok := renderKinds[kind]
	if !ok {
		panic("wikitext: names/templates.txt: unknown kind " + kind)
	}
	rule := renderRule{kind: k, param: unescapeParam(param)}
	var buf [maxName]byte
	key, ok := normalizeName(&buf, name)
	if !ok || len(key) == 0 {
		return
	}
	switch n := string(key); {
	case len(n) > 1 && n[len(n)-1] == '*':
		t.prefixes = append(t.prefixes, namePattern{affix: n[:len(n)-1], rule: rule})
	case len(n) > 1 && n[0] == '*':
		t.suffixes = append(t.suffixes, namePattern{affix: n[1:], rule: rule})
	default:
		t.exact[n] = rule
	}
}

func (t *renderTables) addStyle(lang, kind, value string) {
	st := t.styles[lang]
	if st == nil {
		st = &dateStyle{group: ","}
		t.styles[lang] = st
	}
	switch kind {
	case "date":
		st.order = unescapeParam(value)
	case "dmy":
		st.dmy = unescapeParam(value)
	case "months":
		st.months = strings.Split(value, "|")
	case "group":
		st.group = unescapeParam(value)
		if value == "_" {
			st.group = "\u00a0"
		}
	}
}

// unescapeParam reads a parameter of the data files: '_' is a space and a
// lone '-' is nothing.
func unescapeParam(p string) string {
	if p == "-" {
		return ""
	}
	return strings.ReplaceAll(p, "_", " ")
}

// rule returns how the template of the normalized name is rendered.
func (t *renderTables) rule(name []byte) renderRule {
	if r, ok := t.exact[string(name)]; ok {
		return r
	}
	for _, p := range t.prefixes {
		if len(name) > len(p.affix) && string(name[:len(p.affix)]) == p.affix {
			return p.rule
		}
	}
	for _, p := range t.suffixes {
		if len(name) > len(p.affix) && string(name[len(name)-len(p.affix):]) == p.affix {
			return p.rule
		}
	}
	return renderRule{}
}

// style returns the date and number style of a language.
func (t *renderTables) style(lang string) *dateStyle {
	if st := t.styles[lang]; st != nil {
		return st
	}
	if base, _, ok := strings.Cut(lang, "-"); ok {
		if st := t.styles[base]; st != nil {
			return st
		}
	}
	return &t.fallback
}

// tplArg is one argument of a template call: its name ("" if unnamed) and
// the range of its value in the source, trimmed of white space.
type tplArg struct {
	name     string
	from, to int
}

// maxArgs bounds the arguments read of a rendered template: the kinds
// rendered use a few.
const maxArgs = 32

// maxRenderDepth bounds how deeply rendered templates nest in one another;
// deeper ones are dropped, so that hostile input cannot recurse without end.
const maxRenderDepth = 8

// renderTemplate renders the template src[start:end] (from its "{{" to
// just past its "}}") if names/templates.txt lists it, appending its text
// to s.out. It reports whether the template was one of the listed kinds;
// for a footnote kind it only tidies the space before it.
func (s *scanner) renderTemplate(start, end, to int, inRef bool) bool {
	if s.renderDepth >= maxRenderDepth {
		return false
	}
	base := len(s.args)
	rule, ok := s.templateRule(start, end)
	if !ok {
		return false
	}
	// Nested templates push their arguments after these and pop them.
	args := s.args[base:len(s.args):len(s.args)]
	s.renderDepth++
	switch rule.kind {
	case renderFootnote:
		s.tidyBefore(end, to)
	case renderLiteral:
		s.out = append(s.out, rule.param...)
	case renderText:
		s.renderText(args, rule.param, inRef)
	case renderLanguageText:
		if len(args) == 1 && args[0].name == "" {
			s.inlineArg(args[0], inRef)
		}
	case renderPrefix:
		if a := positional(args, 1); a.to > a.from {
			s.out = append(s.out, rule.param...)
			s.inlineArg(a, inRef)
		}
	case renderJoin:
		s.renderJoin(args, rule.param, inRef)
	default:
		s.out = append(s.out, s.renderValue(args, rule, inRef)...)
	}
	s.renderDepth--
	s.args = s.args[:base]
	return true
}

// templateRule reads the name of the template src[start:end] and, if it
// is one to render, pushes its arguments on s.args and returns its rule.
func (s *scanner) templateRule(start, end int) (renderRule, bool) {
	src := s.src
	inner, innerEnd := start+2, end-2
	if innerEnd < inner {
		return renderRule{}, false
	}
	nameEnd := s.nextPipe(inner, innerEnd)
	raw := src[inner:nameEnd]
	var fnArg bool
	if colon := strings.IndexByte(raw, ':'); colon > 0 {
		// A parser function such as {{formatnum:1234}}: its first
		// argument follows the colon.
		raw, fnArg = raw[:colon], true
	}
	if len(raw) > maxName || strings.ContainsAny(raw, "{}[]<\n") {
		return renderRule{}, false
	}
	var buf [maxName]byte
	key, ok := normalizeName(&buf, raw)
	if !ok || len(key) == 0 {
		return renderRule{}, false
	}
	rule := loadRenderTables().rule(key)
	if rule.kind == renderNone && !fnArg && isLanguageTagged(key) {
		rule = renderRule{kind: renderLanguageText}
	}
	if rule.kind == renderNone || fnArg != (rule.kind == renderFormatnum) {
		return renderRule{}, false
	}
	if fnArg {
		s.args = append(s.args, trimArg(src, "", inner+len(raw)+1, nameEnd))
	}
	for p, n := nameEnd, 0; p < innerEnd && n < maxArgs; n++ {
		next := s.nextPipe(p+1, innerEnd)
		s.args = append(s.args, s.parseArg(p+1, next))
		p = next
	}
	return rule, true
}

// isLanguageTagged reports whether a normalized template name is an ISO
// 639 language code of two letters, or ends in a hyphen and a code of two
// or three letters: the shape every wiki gives its templates that mark text
// as being in another language ({{en}}, {{lang-fr}}, {{vol-lt}}), whatever
// its word for "language". Three-letter names alone are too often other
// things ({{see}}, {{pad}}) to count.
func isLanguageTagged(name []byte) bool {
	code := name
	k := bytes.LastIndexByte(name, '-')
	if k >= 0 {
		code = name[k+1:]
	}
	if len(code) != 2 && (k <= 0 || len(code) != 3) {
		return false
	}
	for _, c := range code {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	_, err := language.ParseBase(string(code))
	return err == nil
}

// nextPipe returns the position of the next '|' in src[from:to] that
// separates arguments (not one inside a nested template, link, comment or
// tag), or to.
func (s *scanner) nextPipe(from, to int) int {
	src := s.src
	for i := from; i < to; {
		j := strings.IndexAny(src[i:to], "|{[<")
		if j < 0 {
			return to
		}
		i += j
		switch src[i] {
		case '|':
			return i
		case '{':
			n := runLength(src, i, to, '{')
			if end := spanEnd(s.templates, i); n >= 2 && end > i {
				i = end
			} else {
				i += n
			}
		case '[':
			n := runLength(src, i, to, '[')
			if end := spanEnd(s.links, i+n-2); n >= 2 && end > i {
				i = end + 2
			} else {
				i += n
			}
		case '<':
			if t := s.tagAt(i, to); t.kind == tagComment || t.kind == tagNowiki || t.kind == tagRef || t.kind == tagOpaque {
				i = t.end
			} else {
				i++
			}
		}
	}
	return to
}

// spanEnd returns the end of the span of list that starts at i, or -1.
func spanEnd(list []span, i int) int {
	lo := firstAtOrAfter(list, i)
	if lo < len(list) && list[lo].start == i {
		return list[lo].end
	}
	return -1
}

// parseArg reads the argument src[from:to]: "name = value" when an '='
// comes before any markup, else an unnamed value.
func (s *scanner) parseArg(from, to int) tplArg {
	src := s.src
	eq := strings.IndexAny(src[from:to], "={[<")
	if eq >= 0 && src[from+eq] == '=' {
		name := strings.TrimSpace(src[from : from+eq])
		if name != "" {
			return trimArg(src, name, from+eq+1, to)
		}
	}
	return trimArg(src, "", from, to)
}

func trimArg(src, name string, from, to int) tplArg {
	for from < to && isSpace(src[from]) {
		from++
	}
	for to > from && isSpace(src[to-1]) {
		to--
	}
	return tplArg{name: name, from: from, to: to}
}

// positional returns the n-th unnamed argument (from 1), or an argument
// named n, which MediaWiki takes for the same one; an empty range if there
// is none.
func positional(args []tplArg, n int) tplArg {
	num := strconv.Itoa(n)
	var found tplArg
	k := 0
	for _, a := range args {
		switch {
		case a.name == "":
			k++
			if k == n {
				found = a
			}
		case a.name == num:
			found = a
		}
	}
	return found
}

// named returns the value of the argument called name, or an empty range.
func named(args []tplArg, name string) tplArg {
	var found tplArg
	for _, a := range args {
		if a.name == name {
			found = a
		}
	}
	return found
}

// unnamed returns how many unnamed arguments there are.
func unnamed(args []tplArg) int {
	k := 0
	for _, a := range args {
		if a.name == "" {
			k++
		}
	}
	return k
}

// inlineArg appends the cleaned text of an argument to s.out, on one line.
func (s *scanner) inlineArg(a tplArg, inRef bool) {
	if a.to <= a.from {
		return
	}
	mark := len(s.out)
	s.inline(a.from, a.to, inRef)
	for k := mark; k < len(s.out); k++ {
		if s.out[k] == '\n' {
			s.out[k] = ' '
		}
	}
}

// argText returns the cleaned text of an argument as a string.
func (s *scanner) argText(a tplArg, inRef bool) string {
	if a.to <= a.from {
		return ""
	}
	plain := s.src[a.from:a.to]
	if !strings.ContainsAny(plain, "{}[]<'&\n") {
		return plain
	}
	mark := len(s.out)
	s.inlineArg(a, inRef)
	text := strings.TrimSpace(string(s.out[mark:]))
	s.out = s.out[:mark]
	return text
}

// renderText appends the argument that param names: "1", "last", or
// "2,1" (the first of them that is not empty).
func (s *scanner) renderText(args []tplArg, param string, inRef bool) {
	for _, which := range strings.Split(param, ",") {
		var a tplArg
		if which == "last" {
			a = positional(args, unnamed(args))
		} else if n, err := strconv.Atoi(which); err == nil {
			a = positional(args, n)
		}
		if a.to > a.from {
			s.inlineArg(a, inRef)
			return
		}
	}
}

// renderJoin appends the unnamed arguments separated by sep.
func (s *scanner) renderJoin(args []tplArg, sep string, inRef bool) {
	first := true
	for _, a := range args {
		if a.name != "" {
			continue
		}
		if !first {
			s.out = append(s.out, sep...)
		}
		first = false
		s.inlineArg(a, inRef)
	}
}

// renderValue returns the text of a template of the value kinds.
func (s *scanner) renderValue(args []tplArg, rule renderRule, inRef bool) string {
	var p []string
	for k := 1; k <= unnamed(args); k++ {
		p = append(p, s.argText(positional(args, k), inRef))
	}
	arg := func(n string) string { return s.argText(named(args, n), inRef) }
	t := loadRenderTables()
	st := t.style(s.site.lang)
	switch rule.kind {
	case renderConvert:
		return convertText(p, t.units, st.group)
	case renderVal:
		return valText(p, arg)
	case renderFrac:
		return fracText(p)
	case renderHeight:
		return heightText(arg)
	case renderFormatnum:
		if len(p) == 0 {
			return ""
		}
		return groupDigits(p[0], st.group, 1)
	case renderShip:
		return shipText(p)
	case renderDate:
		return dateText(p, arg, st, rule.param == "aged", s.site.lang)
	}
	return ""
}

// tidyBefore drops the blanks just written before a construct that shows
// nothing (a footnote mark, a <ref>, a comment) ending at end, when
// punctuation follows it: "in 2008 <ref>x</ref>." reads "in 2008.".
func (s *scanner) tidyBefore(end, to int) {
	k := len(s.out)
	for k > 0 && isBlank(s.out[k-1]) {
		k--
	}
	if k == len(s.out) || k == 0 || s.out[k-1] == '\n' {
		return
	}
	j := end
	for j < to && isBlank(s.src[j]) {
		j++
	}
	if j < to && s.src[j] == '\n' {
		// A single line break is a space; a blank line ends the paragraph.
		j++
		for j < to && isBlank(s.src[j]) {
			j++
		}
	}
	if j == to {
		return
	}
	r, _ := utf8.DecodeRuneInString(s.src[j:])
	if !closesText(r) {
		return
	}
	s.cut(k)
}

// cut shortens s.out to k bytes, and moves the anchors of the refs that
// stood in the removed text to its new end.
func (s *scanner) cut(k int) {
	s.out = s.out[:k]
	if s.writingRef {
		return
	}
	for i := len(s.refs) - 1; i >= 0 && s.refs[i].anchor > k; i-- {
		s.refs[i].anchor = k
	}
}

// closesText reports whether r is punctuation that attaches to the word
// before it: terminators, closing brackets and quotes, commas, colons and
// semicolons of any script.
func closesText(r rune) bool {
	switch r {
	case ',', ';', ':', '、', '，', '；', '：', '،', '؛':
		return true
	}
	return unicode.Is(unicode.Sentence_Terminal, r) || unicode.In(r, unicode.Pe, unicode.Pf)
}

// closingBracket returns the bracket that closes open, or 0.
func closingBracket(open rune) rune {
	switch open {
	case '(':
		return ')'
	case '（':
		return '）'
	case '[':
		return ']'
	}
	return 0
}

// dropEmptyBrackets is called after dropping a construct that ended at
// end. If the construct was all that stood in a pair of brackets ("the
// border ({{coord|...}})", "（[[:fr:X]]）"), the brackets go too, so that no
// empty "()" is left in the text. It returns where to continue.
func (s *scanner) dropEmptyBrackets(end, to int) int {
	k := len(s.out)
	for k > 0 && isBlank(s.out[k-1]) {
		k--
	}
	open, size := utf8.DecodeLastRune(s.out[:k])
	closer := closingBracket(open)
	if closer == 0 {
		return end
	}
	j := end
	for j < to && isBlank(s.src[j]) {
		j++
	}
	r, rsize := utf8.DecodeRuneInString(s.src[j:to])
	if r != closer || closer == ']' && j+1 < to && s.src[j+1] == ']' {
		return end
	}
	k -= size
	for k > 0 && isBlank(s.out[k-1]) {
		k--
	}
	s.cut(k)
	return j + rsize
}
