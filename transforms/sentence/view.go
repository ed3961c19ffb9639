package sentence

import "github.com/neardup/neardup/transforms/wikitext"

// View is a sentence as the outputs show it (sentences*.jsonl and the
// members of clusters*.jsonl).
type View struct {
	ID       string `json:"id"`      // page_id:sentence
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
		ID:       s.ID.String(),
		PageID:   s.ID.Page(),
		RevID:    s.RevID,
		Title:    s.Title,
		Sentence: s.ID.Ordinal(),
		Section:  s.Section,
		Context:  wikitext.Context(s.Context).String(),
		Text:     s.Text,
	}
}
