package wikitext

import (
	"html"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

func prose(section, text string) Paragraph {
	return Paragraph{Section: section, Context: Prose, Text: text}
}

func list(section, text string) Paragraph {
	return Paragraph{Section: section, Context: List, Text: text}
}

func ref(section, text string) Paragraph {
	return Paragraph{Section: section, Context: Reference, Text: text}
}

type cleanTest struct {
	name string
	in   string
	want []Paragraph
}

func runCleanTests(t *testing.T, tests []cleanTest) {
	t.Helper()
	for _, tt := range tests {
		checkClean(t, tt, Clean)
	}
}

// checkClean runs, as subtest tt.name, clean on tt.in: it must give tt.want
// and keep the invariants.
func checkClean(t *testing.T, tt cleanTest, clean func(string) []Paragraph) {
	t.Helper()
	t.Run(tt.name, func(t *testing.T) {
		got := clean(tt.in)
		if len(got) == 0 && len(tt.want) == 0 {
			return
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Clean(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
		checkInvariants(t, tt.in, got)
	})
}

func TestCleanParagraphs(t *testing.T) {
	runCleanTests(t, []cleanTest{
		{"empty", "", nil},
		{"plain", "Hello world.", []Paragraph{prose("", "Hello world.")}},
		{"single newline joins", "One line\nnext line.", []Paragraph{prose("", "One line next line.")}},
		{"blank line separates", "First.\n\nSecond.", []Paragraph{prose("", "First."), prose("", "Second.")}},
		{"whitespace only line separates", "First.\n \t\nSecond.", []Paragraph{prose("", "First."), prose("", "Second.")}},
		{"collapse whitespace", "  a \t b\r\n\n\n  c  ", []Paragraph{prose("", "a b"), prose("", "c")}},
		{"preformatted kept as prose", "Intro:\n code line\n\nAfter.", []Paragraph{prose("", "Intro: code line"), prose("", "After.")}},
		{"horizontal rule", "A.\n----\nB.", []Paragraph{prose("", "A."), prose("", "B.")}},
		{"no letters skipped", "Text.\n\n. , ;\n\n{{x}} –", []Paragraph{prose("", "Text.")}},
		{"unicode spaces and invisibles", "a\u00a0b\u2003c\u200bd\u00ade", []Paragraph{prose("", "a b cde")}},
		{"control characters dropped", "a\x00b\x07c", []Paragraph{prose("", "abc")}},
	})
}

func TestCleanFormatting(t *testing.T) {
	runCleanTests(t, []cleanTest{
		{"bold italic", "'''Bold''' and ''italic'' and '''''both'''''.", []Paragraph{prose("", "Bold and italic and both.")}},
		{"apostrophes kept", "Rock 'n' roll, l'amour.", []Paragraph{prose("", "Rock 'n' roll, l'amour.")}},
		{"four apostrophes keep one", "''''x''''", []Paragraph{prose("", "'x'")}},
		{"behaviour switches", "__NOTOC__\nText __TOC__ here.\n__KEIN_INHALTSVERZEICHNIS__", []Paragraph{prose("", "Text here.")}},
		{"python dunder kept", "Call __init__ first.", []Paragraph{prose("", "Call __init__ first.")}},
		{"redirect", "#REDIRECT [[Hurricane Katrina]]\n{{R from move}}", nil},
		{"localized redirect", "#WEITERLEITUNG [[Ziel]]", nil},
		{"numbered list is not a redirect", "#Item [[one]]", []Paragraph{list("", "Item one")}},
		{"language converter", "数学-{zh-cn:域;zh-tw:體}-论 and -{plain}-", []Paragraph{prose("", "数学域论 and plain")}},
	})
}

func TestCleanHeadings(t *testing.T) {
	runCleanTests(t, []cleanTest{
		{"lead and section", "Lead.\n== History ==\nText.", []Paragraph{prose("", "Lead."), prose("History", "Text.")}},
		{"levels", "=A=\na\n===B===\nb\n======F======\nf", []Paragraph{prose("A", "a"), prose("B", "b"), prose("F", "f")}},
		{"heading markup cleaned", "== [[Foo|Bar]] ''x''<ref>r</ref> ==  \nText.", []Paragraph{prose("Bar x", "Text."), ref("Bar x", "r")}},
		{"unbalanced heading", "==Foo===\nx", []Paragraph{prose("Foo=", "x")}},
		{"not a heading", "=no close\n= x = y", []Paragraph{prose("", "=no close = x = y")}},
		{"heading ends paragraph", "a\n==H==\nb", []Paragraph{prose("", "a"), prose("H", "b")}},
		{"empty section keeps name", "==A==\n==B==\nb", []Paragraph{prose("B", "b")}},
	})
}

func TestCleanTemplates(t *testing.T) {
	runCleanTests(t, []cleanTest{
		{"simple", "A {{cite web|url=http://x|title=T}} B.", []Paragraph{prose("", "A B.")}},
		{"nested", "A {{a|{{b|{{c}}}}|d}} B.", []Paragraph{prose("", "A B.")}},
		{"with links", "A {{a|[[b|c]] [[File:x.jpg|[[d]]]]}} B.", []Paragraph{prose("", "A B.")}},
		{"with table", "A {{a|\n{|\n| x || y\n|}\n}} B.", []Paragraph{prose("", "A B.")}},
		{"parser function", "A {{#if:{{{1|}}}|yes|no}} B.", []Paragraph{prose("", "A B.")}},
		{"parameter", "A {{{1}}} {{{2|default}}} B.", []Paragraph{prose("", "A B.")}},
		{"infobox before lead", "{{Infobox person\n| name = X\n| born = {{birth date|1900|1|1}}\n}}\n'''X''' was a man.", []Paragraph{prose("", "X was a man.")}},
		{"template alone on line ends paragraph", "A.\n{{clear}}\nB.", []Paragraph{prose("", "A."), prose("", "B.")}},
		{"unclosed drops rest of line", "Before {{broken|x\nNext line.", []Paragraph{prose("", "Before Next line.")}},
		{"unclosed keeps later paragraphs", "{{Infobox\n| a = b\n\nLead text.", []Paragraph{prose("", "| a = b"), prose("", "Lead text.")}},
		{"unclosed skips complete template", "A {{x {{cite|\nz}} y\nB.", []Paragraph{prose("", "A B.")}},
		{"tag-like text inside template", "A {{foo|a <b c}} text> B", []Paragraph{prose("", "A text> B")}},
		{"template in tag attribute", "<span style=\"{{{1|x}}}\">A</span> B", []Paragraph{prose("", "A B")}},
		{"stray closing braces", "a }} b } c", []Paragraph{prose("", "a b } c")}},
		{"triple close of double open", "a {{b}}} c", []Paragraph{prose("", "a } c")}},
		{"template inside ref cannot escape it", "A<ref>{{cite|x</ref> B }} C.", []Paragraph{prose("", "A B C.")}},
	})
}

func TestCleanLinks(t *testing.T) {
	runCleanTests(t, []cleanTest{
		{"target", "See [[Target]].", []Paragraph{prose("", "See Target.")}},
		{"label", "See [[Target|the label]].", []Paragraph{prose("", "See the label.")}},
		{"trail", "Many [[Target]]s and [[bus|buse]]s.", []Paragraph{prose("", "Many Targets and buses.")}},
		{"label markup", "[[A|''b'' c]]", []Paragraph{prose("", "b c")}},
		{"section link", "[[Foo#Bar|bar]] [[#Local]]", []Paragraph{prose("", "bar #Local")}},
		{"file with nested links", "A [[File:X.jpg|thumb|Caption with [[a link]] and [[b|c]].]] B.", []Paragraph{prose("", "A B.")}},
		{"image alone on line joins paragraph", "A\n[[Image:X.png|thumb|cap]]\nB.", []Paragraph{prose("", "A B.")}},
		{"localized files", "a[[Datei:x.jpg|mini|y]][[Fichier:x.jpg]][[Media:x.ogg]][[Bild:z.png]]b", []Paragraph{prose("", "ab")}},
		{"categories", "Text.\n\n[[Category:Foo]]\n[[Kategorie:Bar|sort]]\n[[category : baz]]", []Paragraph{prose("", "Text.")}},
		{"interlanguage", "Text.\n[[de:Foo]]\n[[fr:Bar]]\n[[zh-min-nan:Baz]]\n[[simple:Q]][[be-x-old:W]]", []Paragraph{prose("", "Text.")}},
		{"leading colon", "[[:Category:Foo|Foo]] and [[:Category:Bar]] and [[:de:Haus|Haus]]", []Paragraph{prose("", "Foo and and Haus")}},
		{"namespace link kept", "[[Wikipedia:Manual of Style|style]] [[wikt:word|word]]", []Paragraph{prose("", "style word")}},
		{"unclosed link keeps text", "An [[open link and more.", []Paragraph{prose("", "An open link and more.")}},
		{"unclosed file drops line", "A [[File:x.jpg|cap\nB.", []Paragraph{prose("", "A B.")}},
		{"stray closing brackets", "a ]] b ] c", []Paragraph{prose("", "a b ] c")}},
		{"extra opening bracket", "[[[Foo]]]", []Paragraph{prose("", "[Foo]")}},
		{"external with label", "See [http://example.com/x the site] now.", []Paragraph{prose("", "See the site now.")}},
		{"external label markup", "[https://e.org ''Title''] x", []Paragraph{prose("", "Title x")}},
		{"external without label", "Source[http://example.com]. Next", []Paragraph{prose("", "Source. Next")}},
		{"protocol relative", "[//example.com label]", []Paragraph{prose("", "label")}},
		{"bare url kept", "Visit http://example.com/a_b today.", []Paragraph{prose("", "Visit http://example.com/a_b today.")}},
		{"bracketed text kept", "He [sic] said [1].", []Paragraph{prose("", "He [sic] said [1].")}},
		{"external unclosed", "[http://x.org label\nmore", []Paragraph{prose("", "[http://x.org label more")}},
	})
}

func TestCleanTags(t *testing.T) {
	runCleanTests(t, []cleanTest{
		{"comment", "A <!-- hidden --> B.", []Paragraph{prose("", "A B.")}},
		{"comment line joins", "A\n<!-- note -->\nB.", []Paragraph{prose("", "A B.")}},
		{"multiline comment", "A<!--\n\n== X ==\n\n-->B", []Paragraph{prose("", "AB")}},
		{"unclosed comment hides rest", "A.\n\n<!-- open\n\nB.", []Paragraph{prose("", "A.")}},
		{"nowiki keeps markup", "<nowiki>[[not a link]] ''x'' {{y}}</nowiki>", []Paragraph{prose("", "[[not a link]] ''x'' {{y}}")}},
		{"nowiki at line start", "<nowiki>* not a list</nowiki>\n<nowiki>== not a heading ==</nowiki>", []Paragraph{prose("", "* not a list == not a heading ==")}},
		{"nowiki entities", "<nowiki>a &amp; b & c</nowiki>", []Paragraph{prose("", "a & b & c")}},
		{"self-closing nowiki", "a<nowiki/>b", []Paragraph{prose("", "ab")}},
		{"math", "Let <math>x^2 + \\frac{{a}}{b}</math> be.", []Paragraph{prose("", "Let be.")}},
		{"dropped tags", "a<gallery>\nFile:x.jpg|y\n</gallery>b<timeline>t</timeline>c<syntaxhighlight lang=go>x</syntaxhighlight>d" +
			"<source>s</source>e<pre>p</pre>f<score>\\relative</score>g<imagemap>i</imagemap>h", []Paragraph{prose("", "abcdefgh")}},
		{"case-insensitive", "a<MATH>x</Math>b", []Paragraph{prose("", "axb")}},
		{"unclosed math drops line", "a<math>x\nb", []Paragraph{prose("", "a b")}},
		{"inline tags", "<small>s</small> <span style=\"color:red\">r</span> x<sup>2</sup>y<sub>i</sub> <big>B</big>", []Paragraph{prose("", "s r x2yi B")}},
		{"break tags", "a<br>b<br/>c<br />d<BR>e", []Paragraph{prose("", "a b c d e")}},
		{"blockquote", "Said:<blockquote>Quote.</blockquote>After.", []Paragraph{prose("", "Said: Quote. After.")}},
		{"unknown tag is text", "a <foo and c> d, x<y", []Paragraph{prose("", "a <foo and c> d, x<y")}},
		{"known tag with attributes", "a <b and c>bold</b> d", []Paragraph{prose("", "a bold d")}},
		{"less than is text", "if a < b and c > d", []Paragraph{prose("", "if a < b and c > d")}},
		{"tag not spanning lines", "a <b\nc> d", []Paragraph{prose("", "a <b c> d")}},
		{"entities", "A&nbsp;B 1&ndash;2 &amp; &lt;b&gt; &#91;x&#93; &eacute;", []Paragraph{prose("", "A B 1–2 & <b> [x] é")}},
		{"bare ampersand", "AT&T and R&D; a&b", []Paragraph{prose("", "AT&T and R&D; a&b")}},
		{"double escaped", "&amp;lt;ref&amp;gt;", []Paragraph{prose("", "&lt;ref&gt;")}},
	})
}

func TestCleanRefs(t *testing.T) {
	runCleanTests(t, []cleanTest{
		{"body becomes reference", "Text.<ref>Smith, J. (1999). ''Title''. Publisher.</ref> More.",
			[]Paragraph{prose("", "Text. More."), ref("", "Smith, J. (1999). Title. Publisher.")}},
		{"attributes", "A.<ref name=\"a\" group=n>Body [http://x.org link].</ref>", []Paragraph{prose("", "A."), ref("", "Body link.")}},
		{"self-closing", "A<ref name=x/> B<ref name=\"y\" /> C.", []Paragraph{prose("", "A B C.")}},
		{"cite only", "A.<ref>{{cite web|url=http://x|title=T}}</ref> B.", []Paragraph{prose("", "A. B.")}},
		{"cite with punctuation", "A.<ref>{{cite book|title=T}}.</ref>", []Paragraph{prose("", "A.")}},
		{"tag across lines", "A.<ref\nname=x>Body.</ref> B.", []Paragraph{prose("", "A. B."), ref("", "Body.")}},
		{"after its paragraph", "P1<ref>r1</ref>\nstill P1<ref>r2</ref>\n\nP2",
			[]Paragraph{prose("", "P1 still P1"), ref("", "r1"), ref("", "r2"), prose("", "P2")}},
		{"in list item", "* item<ref>r</ref>\n* next", []Paragraph{list("", "item"), ref("", "r"), list("", "next")}},
		{"nested ref dropped", "A<ref>outer<ref>inner</ref> B", []Paragraph{prose("", "A B"), ref("", "outer")}},
		{"unclosed ref drops line", "A<ref>never closed\nB.", []Paragraph{prose("", "A B.")}},
		{"references tag", "==References==\n<references>\n<ref name=a>Defined.</ref>\n</references>",
			[]Paragraph{ref("References", "Defined.")}},
		{"multiline body", "A.<ref>Line one\n\nline two.</ref>", []Paragraph{prose("", "A."), ref("", "Line one line two.")}},
		{"brackets do not cross ref", "A [[B<ref>]]</ref> C]] D.", []Paragraph{prose("", "A B C D.")}},
	})
}

func TestCleanTables(t *testing.T) {
	runCleanTests(t, []cleanTest{
		{"simple", "A.\n{| class=\"wikitable\"\n|-\n! H1 !! H2\n|-\n| a || b\n|}\nB.", []Paragraph{prose("", "A."), prose("", "B.")}},
		{"nested", "{|\n| outer\n{|\n| inner\n|}\n| still outer\n|}\nAfter.", []Paragraph{prose("", "After.")}},
		{"indented", "A.\n:{|\n| x\n|}\nB.", []Paragraph{prose("", "A."), prose("", "B.")}},
		{"template with close inside", "{|\n| {{a|\n|}\n}}\n| b\n|}\nAfter.", []Paragraph{prose("", "After.")}},
		{"unclosed runs to end", "A.\n{|\n| x\n\nB.", []Paragraph{prose("", "A.")}},
		{"stray table end", "A.\n|}\nB.", []Paragraph{prose("", "A."), prose("", "B.")}},
		{"brace bar mid line is text", "a {| b", []Paragraph{prose("", "a {| b")}},
	})
}

func TestCleanLists(t *testing.T) {
	runCleanTests(t, []cleanTest{
		{"markers", "Intro:\n* a\n** b\n# c\n#* d\n; e\n: f\nAfter.",
			[]Paragraph{prose("", "Intro:"), list("", "a"), list("", "b"), list("", "c"), list("", "d"), list("", "e"), list("", "f"), prose("", "After.")}},
		{"definition", "; Term : definition", []Paragraph{list("", "Term : definition")}},
		{"discussion indent", "Comment.\n:Reply.\n::Reply two.", []Paragraph{prose("", "Comment."), list("", "Reply."), list("", "Reply two.")}},
		{"empty items skipped", "* {{cite}}\n*\n* x", []Paragraph{list("", "x")}},
	})
}

func TestCleanReferenceSections(t *testing.T) {
	runCleanTests(t, []cleanTest{
		{"references", "Text.\n== References ==\n* Smith, J. ''Title''. 1999.\n{{Reflist}}",
			[]Paragraph{prose("", "Text."), ref("References", "Smith, J. Title. 1999.")}},
		{"prose in section", "==Further reading==\nSome text.", []Paragraph{ref("Further reading", "Some text.")}},
		{"external links", "== External links ==\n* [http://x.org Official site]", []Paragraph{ref("External links", "Official site")}},
		{"case insensitive", "==BIBLIOGRAPHY==\n* b", []Paragraph{ref("BIBLIOGRAPHY", "b")}},
		{"non-English", "==Einzelnachweise==\n* a\n==Références==\n* b\n==Referencias==\n* c\n==Литература==\n* d\n==参考文献==\n* e",
			[]Paragraph{ref("Einzelnachweise", "a"), ref("Références", "b"), ref("Referencias", "c"), ref("Литература", "d"), ref("参考文献", "e")}},
		{"combined title", "==Notes and references==\n* a\n==Literatur und Weblinks==\n* b", []Paragraph{ref("Notes and references", "a"), ref("Literatur und Weblinks", "b")}},
		{"subsection inherits", "==References==\n===Books===\n* b\n==History==\n* h",
			[]Paragraph{ref("Books", "b"), list("History", "h")}},
		{"literature subsection is prose", "==Culture==\n===Literature===\nPoets wrote.", []Paragraph{prose("Literature", "Poets wrote.")}},
		{"see also is a list", "==See also==\n* [[Other]]", []Paragraph{list("See also", "Other")}},
		{"ordinary section", "==Sources of income==\nFarming.", []Paragraph{prose("Sources of income", "Farming.")}},
	})
}

func TestContextString(t *testing.T) {
	for c, want := range map[Context]string{Prose: "prose", List: "list", Reference: "reference", 7: "Context(7)"} {
		if got := c.String(); got != want {
			t.Errorf("Context(%d).String() = %q, want %q", c, got, want)
		}
	}
}

func TestAppendClean(t *testing.T) {
	dst := []Paragraph{prose("x", "existing")}
	got := AppendClean(dst, "== S ==\nnew")
	want := []Paragraph{prose("x", "existing"), prose("S", "new")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("AppendClean = %q, want %q", got, want)
	}
}

func TestCleanerReuse(t *testing.T) {
	var c Cleaner
	first := c.Clean("A<ref>r</ref> [[b|c]] {{d}}\n== H ==\n* e")
	second := c.Clean("Other [[text]].")
	if want := []Paragraph{prose("", "Other text.")}; !reflect.DeepEqual(second, want) {
		t.Errorf("second Clean = %q, want %q", second, want)
	}
	want := []Paragraph{prose("", "A c"), ref("", "r"), list("H", "e")}
	if !reflect.DeepEqual(first, want) {
		t.Errorf("first Clean changed by reuse: %q, want %q", first, want)
	}
}

// TestCleanLinearTime runs inputs built to make a naive cleaner rescan the
// rest of the text at every opening (unclosed templates, links, tags,
// comments, tables...). A quadratic cleaner needs minutes on 256 KiB; a
// linear one needs milliseconds.
func TestCleanLinearTime(t *testing.T) {
	const size = 1 << 18
	patterns := []string{
		"{{", "{{a|", "{{{", "[[", "[[a", "[[a|", "[[File:a|", "<ref>", "<ref>{{", "<math>", "<nowiki>",
		"<b ", "<!--", "{|\n", ":{|\n", "\n|}", "[http://a ", "-{", "-{a-{", "&#", "&aaaa", "__AAAA",
		"'", "=a=\n", "* x\n", "[[a|[http://x ", "<ref>[[a|", "[[Category:a]]\n", "}}", "]]",
		"[[a:b|", "[[a:b|thumb|", "[[:Category:a|", "[[Zz:a|[[", "[[a:b|[[c:d|x]]",
	}
	for _, p := range patterns {
		in := strings.Repeat(p, size/len(p))
		start := time.Now()
		Clean(in)
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("Clean of %d bytes of %q took %v", len(in), p, d)
		}
	}
}

// entityPattern matches the character references the cleaner decodes: the
// ones that stand whole in its input.
var entityPattern = regexp.MustCompile(`&(?:#[0-9]{1,8}|#[xX][0-9a-fA-F]{1,8}|[A-Za-z][A-Za-z0-9]{0,31});`)

// checkInvariants verifies the properties every output must have: text is
// non-empty, trimmed, single-spaced and without line breaks; valid UTF-8;
// and its non-space characters appear in the input in order, once the
// character references of the input are decoded (an invalid byte of the
// input counts as U+FFFD).
func checkInvariants(t *testing.T, in string, got []Paragraph) {
	t.Helper()
	source := []rune(entityPattern.ReplaceAllStringFunc(in, html.UnescapeString))
	for _, p := range got {
		if p.Text == "" || strings.TrimSpace(p.Text) != p.Text || strings.Contains(p.Text, "  ") || strings.ContainsAny(p.Text, "\n\r\t") {
			t.Fatalf("badly spaced paragraph %q", p.Text)
		}
		if p.Context > Reference {
			t.Fatalf("bad context %d", p.Context)
		}
		if !utf8.ValidString(p.Text) || !utf8.ValidString(p.Section) {
			t.Fatalf("invalid UTF-8 in %q (section %q)", p.Text, p.Section)
		}
		if r, ok := inventedRune(p.Text, source); ok {
			t.Fatalf("paragraph %q has %q, which is neither in the input %q nor in a rendering table", p.Text, r, in)
		}
	}
	// Everything but rendered templates comes from the input, in order.
	c := Cleaner{noRender: true}
	for _, p := range c.Clean(in) {
		if !isSubsequence(p.Text, source) {
			t.Fatalf("paragraph %q has characters not in the input %q in that order", p.Text, in)
		}
	}
}

// inventedRune returns a rune of text that is neither in source nor in any
// text the rendering of templates may write.
func inventedRune(text string, source []rune) (rune, bool) {
	have := map[rune]bool{}
	for _, r := range source {
		have[r] = true
	}
	for _, r := range text {
		if !unicode.IsSpace(r) && !have[r] && !renderingRunes()[r] {
			return r, true
		}
	}
	return 0, false
}

// renderingRunes are the runes of every text the rendering tables hold.
var renderingRunes = sync.OnceValue(func() map[rune]bool {
	set := map[rune]bool{}
	add := func(s string) {
		for _, r := range s {
			set[r] = true
		}
	}
	t := loadRenderTables()
	for _, r := range t.exact {
		add(r.param)
	}
	for _, p := range append(t.prefixes, t.suffixes...) {
		add(p.rule.param)
	}
	for _, u := range t.units {
		add(u)
	}
	for _, st := range t.styles {
		add(st.order + st.dmy + st.group + strings.Join(st.months, ""))
	}
	for _, v := range mathTeX {
		add(v)
	}
	add("0123456789-–×±−+/(),. aged")
	return set
})

func isSubsequence(text string, source []rune) bool {
	j := 0
	for _, r := range text {
		if unicode.IsSpace(r) {
			continue
		}
		for j < len(source) && source[j] != r {
			j++
		}
		if j == len(source) {
			return false
		}
		j++
	}
	return true
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{
		"", "plain", "'''a''' [[b|c]] {{d|[[e]]}} <ref>f</ref>",
		"== H ==\n* a\n{|\n|b\n|}\n<!-- c -->", "{{a\n[[File:x|[[y]]]]\n}}", "&amp;&#65;&l<!---->t;",
		"<nowiki>*x</nowiki>", "-{zh-cn:a;zh-tw:b}-", "[http://x y] __NOTOC__ #REDIRECT [[x]]",
		"{{{{{a}}}}}", "[[[[a]]]]", "<ref>{{a</ref>}}", "<math>{{</math>", "{{a|<ref>]]</ref>}}",
	} {
		f.Add(s)
	}
	f.Add("[[Zzcat:a]][[:Category:b|c]][[:en:d]][[Qq:e|thumb|[[f|g]]]][[Qq:h|200px]][[Qq:i|left|j\nk")
	f.Add("a {{convert|1|to|2|km|mi}} {{val|1|2|e=3|u=m}} {{lang|fr|[[x|y]]}} {{nowrap|{{frac|1|2}}\n}} ({{coord|1}}) <math>\\alpha</math>.")
	f.Add("{{birth date and age|1950|5|17|df=y}} {{formatnum:-1234.5}} {{en|x}} {{sfn|a}}, 1 | 2 | 3 | 4\n* 1998")
	site := NewSite("xx", map[int][]string{6: {"Zzfile"}, 14: {"Zzcat"}})
	f.Fuzz(func(t *testing.T, in string) {
		checkInvariants(t, in, Clean(in))
		var c Cleaner
		c.SetSite(site)
		c.KeepLinks(true)
		checkInvariants(t, in, c.Clean(in))
		for _, l := range c.AppendLinks(nil) {
			if l.Target == "" || l.Anchor == "" || !utf8.ValidString(l.Target) || !utf8.ValidString(l.Anchor) {
				t.Errorf("link %q of %q: empty or invalid UTF-8", l, in)
			}
		}
	})
}
