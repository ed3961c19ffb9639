package wikitext

import (
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/testkit/testshared"
)

type wikiPage struct {
	title, text string
}

// readPages returns the title and wikitext of every <page> in an XML
// export file or bare <page> fragment.
func readPages(tb testing.TB, path string) []wikiPage {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	var pages []wikiPage
	var title string
	d := xml.NewDecoder(f)
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return pages
		}
		if err != nil {
			tb.Fatalf("parse %s: %v", path, err)
		}
		start, ok := tok.(xml.StartElement)
		if !ok || start.Name.Local != "title" && start.Name.Local != "text" {
			continue
		}
		var s string
		if err := d.DecodeElement(&s, &start); err != nil {
			tb.Fatalf("parse %s: %v", path, err)
		}
		if start.Name.Local == "title" {
			title = s
		} else {
			pages = append(pages, wikiPage{title: title, text: s})
		}
	}
}

func katrinaPages(tb testing.TB) []wikiPage {
	tb.Helper()
	return readPages(tb, testshared.Data(tb, "wikiduper/Katrina.xml"))
}

func findPage(t *testing.T, pages []wikiPage, title string) wikiPage {
	t.Helper()
	for _, p := range pages {
		if p.title == title {
			return p
		}
	}
	t.Fatalf("page %q not found", title)
	return wikiPage{}
}

// markupResidue lists strings that must never survive cleaning.
var markupResidue = []string{"{{", "}}", "[[", "]]", "<ref", "</ref", "{|", "|}", "<!--", "-->", "'''", "__TOC__", "__NOTOC__"}

func checkNoResidue(t *testing.T, title string, got []Paragraph) {
	t.Helper()
	for _, p := range got {
		for _, r := range markupResidue {
			if strings.Contains(p.Text, r) || strings.Contains(p.Section, r) {
				t.Errorf("%s: %q survives in section %q paragraph %q", title, r, p.Section, p.Text)
			}
		}
	}
}

// checkContains checks that got holds each of want.
func checkContains(t *testing.T, got []Paragraph, want ...Paragraph) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing paragraph %q", w)
		}
	}
}

func TestKatrinaAllPages(t *testing.T) {
	pages := katrinaPages(t)
	if len(pages) != 93 {
		t.Fatalf("read %d pages, want 93", len(pages))
	}
	var c Cleaner
	total := 0
	for _, p := range pages {
		got := c.Clean(p.text)
		total += len(got)
		checkNoResidue(t, p.title, got)
		checkInvariants(t, p.text, got)
	}
	if total < 2000 {
		t.Errorf("only %d paragraphs from all pages", total)
	}
}

func TestKatrinaHurricanePage(t *testing.T) {
	got := Clean(findPage(t, katrinaPages(t), "Hurricane Katrina").text)
	lead := prose("", "Hurricane Katrina was the deadliest and most destructive Atlantic hurricane of the 2005 Atlantic "+
		"hurricane season. It was the costliest natural disaster, as well as one of the five deadliest hurricanes, in the "+
		"history of the United States. Among recorded Atlantic hurricanes, it was the sixth strongest overall. At least "+
		"1,833 people died in the hurricane and subsequent floods, making it the deadliest U.S. hurricane since the 1928 "+
		"Okeechobee hurricane; total property damage was estimated at $81 billion (2005 USD), nearly triple the damage "+
		"brought by Hurricane Andrew in 1992.")
	if len(got) == 0 || got[0] != lead {
		t.Fatalf("first paragraph:\n got %q\nwant %q", got[:min(1, len(got))], lead)
	}
	checkContains(t, got,
		prose("Gulf Coast", "By Sunday, August 28, most infrastructure along the Gulf Coast had been shut down, including all "+
			"freight and Amtrak rail traffic into the evacuation areas as well as the Waterford Nuclear Generating Station. "+
			"The NHC maintained the coastal warnings until late on August 29, by which time Hurricane Katrina was over "+
			"central Mississippi."),
		// A <ref> body with plain text becomes a Reference paragraph after
		// the paragraph that cites it.
		ref("Federal government", "Spann, James. \"Models Shifting West,\" \"NHC Shifting Track To MS Coast\" and \"Late "+
			"Katrina Thoughts\" from the ABC33/40 Weather Blog August 26, 2005. Retrieved July 23, 2006."),
		list("See also", "Hurricane Katrina in fiction"),
		ref("External links", "NASA's Hurricane Katrina Archive"),
	)
	// Sections appear in document order; "Preparations" holds no text.
	var sections []string
	for _, p := range got {
		if n := len(sections); n == 0 || sections[n-1] != p.Section {
			sections = append(sections, p.Section)
		}
	}
	wantPrefix := []string{"", "Meteorological history", "Federal government", "Investigation of State of Emergency declaration", "Gulf Coast"}
	if !slices.Equal(sections[:min(len(wantPrefix), len(sections))], wantPrefix) {
		t.Errorf("sections start %q, want %q", sections, wantPrefix)
	}
	for _, p := range got {
		if p.Section == "External links" && p.Context != Reference {
			t.Errorf("external link %q has context %v", p.Text, p.Context)
		}
	}
}

