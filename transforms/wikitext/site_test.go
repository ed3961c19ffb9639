package wikitext

import (
	"reflect"
	"strings"
	"sync"
	"testing"
)

type siteTest struct {
	name string
	site *Site
	in   string
	want []Paragraph
}

func runSiteTests(t *testing.T, tests []siteTest) {
	t.Helper()
	for _, tt := range tests {
		var c Cleaner
		c.SetSite(tt.site)
		checkClean(t, cleanTest{tt.name, tt.in, tt.want}, c.Clean)
	}
}

func TestSiteLocalizedNames(t *testing.T) {
	hy := NewSite("hy", map[int][]string{-2: {"Մեդիա"}, 6: {"Պատկեր"}, 14: {"Կատեգորիա"}})
	mr := NewSite("mr", map[int][]string{-2: {"मिडिया"}, 6: {"चित्र"}, 14: {"वर्ग"}})
	bn := NewSite("bn", map[int][]string{-2: {"মিডিয়া"}, 6: {"চিত্র"}, 14: {"বিষয়শ্রেণী"}})
	runSiteTests(t, []siteTest{
		{"hy categories", hy, "Հայաստան է։\n\n[[Կատեգորիա:ՄԱԿ-ի անդամ երկրներ]] [[Կատեգորիա:Եվրոպայի երկրներ|Հ]]",
			[]Paragraph{prose("", "Հայաստան է։")}},
		{"hy file alias", hy, "Ա[[Ֆայլ:X.jpg|մինի|Նկար]]Բ [[պատկեր:Y.png|200փքս]]Գ", []Paragraph{prose("", "ԱԲ Գ")}},
		{"mr categories", mr, "दिवस आहे.\n[[वर्ग:दिवस]]\n[[वर्ग:ग्रेगरी दिनदर्शिका]]", []Paragraph{prose("", "दिवस आहे.")}},
		{"mr file", mr, "अ [[चित्र:X.jpg|इवलेसे|उजवे|मथळा]] ब", []Paragraph{prose("", "अ ब")}},
		{"bn file prefixes", bn, "ক[[চিত্র:X.jpg|thumb|ছবি]]খ[[ফাইল:Y.jpg|থাম্ব|ছবি]]গ", []Paragraph{prose("", "কখগ")}},
		{"bn category", bn, "লেখা।\n[[বিষয়শ্রেণী:দেশ]]", []Paragraph{prose("", "লেখা।")}},
		{"de", NewSite("de", nil), "A[[Datei:X.jpg|mini|hochkant|Bild]]B[[Bild:Y.png|links|Z]]C\n[[Kategorie:Mann]]", []Paragraph{prose("", "ABC")}},
		{"fr", NewSite("fr", nil), "A[[Fichier:X.jpg|vignette|gauche|Légende]]B[[Image:Y.png]]C\n[[Catégorie:Pays]]", []Paragraph{prose("", "ABC")}},
		{"ru", NewSite("ru", nil), "А[[Файл:X.jpg|мини|слева|Подпись]]Б[[Изображение:Y.png|справа|200пкс]]В\n[[Категория:Страны]]", []Paragraph{prose("", "АБВ")}},
		{"ja", NewSite("ja", nil), "あ[[ファイル:X.jpg|サムネイル|右|説明]]い[[画像:Y.png]]う\n[[カテゴリ:国]]", []Paragraph{prose("", "あいう")}},
		{"el", NewSite("el", nil), "Α[[Αρχείο:X.jpg|μικρογραφία|Λεζάντα]]Β[[Εικόνα:Y.png]]Γ\n[[Κατηγορία:Χώρες]]", []Paragraph{prose("", "ΑΒΓ")}},
		{"underscores and case", NewSite("vi", nil), "A[[tập_tin:X.jpg]]B[[ THỂ  LOẠI :Y]]C", []Paragraph{prose("", "ABC")}},
		{"other languages' names too (headers lie)", NewSite("en", nil), "A[[Fichier:X|Y]]B[[Kategorie:Z]]C", []Paragraph{prose("", "ABC")}},
		{"canonical names always", NewSite("hy", nil), "A[[File:X]][[Image:Y]][[Media:Z]][[Category:W]]B", []Paragraph{prose("", "AB")}},
	})
}

