// Package hotkey writes the hot-key corpus: a MediaWiki XML dump in which
// one template sentence, of the kind English Wikipedia repeats on hundreds
// of thousands of stubs, appears Copies times, among ordinary sentences
// that are near duplicates of nothing.
//
// Pages hold PerPage copies each (the last page the rest), one copy per
// paragraph next to an ordinary sentence; a page also has a lead of two
// ordinary sentences, an infobox, a reference, a stub template and a
// category, which cleaning removes. Most copies are exact; the others fill
// the template's slots differently: another village name, or another
// distance. Every copy of every kind is a near duplicate of the exact
// sentence (Jaccard similarity of 12-character shingles above 0.7), so the
// pipeline should find one cluster holding every copy.
//
// The ordinary sentences are drawn from frames whose fixed words are
// shorter than a shingle, between generated names, numbers and years, so
// two of them share almost no shingle. The output depends only on the
// Config: the same seed gives the same bytes.
package hotkey

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/neardup/neardup/internal/bytecount"
	"github.com/neardup/neardup/testkit/corpus"
)

// Config says what to write.
type Config struct {
	Copies  int    // copies of the template sentence (≥ 1)
	PerPage int    // copies per page (≥ 1; 0: 100)
	Seed    uint64 // seed of every choice
	// Record asks for every sentence's text in Stats.Sentences.
	Record bool
	// Control writes an ordinary sentence in place of each copy: the same
	// pages and number of sentences without the hot key (to tell what the
	// hot key costs). Stats.Copies is then empty.
	Control bool
}

// Wiki is the dump's database name.
const Wiki = "hotwiki"

// Exact is the index, in Stats.Texts, of the exact template sentence.
const Exact = 0

// Stats is what Write wrote.
type Stats struct {
	Pages int   // pages written
	Bytes int64 // bytes written
	// Texts are the distinct texts of the template sentence as cleaning
	// leaves them (what clusters-*.jsonl lists), Texts[Exact] the exact
	// one; Copies[i] is the index in Texts of the i-th copy, in document
	// order (pages by id, copies in page order).
	Texts  []string
	Copies []uint16
	// Ordinary counts the other sentences written: the ones around the
	// copies and the leads.
	Ordinary int
	// Sentences are, with Config.Record, the texts of each page's
	// sentences as cleaning and splitting should leave them, in page
	// order: Sentences[p][i] is the sentence Key(p, i).
	Sentences [][]string
}

// Key is the id, as the pipeline's outputs write it, of sentence i of
// page p (both from 0).
func Key(p, i int) string { return fmt.Sprintf("%s:%d:%d:%d", Wiki, pageID(p), revID(p), i) }

func pageID(p int) int { return p + 1 }
func revID(p int) int  { return 1_000_000 + p }

// Shares of the copies: the rest are exact.
const (
	nameShare   = 0.15 // another village's name
	numberShare = 0.10 // another distance
)

// The template sentence: the wikitext of a copy and the text cleaning
// leaves of it. %[1]s is the village, %[2]d the distance in kilometres.
const (
	templateWiki = "'''%[1]s''' is a [[village]] in the administrative district of [[Gmina Wola Zręczycka]], within [[Wieliczka County]], [[Lesser Poland Voivodeship]], in southern Poland, about %[2]d kilometres south-east of the regional capital [[Kraków]]."
	templateText = "%[1]s is a village in the administrative district of Gmina Wola Zręczycka, within Wieliczka County, Lesser Poland Voivodeship, in southern Poland, about %[2]d kilometres south-east of the regional capital Kraków."
	exactName    = "Dąbrowa"
	exactKM      = 14
)

// villages are the other names a copy may have.
var villages = []string{
	"Brzezie", "Chorągwica", "Gorzków", "Janowice", "Kokotów", "Łazany", "Mietniów", "Nieznanowice", "Pawlikowice",
	"Podstolice", "Raciborsko", "Siepraw", "Sygneczów", "Śledziejowice", "Tomaszkowice", "Wrząsowice", "Zabawa",
	"Zagórze", "Zakrzów", "Zalesie",
}

