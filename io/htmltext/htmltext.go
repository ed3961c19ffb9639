// Package htmltext extracts the main content of an HTML page as
// paragraphs of plain text, dropping its boilerplate (navigation, headers,
// footers, link lists), for the pages of web crawls (package io/warc),
// whose text is then compared with Wikipedia's.
//
// # Decoding
//
// The page is decoded to UTF-8 with the charset of its byte order mark,
// else of the Content-Type header's charset parameter, else of a <meta>
// in its first 1024 bytes (the HTML Standard's order; an unknown label
// counts as none), else sniffed: UTF-8 if the bytes mostly are, else
// windows-1252. A declared charset that fails on a few bytes (at most
// Options.MaxRepaired, 1%, of the characters: a truncated page, a stray
// Latin-1 byte) gives U+FFFD for them and Page.Repaired; on more, the
// declaration is wrong and Extract returns a *CharsetError rather than
// guess, so that the caller can set the page aside.
//
// # Blocks
//
// The decoded page is read as a stream of tokens (golang.org/x/net/html's
// tokenizer, not its parser: linear time and memory, no nesting limit,
// which the parser sets at 512 elements and which a page of unclosed tags
// reaches) into blocks of text, split at block-level elements and at two
// consecutive <br>s, whitespace collapsed. Script, style, noscript,
// template, svg, math, canvas, iframe, object, audio, video and form
// controls contribute nothing. Each block gets the shallow text features
// of Kohlschütter, Fankhauser and Nejdl, "Boilerplate Detection using
// Shallow Text Features" (WSDM 2010): its words, its words inside <a>,
// its link density (their share) and its text density (words per line
// when wrapped at 80 columns); and the share of its words inside
// navigation markup (<nav>, role=navigation, class or id words such as
// "nav", "menu", "breadcrumb", "cookie", "share") or secondary-content
// markup (<aside>, <footer>, a <header> outside <article>/<main>, class or
// id words such as "footer", "sidebar", "comment", "widget").
//
// # Classification
//
// A block is boilerplate if most of its words are in navigation markup; or
// in secondary-content markup, unless it is prose (40 words or more, link
// density at most 0.1: a long comment or an article in a <footer>-happy
// template); or if the densitometric classifier of Kohlschütter et al.
// (their Algorithm 2, Boilerpipe's DensityRulesClassifier) says so from
// the link and text densities of the block and of its neighbours: link
// density above 1/3 is boilerplate; after a link list (previous link
// density above 0.56) a block is content only if the next block is dense
// (text density above 11); a short line (density at most 9) is content if
// the next block is dense (above 10) or the previous one is not a short
// line (above 4); a dense block is content unless it ends the page. These
// thresholds are the paper's, learnt on news sites; we keep them, but a
// block of prose (Algorithm 4's test of main content below) with a link
// density of at most 2/3 is content whatever its neighbours.
//
// # Post-processing
//
// Then the steps of Alshomary, "Wikipedia Text Reuse: Within and Without"
// (2019), section 3.4, in its order:
//
//  1. Drop blocks of fewer than MinTokens (3) words: buttons, link titles,
//     bylines, dates.
//  2. Algorithm 4: drop the blocks before the first main-content paragraph
//     (the header) and after the last one (the footer). A paragraph is
//     main content if it has more than HeaderMinTokens (8) words, a
//     sentence's final punctuation and more than HeaderMinStopwords (2)
//     stopwords: a short but ordinary sentence ("It was built in 1850 by
//     the town council.": 9 words, 5 stopwords), longer than most menu
//     lines and titles. (Wikipedia's and biographies' paragraphs link a
//     third to a half of their words: hence the override above.) The stopwords are those of the page's language (its
//     declared Lang if we have a list for it, else the language whose list
//     matches most of the content's words, if it matches 5% of them) from
//     stopwords/*.txt: 50–80 of the most frequent function words each of
//     en, de, fr, es, it, pt, nl, pl, ru, uk, el and vi. For other
//     languages, CJK ones in particular (whose characters count as words),
//     twice the length with the punctuation stands in for the stopwords.
//  3. Algorithm 1: merge paragraphs of at most MergeMinTokens (15) words
//     into their neighbour: the previous one, or the next one for a heading
//     (no final punctuation) or at the start. 15 words is a short sentence;
//     merged, a caption or a heading stays with the text it belongs to
//     instead of making a chunk too short to compare.
//  4. Drop what is still at most MergeMinTokens words: a page whose whole
//     content is one short line ("Page not found").
//
// Set Options.Explain to get every block, its features and what became of
// it (Block.Fate) in Page.Blocks.
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

// Options tune Extract. A zero field means its default (see the package
// comment for why these).
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
