package alias

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/io/input"
	"github.com/neardup/neardup/io/text"
	"github.com/neardup/neardup/transforms/clean"
)

func init() {
	register.Function1x1(hex.EncodeToString)
	register.Function2x1(tableLines)
	register.Function1x2(aliasCountsJSON)
	register.Emitter1[string]()
}

// tableLines lists an encoded table as "wiki key → article | article" lines.
func tableLines(b []byte, emit func(string)) error {
	var t Table
	if err := t.UnmarshalBinary(b); err != nil {
		return err
	}
	for _, w := range t.Wikis() {
		for _, e := range t.Entries(w) {
			emit(fmt.Sprintf("%s %s → %s", w, e.Key, strings.Join(e.Articles, " | ")))
		}
	}
	return nil
}

func aliasCountsJSON(c counters.Counts) (string, error) {
	b, err := json.Marshal(c.Aliases)
	return string(b), err
}

// buildFixture adds to s the reading of the fixture dump (articles,
// redirects, a page given twice, a redirect to a section), its cleaning with
// links and the table's building, bounded by maxNames, and returns the
// table's lines and counts.
func buildFixture(t *testing.T, s beam.Scope, maxNames int) (lines, counts beam.PCollection) {
	t.Helper()
	table, counts := buildFixtureTable(t, s, maxNames, 3)
	return beam.ParDo(s, tableLines, table), counts
}

// buildFixtureTable is buildFixture's table, encoded, built on shards
// shards.
func buildFixtureTable(t *testing.T, s beam.Scope, maxNames, shards int) (table, counts beam.PCollection) {
	t.Helper()
	src, err := input.Plan(context.Background(), []string{"testdata/aliases.xml"}, text.Auto)
	if err != nil {
		t.Fatal(err)
	}
	pages, _, _ := src.Read(s, dump.ReadOptions{Namespaces: []int{0}, Redirects: true})
	articles, redirects := dump.SplitRedirects(s, pages)
	cleaned := clean.Pages(s, articles, clean.Config{Sites: src.Sites, Links: true})
	table, partial := Build(s, redirects, cleaned, Config{Sites: src.Sites, MaxNames: maxNames, Shards: shards})
	return table, beam.ParDo(s, aliasCountsJSON, counters.Total(s, partial))
}

// TestBuildIsBuildWiki checks that the pipeline builds, on one shard or on
// several, the very bytes that BuildWiki makes of all the claims at once.
func TestBuildIsBuildWiki(t *testing.T) {
	want, _, _ := tableOf(t, "testdata/aliases.xml")
	p, s := beam.NewPipelineWithRoot()
	for _, shards := range []int{1, 4} {
		table, _ := buildFixtureTable(t, s, 0, shards)
		passert.Equals(s, beam.ParDo(s, hex.EncodeToString, table), hex.EncodeToString(want))
	}
	ptest.RunAndValidate(t, p)
}

// TestBuildOnPrism builds the table of the fixture dump on the embedded
// runner and checks every name: the redirect and the piped and plain links
// say that Côte d'Ivoire is Ivory Coast (the plain link to the redirect is
// resolved through it), the redirect and the link that Hamedan is Hamadan;
// the page read twice counts once, the link to a section, to another
// namespace and within the page claim nothing, nor does the redirect to a
// section.
func TestBuildOnPrism(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	lines, counts := buildFixture(t, s, 0)
	passert.Equals(s, lines,
		"enwiki abidjan → Abidjan",
		"enwiki avicenna → Avicenna",
		"enwiki cocoa → Cocoa",
		"enwiki cotedivoire → Ivory Coast",
		"enwiki ghana → Ghana",
		"enwiki hamadan → Hamadan",
		"enwiki hamedan → Hamadan",
		"enwiki iran → Iran",
		"enwiki ivorycoast → Ivory Coast",
		"enwiki yamoussoukro → Yamoussoukro",
	)
	passert.Equals(s, counts, `{"redirect_claims":2,"link_claims":7,"names":10,"names_dropped":0,"articles_dropped":0}`)
	ptest.RunAndValidate(t, p)
}

// TestBuildCapOnPrism checks the bound on the names: the heaviest are kept
// (Côte d'Ivoire: a redirect and links on two pages; Hamedan: a redirect
// and a link), then, of the names used once, the first by key; the others
// are counted as dropped.
func TestBuildCapOnPrism(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	lines, counts := buildFixture(t, s, 3)
	passert.Equals(s, lines,
		"enwiki abidjan → Abidjan",
		"enwiki cotedivoire → Ivory Coast",
		"enwiki hamedan → Hamadan",
	)
	passert.Equals(s, counts, `{"redirect_claims":2,"link_claims":7,"names":3,"names_dropped":7,"articles_dropped":0}`)
	ptest.RunAndValidate(t, p)
}