// Write writes the corpus to w.
func Write(w io.Writer, cfg Config) (Stats, error) {
	if cfg.Copies < 1 {
		return Stats{}, fmt.Errorf("corpus: %d copies (want at least 1)", cfg.Copies)
	}
	if cfg.PerPage == 0 {
		cfg.PerPage = 100
	}
	if cfg.PerPage < 1 {
		return Stats{}, fmt.Errorf("corpus: %d copies a page (want at least 1)", cfg.PerPage)
	}
	g := &gen{
		rng:     corpus.NewRand(cfg.Seed, "hotkey"),
		index:   map[string]uint16{},
		st:      Stats{Copies: make([]uint16, 0, cfg.Copies)},
		record:  cfg.Record,
		control: cfg.Control,
	}
	g.text(exactName, exactKM) // Texts[Exact]
	cw := &bytecount.Writer{W: w}
	bw := bufio.NewWriterSize(cw, 1<<20)
	bw.WriteString(header)
	var page strings.Builder
	for p := 0; p*cfg.PerPage < cfg.Copies; p++ {
		page.Reset()
		g.page(&page, p, min(cfg.PerPage, cfg.Copies-p*cfg.PerPage))
		bw.WriteString(page.String())
		g.st.Pages++
	}
	bw.WriteString("</mediawiki>\n")
	if err := bw.Flush(); err != nil {
		return Stats{}, err
	}
	g.st.Bytes = cw.N
	return g.st, nil
}

const header = `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="en">
  <siteinfo>
    <sitename>Hot Key Wiki</sitename>
    <dbname>` + Wiki + `</dbname>
    <base>https://hotkey.invalid/wiki/Main_Page</base>
    <generator>MediaWiki 1.41.0</generator>
    <case>first-letter</case>
    <namespaces>
      <namespace key="0" case="first-letter" />
      <namespace key="10" case="first-letter">Template</namespace>
      <namespace key="14" case="first-letter">Category</namespace>
    </namespaces>
  </siteinfo>
`

// gen is the state of one corpus.
type gen struct {
	rng   *rand.Rand
	index map[string]uint16 // template text -> index in st.Texts
	st    Stats
	// record keeps the sentences of the page being written in sents.
	record  bool
	sents   []string
	control bool // ordinary sentences in place of the copies
}

// keep records a sentence's text and returns s.
func (g *gen) keep(s string) string {
	if g.record {
		g.sents = append(g.sents, s)
	}
	return s
}

// text returns the index of the template text of village and km, adding it
// to st.Texts if it is new.
func (g *gen) text(village string, km int) uint16 {
	t := fmt.Sprintf(templateText, village, km)
	i, ok := g.index[t]
	if !ok {
		i = uint16(len(g.st.Texts))
		g.index[t] = i
		g.st.Texts = append(g.st.Texts, t)
	}
	return i
}

// page writes page p (0-based) with n copies.
func (g *gen) page(b *strings.Builder, p, n int) {
	g.sents = nil
	var text strings.Builder
	place := g.place()
	fmt.Fprintf(&text, "{{Infobox settlement\n| name = %s\n| population_total = %d\n}}\n", place, 100+g.rng.IntN(4900))
	lead1, lead2 := g.keep(g.ordinary()), g.keep(g.ordinary())
	fmt.Fprintf(&text, "%s %s<ref>{{cite web |title=Gazetteer of %s |year=%d}}</ref>\n", lead1, lead2, place, 1990+g.rng.IntN(30))
	for range n {
		if g.control {
			fmt.Fprintf(&text, "\n%s %s\n", g.keep(g.ordinary()), g.keep(g.ordinary()))
			continue
		}
		village, km := exactName, exactKM
		switch u := g.rng.Float64(); {
		case len(g.st.Copies) == 0: // the first copy is exact: the anchor of the hot buckets
		case u < nameShare:
			village = villages[g.rng.IntN(len(villages))]
		case u < nameShare+numberShare:
			km = 2 + g.rng.IntN(60)
		}
		i := g.text(village, km)
		g.st.Copies = append(g.st.Copies, i)
		copyWiki := fmt.Sprintf(templateWiki, village, km)
		if g.rng.IntN(2) == 0 {
			g.keep(g.st.Texts[i])
			fmt.Fprintf(&text, "\n%s %s\n", copyWiki, g.keep(g.ordinary()))
		} else {
			other := g.keep(g.ordinary())
			g.keep(g.st.Texts[i])
			fmt.Fprintf(&text, "\n%s %s\n", other, copyWiki)
		}
	}
	text.WriteString("\n{{Wieliczka-geo-stub}}\n\n[[Category:Villages in Wieliczka County]]\n")
	fmt.Fprintf(b, `  <page>
    <title>%s</title>
    <ns>0</ns>
    <id>%d</id>
    <revision>
      <id>%d</id>
      <timestamp>2026-01-01T00:00:00Z</timestamp>
      <model>wikitext</model>
      <format>text/x-wiki</format>
      <text xml:space="preserve">%s</text>
    </revision>
  </page>
`, corpus.Escape(place), pageID(p), revID(p), corpus.Escape(text.String()))
	if g.record {
		g.st.Sentences = append(g.st.Sentences, g.sents)
	}
}

