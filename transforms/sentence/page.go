package sentence

import (
	"fmt"
	"sort"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/wikitext"
)

// Wiki is what splitting needs to know of one wiki of a run.
type Wiki struct {
	Index int    // rank of the wiki's name among the run's wikis
	Name  string // document.Site.Wiki
	Lang  string // document.Site.Lang
	Rules *Rules
}

// Wikis are the wikis of a run, by name. Safe for concurrent use.
type Wikis map[string]*Wiki

// NewWikis indexes the sites of a run, one per wiki (see document.MergeSites):
// each wiki's index is the rank of its name, so that ids, and so the order of
// the outputs, do not depend on the order of the input files.
func NewWikis(sites []document.Site) (Wikis, error) {
	if len(sites) > MaxWikis {
		return nil, fmt.Errorf("sentence: %d wikis in one run; at most %d", len(sites), MaxWikis)
	}
	names := make([]string, 0, len(sites))
	for _, s := range sites {
		names = append(names, s.Wiki)
	}
	sort.Strings(names)
	index := map[string]int{}
	for i, n := range names {
		if _, dup := index[n]; dup {
			return nil, fmt.Errorf("sentence: wiki %q given twice", n)
		}
		index[n] = i
	}
	w := Wikis{}
	for _, s := range sites {
		w[s.Wiki] = &Wiki{Index: index[s.Wiki], Name: s.Wiki, Lang: s.Lang, Rules: RulesFor(s.Lang)}
	}
	return w, nil
}

// Page is one page's sentences, in document order, and what the later
// stages need of the page.
type Page struct {
	Doc       Doc
	PageID    int64
	File      string
	Offset    int64
	Title     string
	Name      string // a text document's id in its corpus (clean.Page.Name), "" for a wiki's page
	URL       string // a text document's URL, "" if it has none
	Lang      string // a text document's own language (clean.Page.Lang), "" if it says none
	TextHash  uint32 // clean.Page.TextHash
	Sentences []Sentence
	// Cut is how many sentences past MaxOrdinal were left out: no real
	// page comes near it.
	Cut int
	// Debris is how many lines of navigation and list debris cleaning
	// dropped (clean.Page.Debris).
	Debris int
}

// Splitter splits clean pages into sentences, reusing its buffers. It is
// not safe for concurrent use; make one per worker.
type Splitter struct {
	// Wikis are the run's wikis. If nil, every page is taken for one of a
	// single wiki of index 0 (named by its Wiki field) and split by the
	// language-neutral rules: a convenience for tools and tests that read
	// one dump.
	Wikis Wikis
	spans []Span
}

// Doc returns the page's document id and wiki.
func (s *Splitter) Doc(p clean.Page) (Doc, *Wiki, error) {
	w, ok := s.Wikis[p.Wiki]
	if s.Wikis == nil {
		w, ok = &Wiki{Name: p.Wiki, Rules: RulesFor("")}, true
	}
	if !ok {
		return 0, nil, fmt.Errorf("sentence: %s: page %d (%q) at offset %d is of wiki %q, not one of the run's", p.File, p.ID, p.Title, p.Offset, p.Wiki)
	}
	d, err := NewDoc(w.Index, p.ID, p.RevID)
	if err != nil {
		return 0, nil, fmt.Errorf("%s: page %q at offset %d: %w", p.File, p.Title, p.Offset, err)
	}
	return d, w, nil
}

// Split splits the page's paragraphs by its language's rules into its
// sentences, numbered from 0 in document order: the rules of the page's
// own language if it has one (a text document's, clean.Page.Lang), else
// those of its wiki's. A Reference paragraph is split by
// Rules.AppendSplitReference, which cuts no citation.
func (s *Splitter) Split(p clean.Page) (Page, error) {
	doc, w, err := s.Doc(p)
	if err != nil {
		return Page{}, err
	}
	rules := pageRules(p, w)
	out := Page{Doc: doc, PageID: p.ID, File: p.File, Offset: p.Offset, Title: p.Title, Name: p.Name, URL: p.URL, Lang: p.Lang, TextHash: p.TextHash, Debris: p.Debris}
	ordinal := 0
	for _, para := range p.Paragraphs {
		s.spans = splitParagraph(s.spans[:0], rules, para)
		for _, sp := range s.spans {
			if ordinal > MaxOrdinal {
				out.Cut++
				continue
			}
			out.Sentences = append(out.Sentences, Sentence{
				ID:      doc.Sentence(ordinal),
				Wiki:    w.Name,
				PageID:  p.ID,
				RevID:   p.RevID,
				Title:   p.Title,
				Section: para.Section,
				Context: uint8(para.Context),
				Text:    para.Text[sp.Start:sp.End],
			})
			ordinal++
		}
	}
	return out, nil
}

// pageRules are the rules a page is split by: its own language's if it
// has one (a text document's), else its wiki's.
func pageRules(p clean.Page, w *Wiki) *Rules {
	if p.Lang != "" {
		return RulesFor(p.Lang)
	}
	return w.Rules
}

// splitParagraph appends the spans of the sentences of para to dst.
func splitParagraph(dst []Span, rules *Rules, para wikitext.Paragraph) []Span {
	if para.Context == wikitext.Reference {
		return rules.AppendSplitReference(dst, para.Text)
	}
	return rules.AppendSplit(dst, para.Text)
}

// Paragraphs calls fn with each paragraph of p and the spans of its
// sentences in its text, as Split splits them: numbered in this order
// from 0, they are the sentences' ordinals.
func (s *Splitter) Paragraphs(p clean.Page, fn func(para wikitext.Paragraph, spans []Span)) error {
	_, w, err := s.Doc(p)
	if err != nil {
		return err
	}
	rules := pageRules(p, w)
	for _, para := range p.Paragraphs {
		s.spans = splitParagraph(s.spans[:0], rules, para)
		fn(para, s.spans)
	}
	return nil
}

// PageSplitter cleans and splits a page in one call, for tools and tests
// that do not run the pipeline. It is not safe for concurrent use.
type PageSplitter struct {
	Sites    clean.Sites // see clean.Cleaner.Sites
	Wikis    Wikis       // see Splitter.Wikis
	cleaner  clean.Cleaner
	splitter Splitter
}

// Split cleans and splits p.
func (s *PageSplitter) Split(p document.Page) (Page, error) {
	s.cleaner.Sites, s.splitter.Wikis = s.Sites, s.Wikis
	cp, err := s.cleaner.Clean(p)
	if err != nil {
		return Page{}, err
	}
	return s.splitter.Split(cp)
}

// Sentences cleans and splits p and calls emit for each sentence in
// document order. It returns how many sentences it emitted and how many it
// cut (Page.Cut).
func (s *PageSplitter) Sentences(p document.Page, emit func(Sentence)) (emitted, cut int, err error) {
	page, err := s.Split(p)
	if err != nil {
		return 0, 0, err
	}
	for _, st := range page.Sentences {
		emit(st)
	}
	return len(page.Sentences), page.Cut, nil
}
