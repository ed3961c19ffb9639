package sectionkind_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/sectionkind"
	"github.com/neardup/neardup/transforms/wikitext"
)

// page makes a clean page of wiki hywiki: sections maps a heading to its
// lines, in the order given by order.
func page(id int64, order []string, sections map[string][]string) clean.Page {
	p := clean.Page{Wiki: "hywiki", ID: id, Title: fmt.Sprint("Page ", id)}
	p.Paragraphs = append(p.Paragraphs, wikitext.Paragraph{Text: "Lead line, 1990."})
	for _, h := range order {
		for _, l := range sections[h] {
			p.Paragraphs = append(p.Paragraphs, wikitext.Paragraph{Section: h, Context: wikitext.List, Text: l})
		}
	}
	return p
}

// learn counts pages with categorize.IsCitation and builds the table.
func learn(pages ...clean.Page) *sectionkind.Table {
	var c sectionkind.Counter
	for _, p := range pages {
		for _, e := range sectionkind.Summarize(p, categorize.IsCitation) {
			c.Add(e)
		}
	}
	return sectionkind.Build(c.Take())
}

// Armenian bibliography entries and prose with years, as the Armenian
// Wikipedia writes them: no word of them is in any list of the code.
var (
	armenianSources = [][]string{
		{
			"Հայկական սովետական հանրագիտարան, հ. 5, Երևան, 1979, էջ 123։",
			"Ս. Տ. Երեմյան, Հայաստանը ըստ «Աշխարհացոյց»-ի, Երևան, 1963։",
			"Բ. Հարությունյան, Հայաստանի պատմության ատլաս, Երևան: Մակմիլան-Արմենիա, 2004։",
		},
		{
			"Հ. Հակոբյան, Պատմական Հայաստանի քաղաքները, Երևան: Հայաստան, 1987, էջ 45։",
			"Թ. Հակոբյան, Ս. Մելիք-Բախշյան, Հ. Բարսեղյան, Հայաստանի և հարակից շրջանների տեղանունների բառարան, հ. 2, Երևան, 1988։",
		},
	}
	armenianHistory = []string{
		"Գյուղը հիմնադրվել է 1830 թվականին, երբ այստեղ հաստատվեցին գաղթականներ Պարսկաստանից։",
		"1988 թվականի երկրաշարժից հետո գյուղը վերակառուցվել է, իսկ 2001 թվականին այստեղ բացվել է նոր դպրոց։",
		"Բնակչության մեծ մասը զբաղվում է հողագործությամբ և անասնապահությամբ։",
	}
)

// TestLearnUnseenLanguage learns the Armenian heading of two pages'
// bibliographies and not the prose heading beside it, nor a bibliography
// of one page.
func TestLearnUnseenLanguage(t *testing.T) {
	order := []string{"Պատմություն", "Աղբյուրներ"}
	one := page(1, order, map[string][]string{"Պատմություն": armenianHistory, "Աղբյուրներ": armenianSources[0]})
	two := page(2, order, map[string][]string{"Պատմություն": armenianHistory, "Աղբյուրներ": armenianSources[1]})

	table := learn(one, two)
	want := []sectionkind.Heading{{Wiki: "hywiki", Heading: "աղբյուրներ", Lines: 5, Citations: 5, Pages: 2}}
	if got := table.Headings(); !reflect.DeepEqual(got, want) {
		t.Fatalf("learned %+v, want %+v", got, want)
	}
	for _, tt := range []struct {
		wiki, section string
		want          bool
	}{
		{"hywiki", "Աղբյուրներ", true},
		{"hywiki", " ԱՂԲՅՈՒՐՆԵՐ: ", true}, // folded as the table is keyed
		{"hywiki", "Պատմություն", false},
		{"hywiki", "", false},
		{"enwiki", "Աղբյուրներ", false}, // another wiki
	} {
		if got := table.IsReference(tt.wiki, tt.section); got != tt.want {
			t.Errorf("IsReference(%q, %q) = %v, want %v", tt.wiki, tt.section, got, tt.want)
		}
	}
	if got := learn(one, one).Len(); got != 0 {
		t.Errorf("one page read twice taught %d headings, want 0: support is counted in pages", got)
	}
}

// TestProseWithYearsNotLearned: a section of prose full of years and
// names, and a list of people with their lifespans, are not citations.
func TestProseWithYearsNotLearned(t *testing.T) {
	people := []string{
		"Ժակ-Լուի Դավիդ (1748 — 1825), նկարիչ",
		"Էժեն Դելակրուա (1798 — 1863), նկարիչ",
		"Թեոդոր Ժերիկո (1791 — 1824), նկարիչ",
	}
	var pages []clean.Page
	for id := range int64(4) {
		pages = append(pages, page(id, []string{"Պատմություն", "Նկարիչներ"},
			map[string][]string{"Պատմություն": armenianHistory, "Նկարիչներ": people}))
	}
	if got := learn(pages...).Headings(); len(got) != 0 {
		t.Errorf("learned %+v from prose and lifespans, want nothing", got)
	}
}

