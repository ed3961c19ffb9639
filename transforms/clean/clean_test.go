package clean

import (
	"hash/crc32"
	"reflect"
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/transforms/wikitext"
)

func TestCleaner(t *testing.T) {
	sites := NewSites([]document.Site{
		{Wiki: "dewiki", Lang: "de", Namespaces: []document.Namespace{{Key: 6, Name: "Datei"}, {Key: 14, Name: "Kategorie"}}},
		{Wiki: "enwiki", Lang: "en"},
	})
	tests := []struct {
		name  string
		sites Sites
		page  document.Page
		want  []string // paragraph texts
		err   string
	}{
		{"german file link", sites,
			document.Page{Wiki: "dewiki", ID: 1, Text: "Berlin ist die Hauptstadt.[[Datei:Berlin.jpg|mini|Ein Bild]]\n\n[[Kategorie:Stadt]]"},
			[]string{"Berlin ist die Hauptstadt."}, ""},
		{"english link keeps its label", sites,
			document.Page{Wiki: "enwiki", ID: 2, Text: "'''Paris''' is the [[capital city|capital]] of [[France]]."},
			[]string{"Paris is the capital of France."}, ""},
		{"no sites: canonical names and every alias", nil,
			document.Page{Wiki: "anything", ID: 3, Text: "Rom ist alt.[[Datei:Rom.jpg|mini]]"},
			[]string{"Rom ist alt."}, ""},
		{"a wiki the run did not plan", sites,
			document.Page{File: "x.xml", Wiki: "frwiki", ID: 4, Title: "Lyon", Offset: 99, Text: "Lyon."},
			nil, `clean: x.xml: page 4 ("Lyon") at offset 99 is of wiki "frwiki", not one of the run's`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Cleaner{Sites: tt.sites}
			got, err := c.Clean(tt.page)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			for _, p := range got.Paragraphs {
				texts = append(texts, p.Text)
			}
			if len(texts) != len(tt.want) || (len(texts) > 0 && texts[0] != tt.want[0]) {
				t.Errorf("paragraphs %q, want %q", texts, tt.want)
			}
			if got.ID != tt.page.ID || got.Wiki != tt.page.Wiki {
				t.Errorf("page %d of %q, want %d of %q", got.ID, got.Wiki, tt.page.ID, tt.page.Wiki)
			}
			if want := crc32.Checksum([]byte(tt.page.Text), crc32.MakeTable(crc32.Castagnoli)); got.TextHash != want {
				t.Errorf("text hash %#x, want the CRC-32C of the wikitext %#x", got.TextHash, want)
			}
		})
	}
}

// TestCleanerPlainText cleans documents of text corpora: not wikitext, so
// markup stays as it is written; paragraphs come from the lines
// (text.AppendParagraphs), all prose; the document's name, URL and
// language are carried.
func TestCleanerPlainText(t *testing.T) {
	sites := NewSites([]document.Site{{Wiki: "web"}})
	page := document.Page{File: "web.jsonl", Wiki: "web", Offset: 12, ID: 2, Title: "A page", Plain: true,
		Name: "doc-2", URL: "https://example.org/2", Lang: "en",
		Text: "Some '''bold''' [[link]] text\nwrapped here.\n\n== Not a heading ==\n{{not a template}}"}
	c := Cleaner{Sites: sites}
	got, err := c.Clean(page)
	if err != nil {
		t.Fatal(err)
	}
	want := []wikitext.Paragraph{
		{Context: wikitext.Prose, Text: "Some '''bold''' [[link]] text wrapped here."},
		{Context: wikitext.Prose, Text: "== Not a heading =="},
		{Context: wikitext.Prose, Text: "{{not a template}}"},
	}
	if !reflect.DeepEqual(got.Paragraphs, want) {
		t.Errorf("paragraphs %q, want %q", got.Paragraphs, want)
	}
	if got.Name != "doc-2" || got.URL != "https://example.org/2" || got.Lang != "en" || got.ID != 2 || got.Title != "A page" || got.Offset != 12 {
		t.Errorf("page %+v: the document's fields are not carried", got)
	}
	if want := crc32.Checksum([]byte(page.Text), crc32.MakeTable(crc32.Castagnoli)); got.TextHash != want {
		t.Errorf("text hash %#x, want the CRC-32C of the text %#x", got.TextHash, want)
	}
}
