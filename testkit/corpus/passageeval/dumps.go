package passageeval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/io/multistream"
	"github.com/neardup/neardup/testkit/corpus"
)

// Dump is a real dump that copies are planted into, read whole, its pages
// kept raw as they are in the file: its planted copy (Planted) differs
// from it only in the text of the pages planted into.
type Dump struct {
	// Name is the file's base name without its compression suffix, ending
	// in .xml: the name of its copies, as they are and planted.
	Name string
	// Data is the file decompressed (up to its cut, if it is cut short).
	Data           []byte
	wiki           string
	header, footer []byte
	raw            [][]byte
	docs           []string // the document of each raw page; "" if it is not an article read whole
}

// ReadDump reads the dump at path whole, decompressed. A dump cut short
// (the truncated samples) is read up to its cut.
func ReadDump(ctx context.Context, path string) (*Dump, error) {
	data, err := corpus.ReadFile(ctx, path)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, err
	}
	name := filepath.Base(path)
	for _, ext := range []string{".bz2", ".xz", ".gz"} {
		name = strings.TrimSuffix(name, ext)
	}
	if !strings.HasSuffix(name, ".xml") {
		name += ".xml"
	}
	d := &Dump{Name: name, Data: data}
	d.header, d.raw, d.footer = multistream.Split(data)
	return d, nil
}

// Planted returns the dump with the wikitext of the documents of texts
// replaced (ReplaceText), every other byte as it is.
func (d *Dump) Planted(texts map[string]string) ([]byte, error) {
	var b bytes.Buffer
	b.Write(d.header)
	for i, raw := range d.raw {
		if text, ok := texts[d.docs[i]]; ok && d.docs[i] != "" {
			var err error
			if raw, err = corpus.ReplaceText(raw, text); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", d.Name, d.docs[i], err)
			}
		}
		b.Write(raw)
	}
	b.Write(d.footer)
	return b.Bytes(), nil
}

// Docs returns the documents of the dump's articles, in page order.
func (d *Dump) Docs() []string {
	var out []string
	for _, doc := range d.docs {
		if doc != "" {
			out = append(out, doc)
		}
	}
	return out
}

// Wiki is the dump's wiki, as the pipeline names it (set by NewPages).
func (d *Dump) Wiki() string { return d.wiki }

// DocID names a page's document as passages-*.jsonl does:
// wiki:page_id:rev_id.
func DocID(wiki string, page, rev int64) string {
	return wiki + ":" + strconv.FormatInt(page, 10) + ":" + strconv.FormatInt(rev, 10)
}

// Pages are the articles (namespace 0, not redirects) of a run's dumps,
// cleaned and split as the pipeline does, with the sites of the dumps
// merged by wiki: what a Planner plants among.
type Pages struct {
	splitter *corpus.Splitter
	byDoc    map[string]document.Page
	pages    map[string]Page
}

// NewPages splits the articles of the dumps, whose sites are those of the
// files the run reads (sites[i] of dumps[i]).
func NewPages(dumps []*Dump, sites []document.Site) (*Pages, error) {
	langs := map[string]string{}
	for i, d := range dumps {
		d.wiki = sites[i].Wiki
		langs[d.wiki] = sites[i].Lang
	}
	sp, err := corpus.NewSplitter(document.MergeSites(sites))
	if err != nil {
		return nil, err
	}
	ps := &Pages{splitter: sp, byDoc: map[string]document.Page{}, pages: map[string]Page{}}
	for _, d := range dumps {
		d.docs = make([]string, len(d.raw))
		for i, raw := range d.raw {
			p, err := dump.NewReader(bytes.NewReader(raw), d.Name, dump.Options{}).Next()
			if err != nil || p.NS != 0 || p.Redirect != "" {
				continue // the cut-off last page of a truncated dump, a redirect, another namespace
			}
			p.Wiki = d.wiki
			doc := DocID(d.wiki, p.ID, p.RevID)
			ss, err := sp.Split(p)
			if err != nil {
				return nil, err
			}
			d.docs[i] = doc
			ps.byDoc[doc] = p
			ps.pages[doc] = Page{Doc: doc, Title: p.Title, Lang: langs[d.wiki], Text: p.Text, Sentences: ss}
		}
	}
	return ps, nil
}

// Of returns the articles of the dumps, in dump and page order.
func (ps *Pages) Of(dumps []*Dump) []Page {
	var out []Page
	for _, d := range dumps {
		for _, doc := range d.Docs() {
			out = append(out, ps.pages[doc])
		}
	}
	return out
}

// Split is the SplitFunc of the pages: the sentences of document doc with
// its wikitext replaced by text.
func (ps *Pages) Split(doc, text string) ([]corpus.Sentence, error) {
	p, ok := ps.byDoc[doc]
	if !ok {
		return nil, fmt.Errorf("passageeval: no page %s", doc)
	}
	p.Text = text
	return ps.splitter.Split(p)
}

// SplitPage returns the sentences of p, a page of one of the dumps' wikis.
func (ps *Pages) SplitPage(p document.Page) ([]corpus.Sentence, error) { return ps.splitter.Split(p) }
