package clean_test

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/sentence"
)

var update = flag.Bool("update", false, "rewrite the golden sentences in testdata/facts")

// factPages are real pages of four scripts whose sentences are kept as
// goldens (testdata/facts, reviewed by reading), with values that must be
// in them: the values their templates render, the words that navigation
// and empty brackets used to hide.
var factPages = []struct {
	file, title string
	want        []string
}{
	{"wikiduper/Katrina.xml", "Tropical Depression Ten (2005)", []string{"located about 1,600 mi east of Barbados."}},
	{"wikiduper/Katrina.xml", "Hurricane Katrina", []string{"pressure of 902 mbar", "Katrina 150 mi westward", "an estimated 562 km² of coastal wetlands", "Prisons (PDF), American"}},
	{"xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz", "Ήτα", []string{"προφερόταν ως ἦτα (ēta)"}},
	{"wikiclean-pages/ruwiki-test.xml", "Литва", []string{"Вильнюс (Vilnius)", "Каунас (Kaunas)", "Паневежис (Panevėžys)"}},
	{"wikiclean-pages/ukwiki-test.xml", "Атом", []string{"том (від άτομοσ — неподільний)", "1,66 ×10-24 г"}},
	{"wikiclean-pages/knwiki-20180614-id1.xml", "ಶಿವಮೊಗ್ಗ", nil},
}

// TestFactsGolden cleans and splits the pages of factPages and compares
// their sentences with the goldens.
func TestFactsGolden(t *testing.T) {
	for _, fp := range factPages {
		t.Run(fp.title, func(t *testing.T) {
			got := pageSentences(t, testshared.Data(t, fp.file), fp.title)
			text := strings.Join(got, "\n") + "\n"
			for _, w := range fp.want {
				if !strings.Contains(text, w) {
					t.Errorf("%q is not in the sentences of %s", w, fp.title)
				}
			}
			for _, s := range got {
				if strings.HasSuffix(s, " .") || regexp.MustCompile(`[(（]\s*[)）]`).MatchString(s) {
					t.Errorf("sentence lost a value: %q", s)
				}
			}
			golden := filepath.Join("testdata", "facts", goldenName(fp.file, fp.title))
			if *update {
				if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if text != string(want) {
				t.Errorf("sentences of %s differ from %s (go test -run TestFactsGolden -update to rewrite it, then read the diff):\n%s",
					fp.title, golden, firstDifference(text, string(want)))
			}
		})
	}
}

func goldenName(file, title string) string {
	wiki, _, _ := strings.Cut(filepath.Base(file), "-")
	wiki = strings.TrimSuffix(wiki, ".xml")
	return wiki + "-" + strings.NewReplacer(" ", "_", "/", "_", "(", "", ")", "").Replace(title) + ".txt"
}

// pageSentences cleans and splits the article titled title of the dump
// file, as the pipeline does with the dump's own site, and returns its
// sentences.
func pageSentences(t *testing.T, file, title string) []string {
	t.Helper()
	ctx := context.Background()
	site, err := dump.ReadSite(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	wikis, err := sentence.NewWikis([]document.Site{site})
	if err != nil {
		t.Fatal(err)
	}
	ps := sentence.PageSplitter{Sites: clean.NewSites([]document.Site{site}), Wikis: wikis}
	rc, err := dump.Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	r := dump.NewReader(rc, file, dump.Options{})
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) || errors.Is(err, dump.ErrTruncated) {
			t.Fatalf("%s: no page %q", file, title)
		}
		if err != nil {
			var pe *dump.PageError
			if errors.As(err, &pe) {
				continue
			}
			t.Fatal(err)
		}
		if p.Title != title {
			continue
		}
		p.Wiki = site.Wiki
		page, err := ps.Split(p)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range page.Sentences {
			out = append(out, s.Text)
		}
		return out
	}
}

// firstDifference shows the first line where got and want differ.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + a + "\n want " + b
		}
	}
	return ""
}
