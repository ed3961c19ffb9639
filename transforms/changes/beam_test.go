package changes

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/wikitext"
)

func init() {
	register.Function3x1(lineStrings)
	register.Function1x2(baselineJSON)
	register.Emitter1[string]()
}

// lineStrings decodes a batch of output lines as "shard key line" strings.
func lineStrings(shard int, b []byte, emit func(string)) error {
	return shuffle.KindLines.Records(b, func(rec []byte) error {
		if len(rec) < 8 {
			return fmt.Errorf("line record of %d bytes", len(rec))
		}
		emit(fmt.Sprintf("%d %d %s", shard, binary.BigEndian.Uint64(rec), rec[8:]))
		return nil
	})
}

func baselineJSON(c counters.Counts) (string, error) {
	b, err := json.Marshal(c.Baseline)
	return string(b), err
}

// page makes the split page of revision rev of page id of the wiki of
// index wiki among wikis.
func page(t *testing.T, wikis []string, wiki int, id, rev int64, texts ...string) sentence.Page {
	t.Helper()
	doc, err := sentence.NewDoc(wiki, id, rev)
	if err != nil {
		t.Fatal(err)
	}
	p := sentence.Page{Doc: doc, PageID: id, Title: fmt.Sprintf("Page %d", id)}
	for i, s := range texts {
		p.Sentences = append(p.Sentences, sentence.Sentence{ID: doc.Sentence(i), Wiki: wikis[wiki], PageID: id, RevID: rev,
			Title: p.Title, Section: "History", Context: uint8(wikitext.Prose), Text: s})
	}
	return p
}

// TestCompareOnPrism runs the changes stage on the embedded runner: a page
// whose number changed, one that gained a year, the same page id in
// another wiki with a spelling change only, a page at the same revision on
// both sides, a page given twice in the baseline (the older revision has
// another change, which must not be reported), and baseline and input
// pages without a partner. It checks every line (shard, sort key, JSON)
// and the counts, by type of change.
func TestCompareOnPrism(t *testing.T) {
	wikis := []string{"dewiki", "enwiki"}
	de, en := 0, 1
	far := "The Marren is 99 km long and flows into the Rhine near the town of Lindfeld."
	baseline := []sentence.Page{
		page(t, wikis, en, 7, 100, riverOld, filler),
		page(t, wikis, de, 7, 200, colourOld, filler),
		page(t, wikis, en, 8, 300, filler),
		page(t, wikis, en, 9, 400, far, census),
		page(t, wikis, en, 9, 401, census, mayorOld),
		page(t, wikis, en, 10, 500, added),
		page(t, wikis, en, 12, 700, bridge, filler),
	}
	current := []sentence.Page{
		page(t, wikis, en, 7, 110, riverNew, filler),
		page(t, wikis, de, 7, 210, colourNew, filler),
		page(t, wikis, en, 8, 300, filler),
		page(t, wikis, en, 9, 410, census, mayorNew),
		page(t, wikis, en, 11, 600, removed),
		page(t, wikis, en, 12, 710, bridge1912, filler),
	}
	cmp := NewComparer(testConfig())
	want7, _ := cmp.Compare(revisionOf(baseline[0], "enwiki"), revisionOf(current[0], "enwiki"))
	want9, _ := cmp.Compare(revisionOf(baseline[4], "enwiki"), revisionOf(current[3], "enwiki"))
	want12, _ := cmp.Compare(revisionOf(baseline[6], "enwiki"), revisionOf(current[5], "enwiki"))
	if len(want7) != 1 || len(want9) != 1 || len(want12) != 1 || want12[0].Type != TypeAdded {
		t.Fatalf("changes of the cases: %d, %d and %d, want 1, 1 and 1 added", len(want7), len(want9), len(want12))
	}
	wantCounts := `{"files_read":0,"files_truncated":0,"files_not_dumps":0,"dead_letters":0,"pages_read":0,"pages_kept":0,"pages_skipped_namespace":0,"redirects":0,"pages_failed":0,"pages_empty":0,` +
		`"pages_other_wiki":0,"pages_unmatched":1,"pages_superseded":1,"pages_unchanged":1,"pages_compared":4,` +
		`"sentences_before":8,"sentences_after":8,"sentences_unchanged":4,"sentences_removed":0,"sentences_added":0,` +
		`"pairs_compared":4,"pairs_moved":0,"pairs_copy_edit":1,"pairs_other":0,"changes":3,` +
		`"changes_replaced":2,"changes_added":1,"changes_removed":0,"changes_added_removed":0,"comparisons_skipped":0}`
	for _, shards := range []int{1, 3} {
		t.Run(fmt.Sprintf("output_shards=%d", shards), func(t *testing.T) {
			var want []any
			for _, c := range []struct {
				page int64
				ch   Change
			}{{7, want7[0]}, {9, want9[0]}, {12, want12[0]}} {
				line, err := json.Marshal(c.ch)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, fmt.Sprintf("%d %d %s", shuffle.ShardOf(pageKey(en, c.page), shards), sortKey(en, c.page, c.ch.New.Sentence), line))
			}
			p, s := beam.NewPipelineWithRoot()
			cfg := BeamConfig{Config: testConfig(), Wikis: wikis, Shards: 2, OutputShards: shards, Workers: 2}
			lines, counts := Compare(s, beam.CreateList(s, baseline), beam.CreateList(s, current), cfg)
			passert.Equals(s, beam.ParDo(s, lineStrings, lines.Raw()), want...)
			passert.Equals(s, beam.ParDo(s, baselineJSON, counters.Total(s, counts)), wantCounts)
			ptest.RunAndValidate(t, p)
		})
	}
}

// revisionOf is the Revision the stage decodes from p.
func revisionOf(p sentence.Page, wiki string) Revision {
	b, err := unmarshalRevision(appendRevision(nil, p), []string{"dewiki", wiki})
	if err != nil {
		panic(err)
	}
	return b.Revision
}

func TestRevisionRoundTrip(t *testing.T) {
	p := page(t, []string{"enwiki"}, 0, 42, 4242, riverOld, "", census)
	p.Sentences[1].Section, p.Sentences[1].Context = "Lists", uint8(wikitext.List)
	got, err := unmarshalRevision(appendRevision(nil, p), []string{"enwiki"})
	if err != nil {
		t.Fatal(err)
	}
	want := Revision{Wiki: "enwiki", PageID: 42, RevID: 4242, Title: "Page 42", Sentences: []Sentence{
		{0, "History", "prose", riverOld}, {1, "Lists", "list", ""}, {2, "History", "prose", census}}}
	if fmt.Sprint(got.Revision) != fmt.Sprint(want) || got.wiki != 0 {
		t.Errorf("decoded %+v, want %+v", got, want)
	}
	enc := appendRevision(nil, p)
	for n := range len(enc) {
		if _, err := unmarshalRevision(enc[:n], []string{"enwiki"}); err == nil {
			t.Errorf("decoding the first %d of %d bytes succeeded", n, len(enc))
		}
	}
	if _, err := unmarshalRevision(enc, nil); err == nil {
		t.Error("a wiki index outside the run's wikis was decoded")
	}
	empty := page(t, []string{"enwiki"}, 0, 43, 4343)
	if got, err := unmarshalRevision(appendRevision(nil, empty), []string{"enwiki"}); err != nil || got.RevID != 4343 {
		t.Errorf("a page without sentences: %+v, %v", got, err)
	}
}