func TestKatrinaOtherPages(t *testing.T) {
	pages := katrinaPages(t)
	tests := []struct {
		title string
		want  []Paragraph // must appear in this order, not necessarily adjacent
	}{
		{"Timeline of Hurricane Katrina", []Paragraph{
			prose("", "This article contains a historical timeline of the events of Hurricane Katrina."),
			prose("Saturday, August 27, 2005", "By 5:00 AM EDT, Hurricane Katrina reached Category 3 intensity."),
		}},
		{"Mexican response to Hurricane Katrina", []Paragraph{
			list("See also", "Military of Mexico"),
			ref("References", "\"Fifth Army helps Mexican Relief convoy movement to San Antonio\", Fifth U.S. Army/ARNORTH - News, "+
				"http://www.arnorth.army.mil/news/2005/September/MexicanRelief.htm"),
		}},
		{"Category:Effects of Hurricane Katrina", []Paragraph{
			prose("", "Hurricane Katrina was a powerful hurricane that caused extensive and severe damage over the "+
				"southeastern United States in August, 2005 and has had many broader and continuous effects."),
		}},
		{"Hurricane Katrina (1967)", nil}, // a redirect
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			got := Clean(findPage(t, pages, tt.title).text)
			if tt.want == nil {
				if len(got) != 0 {
					t.Fatalf("got %q, want nothing", got)
				}
				return
			}
			i := 0
			for _, p := range got {
				if i < len(tt.want) && p == tt.want[i] {
					i++
				}
			}
			if i < len(tt.want) {
				t.Errorf("missing (in order) %q\ngot %q", tt.want[i], got)
			}
		})
	}
}

// literalEscapes are character references that authors use to show
// markup characters literally; they are removed from the input before
// checking for residue, since their decoded form is legitimate text.
var literalEscapes = strings.NewReplacer("&#91;", "", "&#93;", "", "&#123;", "", "&#125;", "", "&#124;", "", "&lt;", "", "&#60;", "")

func TestWikicleanPages(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testshared.Data(t, "wikiclean-pages"), "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("found %d files, want at least 20", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			pages := readPages(t, file)
			if len(pages) == 0 {
				t.Fatal("no pages")
			}
			for _, p := range pages {
				got := Clean(p.text)
				if len(got) == 0 {
					t.Errorf("%s: no paragraphs", p.title)
				}
				checkInvariants(t, p.text, got)
				checkNoResidue(t, p.title, Clean(literalEscapes.Replace(p.text)))
			}
		})
	}
}

func TestWikicleanGerman(t *testing.T) {
	pages := readPages(t, testshared.Data(t, "wikiclean-pages/dewiki-20130602-id1.xml"))
	got := Clean(pages[0].text)
	want := []Paragraph{
		prose("", "Alan Smithee steht als Pseudonym für einen fiktiven Regisseur, der Filme verantwortet, bei denen der "+
			"eigentliche Regisseur seinen Namen nicht mit dem Werk in Verbindung gebracht haben möchte. Von 1968 bis 2000 "+
			"wurde es von der Directors Guild of America (DGA) für solche Situationen empfohlen, seither ist es Thomas Lee. "+
			"Alan Smithee ist jedoch weiterhin in Gebrauch."),
		ref("", "latimes.com: Name of Director Smithee Isn't What It Used to Be, zuletzt geprüft am 2. April 2011"),
		prose("", "Alternative Schreibweisen sind unter anderem die Ursprungsvariante Allen Smithee sowie Alan Smythee "+
			"und Adam Smithee. Auch zwei teilweise asiatisch anmutende Schreibweisen Alan Smi Thee und Sumishii Aran "+
			"gehören – so die Internet Movie Database – dazu."),
		ref("", "Eigener Eintrag für Alan Smithee in der IMDb"),
	}
	if len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
		t.Errorf("lead:\n got %q\nwant %q", got[:min(len(want), len(got))], want)
	}
	checkContains(t, got,
		ref("Literatur", "Jeremy Braddock, Stephen Hock (Hrsg.): Directed by Allen Smithee. Foreword by Andrew Sarris. "+
			"University of Minnesota Press, Minneapolis, London 2001, ISBN 0-8166-3534-X."),
		ref("Weblinks", "Der Mann, der niemals lebte, Spiegel Online einestages"),
		list("Verwendung", "Kevin Yagher (Hellraiser IV – Bloodline)."),
	)
}

// BenchmarkClean cleans every page of Katrina.xml with Clean per
// iteration.
func BenchmarkClean(b *testing.B) {
	pages := benchPages(b)
	for b.Loop() {
		for _, p := range pages {
			Clean(p.text)
		}
	}
}

// BenchmarkCleanerReuse is BenchmarkClean with one Cleaner and one output
// slice reused across pages.
func BenchmarkCleanerReuse(b *testing.B) {
	pages := benchPages(b)
	var c Cleaner
	var out []Paragraph
	for b.Loop() {
		for _, p := range pages {
			out = c.AppendClean(out[:0], p.text)
		}
	}
}

func benchPages(b *testing.B) []wikiPage {
	pages := katrinaPages(b)
	var size int64
	for _, p := range pages {
		size += int64(len(p.text))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	return pages
}
