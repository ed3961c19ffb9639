package htmltext

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Block is a block of text of a page, between two block-level boundaries,
// with the shallow text features that classify it.
type Block struct {
	Text        string
	Words       int     // words, as countWords counts them
	AnchorWords int     // words inside <a>
	TextDensity float64 // words per wrapped line (Kohlschütter et al.)
	LinkDensity float64 // AnchorWords / Words
	Heading     bool    // inside h1–h6
	// Nav and Aside are the shares of the block's words inside elements
	// that mark navigation (Nav: <nav>, class or id "menu",
	// "breadcrumb"…) or secondary content (Aside: <aside>, <footer>,
	// <header> outside an article, class or id "sidebar", "comment"…).
	Nav, Aside float64
	// Fate is what became of the block: "kept" or the step that dropped
	// it (docs/reuse.md, "Extracting main content").
	Fate string
}

// The flags an element sets for everything inside it.
type flags uint8

const (
	inAnchor flags = 1 << iota
	inHeading
	inNav
	inAside
	inArticle
)

// maxDepth bounds the stack of open elements: deeper elements are not
// pushed (their text still counts, with their parent's flags).
const maxDepth = 256

type openElement struct {
	a     atom.Atom
	name  string // for elements atom does not know
	flags flags
}

// scanner splits a decoded page into blocks. It works on the token
// stream, not on a parsed tree: linear in the page's size, with no limit
// on nesting (x/net/html's parser refuses pages nested deeper than 512).
type scanner struct {
	z     *html.Tokenizer
	stack []openElement
	// skip is the element whose content is being skipped, and skipDepth
	// how many of it are open.
	skip      atom.Atom
	skipDepth int

	text                        []byte // the current block's text, whitespace collapsed
	space                       bool   // a space is pending before the next text
	brs                         int    // consecutive <br>s
	anchor, heading, nav, aside int    // the current block's words so flagged
	blocks                      []Block

	title, ogTitle, htmlLang, metaLang string
	inTitle                            bool
}

// scan returns the blocks of the decoded page text and its title and
// language declarations.
func scan(text string) *scanner {
	s := &scanner{z: html.NewTokenizer(strings.NewReader(text))}
	for {
		tt := s.z.Next()
		if tt == html.ErrorToken {
			break
		}
		s.token(tt)
	}
	s.flush()
	return s
}

func (s *scanner) token(tt html.TokenType) {
	if s.skipDepth > 0 {
		s.skipped(tt)
		return
	}
	switch tt {
	case html.TextToken:
		s.addText(s.z.Text())
	case html.StartTagToken, html.SelfClosingTagToken:
		s.start(tt == html.SelfClosingTagToken)
	case html.EndTagToken:
		s.end()
	}
}

// skipped follows the nesting of the skipped element.
func (s *scanner) skipped(tt html.TokenType) {
	if tt != html.StartTagToken && tt != html.EndTagToken {
		return
	}
	name, _ := s.z.TagName()
	if atom.Lookup(name) != s.skip {
		return
	}
	if tt == html.StartTagToken {
		s.skipDepth++
	} else {
		s.skipDepth--
	}
}

func (s *scanner) top() flags {
	if len(s.stack) == 0 {
		return 0
	}
	return s.stack[len(s.stack)-1].flags
}

func (s *scanner) start(selfClosing bool) {
	name, hasAttr := s.z.TagName()
	a := atom.Lookup(name)
	var at attrs
	if hasAttr {
		at = readAttrs(s.z)
	}
	switch {
	case a == atom.Title:
		s.inTitle = !selfClosing
		return
	case a == atom.Meta:
		s.meta(at)
		return
	case a == atom.Html:
		s.htmlLang = at.lang
	case skipped[a] || at.hidden:
		if !selfClosing && !void[a] {
			if blockLevel[a] {
				s.flush()
			}
			s.skip, s.skipDepth = a, 1
		}
		return
	case a == atom.Br:
		s.brs++
		if s.brs >= 2 {
			s.flush()
		}
		s.space = true
		return
	}
	if blockLevel[a] {
		s.flush()
	}
	if void[a] || selfClosing {
		if a != 0 && !blockLevel[a] {
			s.space = s.space || a == atom.Img || a == atom.Wbr
		}
		return
	}
	s.push(a, name, at)
}

func (s *scanner) push(a atom.Atom, name []byte, at attrs) {
	s.closeImplied(a)
	f := s.top()
	switch a {
	case atom.A:
		f |= inAnchor
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		f |= inHeading
	case atom.Nav:
		f |= inNav
	case atom.Aside, atom.Footer:
		f |= inAside
	case atom.Header:
		if f&inArticle == 0 {
			f |= inAside
		}
	case atom.Article, atom.Main:
		f |= inArticle
	}
	if a != atom.Body && a != atom.Html {
		f |= at.hints
	}
	if len(s.stack) >= maxDepth {
		return
	}
	e := openElement{a: a, flags: f}
	if a == 0 {
		e.name = string(name)
	}
	s.stack = append(s.stack, e)
}

