package wikitext

import "strings"

// tagKind classifies what a '<' starts.
type tagKind uint8

const (
	tagNone    tagKind = iota // not markup: the '<' is text
	tagComment                // <!-- ... -->
	tagInline                 // a formatting tag: dropped, content kept
	tagBreak                  // a tag between words (<br>, <p>, <div>...): a space
	tagNowiki                 // <nowiki>: content kept as literal text
	tagRef                    // <ref>: content moved to a Reference paragraph
	tagOpaque                 // <math>, <gallery>...: dropped with content
)

// Indices of the tags whose content is opaque to the cleaner, each with a
// remembered search for its closing tag.
const (
	pairedNowiki = iota
	pairedRef
	pairedMath
	pairedChem
	pairedCe
	pairedGallery
	pairedTimeline
	pairedSyntaxHighlight
	pairedSource
	pairedPre
	pairedScore
	pairedImagemap
	pairedHiero
	pairedGraph
	pairedMapframe
	pairedMaplink
	pairedTemplateData
	pairedTemplateStyles
	pairedCategoryTree
	pairedInputbox
	pairedCharInsert
	pairedIncludeOnly
	pairedIndicator
	pairedRSS
	pairedDynamicPageList
	numPaired
)

// classifyTag returns the kind of the tag called name (lower case) and,
// for paired kinds, its index.
func classifyTag(name string) (tagKind, int) {
	switch name {
	case "nowiki":
		return tagNowiki, pairedNowiki
	case "ref":
		return tagRef, pairedRef
	case "math":
		return tagOpaque, pairedMath
	case "chem":
		return tagOpaque, pairedChem
	case "ce":
		return tagOpaque, pairedCe
	case "gallery":
		return tagOpaque, pairedGallery
	case "timeline":
		return tagOpaque, pairedTimeline
	case "syntaxhighlight":
		return tagOpaque, pairedSyntaxHighlight
	case "source":
		return tagOpaque, pairedSource
	case "pre":
		return tagOpaque, pairedPre
	case "score":
		return tagOpaque, pairedScore
	case "imagemap":
		return tagOpaque, pairedImagemap
	case "hiero":
		return tagOpaque, pairedHiero
	case "graph":
		return tagOpaque, pairedGraph
	case "mapframe":
		return tagOpaque, pairedMapframe
	case "maplink":
		return tagOpaque, pairedMaplink
	case "templatedata":
		return tagOpaque, pairedTemplateData
	case "templatestyles":
		return tagOpaque, pairedTemplateStyles
	case "categorytree":
		return tagOpaque, pairedCategoryTree
	case "inputbox":
		return tagOpaque, pairedInputbox
	case "charinsert":
		return tagOpaque, pairedCharInsert
	case "includeonly":
		return tagOpaque, pairedIncludeOnly
	case "indicator":
		return tagOpaque, pairedIndicator
	case "rss":
		return tagOpaque, pairedRSS
	case "dynamicpagelist":
		return tagOpaque, pairedDynamicPageList
	case "br", "hr", "p", "div", "li", "ul", "ol", "dl", "dt", "dd",
		"table", "tr", "td", "th", "caption", "thead", "tbody", "tfoot",
		"blockquote", "center", "h1", "h2", "h3", "h4", "h5", "h6", "poem":
		return tagBreak, -1
	case "b", "i", "u", "s", "strike", "del", "ins", "small", "big", "sup",
		"sub", "span", "font", "code", "tt", "kbd", "var", "samp", "em",
		"strong", "cite", "q", "abbr", "dfn", "mark", "bdi", "bdo", "ruby",
		"rb", "rp", "rt", "rtc", "time", "data", "wbr", "noinclude",
		"onlyinclude", "references", "section", "includes", "translate",
		"tvar", "languages", "a":
		return tagInline, -1
	}
	return tagNone, -1
}

// tag describes the markup starting at a '<'.
type tag struct {
	kind    tagKind
	end     int  // just past the construct
	hasBody bool // a paired tag with its closing tag found
	body    int  // start of the content, if hasBody
	bodyEnd int  // end of the content, if hasBody
}

// maxTagName bounds the length of a tag name.
const maxTagName = 20

// tagAt recognises the markup starting at src[i] == '<' within [i, to).
// Constructs whose end lies beyond to are cut at to.
func (s *scanner) tagAt(i, to int) tag {
	src := s.src
	if strings.HasPrefix(src[i:to], "<!--") {
		at := s.find(&s.commentEnd, i+4, "-->")
		if at < 0 || at+3 > to {
			return tag{kind: tagComment, end: to}
		}
		return tag{kind: tagComment, end: at + 3}
	}
	j := i + 1
	closing := j < to && src[j] == '/'
	if closing {
		j++
	}
	k := j
	var lower [maxTagName]byte
	for k < to && k-j < maxTagName && isTagNameByte(src[k]) {
		lower[k-j] = toLower(src[k])
		k++
	}
	if k == j || k >= to {
		return tag{}
	}
	if c := src[k]; c != '>' && c != '/' && !isSpace(c) {
		return tag{}
	}
	kind, paired := classifyTag(string(lower[:k-j]))
	if kind == tagNone {
		return tag{}
	}
	// Tags end at the next '>'. Only the paired tags, such as <ref>, may
	// span lines, so that a stray "a <b" in prose cannot swallow text up
	// to some later '>'.
	var gt int
	if paired >= 0 {
		gt = s.findAny(&s.angleMultiline, k, "<>")
	} else {
		gt = s.findAny(&s.angle, k, "<>\n")
	}
	if gt < 0 || gt >= to || src[gt] != '>' {
		return tag{}
	}
	openEnd := gt + 1
	if closing || paired < 0 {
		// A closing tag, or one whose content stays: just drop the tag.
		// A stray closing tag of a paired kind is dropped the same way.
		if kind != tagBreak {
			kind = tagInline
		}
		return tag{kind: kind, end: openEnd}
	}
	if src[gt-1] == '/' {
		return tag{kind: kind, end: openEnd}
	}
	at, end := s.findClose(&s.closeTags[paired], openEnd, src[j:k])
	if at < 0 || end > to {
		if kind == tagNowiki {
			return tag{kind: tagInline, end: openEnd}
		}
		return tag{kind: kind, end: s.endOfLine(openEnd, to)}
	}
	return tag{kind: kind, end: end, hasBody: true, body: openEnd, bodyEnd: at}
}

func isTagNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-'
}

func toLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
