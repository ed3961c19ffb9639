package sentence

import (
	"strconv"

	"github.com/neardup/neardup/transforms/wikitext"
)

// View is a sentence as the outputs show it (sentences*.jsonl and the
// members of clusters*.jsonl).
type View struct {
	ID       string `json:"id"`      // wiki:page_id:rev_id:sentence
	Wiki     string `json:"wiki"`    // the wiki's name (the dump's <dbname>)
	PageID   int64  `json:"page_id"` // the page's id
	RevID    int64  `json:"rev_id"`  // the revision the text comes from
	Title    string `json:"title"`
	Sentence int    `json:"sentence"` // ordinal of the sentence in its page, from 0
	Section  string `json:"section"`  // nearest heading above it, "" in the lead
	Context  string `json:"context"`  // prose, list or reference
	Text     string `json:"text"`
}

// View returns how s is shown in the outputs.
func (s *Sentence) View() View {
	return View{
		ID:       s.Key(),
		Wiki:     s.Wiki,
		PageID:   s.PageID,
		RevID:    s.RevID,
		Title:    s.Title,
		Sentence: s.ID.Ordinal(),
		Section:  s.Section,
		Context:  wikitext.Context(s.Context).String(),
		Text:     s.Text,
	}
}

// Key is the sentence's id in the outputs: wiki:page_id:rev_id:ordinal,
// unique across the wikis and dump dates of a run.
func (s *Sentence) Key() string {
	return FormatKey(s.Wiki, s.PageID, s.RevID, s.ID.Ordinal())
}

// FormatKey writes a sentence's id in the outputs from its parts:
// wiki:page_id:rev_id:ordinal.
func FormatKey(wiki string, page, rev int64, ordinal int) string {
	b := make([]byte, 0, len(wiki)+32)
	b = append(b, wiki...)
	b = append(b, ':')
	b = strconv.AppendInt(b, page, 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, rev, 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(ordinal), 10)
	return string(b)
}