// closeImplied pops the elements a start tag of a implicitly closes: an
// open <a> for <a>, the previous item or cell for li, dt, dd, tr, td, th
// and p (within its list, row, table or block).
func (s *scanner) closeImplied(a atom.Atom) {
	var bounds []atom.Atom
	switch a {
	case atom.A:
		bounds = nil
	case atom.Li:
		bounds = []atom.Atom{atom.Ul, atom.Ol, atom.Menu}
	case atom.Dt, atom.Dd:
		bounds = []atom.Atom{atom.Dl}
	case atom.Td, atom.Th, atom.Tr:
		bounds = []atom.Atom{atom.Table, atom.Tbody, atom.Thead, atom.Tfoot}
	case atom.P:
		bounds = []atom.Atom{atom.Div, atom.Td, atom.Th, atom.Li, atom.Blockquote, atom.Section, atom.Article}
	default:
		return
	}
	same := func(b atom.Atom) bool {
		switch a {
		case atom.Dt, atom.Dd:
			return b == atom.Dt || b == atom.Dd
		case atom.Td, atom.Th:
			return b == atom.Td || b == atom.Th
		case atom.Tr:
			return b == atom.Tr || b == atom.Td || b == atom.Th
		}
		return b == a
	}
	for i := len(s.stack) - 1; i >= 0; i-- {
		b := s.stack[i].a
		if same(b) {
			s.stack = s.stack[:i]
			return
		}
		for _, bound := range bounds {
			if b == bound {
				return
			}
		}
	}
}

func (s *scanner) end() {
	name, _ := s.z.TagName()
	a := atom.Lookup(name)
	if a == atom.Title {
		s.inTitle = false
		return
	}
	if blockLevel[a] || a == atom.Br {
		s.flush()
	}
	for i := len(s.stack) - 1; i >= 0; i-- {
		e := s.stack[i]
		if e.a == a && (a != 0 || e.name == string(name)) {
			s.stack = s.stack[:i]
			return
		}
	}
}

func (s *scanner) meta(at attrs) {
	switch {
	case at.property == "og:title" && s.ogTitle == "":
		s.ogTitle = collapse(at.content)
	case strings.EqualFold(at.httpEquiv, "content-language") && s.metaLang == "":
		s.metaLang = at.content
	}
}

func (s *scanner) addText(t []byte) {
	if s.inTitle {
		if s.title == "" {
			s.title = collapse(string(t))
		}
		return
	}
	start := len(s.text)
	for len(t) > 0 {
		r, size := utf8.DecodeRune(t)
		t = t[size:]
		if unicode.IsSpace(r) || r == 0 {
			s.space = true
			continue
		}
		if s.space && len(s.text) > 0 {
			s.text = append(s.text, ' ')
		}
		s.space = false
		s.text = utf8.AppendRune(s.text, r)
	}
	if len(s.text) == start {
		return
	}
	s.brs = 0
	n := countWords(string(s.text[start:]))
	f := s.top()
	if f&inAnchor != 0 {
		s.anchor += n
	}
	if f&inHeading != 0 {
		s.heading += n
	}
	if f&inNav != 0 {
		s.nav += n
	}
	if f&inAside != 0 {
		s.aside += n
	}
}

// flush ends the current block.
func (s *scanner) flush() {
	defer func() {
		s.text = s.text[:0]
		s.space, s.brs = false, 0
		s.anchor, s.heading, s.nav, s.aside = 0, 0, 0, 0
	}()
	if len(s.text) == 0 {
		return
	}
	text := string(s.text)
	n, td := textDensity(text)
	if n == 0 {
		return
	}
	share := func(k int) float64 { return min(1, float64(k)/float64(n)) }
	s.blocks = append(s.blocks, Block{
		Text:        text,
		Words:       n,
		AnchorWords: min(n, s.anchor),
		TextDensity: td,
		LinkDensity: share(s.anchor),
		Heading:     2*s.heading > n,
		Nav:         share(s.nav),
		Aside:       share(s.aside),
	})
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// attrs are the attributes scan looks at.
type attrs struct {
	lang, property, content, httpEquiv string
	hints                              flags
	// hidden says the element is not shown: attribute hidden, style
	// display:none, or MediaWiki's [edit] links (class mw-editsection).
	hidden bool
}

func readAttrs(z *html.Tokenizer) attrs {
	var at attrs
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		switch string(k) {
		case "lang":
			at.lang = string(v)
		case "xml:lang":
			if at.lang == "" {
				at.lang = string(v)
			}
		case "property", "name":
			if at.property == "" {
				at.property = strings.ToLower(string(v))
			}
		case "content":
			at.content = string(v)
		case "http-equiv":
			at.httpEquiv = string(v)
		case "class", "id":
			at.hints |= classHints(v)
			at.hidden = at.hidden || bytes.Contains(v, []byte("mw-editsection"))
		case "hidden":
			at.hidden = true
		case "style":
			at.hidden = at.hidden || displayNone(v)
		case "role":
			at.hints |= roleHints(string(v))
		}
	}
	return at
}

