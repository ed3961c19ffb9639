package wikitext

import (
	"strings"
	"testing"
)

// cleanIn cleans text as a page of a wiki of language lang and returns its
// paragraphs' texts joined by " ¶ ".
func cleanIn(lang, text string) string {
	var c Cleaner
	c.SetSite(NewSite(lang, nil))
	var texts []string
	for _, p := range c.Clean(text) {
		texts = append(texts, p.Text)
	}
	return strings.Join(texts, " ¶ ")
}

func TestRenderTemplates(t *testing.T) {
	tests := []struct {
		name, lang, in, want string
	}{
		// Values and units.
		{"convert symbol", "en", "The average temperature would rise to almost {{convert|27|C}}.", "The average temperature would rise to almost 27 °C."},
		{"convert first unit only", "en", "It was about {{convert|1600|mi|km}} east of Barbados.", "It was about 1,600 mi east of Barbados."},
		{"convert range", "en", "A wall {{convert|10|to|20|km|mi}} long.", "A wall 10 to 20 km long."},
		{"convert dash range", "en", "Some {{convert|5|-|10|mi}} away.", "Some 5–10 mi away."},
		{"convert compound", "en", "He was {{convert|6|ft|1|in|m}} tall.", "He was 6 ft 1 in tall."},
		{"cvt area", "en", "which is {{cvt|72|m2}} per head.", "which is 72 m² per head."},
		{"convert grouped by language", "vi", "tổng diện tích {{convert|2095|km2|abbr=on}}.", "tổng diện tích 2.095 km²."},
		{"convert with named args", "en", "{{convert|15|C|F|abbr=on|lk=in}} warmer.", "15 °C warmer."},
		{"unit not in table as written", "en", "About {{convert|3|furlong}}.", "About 3 furlong."},
		{"val", "en", "A mass of {{val|1.23|0.01|u=kg}}.", "A mass of 1.23 ± 0.01 kg."},
		{"val exponent", "en", "About {{val|6.022|e=23}} atoms.", "About 6.022×1023 atoms."},
		{"frac", "en", "A {{frac|1|2}} and {{frac|3|1|4}} and {{sfrac|2|3}}.", "A 1/2 and 3 1/4 and 2/3."},
		{"height metric", "en", "She is {{height|m=1.80}} tall.", "She is 1.80 m tall."},
		{"height imperial", "en", "He is {{height|ft=6|in=1}} tall.", "He is 6 ft 1 in tall."},
		{"formatnum en", "en", "Population {{formatnum:1234567}}.", "Population 1,234,567."},
		{"formatnum de", "de", "Einwohner {{formatnum:1234567}}.", "Einwohner 1.234.567."},
		{"formatnum not a number", "en", "{{formatnum:abc}} x.", "abc x."},
		{"currency", "en", "It cost {{US$|100}} or {{£|80}}.", "It cost US$100 or £80."},
		{"circa", "en", "Born {{circa|1850}}.", "Born c. 1850."},
		{"math named", "en", "The atomic number is {{math|1=Z = 79}}.", "The atomic number is Z = 79."},
		{"mvar", "en", "Let {{mvar|x}} be real.", "Let x be real."},
		{"nowrap", "en", "The {{nowrap|Apollo 8}} crew.", "The Apollo 8 crew."},
		{"nbsp joins words", "en", "Apollo{{nbsp}}8 launched on October{{nbsp}}9.", "Apollo 8 launched on October 9."},
		{"dashes", "en", "Paris{{snd}}London and A{{ndash}}B and x{{mdash}}y.", "Paris – London and A–B and x—y."},
		{"abbr", "en", "The {{abbr|UN|United Nations}} met.", "The UN met."},
		{"lang", "en", "Called {{lang|fr|Côte d'Ivoire}} in French.", "Called Côte d'Ivoire in French."},
		{"lang-xx", "uk", "Атом (від {{lang-el|άτομοσ}}&nbsp;— неподільний).", "Атом (від άτομοσ — неподільний)."},
		{"lang with link", "en", "The {{lang|fr|[[Paris|ville]]}} is big.", "The ville is big."},
		{"sort", "en", "{{sort|8|8/20}} items.", "8/20 items."},
		{"nested", "en", "A road {{nowrap|{{convert|5|km}} east}} of town.", "A road 5 km east of town."},
		{"multi-line argument stays in its paragraph", "en", "The {{nowrap|Apollo\n8}} crew.", "The Apollo 8 crew."},
		// Dates.
		{"birth date", "en", "Born {{birth date|1950|5|17}} in Ohio.", "Born May 17, 1950 in Ohio."},
		{"birth date df", "en", "Born {{birth date|1950|5|17|df=y}} in Ohio.", "Born 17 May 1950 in Ohio."},
		{"birth date and age has no age", "en", "Born {{birth date and age|1950|05|07}}.", "Born May 7, 1950."},
		{"death date and age", "en", "Died {{death date and age|2000|1|1|1930|6|1}}.", "Died January 1, 2000 (aged 69)."},
		{"start date month", "en", "Since {{start date|2008|11}}.", "Since November 2008."},
		{"start date year", "en", "Since {{start date|2008}}.", "Since 2008."},
		{"date iso", "en", "On {{date|2020-01-15}}.", "On January 15, 2020."},
		{"date ja", "ja", "{{生年月日と年齢|1632|11|24|no}}生まれ。", "1632年11月24日生まれ。"},
		{"date vi", "vi", "Sinh {{birth date|1950|5|17}}.", "Sinh ngày 17 tháng 5 năm 1950."},
		{"date vi without day", "vi", "Từ {{start date|2008|11}}.", "Từ tháng 11 năm 2008."},
		{"date de", "de", "Am {{date|2001-09-11}} geschah es.", "Am 11. September 2001 geschah es."},
		{"date el genitive", "el", "Στις {{birth date|1950|5|17}}.", "Στις 17 Μαΐου 1950."},
		{"date day first", "fr", "Né le {{date|11|novembre|1866}}.", "Né le 11 novembre 1866."},
		{"date one argument", "fr", "Le {{date-|2 novembre 2007}}.", "Le 2 novembre 2007."},
		{"ship", "en", "Alongside {{HMS|Ajax|22|6}} and {{ship|HMS|Exeter|68|6}}.", "Alongside HMS Ajax and HMS Exeter (68)."},
		{"page", "fr", "Paris, 2009, {{p.|136-145}}.", "Paris, 2009, p. 136-145."},
		{"date unknown language is ISO", "xx", "On {{birth date|1950|5|7}}.", "On 1950-05-07."},
		// Dropped, and the space before a footnote with them.
		{"coord dropped", "en", "It lies at {{coord|51|30|N|0|7|W}} near the river.", "It lies at near the river."},
		{"unknown template dropped", "en", "Text {{Infobox person|name=X}} more.", "Text more."},
		{"footnote before full stop", "en", "It rose in 2008 {{sfn|Smith|2009|p=5}}.", "It rose in 2008."},
		{"footnote before comma", "en", "It rose {{citation needed|date=May 2020}}, then fell.", "It rose, then fell."},
		{"footnote between words keeps the space", "en", "It rose {{cn}} and fell.", "It rose and fell."},
		{"ref before full stop", "en", "It rose in 2008 <ref>Smith 2009.</ref>.", "It rose in 2008. ¶ Smith 2009."},
		{"self-closed ref", "en", "It rose in 2008 <ref name=a/>.", "It rose in 2008."},
		{"comment before full stop", "en", "It rose <!-- check -->.", "It rose."},
		{"parameter braces not rendered", "en", "A {{{nowrap|x}}} b.", "A b."},
		{"formatnum needs its colon", "en", "A {{formatnum}} b.", "A b."},
		{"lang-xx pattern", "ru", "Словакия ({{lang-sk|Slovensko}}).", "Словакия (Slovensko)."},
		{"language-tagged by shape", "ltg", "'''Lītova''' ({{Vol-lt|Lietuva}}) — vaļsteiba.", "Lītova (Lietuva) — vaļsteiba."},
		{"language code as name", "ja", "（{{en|It's Now or Never}}）1960年", "（It's Now or Never）1960年"},
		{"language-tagged with named args is dropped", "en", "A {{cite-en|title=X}} b.", "A b."},
		{"language-tagged without args shows nothing", "en", "A site {{en}} b.", "A site b."},
		{"empty brackets of a dropped template", "ja", "国境 ({{Coord|33|22||N|38|47||E|display=inline}}) である。", "国境 である。"},
		{"empty brackets of a dropped link", "ja", "パリ・ミュゼ（[[:fr:Paris Musées]]）という", "パリ・ミュゼという"},
		{"brackets with text stay", "en", "The border ({{coord|1|2}} north) here.", "The border ( north) here."},
		{"empty brackets of a dropped tag", "en", "A sum (<math>\\frac{a}{b}</math>) here.", "A sum here."},
		{"three-letter name is not a language", "ja", "A {{see|Category:X}} b.", "A b."},
		{"unknown code is not a language", "en", "A {{zz|x}} b.", "A b."},
		{"empty brackets of a bare link", "en", "Report (PDF) ([http://example.org/x]), ACLU.", "Report (PDF), ACLU."},
		{"footnote pattern", "en", "A site{{en icon}}.", "A site."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cleanIn(tt.lang, tt.in); got != tt.want {
				t.Errorf("Clean(%q) in %s\n got %q\nwant %q", tt.in, tt.lang, got, tt.want)
			}
			checkInvariants(t, tt.in, Clean(tt.in))
		})
	}
}

