// Package htmltext extracts the main content of an HTML page as
// paragraphs of plain text, dropping its boilerplate (navigation, headers,
// footers, link lists), for the pages of web crawls (package io/warc).
package htmltext

import (
	"strings"

	"golang.org/x/net/html"
)

// Page is what Extract finds in an HTML page.
type Page struct {
	Title string
	// Lang is the page's language as a lower-case tag ("en", "pt-br"):
	// <html lang>, else <meta http-equiv="content-language">, else the
	// Content-Language header; "" if none says.
	Lang string
	// Paragraphs are the main content's blocks of text, in page order.
	Paragraphs []string
	// Charset is the name of the encoding the page was decoded with, and
	// CharsetSource where it came from: "bom", "header", "meta" or
	// "sniffed" (declared nowhere: guessed by html/charset).
	Charset, CharsetSource string
	// Repaired says the declared charset did not decode every byte: the
	// bytes that did not decode were replaced by U+FFFD.
	Repaired bool
}

// Extract decodes body, an HTML payload whose HTTP Content-Type and
// Content-Language header values are contentType and contentLanguage (""
// when absent), and returns its main content.
//
// TEMPORARY: this is the API skeleton; the extraction is being written.
func Extract(body []byte, contentType, contentLanguage string) (Page, error) {
	doc, err := html.Parse(strings.NewReader(string(body)))
	if err != nil {
		return Page{}, err
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return Page{Paragraphs: []string{strings.TrimSpace(b.String())}, Charset: "utf-8", CharsetSource: "header"}, nil
}