func displayNone(style []byte) bool {
	style = bytes.ToLower(style)
	i := bytes.Index(style, []byte("display"))
	if i < 0 {
		return false
	}
	v := bytes.TrimLeft(style[i+len("display"):], " \t")
	return bytes.HasPrefix(v, []byte(":")) && bytes.HasPrefix(bytes.TrimLeft(v[1:], " \t"), []byte("none"))
}

func roleHints(role string) flags {
	switch strings.ToLower(strings.TrimSpace(role)) {
	case "navigation", "menu", "menubar", "search":
		return inNav
	case "complementary", "contentinfo", "banner":
		return inAside
	case "main", "article":
		return inArticle
	}
	return 0
}

// navWords and asideWords are the words of class and id values that mark
// navigation and secondary content. A class word matches if it is one of
// them or starts or ends with one ("mainnav", "menuitem"), but for "ads"
// and "skip", which must match whole.
var (
	navWords = []string{"nav", "navbar", "navigation", "navbox", "menu", "breadcrumb",
		"breadcrumbs", "cookie", "cookies", "consent", "share", "sharing", "social",
		"pagination", "pager", "skip", "toolbar", "catlinks", "printfooter",
		"noprint", "ambox"}
	asideWords = []string{"footer", "sidebar", "comment", "comments", "widget",
		"related", "advert", "ads", "banner", "masthead", "promo", "newsletter",
		"subscribe", "signup", "disqus"}
)

// classHints returns the flags the words of a class or id value set.
// Words after "no-", "has-" or "with-" (WordPress's "no-sidebar") do not
// count.
func classHints(v []byte) flags {
	var f flags
	for _, tok := range bytes.Fields(v) {
		tok = bytes.ToLower(tok)
		if bytes.HasPrefix(tok, []byte("no-")) || bytes.HasPrefix(tok, []byte("has-")) ||
			bytes.HasPrefix(tok, []byte("with-")) {
			continue
		}
		for w := range bytes.FieldsFuncSeq(tok, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		}) {
			if matchesAny(w, navWords) {
				f |= inNav
			} else if matchesAny(w, asideWords) {
				f |= inAside
			}
		}
	}
	return f
}

func matchesAny(w []byte, list []string) bool {
	for _, h := range list {
		if h == "ads" || h == "skip" {
			if string(w) == h {
				return true
			}
			continue
		}
		if bytes.HasPrefix(w, []byte(h)) || bytes.HasSuffix(w, []byte(h)) {
			return true
		}
	}
	return false
}

// skipped are the elements whose content is never text of the page.
var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Math: true, atom.Canvas: true, atom.Iframe: true,
	atom.Object: true, atom.Button: true, atom.Select: true, atom.Textarea: true,
	atom.Datalist: true, atom.Audio: true, atom.Video: true,
	atom.Noembed: true, atom.Noframes: true,
}

// void are the elements without content or end tag.
var void = map[atom.Atom]bool{
	atom.Area: true, atom.Base: true, atom.Br: true, atom.Col: true, atom.Embed: true,
	atom.Hr: true, atom.Img: true, atom.Input: true, atom.Link: true, atom.Meta: true,
	atom.Param: true, atom.Source: true, atom.Track: true, atom.Wbr: true,
}

// blockLevel are the elements that start and end a block of text.
var blockLevel = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Section: true, atom.Article: true,
	atom.Main: true, atom.Header: true, atom.Footer: true, atom.Nav: true,
	atom.Aside: true, atom.Li: true, atom.Ul: true, atom.Ol: true, atom.Menu: true,
	atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Table: true, atom.Tr: true,
	atom.Td: true, atom.Th: true, atom.Caption: true, atom.Thead: true,
	atom.Tbody: true, atom.Tfoot: true, atom.H1: true, atom.H2: true, atom.H3: true,
	atom.H4: true, atom.H5: true, atom.H6: true, atom.Blockquote: true, atom.Pre: true,
	atom.Hr: true, atom.Figure: true, atom.Figcaption: true, atom.Address: true,
	atom.Body: true, atom.Html: true, atom.Form: true, atom.Fieldset: true,
	atom.Legend: true, atom.Details: true, atom.Summary: true, atom.Dialog: true,
	atom.Center: true, atom.Hgroup: true, atom.Option: true,
	atom.Frameset: true, atom.Frame: true,
}
