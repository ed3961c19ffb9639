package sentence

import (
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/wikitext"
)

// TestIDBoundsAgree: the readers dead-letter the pages whose revision (or
// page) id a Doc cannot hold, and the launcher refuses more wikis than it
// can tell apart, by the bounds of package document: a Doc must hold
// exactly those.
func TestIDBoundsAgree(t *testing.T) {
	if MaxKey != document.MaxKey {
		t.Errorf("sentence.MaxKey %d != document.MaxKey %d", int64(MaxKey), int64(document.MaxKey))
	}
	if MaxWikis != document.MaxWikis {
		t.Errorf("sentence.MaxWikis %d != document.MaxWikis %d", MaxWikis, document.MaxWikis)
	}
}

// TestSentencesPastMaxOrdinalAreCounted splits a page of MaxOrdinal+6
// sentences: the first MaxOrdinal+1 get ids, the other five are counted
// as cut.
func TestSentencesPastMaxOrdinalAreCounted(t *testing.T) {
	if testing.Short() {
		t.Skip("splits a page of a million sentences")
	}
	text := strings.Repeat("Go on. ", MaxOrdinal+6)
	var s PageSplitter
	last := -1
	emitted, cut, err := s.Sentences(document.Page{ID: 1, RevID: 2, Text: text}, func(st Sentence) { last = st.ID.Ordinal() })
	if err != nil || emitted != MaxOrdinal+1 || cut != 5 || last != MaxOrdinal {
		t.Errorf("emitted %d, cut %d, last ordinal %d, %v; want %d, 5, %d", emitted, cut, last, err, MaxOrdinal+1, MaxOrdinal)
	}
}

// TestSplitter splits clean pages of two wikis: ids carry the wiki's rank
// (not the order the sites came in), the revision and the ordinal across
// paragraphs; sections and contexts are kept; a citation is one sentence;
// the page's fields are carried for the later stages; a page of another
// wiki is an error.
func TestSplitter(t *testing.T) {
	wikis, err := NewWikis([]document.Site{{Wiki: "frwiki", Lang: "fr"}, {Wiki: "dewiki", Lang: "de"}})
	if err != nil {
		t.Fatal(err)
	}
	s := Splitter{Wikis: wikis}
	page := clean.Page{File: "f.xml", Wiki: "frwiki", Offset: 77, ID: 5, RevID: 9, Title: "Lyon", TextHash: 42,
		Paragraphs: []wikitext.Paragraph{
			{Text: "Lyon est une ville. Elle est au bord du Rhône."},
			{Section: "Histoire", Context: wikitext.List, Text: "Fondée par les Romains vers 43 av. J.-C. sous le nom de Lugdunum."},
			{Section: "Notes", Context: wikitext.Reference, Text: "Pelletier, André. Histoire de Lyon. Lyon : Éditions lyonnaises, 2007. p. 12."},
		}}
	got, err := s.Split(page)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := NewDoc(1, 5, 9) // frwiki ranks after dewiki
	if got.Doc != doc || got.PageID != 5 || got.File != "f.xml" || got.Offset != 77 || got.Title != "Lyon" || got.TextHash != 42 || got.Cut != 0 {
		t.Errorf("page %+v, want doc %v and the clean page's fields", got, doc)
	}
	want := []struct {
		ord           int
		section, text string
		context       wikitext.Context
	}{
		{0, "", "Lyon est une ville.", wikitext.Prose},
		{1, "", "Elle est au bord du Rhône.", wikitext.Prose},
		{2, "Histoire", "Fondée par les Romains vers 43 av. J.-C. sous le nom de Lugdunum.", wikitext.List},
		{3, "Notes", "Pelletier, André. Histoire de Lyon. Lyon : Éditions lyonnaises, 2007. p. 12.", wikitext.Reference},
	}
	if len(got.Sentences) != len(want) {
		t.Fatalf("%d sentences %+v, want %d", len(got.Sentences), got.Sentences, len(want))
	}
	for i, w := range want {
		st := got.Sentences[i]
		if st.ID != doc.Sentence(w.ord) || st.Section != w.section || st.Text != w.text || wikitext.Context(st.Context) != w.context ||
			st.Wiki != "frwiki" || st.PageID != 5 || st.RevID != 9 || st.Title != "Lyon" {
			t.Errorf("sentence %d = %+v, want ordinal %d, %q in %q (%v)", i, st, w.ord, w.text, w.section, w.context)
		}
	}
	page.Wiki = "enwiki"
	if _, err := s.Split(page); err == nil || err.Error() != `sentence: f.xml: page 5 ("Lyon") at offset 77 is of wiki "enwiki", not one of the run's` {
		t.Errorf("page of another wiki: %v", err)
	}
}

// TestSplitterDocumentLanguage splits documents of a text corpus, whose
// site has no language: by the rules of a document's own language when it
// has one, else by the language-neutral rules; the document's name and URL
// are carried.
func TestSplitterDocumentLanguage(t *testing.T) {
	wikis, err := NewWikis([]document.Site{{Wiki: "web"}, {Wiki: "enwiki", Lang: "en"}})
	if err != nil {
		t.Fatal(err)
	}
	s := Splitter{Wikis: wikis}
	para := []wikitext.Paragraph{{Text: "Das gilt ggf. Äpfeln wie Birnen. Dann nicht."}}
	tests := []struct {
		wiki, lang string
		want       []string
	}{
		{"web", "de", []string{"Das gilt ggf. Äpfeln wie Birnen.", "Dann nicht."}},
		{"web", "", []string{"Das gilt ggf.", "Äpfeln wie Birnen.", "Dann nicht."}},
		{"enwiki", "de", []string{"Das gilt ggf. Äpfeln wie Birnen.", "Dann nicht."}}, // the page's language first
		{"web", "xx", []string{"Das gilt ggf.", "Äpfeln wie Birnen.", "Dann nicht."}}, // unknown: neutral rules
	}
	for _, tt := range tests {
		page := clean.Page{File: "web.jsonl", Wiki: tt.wiki, ID: 3, Title: "t", Name: "doc-3", URL: "https://example.org/3", Lang: tt.lang, Paragraphs: para}
		got, err := s.Split(page)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, st := range got.Sentences {
			texts = append(texts, st.Text)
		}
		if !slices.Equal(texts, tt.want) || got.Name != "doc-3" || got.URL != "https://example.org/3" {
			t.Errorf("%s, language %q: %q (name %q, URL %q), want %q", tt.wiki, tt.lang, texts, got.Name, got.URL, tt.want)
		}
	}
}