func TestSiteGivenNames(t *testing.T) {
	xx := NewSite("xx", map[int][]string{14: {"Zzcat"}, 6: {"Zz_file"}, -2: nil, 0: {"Main"}})
	runSiteTests(t, []siteTest{
		{"category", xx, "Text.\n[[Zzcat:Foo]]\n[[zzcat:Bar|sort]]", []Paragraph{prose("", "Text.")}},
		{"file with space", xx, "A[[Zz file:X.jpg|cap]]B", []Paragraph{prose("", "AB")}},
		{"unknown language uses all tables", xx, "A[[Kategorie:X]][[Fichier:Y]]B", []Paragraph{prose("", "AB")}},
		{"other keys ignored", xx, "[[Main:Page|label]]", []Paragraph{prose("", "label")}},
		{"not known without site", nil, "[[Zzcat:Foo|Foo]]", []Paragraph{prose("", "Foo")}},
	})
}

func TestSiteImageOptions(t *testing.T) {
	runSiteTests(t, []siteTest{
		{"thumb", nil, "A[[Unknownfile:X.jpg|thumb|Caption]]B", []Paragraph{prose("", "AB")}},
		{"localized thumb", nil, "A[[Qq:X.jpg|мини|Caption]]B", []Paragraph{prose("", "AB")}},
		{"width alone", nil, "A[[Qq:X.jpg|220px]]B[[Qq:Y.jpg|x100px]]C[[Qq:Z.jpg|100x80 px|c]]D", []Paragraph{prose("", "ABCD")}},
		{"keyed option", nil, "A[[Qq:X.jpg|alt=A picture|c]]B[[Qq:Y|lien=Z]]C", []Paragraph{prose("", "ABC")}},
		{"weak option before caption", nil, "A[[Qq:X.jpg|links|Bild]]B", []Paragraph{prose("", "AB")}},
		{"weak option as label kept", nil, "[[wikt:left|left]] [[Qq:X|none]]", []Paragraph{prose("", "left none")}},
		{"nested link pipes", nil, "A[[Qq:X.jpg|[[a|b]]|thumb]]B", []Paragraph{prose("", "AB")}},
		{"no option", nil, "[[Qq:X.jpg|just a label]] [[Portal:Y|thumbs up]]", []Paragraph{prose("", "just a label thumbs up")}},
		{"unclosed with option drops line", nil, "A [[Qq:X.jpg|thumb|cap\nB.", []Paragraph{prose("", "A B.")}},
		{"leading colon ignores options", nil, "[[:Wikipedia:X|thumb]]", []Paragraph{prose("", "thumb")}},
		{"gallery", nil, "a<gallery>\nচিত্র:X.jpg|y\n</gallery>b", []Paragraph{prose("", "ab")}},
	})
}

func TestSiteLeadingColon(t *testing.T) {
	de := NewSite("de", map[int][]string{14: {"Kategorie"}})
	runSiteTests(t, []siteTest{
		{"category label kept", nil, "See [[:Category:X|the list]].", []Paragraph{prose("", "See the list.")}},
		{"category without label dropped", nil, "See [[:Category:X]] now.", []Paragraph{prose("", "See now.")}},
		{"file without label dropped", de, "A [[:Datei:X.jpg]] B [[:Kategorie:Y|Liste]]", []Paragraph{prose("", "A B Liste")}},
		{"interlanguage label kept", nil, "[[:en:X|label]] and [[:fr:Y]] done", []Paragraph{prose("", "label and done")}},
		{"interlanguage hidden", nil, "Text.\n[[en:X]]\n[[pt-br:Y]]", []Paragraph{prose("", "Text.")}},
		{"other namespace kept", nil, "[[:Template:X]]", []Paragraph{prose("", "Template:X")}},
		{"label repeating the target dropped", nil, "「[[:Category:近江米|Category:近江米]]」も参照 [[:Tập tin:X.png|Tập tin:X.png]]",
			[]Paragraph{prose("", "「」も参照")}},
		{"label with other colon kept", nil, "[[:Category:X|Note: a list]]", []Paragraph{prose("", "Note: a list")}},
	})
}

