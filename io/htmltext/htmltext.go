// Package htmltext extracts the main content of an HTML page as
// paragraphs of plain text, dropping its boilerplate (navigation, headers,
// footers, link lists), for the pages of web crawls (package io/warc),
// whose text is then compared with Wikipedia's.
//
// Extract decodes the page by its declared or sniffed charset, cuts it into
// blocks of text at block-level elements, drops the blocks that the shallow
// text features of Kohlschütter et al. (WSDM 2010, Boilerpipe) and
// navigation markup mark as boilerplate, then applies the post-processing
// of Alshomary's thesis (seed 001, section 3.4): short blocks dropped, the
// header and footer cut, short paragraphs merged.
//
//   - Its only error is a *CharsetError: the declared charset fails on too
//     many bytes, and the caller sets the page aside rather than guess.
//   - Options.Explain keeps every block with its features and fate.
//
// Each step and its thresholds: docs/reuse.md, "Extracting main content".
package htmltext

import (
	"strings"

	"golang.org/x/text/language"
)

// Page is what Extract finds in an HTML page.
type Page struct {
	Title string
	// Lang is the page's language as a lower-case BCP 47 tag ("en",
	// "pt-br"): <html lang>, else <meta http-equiv="content-language">,
	// else the Content-Language header, the first of them that is a valid
	// tag; "" if none is.
	Lang string
	// Paragraphs are the main content's blocks of text, in page order.
	Paragraphs []string
	// Charset is the name of the encoding the page was decoded with, and
	// CharsetSource where it came from: "bom", "header", "meta" or
	// "sniffed" (declared nowhere: guessed).
	Charset, CharsetSource string
	// Repaired says the declared charset did not decode every byte: the
	// bytes that did not decode were replaced by U+FFFD.
	Repaired bool
	// Blocks are all the page's blocks of text, with their fates, if
	// Options.Explain.
	Blocks []Block
}

// Options tune Extract. A zero field means its default (docs/reuse.md,
// "Extracting main content", says why these).
type Options struct {
	MinTokens          int     // blocks with fewer words are dropped (3)
	HeaderMinTokens    int     // Algorithm 4's min_tokens (8)
	HeaderMinStopwords int     // Algorithm 4's min_stopwords (2)
	MergeMinTokens     int     // Algorithm 1's min_no_tokens (15)
	MaxRepaired        float64 // share of characters a declared charset may fail on (0.01)
	Explain            bool    // fill Page.Blocks
}

// The defaults of Options.
const (
	DefaultMinTokens          = 3
	DefaultHeaderMinTokens    = 8
	DefaultHeaderMinStopwords = 2
	DefaultMergeMinTokens     = 15
	DefaultMaxRepaired        = 0.01
)

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MinTokens, DefaultMinTokens)
	def(&o.HeaderMinTokens, DefaultHeaderMinTokens)
	def(&o.HeaderMinStopwords, DefaultHeaderMinStopwords)
	def(&o.MergeMinTokens, DefaultMergeMinTokens)
	if o.MaxRepaired <= 0 {
		o.MaxRepaired = DefaultMaxRepaired
	}
	return o
}

// Extract decodes body, an HTML payload whose HTTP Content-Type and
// Content-Language header values are contentType and contentLanguage (""
// when absent), and returns its main content, with the default Options.
// Its only error is a *CharsetError.
func Extract(body []byte, contentType, contentLanguage string) (Page, error) {
	return ExtractWith(body, contentType, contentLanguage, Options{})
}

// ExtractWith is Extract with options.
func ExtractWith(body []byte, contentType, contentLanguage string, opt Options) (Page, error) {
	opt = opt.withDefaults()
	d, err := decode(body, contentType, opt.MaxRepaired)
	if err != nil {
		return Page{}, err
	}
	s := scan(d.text)
	p := Page{
		Title:         s.title,
		Lang:          firstLang(s.htmlLang, s.metaLang, contentLanguage),
		Charset:       d.charset,
		CharsetSource: d.source,
		Repaired:      d.repaired,
	}
	if p.Title == "" {
		p.Title = s.ogTitle
	}
	sl, known := stopLanguage(p.Lang, s.blocks)
	isMain := mainTest(sl, known, opt.HeaderMinTokens, opt.HeaderMinStopwords)
	classify(s.blocks, isMain)
	p.Paragraphs = postProcess(s.blocks, isMain, opt)
	if opt.Explain {
		p.Blocks = s.blocks
	}
	return p, nil
}

// postProcess applies the seed's steps to the blocks classify kept,
// setting the fates of those it drops, and returns the paragraphs.
func postProcess(blocks []Block, isMain func(string) bool, opt Options) []string {
	var kept []int // indices in blocks
	var paras []string
	for i := range blocks {
		if blocks[i].Fate != fateKept {
			continue
		}
		if blocks[i].Words < opt.MinTokens {
			blocks[i].Fate = fateShort
			continue
		}
		kept = append(kept, i)
		paras = append(paras, blocks[i].Text)
	}
	first, last := trimHeaderFooter(paras, isMain)
	for _, i := range kept[:first] {
		blocks[i].Fate = fateHeader
	}
	for _, i := range kept[last:] {
		blocks[i].Fate = fateFooter
	}
	merged := mergeShort(paras[first:last], opt.MergeMinTokens)
	if len(merged) == 1 && countWords(merged[0]) <= opt.MergeMinTokens {
		for _, i := range kept[first:last] {
			blocks[i].Fate = fateUnmerged
		}
		return nil
	}
	return merged
}

// stopLanguage returns the stopword language of a page declared to be in
// lang, with blocks, and whether there is one.
func stopLanguage(lang string, blocks []Block) (stopLang, bool) {
	t := stopwords()
	if l, ok := t.lookup(lang); ok {
		return l, true
	}
	texts := make([]string, len(blocks))
	for i, b := range blocks {
		texts[i] = b.Text
	}
	return t.guessLang(texts)
}

// firstLang returns the first of the language declarations that is a valid
// BCP 47 tag (as golang.org/x/text/language parses it), normalized: the
// first of a list, lower case, "_" as "-". A declaration that is not one is
// passed over: pages put charsets there (<meta http-equiv="content-language"
// content="UTF-8">).
func firstLang(decls ...string) string {
	for _, d := range decls {
		d, _, _ = strings.Cut(d, ",")
		d = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(d)), "_", "-")
		if isTag(d) {
			return d
		}
	}
	return ""
}

func isTag(s string) bool {
	if s == "" || len(s) > 35 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	_, err := language.Parse(s)
	return err == nil
}
