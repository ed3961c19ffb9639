package distinct

import (
	"strings"

	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/wikitext"
)

// A skeleton is the layout of a real article: its blocks in order, with
// the markup that the cleaner removes kept as it is (templates, infoboxes,
// tables, files, categories, comments) and the text replaced by counts, so
// that a generated page can take its structure and fill in new text.
type skeleton struct {
	blocks []block
	// sections is the number of level-2 sections of the body (before the
	// first reference section); block.section numbers them from 1, the
	// lead being 0 and the reference sections and what follows them
	// sections+1.
	sections int
}

type blockKind uint8

const (
	markupBlock  blockKind = iota // raw: wikitext that cleans to nothing, kept as it is
	headingBlock                  // raw: the heading line, kept as it is
	proseBlock                    // n sentences of running text
	listBlock                     // raw: the item's marker; n sentences, or a fragment of words words if n is 0
)

type block struct {
	kind    blockKind
	raw     string
	n       int
	words   int
	ref     bool // under a reference section: a list item there is a citation
	blank   bool // a blank line comes before it
	section int
}

// referenceHeadings are the section titles under which a list item is a
// citation (wikitext knows more; these are the usual ones).
var referenceHeadings = []string{"references", "notes", "bibliography", "further reading", "external links",
	"sources", "citations", "footnotes", "works cited", "literature", "notes and references", "references and notes"}

// parseSkeleton cuts wikitext into blocks, and appends the clean prose
// sentences it holds to sentences (for training).
func parseSkeleton(text string, rules *sentence.Rules, sentences []string) (skeleton, []string) {
	var sk skeleton
	section, inRef, blank := 0, false, false
	var paras []wikitext.Paragraph
	var spans []sentence.Span
	for _, line := range logicalLines(text) {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			blank = true
			continue
		case len(trimmed) > 2 && trimmed[0] == '=' && trimmed[len(trimmed)-1] == '=':
			level := len(trimmed) - len(strings.TrimLeft(trimmed, "="))
			title := strings.ToLower(strings.TrimSpace(strings.Trim(trimmed, "=")))
			if level <= 2 {
				if isReferenceHeading(title) {
					inRef = true
				}
				if inRef {
					section = -1
				} else {
					section++
					sk.sections = section
				}
			}
			sk.blocks = append(sk.blocks, block{kind: headingBlock, raw: trimmed, section: section, blank: blank})
			blank = false
			continue
		}
		paras = wikitext.AppendClean(paras[:0], line)
		n, words := 0, 0
		sentenceLike := false
		for _, p := range paras {
			spans = rules.AppendSplit(spans[:0], p.Text)
			n += len(spans)
			words += strings.Count(p.Text, " ") + 1
			for _, s := range spans {
				st := p.Text[s.Start:s.End]
				if trainingSentence(st) {
					sentenceLike = true
					if p.Context == wikitext.Prose && !inRef {
						sentences = append(sentences, st)
					}
				}
			}
		}
		b := block{n: n, ref: inRef, section: section, blank: blank}
		blank = false
		switch {
		case len(paras) == 0:
			b.kind, b.raw = markupBlock, line
		case strings.IndexByte("*#:;", trimmed[0]) >= 0:
			b.kind = listBlock
			b.raw = trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, "*#:;"))]
			if !sentenceLike {
				b.n, b.words = 0, min(words, 25)
			}
		default:
			b.kind = proseBlock
		}
		sk.blocks = append(sk.blocks, b)
	}
	for i := range sk.blocks {
		if sk.blocks[i].section < 0 {
			sk.blocks[i].section = sk.sections + 1
		}
	}
	return sk, sentences
}

func isReferenceHeading(title string) bool {
	for _, h := range referenceHeadings {
		if title == h {
			return true
		}
	}
	return false
}

// logicalLines cuts wikitext at the line breaks that are outside
// templates, tables, comments, <ref> bodies and the bodies of
// multi-line tags, so that each piece is a whole block.
func logicalLines(text string) []string {
	var lines []string
	braces, tables := 0, 0
	start := 0
	for i := 0; i < len(text); i++ {
		switch {
		case strings.HasPrefix(text[i:], "<!--"):
			end := strings.Index(text[i+4:], "-->")
			if end < 0 {
				i = len(text) - 1
			} else {
				i += 4 + end + 2
			}
		case hasTagPrefix(text[i:], "<ref"):
			gt := strings.IndexByte(text[i:], '>')
			if gt < 0 {
				i = len(text) - 1
				break
			}
			if text[i+gt-1] == '/' {
				i += gt
				break
			}
			end := strings.Index(text[i:], "</ref>")
			if end < 0 {
				i += gt
			} else {
				i += end + len("</ref>") - 1
			}
		case multiLineTag(text[i:]) != "":
			name := multiLineTag(text[i:])
			if end := strings.Index(text[i:], "</"+name+">"); end >= 0 {
				i += end + len(name) + 2
			}
		case strings.HasPrefix(text[i:], "{{"):
			braces++
			i++
		case strings.HasPrefix(text[i:], "}}"):
			braces = max(braces-1, 0)
			i++
		case (i == 0 || text[i-1] == '\n') && strings.HasPrefix(text[i:], "{|"):
			tables++
			i++
		case (i == 0 || text[i-1] == '\n') && strings.HasPrefix(text[i:], "|}"):
			tables = max(tables-1, 0)
			i++
		case text[i] == '\n' && braces == 0 && tables == 0:
			lines = append(lines, text[start:i])
			start = i + 1
		}
	}
	if start < len(text) {
		lines = append(lines, text[start:])
	}
	return lines
}

// hasTagPrefix reports whether s starts with the tag name, followed by a
// space, '>' or '/'.
func hasTagPrefix(s, tag string) bool {
	if !strings.HasPrefix(s, tag) || len(s) == len(tag) {
		return false
	}
	c := s[len(tag)]
	return c == ' ' || c == '>' || c == '/' || c == '\n'
}

// multiLineTag returns the name of the tag that s starts with if its body
// may span lines and holds no prose, else "".
func multiLineTag(s string) string {
	for _, name := range [...]string{"gallery", "timeline", "imagemap", "math", "score", "graph"} {
		if s[0] == '<' && hasTagPrefix(s[1:], name) {
			return name
		}
	}
	return ""
}