// Syllables of the generated names.
var (
	firstNames = []string{
		"Adam", "Agnieszka", "Aleksander", "Anna", "Antoni", "Barbara", "Bartosz", "Bogdan", "Czesław", "Dorota",
		"Edward", "Elżbieta", "Emil", "Franciszek", "Grażyna", "Helena", "Henryk", "Irena", "Jadwiga", "Jan",
		"Janina", "Józef", "Julia", "Kazimierz", "Krystyna", "Leon", "Ludwik", "Maria", "Marek", "Michał",
		"Natalia", "Paweł", "Piotr", "Roman", "Stanisław", "Stefan", "Tadeusz", "Teresa", "Wanda", "Zofia",
	}
	stems = []string{
		"Bar", "Bie", "Bor", "Chmie", "Dą", "Dob", "Gał", "Gor", "Jar", "Kal", "Kol", "Kra", "Lip", "Lub", "Mał",
		"Mie", "Now", "Ol", "Pia", "Pol", "Rad", "Ros", "Sie", "Sko", "Sos", "Sta", "Tar", "Wie", "Wol", "Zie",
	}
	middles = []string{
		"ba", "ce", "dra", "go", "ka", "la", "li", "ło", "ma", "ni", "no", "pa", "ra", "ro", "sza", "ta", "wa", "wi",
		"za", "ży", "be", "cho", "de", "fi", "ge", "hu", "ja", "ke", "mu", "po",
	}
	surnameEnds = []string{"wski", "wska", "cki", "cka", "nik", "rek", "siak", "ński", "ńska", "czyk", "ak", "ek"}
	placeEnds   = []string{"ów", "owice", "ice", "no", "ew", "in", "owo", "ki", "ec", "ka"}
	nouns       = []string{
		"chapel", "mill", "school", "manor", "bridge", "granary", "brewery", "tannery", "forge", "orchard", "pond",
		"meadow", "vicarage", "inn", "dairy", "sawmill", "parish hall", "fire station", "well", "cemetery",
	}
	verbs  = []string{"built", "rebuilt", "bought", "sold", "restored", "extended", "leased", "inherited", "enlarged", "repaired"}
	trades = []string{"carpenter", "miller", "priest", "teacher", "merchant", "surveyor", "farmer", "notary", "smith", "brewer"}
)

// surname returns a generated Polish-looking surname.
func (g *gen) surname() string {
	return pick(g.rng, stems) + pick(g.rng, middles) + pick(g.rng, surnameEnds)
}

// place returns a generated Polish-looking place name.
func (g *gen) place() string {
	return pick(g.rng, stems) + pick(g.rng, middles) + pick(g.rng, placeEnds)
}

func (g *gen) person() string { return pick(g.rng, firstNames) + " " + g.surname() }

// ordinary returns a sentence that is a near duplicate of nothing: most of
// its characters are generated names and numbers, and its frame's fixed
// words are shorter than a shingle.
func (g *gen) ordinary() string {
	g.st.Ordinary++
	r := g.rng
	year := 1700 + r.IntN(300)
	switch r.IntN(5) {
	case 0:
		return fmt.Sprintf("In %d %s and %s %s the %s at %s from %s for %d złoty.",
			year, g.person(), g.person(), pick(r, verbs), pick(r, nouns), g.place(), g.person(), 50+r.IntN(9950))
	case 1:
		return fmt.Sprintf("%s (%d–%d), born at %s, married %s of %s and %s the %s at %s.",
			g.person(), year, year+30+r.IntN(60), g.place(), g.person(), g.place(), pick(r, verbs), pick(r, nouns), g.place())
	case 2:
		return fmt.Sprintf("The %s of %s passed from %s to %s in %d, then to %s of %s in %d.",
			pick(r, nouns), g.place(), g.person(), g.person(), year, g.person(), g.place(), year+1+r.IntN(90))
	case 3:
		return fmt.Sprintf("%s, %s of %s, and %s, %s of %s, %s the %s of %s in %d.",
			g.person(), pick(r, trades), g.place(), g.person(), pick(r, trades), g.place(), pick(r, verbs), pick(r, nouns), g.place(), year)
	default:
		return fmt.Sprintf("Between %d and %d %s, %s and %s sent %d recruits under %s and %s.",
			year, year+1+r.IntN(20), g.place(), g.place(), g.place(), 3+r.IntN(300), g.person(), g.person())
	}
}

func pick(r *rand.Rand, from []string) string { return from[r.IntN(len(from))] }
