package sentence

import (
	"fmt"
	"sort"

	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/wikitext"
)

// Wiki is what splitting needs to know of one wiki of a run.
type Wiki struct {
	Index int    // rank of the wiki's name among the run's wikis
	Name  string // dump.Site.Wiki
	Lang  string // dump.Site.Lang
	Site  *wikitext.Site
	Rules *Rules
}

// Wikis are the wikis of a run, by name. Safe for concurrent use.
type Wikis map[string]*Wiki

// NewWikis indexes the sites of a run, one per wiki (see dump.MergeSites):
// each wiki's index is the rank of its name, so that ids, and so the order of
// the outputs, do not depend on the order of the input files.
func NewWikis(sites []dump.Site) (Wikis, error) {
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
		w[s.Wiki] = &Wiki{Index: index[s.Wiki], Name: s.Wiki, Lang: s.Lang,
			Site: wikitext.NewSite(s.Lang, s.Names()), Rules: RulesFor(s.Lang)}
	}
	return w, nil
}

// PageSplitter turns a page into its sentences, reusing its buffers. It is
// not safe for concurrent use; make one per worker.
type PageSplitter struct {
	// Wikis are the run's wikis. If nil, every page is taken for one of a
	// single wiki of index 0 (named by its Wiki field), cleaned with the
	// canonical namespace names and split by the language-neutral rules: a
	// convenience for tools and tests that read one dump.
	Wikis   Wikis
	cleaner wikitext.Cleaner
	paras   []wikitext.Paragraph
	spans   []Span
}

// Doc returns the page's document id.
func (s *PageSplitter) Doc(p dump.Page) (Doc, *Wiki, error) {
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

// Sentences cleans the page's wikitext with its wiki's namespace names,
// splits it by its language's rules and calls emit for each sentence in
// document order, numbered from 0. It returns how many sentences it
// emitted and how many it cut: a page with more than MaxOrdinal+1
// sentences is cut there (no real page comes near it), and the rest are
// only counted.
func (s *PageSplitter) Sentences(p dump.Page, emit func(Sentence)) (emitted, cut int, err error) {
	doc, w, err := s.Doc(p)
	if err != nil {
		return 0, 0, err
	}
	s.cleaner.SetSite(w.Site)
	s.paras = s.cleaner.AppendClean(s.paras[:0], p.Text)
	ordinal := 0
	for _, para := range s.paras {
		s.spans = w.Rules.AppendSplit(s.spans[:0], para.Text)
		for _, sp := range s.spans {
			if ordinal > MaxOrdinal {
				cut++
				continue
			}
			emit(Sentence{
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
	return ordinal, cut, nil
}