// TestSummarize counts lines per folded heading, leaves out the lead, the
// reference context and long lines, and keeps the page of a citation.
func TestSummarize(t *testing.T) {
	long := strings.Repeat("Ս. Երեմյան, Երևան, 1963։ ", 20) // cues, but longer than an entry
	p := clean.Page{Wiki: "hywiki", ID: 7, Paragraphs: []wikitext.Paragraph{
		{Text: "Ս. Երեմյան, Հայաստան, Երևան, 1963։"}, // the lead
		{Section: "Գրականություն", Context: wikitext.List, Text: armenianSources[0][0]},
		{Section: "Գրականություն", Context: wikitext.Prose, Text: long},
		{Section: "Ծանոթագրություններ", Context: wikitext.Reference, Text: armenianSources[0][1]},
		{Section: "Պատմություն", Text: armenianHistory[0]},
		{Section: "ԳՐԱԿԱՆՈՒԹՅՈՒՆ:", Context: wikitext.List, Text: armenianSources[0][2]},
		{Section: strings.Repeat("Շատ երկար վերնագիր ", 5), Text: armenianSources[1][0]},
	}}
	want := []sectionkind.Entry{
		{Wiki: "hywiki", Heading: "գրականություն", Stats: sectionkind.Stats{Lines: 3, Citations: 2, Pages: []int64{7}}},
		{Wiki: "hywiki", Heading: "պատմություն", Stats: sectionkind.Stats{Lines: 1}},
	}
	if got := sectionkind.Summarize(p, categorize.IsCitation); !reflect.DeepEqual(got, want) {
		t.Errorf("Summarize = %+v\nwant %+v", got, want)
	}
}

// TestLearned checks the support thresholds at their bounds.
func TestLearned(t *testing.T) {
	pages := func(n int) []int64 {
		var ids []int64
		for i := range n {
			ids = append(ids, int64(i))
		}
		return ids
	}
	tests := []struct {
		name string
		s    sectionkind.Stats
		want bool
	}{
		{"all citations", sectionkind.Stats{Lines: 4, Citations: 4, Pages: pages(2)}, true},
		{"half", sectionkind.Stats{Lines: 8, Citations: 4, Pages: pages(2)}, true},
		{"under half", sectionkind.Stats{Lines: 9, Citations: 4, Pages: pages(3)}, false},
		{"too few citations", sectionkind.Stats{Lines: 3, Citations: 3, Pages: pages(3)}, false},
		{"one page", sectionkind.Stats{Lines: 40, Citations: 40, Pages: pages(1)}, false},
		{"many pages", sectionkind.Stats{Lines: 1000, Citations: 600, Pages: pages(sectionkind.MaxPages)}, true},
	}
	for _, tt := range tests {
		if got := tt.s.Learned(); got != tt.want {
			t.Errorf("%s: %+v.Learned() = %v, want %v", tt.name, tt.s, got, tt.want)
		}
	}
}

// TestOrderIndependent: the table is the same whatever order the entries
// are added and merged in, and a page counted twice is one page.
func TestOrderIndependent(t *testing.T) {
	var entries []sectionkind.Entry
	for id := range int64(30) {
		for _, h := range []string{"a", "b", "c"} {
			entries = append(entries, sectionkind.Entry{Wiki: "w" + fmt.Sprint(id%2), Heading: h,
				Stats: sectionkind.Stats{Lines: 3, Citations: id % 4, Pages: []int64{id % 20}}})
		}
	}
	entries = append(entries, entries[:9]...) // pages read twice
	var first []byte
	for trial := range 5 {
		rand.New(rand.NewPCG(uint64(trial), 1)).Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
		// Two counters, merged as tables: as two bundles of a run are.
		var c1, c2 sectionkind.Counter
		for i, e := range entries {
			if i%2 == 0 {
				c1.Add(e)
			} else {
				c2.Add(e)
			}
		}
		all := append(c1.Take(), c2.Take()...)
		var c sectionkind.Counter
		for _, e := range all {
			c.Add(e)
		}
		got, err := sectionkind.Build(c.Take()).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if trial == 0 {
			first = got
			continue
		}
		if !bytes.Equal(got, first) {
			t.Fatalf("trial %d: table %s, want %s", trial, got, first)
		}
	}
	if !strings.Contains(string(first), `"pages":8`) {
		t.Errorf("table %s: want headings seen on 8 pages or more kept at %d", first, sectionkind.MaxPages)
	}
}

// TestTableBounds keeps the MaxHeadingsPerWiki headings of most citations
// per wiki, and the table survives its encoding.
func TestTableBounds(t *testing.T) {
	var entries []sectionkind.Entry
	for i := range sectionkind.MaxHeadingsPerWiki + 10 {
		for _, w := range []string{"awiki", "bwiki"} {
			entries = append(entries, sectionkind.Entry{Wiki: w, Heading: fmt.Sprintf("h%04d", i),
				Stats: sectionkind.Stats{Lines: int64(10 + i), Citations: int64(10 + i), Pages: []int64{1, 2}}})
		}
	}
	table := sectionkind.Build(entries)
	if got, want := table.Len(), 2*sectionkind.MaxHeadingsPerWiki; got != want {
		t.Fatalf("%d headings, want %d", got, want)
	}
	if table.IsReference("awiki", "h0009") || !table.IsReference("awiki", "h0010") || !table.IsReference("bwiki", "H0265") {
		t.Errorf("want the headings of fewest citations dropped: h0009 kept %v, h0010 %v, h0265 %v",
			table.IsReference("awiki", "h0009"), table.IsReference("awiki", "h0010"), table.IsReference("bwiki", "h0265"))
	}
	b, err := table.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back := new(sectionkind.Table)
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Headings(), table.Headings()) {
		t.Error("the decoded table differs")
	}
	if err := new(sectionkind.Table).UnmarshalBinary(b[:len(b)/2]); err == nil {
		t.Error("a cut encoding decoded without error")
	}
	var zero *sectionkind.Table
	if zero.IsReference("awiki", "h0100") || zero.Len() != 0 {
		t.Error("the nil table knows a heading")
	}
}
