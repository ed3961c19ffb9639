// Package clean is the pipeline's cleaning stage: it turns each page's
// wikitext into plain-text paragraphs (package wikitext holds the logic),
// removing links by the namespace names of the page's own wiki. A document
// of a text corpus (package io/text) is not wikitext: its paragraphs come
// from its lines.
package clean

import (
	"fmt"
	"hash/crc32"
	"unsafe"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/text"
	"github.com/neardup/neardup/transforms/wikitext"
)

// Page is a page's clean text and what the later stages need of the page.
type Page struct {
	File   string
	Wiki   string
	Offset int64
	ID     int64
	RevID  int64
	Title  string
	// Name, URL and Lang are a text document's (document.Page's): its id in its
	// corpus, its URL and its own language, "" for a wiki's page.
	Name     string
	URL      string
	Lang     string
	TextHash uint32 // CRC-32C of the wikitext: two copies of a revision must agree (package rereads)
	// Debris is how many lines of navigation and list debris cleaning
	// dropped (wikitext.Cleaner.Debris).
	Debris int
	// Paragraphs are the clean text in document order; their strings share
	// one allocation per page.
	Paragraphs []wikitext.Paragraph
	// Links are the page's internal links in document order, when the
	// Cleaner keeps them (Cleaner.Links); their strings share one
	// allocation per page.
	Links []wikitext.Link
}

// Sites are the namespace names of a run's wikis, by wiki name. Safe for
// concurrent use.
type Sites map[string]*wikitext.Site

// NewSites indexes the sites of a run (document.MergeSites: one per wiki).
func NewSites(sites []document.Site) Sites {
	out := make(Sites, len(sites))
	for _, s := range sites {
		out[s.Wiki] = wikitext.NewSite(s.Lang, s.Names())
	}
	return out
}

// Cleaner cleans pages, reusing its buffers. It is not safe for concurrent
// use; make one per worker.
type Cleaner struct {
	// Sites are the run's wikis. If nil, every page is cleaned with the
	// canonical namespace names and every language's aliases: a convenience
	// for tools and tests that read one dump.
	Sites Sites
	// Links makes Clean keep each page's internal links (Page.Links), from
	// which the run learns which names are one entity (package alias).
	Links   bool
	cleaner wikitext.Cleaner
}

// Clean returns the clean text of p: its wikitext cleaned, or, for a
// document of a text corpus (p.Plain), its paragraphs as
// text.AppendParagraphs finds them in its lines, all prose. A page of a
// wiki that is not one of Sites is an error: the run's planning read every
// input file's header.
func (c *Cleaner) Clean(p document.Page) (Page, error) {
	site, ok := c.Sites[p.Wiki]
	if c.Sites != nil && !ok {
		return Page{}, fmt.Errorf("clean: %s: page %d (%q) at offset %d is of wiki %q, not one of the run's", p.File, p.ID, p.Title, p.Offset, p.Wiki)
	}
	out := Page{
		File: p.File, Wiki: p.Wiki, Offset: p.Offset, ID: p.ID, RevID: p.RevID, Title: p.Title,
		Name: p.Name, URL: p.URL, Lang: p.Lang,
		TextHash: crc32.Checksum(unsafe.Slice(unsafe.StringData(p.Text), len(p.Text)), castagnoli),
	}
	if p.Plain {
		out.Paragraphs = plainParagraphs(p.Text)
		return out, nil
	}
	c.cleaner.SetSite(site)
	c.cleaner.KeepLinks(c.Links)
	out.Paragraphs = c.cleaner.AppendClean(nil, p.Text)
	out.Debris = c.cleaner.Debris()
	if c.Links {
		out.Links = c.cleaner.AppendLinks(nil)
	}
	return out, nil
}

// plainParagraphs are the paragraphs of a plain-text document, as prose
// of no section.
func plainParagraphs(doc string) []wikitext.Paragraph {
	texts := text.AppendParagraphs(nil, doc)
	out := make([]wikitext.Paragraph, len(texts))
	for i, t := range texts {
		out[i] = wikitext.Paragraph{Context: wikitext.Prose, Text: t}
	}
	return out
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)
