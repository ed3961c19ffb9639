package alias

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/neardup/neardup/internal/counters"
)

// realTable builds the table of a dump of ../shared/data as the pipeline
// does (namespace 0, links kept by the cleaner), skipping the test when the
// data is absent.
func realTable(t *testing.T, rel string) (*Table, string, counters.Aliases) {
	t.Helper()
	file := filepath.Join("..", "..", "..", "shared", "data", rel)
	if _, err := os.Stat(file); err != nil {
		t.Skipf("%s: %v", rel, err)
	}
	b, wiki, counts := tableOf(t, file)
	var tab Table
	if err := tab.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (%s): %d redirect and %d link claims, %d names, %d bytes encoded", rel, wiki, counts.RedirectClaims, counts.LinkClaims, counts.Names, len(b))
	return &tab, wiki, counts
}

// tableOf builds the encoded table of a dump of one wiki with BuildDump.
func tableOf(t *testing.T, file string) ([]byte, string, counters.Aliases) {
	t.Helper()
	wiki, b, counts, err := BuildDump(context.Background(), file, 0)
	if err != nil {
		t.Fatal(err)
	}
	return b, wiki, counts
}

// TestRealDumps builds the table of every dump of ../shared/data that has
// redirects and checks its size and names of one article that its own
// redirects and links say are one (a redirect, a link's text, a name
// inflected in Latgalian, Greek or Ukrainian, a name in another script),
// and two names that are not.
func TestRealDumps(t *testing.T) {
	tests := []struct {
		rel    string
		counts counters.Aliases
		same   [][3]string // two names and their article
		other  [2]string   // two names of different articles
	}{
		{"dumpster-dive/smallwiki-latest-pages-articles.xml", counters.Aliases{RedirectClaims: 141, LinkClaims: 5252, Names: 4106, ArticlesDropped: 2},
			[][3]string{{"Igaunejis Republikys", "Igauneja", "Igauneja"}, {"Pyrmuo pasauļa kara", "Pyrmais pasauļa kars", "Pyrmais pasauļa kars"}},
			[2]string{"Igauneja", "Statne"}},
		{"dumpster-dive/tinywiki-latest-pages-articles.xml", counters.Aliases{LinkClaims: 115, Names: 118},
			[][3]string{{"St Petroc", "Saint Petroc", "Saint Petroc"}},
			[2]string{"Saint Petroc", "Bodmin"}},
		{"wikipedia2vec/enwiki-pages-articles-sample.xml.bz2", counters.Aliases{RedirectClaims: 1, LinkClaims: 237, Names: 226},
			[][3]string{{"AccessibleComputing", "Computer accessibility", "Computer accessibility"}},
			[2]string{"Computer accessibility", "Keyboard"}},
		{"xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz", counters.Aliases{RedirectClaims: 21, LinkClaims: 79636, Names: 35646, ArticlesDropped: 134},
			[][3]string{{"Τζωρτζ Μπους", "Μπους", "Τζωρτζ Μπους (νεότερος)"}, {"Κωνσταντίνου Κανάρη", "Κωνσταντίνος Κανάρης", "Κωνσταντίνος Κανάρης"}},
			[2]string{"Κωνσταντίνος Κανάρης", "Μπους"}},
		{"xztextfilter-wiki-truncated/jawiki-truncated-100k.xml.xz", counters.Aliases{RedirectClaims: 12, LinkClaims: 59976, Names: 42661, ArticlesDropped: 20},
			[][3]string{{"Microsoft", "マイクロソフト", "マイクロソフト"}, {"サンフランシスコ講和条約", "日本国との平和条約", "日本国との平和条約"}},
			[2]string{"マイクロソフト", "テレビ"}},
		{"xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz", counters.Aliases{RedirectClaims: 13, LinkClaims: 63267, Names: 36566, ArticlesDropped: 36},
			[][3]string{{"Еміля Золя", "Еміль Золя", "Еміль Золя"}},
			[2]string{"Еміль Золя", "Комета"}},
		{"xztextfilter-wiki-truncated/viwiki-truncated-100k.xml.xz", counters.Aliases{RedirectClaims: 82, LinkClaims: 41652, Names: 26201, ArticlesDropped: 137},
			[][3]string{{"Không quân Mỹ", "Không quân Hoa Kỳ", "Không quân Hoa Kỳ"}, {"thị xã Tam Kỳ", "Tam Kỳ", "Tam Kỳ"}},
			[2]string{"Tam Kỳ", "Không quân Mỹ"}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.rel), func(t *testing.T) {
			tab, wiki, counts := realTable(t, tt.rel)
			if counts != tt.counts {
				t.Errorf("counts %+v, want %+v", counts, tt.counts)
			}
			for _, s := range tt.same {
				if got, ok := tab.SameEntity(wiki, s[0], s[1]); !ok || got != s[2] {
					t.Errorf("SameEntity(%q, %q) = %q, %v; want %q", s[0], s[1], got, ok, s[2])
				}
			}
			if got, ok := tab.SameEntity(wiki, tt.other[0], tt.other[1]); ok {
				t.Errorf("SameEntity(%q, %q) = %q", tt.other[0], tt.other[1], got)
			}
		})
	}
}
