package sentence

import (
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/wikitext"
)

// PageSplitter turns a page into its sentences, reusing its buffers. It is
// not safe for concurrent use; make one per worker.
type PageSplitter struct {
	cleaner wikitext.Cleaner
	paras   []wikitext.Paragraph
	spans   []Span
}

// Sentences cleans the page's wikitext, splits it and calls emit for each
// sentence in document order, numbered from 0. It returns how many
// sentences it emitted; a page with more than MaxOrdinal+1 sentences is cut
// there (no real page comes near it).
func (s *PageSplitter) Sentences(p dump.Page, emit func(Sentence)) int {
	s.paras = s.cleaner.AppendClean(s.paras[:0], p.Text)
	ordinal := 0
	for _, para := range s.paras {
		s.spans = AppendSplit(s.spans[:0], para.Text)
		for _, sp := range s.spans {
			if ordinal > MaxOrdinal {
				return ordinal
			}
			emit(Sentence{
				ID:      NewID(p.ID, ordinal),
				RevID:   p.RevID,
				Title:   p.Title,
				Section: para.Section,
				Context: uint8(para.Context),
				Text:    para.Text[sp.Start:sp.End],
			})
			ordinal++
		}
	}
	return ordinal
}