// TestRenderDepthBounded: rendered templates nested beyond maxRenderDepth
// are dropped, not followed, however deep the input goes.
func TestRenderDepthBounded(t *testing.T) {
	const depth = 10000
	in := "A " + strings.Repeat("{{nowrap|x", depth) + strings.Repeat("}}", depth) + " b."
	got := cleanIn("en", in)
	want := "A " + strings.Repeat("x", maxRenderDepth) + " b."
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestMathText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"product of <math>s</math>, <math>i</math> and <math>n</math>.", "product of s, i and n."},
		{"where <math>\\alpha \\le 2\\pi</math> holds.", "where α ≤ 2π holds."},
		{"so <math>x = \\text{const}</math> here.", "so x = const here."},
		{"the sum <math>\\sum_{i=1}^n x_i</math> is.", "the sum is."},
		{"and <math>\\frac{a}{b}</math> too.", "and too."},
		{"odd <math>a \\unknowncommand b</math>.", "odd."},
	}
	for _, tt := range tests {
		if got := cleanIn("en", tt.in); got != tt.want {
			t.Errorf("Clean(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// TestTidyInRefKeepsAnchors: dropping a footnote's space inside a <ref>
// body must not move the anchors of the refs before it, whose offsets are
// in the page's text, not in the refs' text.
func TestTidyInRefKeepsAnchors(t *testing.T) {
	lead := strings.Repeat("Lead words here. ", 12)
	in := lead + "\n\n== Later ==\nA sentence in the later section<ref>First note, which is long enough to count.</ref> ends.\n" +
		"Another<ref>Second note {{sfn|Smith|2000}}.</ref> ends.\n"
	got := Clean(in)
	want := []Paragraph{
		prose("", strings.TrimSpace(lead)),
		prose("Later", "A sentence in the later section ends. Another ends."),
		ref("Later", "First note, which is long enough to count."),
		ref("Later", "Second note."),
	}
	if len(got) != len(want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("paragraph %d: got %q, want %q", i, got[i], want[i])
		}
	}
}
