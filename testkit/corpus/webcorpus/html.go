package webcorpus

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// minContent is the text, in characters of <p> children, that makes an
// element a host page's main content.
const minContent = 200

// mainContent returns the element of doc holding the most <p> text as
// direct children (the page's main content), or its <main>, <article> or
// <body>.
func mainContent(doc *html.Node) *html.Node {
	var best *html.Node
	bestScore := 0
	walk(doc, func(n *html.Node) {
		score := 0
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.DataAtom == atom.P {
				score += len(textOf(c))
			}
		}
		if score > bestScore {
			best, bestScore = n, score
		}
	})
	if bestScore >= minContent {
		return best
	}
	for _, a := range []atom.Atom{atom.Main, atom.Article, atom.Body} {
		if n := find(doc, a); n != nil {
			return n
		}
	}
	return doc
}

// walk calls f for n and every node below it, in document order.
func walk(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

// find returns the first element a below n, or nil.
func find(n *html.Node, a atom.Atom) *html.Node {
	var found *html.Node
	walk(n, func(m *html.Node) {
		if found == nil && m.Type == html.ElementNode && m.DataAtom == a {
			found = m
		}
	})
	return found
}

// textOf is the text below n, white space collapsed.
func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(m *html.Node) {
		if m.Type == html.TextNode {
			b.WriteString(m.Data)
			b.WriteByte(' ')
		}
	})
	return strings.Join(strings.Fields(b.String()), " ")
}

// hostParagraphs returns the texts of the <p> children of a host page's
// main content.
func hostParagraphs(body []byte) []string {
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return nil
	}
	var out []string
	for c := mainContent(doc).FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom == atom.P {
			if t := textOf(c); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

// embed returns the host page with its main content replaced by a heading
// and the paragraphs, its <title> set to title and its <html lang> to lang;
// the rest (head, navigation, sidebars, footer) is kept.
func embed(host []byte, title, lang string, paragraphs []string) ([]byte, error) {
	doc, err := html.Parse(bytes.NewReader(host))
	if err != nil {
		return nil, err
	}
	block := element(atom.Div, "")
	block.Attr = []html.Attribute{{Key: "class", Val: "entry-content"}}
	block.AppendChild(element(atom.H1, title))
	for _, p := range paragraphs {
		block.AppendChild(element(atom.P, p))
	}
	content := mainContent(doc)
	if content.DataAtom == atom.Body || content.Type == html.DocumentNode {
		content.InsertBefore(block, content.LastChild) // before the footer, if any
	} else {
		for c := content.FirstChild; c != nil; c = content.FirstChild {
			content.RemoveChild(c)
		}
		content.AppendChild(block)
	}
	setTitle(doc, title)
	if root := find(doc, atom.Html); root != nil {
		setAttr(root, "lang", lang)
	}
	var out bytes.Buffer
	if err := html.Render(&out, doc); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// element returns a new element a holding text.
func element(a atom.Atom, text string) *html.Node {
	n := &html.Node{Type: html.ElementNode, DataAtom: a, Data: a.String()}
	if text != "" {
		n.AppendChild(&html.Node{Type: html.TextNode, Data: text})
	}
	return n
}

// setTitle replaces the text of the document's <title>, adding one to its
// <head> if it has none.
func setTitle(doc *html.Node, title string) {
	t := find(doc, atom.Title)
	if t == nil {
		head := find(doc, atom.Head)
		if head == nil {
			return
		}
		t = element(atom.Title, "")
		head.AppendChild(t)
	}
	for c := t.FirstChild; c != nil; c = t.FirstChild {
		t.RemoveChild(c)
	}
	t.AppendChild(&html.Node{Type: html.TextNode, Data: title})
}

func setAttr(n *html.Node, key, val string) {
	for i, a := range n.Attr {
		if a.Key == key {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: key, Val: val})
}