func TestSiteNilFallback(t *testing.T) {
	in := "A[[Datei:x|mini|y]][[Категория:Z]][[Կատեգորիա:W]][[বিষয়শ্রেণী:V]]B"
	want := []Paragraph{prose("", "AB")}
	var c Cleaner
	if got := c.Clean(in); !reflect.DeepEqual(got, want) {
		t.Errorf("zero Cleaner: got %q, want %q", got, want)
	}
	c.SetSite(NewSite("en", nil))
	c.SetSite(nil)
	if got := c.Clean(in); !reflect.DeepEqual(got, want) {
		t.Errorf("SetSite(nil): got %q, want %q", got, want)
	}
	if got := Clean(in); !reflect.DeepEqual(got, want) {
		t.Errorf("Clean: got %q, want %q", got, want)
	}
	if got := NewSite("hy", nil).Lang(); got != "hy" {
		t.Errorf("Lang() = %q", got)
	}
}

// TestSiteConcurrent shares one Site among Cleaners in several goroutines;
// run with -race.
func TestSiteConcurrent(t *testing.T) {
	site := NewSite("hy", map[int][]string{14: {"Կատեգորիա"}})
	in := "Տեքստ [[Պատկեր:X.jpg|մինի|Y]] ու [[Հղում|հղում]]։\n[[Կատեգորիա:Z]]"
	want := []Paragraph{prose("", "Տեքստ ու հղում։")}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			var c Cleaner
			c.SetSite(site)
			for range 200 {
				if got := c.Clean(in); !reflect.DeepEqual(got, want) {
					t.Errorf("got %q, want %q", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestSiteLookupsDoNotAllocate(t *testing.T) {
	site := NewSite("bn", map[int][]string{14: {"বিষয়শ্রেণী"}})
	tb := loadTables()
	allocs := testing.AllocsPerRun(100, func() {
		site.hides(" বিষয়শ্রেণী ")
		site.hides("Category")
		site.hides("Not_a namespace")
		tb.isOption("thumb", true)
		tb.isOption("alt=some text", false)
		tb.isOption("200x100px", true)
		tb.isOption("мини", false)
	})
	if allocs != 0 {
		t.Errorf("lookups allocate %v times", allocs)
	}
}

func TestTablesFit(t *testing.T) {
	tb := loadTables()
	for lang, names := range tb.namespaces {
		for _, n := range names {
			var buf [maxName]byte
			if _, ok := normalizeName(&buf, n); !ok {
				t.Errorf("%s: name %q longer than %d bytes", lang, n, maxName)
			}
		}
	}
	for _, lang := range []string{"en", "de", "fr", "es", "it", "pt", "nl", "pl", "ru", "uk", "el", "bg", "ja",
		"zh", "ko", "vi", "ar", "fa", "he", "hi", "mr", "bn", "hy", "ka", "kn", "ta", "te", "ml", "ur", "tr",
		"id", "ca", "eo", "br", "gl", "sv", "no", "da", "fi", "cs", "hu", "ro"} {
		kinds := map[string]bool{}
		eachEntry("names/namespaces.txt", func(l, kind, _ string) {
			if l == lang {
				kinds[kind] = true
			}
		})
		if !kinds["file"] || !kinds["media"] || !kinds["category"] {
			t.Errorf("%s: names for %v only", lang, kinds)
		}
	}
	for _, opt := range []string{"thumb", "mini", "miniatur", "miniatura", "vignette", "мини", "מוקטן", "frame",
		"frameless", "border", "left", "right", "center", "none", "upright", "links", "rechts", "gauche", "droite",
		"izquierda", "derecha", "sinistra", "destra", "слева", "справа", "alt=", "link="} {
		if tb.options[opt] == 0 {
			t.Errorf("image option %q missing", opt)
		}
	}
}

func TestNormalizeName(t *testing.T) {
	for in, want := range map[string]string{
		"  Category ":           "category",
		"Tập_tin":               "tập tin",
		"A__b  c":               "a b c",
		"ΚΑΤΗΓΟΡΊΑ":             "κατηγορία",
		strings.Repeat("a", 65): "",
	} {
		var buf [maxName]byte
		got, ok := normalizeName(&buf, in)
		if want == "" {
			if ok {
				t.Errorf("normalizeName(%q) fits", in)
			}
			continue
		}
		if !ok || string(got) != want {
			t.Errorf("normalizeName(%q) = %q, %v, want %q", in, got, ok, want)
		}
	}
}
