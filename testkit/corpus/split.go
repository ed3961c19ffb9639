package corpus

import (
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/wikitext"
)

// Sentence is a sentence of a page as the pipeline splits it; its index
// among its page's sentences is its ordinal.
type Sentence struct {
	Text string
	// Para is the index of the sentence's paragraph among its page's
	// clean paragraphs: a copied paragraph never crosses two.
	Para int
	// Prose says the paragraph is prose, not a list item or reference
	// material.
	Prose bool
}

// Splitter cleans pages and splits them into sentences as the pipeline
// does (packages clean and sentence), noting each sentence's paragraph.
// It reuses its buffers: it is not safe for concurrent use.
type Splitter struct {
	cleaner  clean.Cleaner
	splitter sentence.Splitter
}

// NewSplitter returns the splitter of the pages of sites (merged by wiki
// if they come from several dumps: document.MergeSites).
func NewSplitter(sites []document.Site) (*Splitter, error) {
	wikis, err := sentence.NewWikis(sites)
	if err != nil {
		return nil, err
	}
	return &Splitter{cleaner: clean.Cleaner{Sites: clean.NewSites(sites)}, splitter: sentence.Splitter{Wikis: wikis}}, nil
}

// Split returns the sentences of p, whose Wiki must be set.
func (s *Splitter) Split(p document.Page) ([]Sentence, error) {
	cp, err := s.cleaner.Clean(p)
	if err != nil {
		return nil, err
	}
	var out []Sentence
	for i, para := range cp.Paragraphs {
		one := cp
		one.Paragraphs = cp.Paragraphs[i : i+1]
		split, err := s.splitter.Split(one)
		if err != nil {
			return nil, err
		}
		for _, st := range split.Sentences {
			out = append(out, Sentence{Text: st.Text, Para: i, Prose: para.Context == wikitext.Prose})
		}
	}
	return out, nil
}
