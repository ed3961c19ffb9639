package changes

import (
	"fmt"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/transforms/alias"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/wikitext"
)

func init() {
	register.Function1x1(pairCounts)
}

// pairCounts says how the compared pairs came out: changes and copy edits.
func pairCounts(c counters.Counts) string {
	return fmt.Sprintf("compared %d, copy edits %d, changes %d", c.Baseline.PairsCompared, c.Baseline.PairsCopyEdit, c.Baseline.Changes)
}

// cocoaPage is the split page 21 of enwiki at revision rev, of the given
// sentences.
func cocoaPage(t *testing.T, rev int64, texts ...string) sentence.Page {
	t.Helper()
	doc, err := sentence.NewDoc(0, 21, rev)
	if err != nil {
		t.Fatal(err)
	}
	p := sentence.Page{Doc: doc, PageID: 21, Title: "Cocoa"}
	for i, s := range texts {
		p.Sentences = append(p.Sentences, sentence.Sentence{ID: doc.Sentence(i), Wiki: "enwiki", PageID: 21, RevID: rev,
			Title: p.Title, Context: uint8(wikitext.Prose), Text: s})
	}
	return p
}

// TestCompareWithEntitiesOnPrism compares two revisions of a page in which
// one sentence names Ivory Coast by its other name and another changes a
// figure: with the alias table of the wiki as the side input, only the
// figure is a change; without it, the name is one too.
func TestCompareWithEntitiesOnPrism(t *testing.T) {
	table := alias.AppendWiki(nil, "enwiki", []alias.Entry{
		{Key: alias.Key("Ivory Coast"), Articles: []string{"Ivory Coast"}},
		{Key: alias.Key("Côte d'Ivoire"), Articles: []string{"Ivory Coast"}},
	})
	old := cocoaPage(t, 100,
		"Cocoa is the main export of Côte d'Ivoire, where about a million farmers grow it on small plots.",
		"In 2019 the country grew 2.2 million tonnes of cocoa beans, two fifths of the world's crop.")
	cur := cocoaPage(t, 110,
		"Cocoa is the main export of Ivory Coast, where about a million farmers grow it on small plots.",
		"In 2019 the country grew 2.1 million tonnes of cocoa beans, two fifths of the world's crop.")
	for _, tt := range []struct {
		name     string
		entities func(beam.Scope) beam.PCollection
		want     string
	}{
		{"with the table", func(s beam.Scope) beam.PCollection { return beam.Create(s, table) }, "compared 2, copy edits 1, changes 1"},
		{"without", func(beam.Scope) beam.PCollection { return beam.PCollection{} }, "compared 2, copy edits 0, changes 2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, s := beam.NewPipelineWithRoot()
			cfg := BeamConfig{Config: testConfig(), Wikis: []string{"enwiki"}, Shards: 2, OutputShards: 1, Workers: 2}
			_, counts := CompareWith(s, beam.CreateList(s, []sentence.Page{old}), beam.CreateList(s, []sentence.Page{cur}), tt.entities(s), cfg)
			passert.Equals(s, beam.ParDo(s, pairCounts, counters.Total(s, counts)), tt.want)
			ptest.RunAndValidate(t, p)
		})
	}
}
