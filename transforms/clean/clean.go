// Package clean is the pipeline's cleaning stage: it turns each page's
// wikitext into plain-text paragraphs (package wikitext holds the logic),
// removing links by the namespace names of the page's own wiki.
package clean

import (
	"fmt"
	"hash/crc32"
	"unsafe"

	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/wikitext"
)

// Page is a page's clean text and what the later stages need of the page.
type Page struct {
	File     string
	Wiki     string
	Offset   int64
	ID       int64
	RevID    int64
	Title    string
	TextHash uint32 // CRC-32C of the wikitext: two copies of a revision must agree (package dedupe)
	// Paragraphs are the clean text in document order; their strings share
	// one allocation per page.
	Paragraphs []wikitext.Paragraph
}

// Sites are the namespace names of a run's wikis, by wiki name. Safe for
// concurrent use.
type Sites map[string]*wikitext.Site

// NewSites indexes the sites of a run (dump.MergeSites: one per wiki).
func NewSites(sites []dump.Site) Sites {
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
	Sites   Sites
	cleaner wikitext.Cleaner
}

// Clean returns the clean text of p. A page of a wiki that is not one of
// Sites is an error: the run's planning read every input file's header.
func (c *Cleaner) Clean(p dump.Page) (Page, error) {
	site, ok := c.Sites[p.Wiki]
	if c.Sites != nil && !ok {
		return Page{}, fmt.Errorf("clean: %s: page %d (%q) at offset %d is of wiki %q, not one of the run's", p.File, p.ID, p.Title, p.Offset, p.Wiki)
	}
	c.cleaner.SetSite(site)
	return Page{
		File: p.File, Wiki: p.Wiki, Offset: p.Offset, ID: p.ID, RevID: p.RevID, Title: p.Title,
		TextHash:   crc32.Checksum(unsafe.Slice(unsafe.StringData(p.Text), len(p.Text)), castagnoli),
		Paragraphs: c.cleaner.AppendClean(nil, p.Text),
	}, nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)
