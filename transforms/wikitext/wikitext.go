// Package wikitext turns MediaWiki wikitext into plain-text paragraphs.
//
// The near-duplicate pipeline compares sentences, so it needs the prose a
// reader sees, free of markup, and it needs to know which text is
// bibliography or citation material so that later stages can treat
// citations separately. Clean does both: it drops templates (rendering the
// few that show a value, such as {{convert}}), tables, comments, tags, file
// and category links and formatting, keeps links' visible labels, and
// labels each paragraph with its heading and whether it is prose, a list
// item or reference material.
//
//   - Clean runs in time linear in its input and never panics; its output
//     is valid UTF-8, and markup it cannot close is dropped.
//   - Apart from rendered templates and formulas, decoded HTML entities and
//     U+FFFD for invalid bytes, every non-space character comes from the
//     input, in order.
//   - A Site (NewSite, Cleaner.SetSite) gives one wiki's namespace names.
//
// The passes and the choices for malformed input: docs/input.md, "How
// wikitext is cleaned".
package wikitext

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Context says what kind of text a Paragraph holds.
type Context uint8

const (
	// Prose is running text.
	Prose Context = iota
	// List is a list item (*, #, ;, :) outside reference sections.
	List
	// Reference is bibliography or citation material: any text in sections
	// such as References, Bibliography, Further reading or External links,
	// and the bodies of <ref> tags.
	Reference
)

// String returns "prose", "list" or "reference".
func (c Context) String() string {
	switch c {
	case Prose:
		return "prose"
	case List:
		return "list"
	case Reference:
		return "reference"
	}
	return "Context(" + strconv.Itoa(int(c)) + ")"
}

// Paragraph is one block of plain text.
type Paragraph struct {
	// Section is the cleaned text of the nearest heading above the
	// paragraph, "" in the lead section.
	Section string
	// Context says whether the text is prose, a list item or reference
	// material.
	Context Context
	// Text is clean plain text: single spaces, no newlines, no leading or
	// trailing space, never empty.
	Text string
}

// Clean converts wikitext to paragraphs in document order. The strings of
// the paragraphs share one allocation.
func Clean(text string) []Paragraph {
	return AppendClean(nil, text)
}

// AppendClean is like Clean but appends the paragraphs to dst and returns
// the extended slice. To reuse scratch memory across many pages, use a
// Cleaner.
func AppendClean(dst []Paragraph, text string) []Paragraph {
	var c Cleaner
	return c.AppendClean(dst, text)
}

// A Cleaner converts wikitext to paragraphs, reusing its scratch buffers
// from one call to the next. The zero value is ready to use and knows the
// canonical namespace names and the aliases of all the languages in its
// tables; SetSite makes it use one wiki's names. A Cleaner must not be used
// by several goroutines at once, but its Site may be shared.
type Cleaner struct {
	s    scanner
	b    blocks
	site *Site
	// noRender drops every template and <math> formula, as the cleaner did
	// before it rendered the ones that carry values: the tests check with it
	// that everything else the cleaner writes comes from its input, in order.
	noRender bool
	// keepLinks records each text's internal links (KeepLinks).
	keepLinks bool
	linkBuf   []byte
	linkNorms []struct{ target, anchor [2]int }
}

// SetSite makes the Cleaner use the namespace names of site; nil restores
// the default, which knows the canonical names and the aliases of every
// language in the tables.
func (c *Cleaner) SetSite(site *Site) {
	c.site = site
}

// Link is an internal link of a text: the page it targets, as written,
// and the text a reader sees in its place.
type Link struct {
	// Target is the linked page's title as written in the link, its
	// fragment included: "Ivory Coast", "ivory_coast#History".
	Target string
	// Anchor is the link's visible text, cleaned like a paragraph's:
	// "Côte d'Ivoire" for [[Ivory Coast|''Côte d'Ivoire'']], "Ivory Coast"
	// for [[Ivory Coast]].
	Anchor string
}

// KeepLinks sets whether AppendClean records the internal links of each
// text, for AppendLinks. File, category and interlanguage links are not
// internal links, nor are links with a leading colon ([[:Category:X|x]],
// [[:fr:Paris|Paris]]) and links that show nothing.
func (c *Cleaner) KeepLinks(keep bool) { c.keepLinks = keep }

// AppendLinks appends to dst the internal links of the last text cleaned
// with KeepLinks set, in document order, and returns the extended slice.
// Their strings share one allocation. A link whose target holds a
// character no title may hold ("[]{}|<>" or a line break) is left out.
func (c *Cleaner) AppendLinks(dst []Link) []Link {
	spans := c.s.linkSpans
	if len(spans) == 0 {
		return dst
	}
	buf := c.linkBuf[:0]
	type norm = struct{ target, anchor [2]int }
	ns := c.linkNorms[:0]
	for _, l := range spans {
		target := c.s.linkText[l.target[0]:l.target[1]]
		if !validTarget(target) {
			continue
		}
		var n norm
		n.target[0] = len(buf)
		buf = c.b.appendNormalized(buf, target)
		n.target[1] = len(buf)
		if anchor := c.s.linkText[l.anchor[0]:l.anchor[1]]; bytes.Equal(anchor, target) {
			n.anchor = n.target // [[Ivory Coast]] shows its target
		} else {
			buf = c.b.appendNormalized(buf, anchor)
			n.anchor = [2]int{n.target[1], len(buf)}
		}
		if n.target[0] < n.target[1] && n.anchor[0] < n.anchor[1] {
			ns = append(ns, n)
		}
	}
	c.linkBuf, c.linkNorms = buf, ns
	text := string(buf)
	dst = slices.Grow(dst, len(ns))
	for _, n := range ns {
		dst = append(dst, Link{Target: text[n.target[0]:n.target[1]], Anchor: text[n.anchor[0]:n.anchor[1]]})
	}
	return dst
}

// validTarget reports whether a link target holds none of the characters
// no title may hold: "[]{}|<>" and line breaks.
func validTarget(target []byte) bool {
	for _, c := range target {
		switch c {
		case '[', ']', '{', '}', '|', '<', '>', '\n':
			return false
		}
	}
	return true
}

// Debris returns how many lines of navigation and list debris (rows of
// short items such as "1 | 2 | … | 31", lone numbers) the last text cleaned
// held: they were dropped, not made paragraphs.
func (c *Cleaner) Debris() int { return c.b.debris }

// Clean converts wikitext to paragraphs in document order.
func (c *Cleaner) Clean(text string) []Paragraph {
	return c.AppendClean(nil, text)
}

// AppendClean appends the paragraphs of text to dst and returns the
// extended slice.
func (c *Cleaner) AppendClean(dst []Paragraph, text string) []Paragraph {
	if !utf8.ValidString(text) {
		// Removing markup must not join stray bytes into new characters.
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	c.s.reset(text, c.site.orDefault())
	c.s.noRender = c.noRender
	c.s.keepLinks = c.keepLinks
	start := skipRedirect(text)
	c.s.match(start, len(text), false)
	c.s.inline(start, len(text), false)
	dst = c.b.build(dst, c.s.out, c.s.refText, c.s.refs)
	c.s.src = "" // do not keep the page alive
	return dst
}
