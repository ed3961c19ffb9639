package reuse

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/passage"
)

// TestMain runs the package's pipeline tests on ptest's runner, Prism
// unless --runner says otherwise.
func TestMain(m *testing.M) { ptest.Main(m) }

func init() {
	register.Function3x1(keyedLines)
	register.Function1x1(bytesString)
	register.Function1x1(reuseCounts)
	register.Function1x2(toKV)
	register.Emitter1[string]()
}

// keyedLines decodes a batch of output lines as "key line".
func keyedLines(_ int, b []byte, emit func(string)) error {
	return shuffle.KindLines.Records(b, func(rec []byte) error {
		emit(fmt.Sprintf("%016x %s", rec[:8], rec[8:]))
		return nil
	})
}

func bytesString(b []byte) string { return string(b) }

func reuseCounts(c counters.Counts) string {
	b, _ := json.Marshal(c.Reuse)
	return string(b)
}

type kv struct {
	Shard int
	Batch []byte
}

func toKV(x kv) (int, []byte) { return x.Shard, x.Batch }

// doc returns a passage document of the given id, wiki and title.
func doc(id, wiki, title, url string, first, last int) passage.Document {
	var page, rev int64
	fmt.Sscanf(id[len(wiki)+1:], "%d:%d", &page, &rev)
	return passage.Document{ID: id, Wiki: wiki, PageID: page, RevID: rev, URL: url, Title: title, First: first, Last: last, Sentences: last - first + 1}
}

// textLine returns the line of a passage of a and b matching their
// sentences from first on, one to one.
func textLine(a, b passage.Document, textsA, textsB []string) passage.Line {
	l := passage.Line{A: a, B: b, Matched: len(textsA), MeanJaccard: 0.5}
	for i := range textsA {
		l.Matches = append(l.Matches, passage.Match{A: a.First + i, B: b.First + i, Jaccard: 0.5, TextA: textsA[i], TextB: textsB[i]})
	}
	return l
}

// TestCasesOnPrism runs the stage on the embedded runner: page 1 reuses
// two articles (the web page as a, then as b), article 1 is reused by two
// pages (page 2's case of two passages), a passage of two web pages and
// one of two articles are dropped. One and four output shards (and three
// and four grouping shards) give the same lines.
func TestCasesOnPrism(t *testing.T) {
	copied, village := examples[4], examples[0]
	p1 := doc("cc:1:0", "cc", "Page one", "https://www.a.com/1", 0, 3)
	p2 := doc("cc:2:0", "cc", "Page two", "https://a.com/2", 5, 6)
	p2b := doc("cc:2:0", "cc", "Page two", "https://a.com/2", 10, 11)
	a1 := doc("enwiki:10:100", "enwiki", "Gondiswil", "", 0, 3)
	a1b := doc("enwiki:10:100", "enwiki", "Gondiswil", "", 2, 3)
	a2 := doc("enwiki:20:200", "enwiki", "Niedźwiedzie, Zgierz County", "", 0, 1)
	de := doc("dewiki:30:300", "dewiki", "Gondiswil", "", 0, 1)
	lines := []passage.Line{
		textLine(p1, a1, copied.web, copied.article),
		textLine(a2, doc("cc:1:0", "cc", "Page one", "https://www.a.com/1", 6, 7), village.article, village.web),
		textLine(p2, a1b, copied.web[:2], copied.article[:2]),
		textLine(p2b, doc("enwiki:10:100", "enwiki", "Gondiswil", "", 0, 1), copied.web[2:], copied.article[2:]),
		textLine(p1, p2, copied.web[:2], copied.web[:2]),
		textLine(de, a1, copied.article[:2], copied.article[:2]),
	}
	pairs := []passage.DocPair{
		{A: "cc:1:0", B: "enwiki:10:100", Passages: 1, Matched: 4, ShareA: 0.5, ShareB: 0.8},
		{A: "enwiki:20:200", B: "cc:1:0", Passages: 1, Matched: 2, ShareA: 1, ShareB: 0.25},
		{A: "cc:2:0", B: "enwiki:10:100", Passages: 2, Matched: 4, ShareA: 0.4, ShareB: 0.8},
		{A: "cc:1:0", B: "cc:2:0", Passages: 1, Matched: 2, ShareA: 0.25, ShareB: 0.2},
		{A: "dewiki:30:300", B: "enwiki:10:100", Passages: 1, Matched: 2, ShareA: 1, ShareB: 0.4},
	}
	hosts := []string{"https://www.a.com/1", "https://a.com/2", "a.com", "http://b.org/x", "www.b.org"}

	// The expected lines and summary, from the pure functions (tested on
	// their own above).
	var want []any
	var edges []Edge
	for _, c := range []struct {
		lines []passage.Line
		pair  passage.DocPair
	}{{lines[:1], pairs[0]}, {lines[1:2], pairs[1]}, {lines[2:4], pairs[2]}} {
		cs, err := NewCase(c.lines, c.pair, web)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, fmt.Sprintf("%016x %s", cs.SortKey(), mustJSON(t, cs)))
		edges = append(edges, cs.Edge())
	}
	wantSummary := mustJSON(t, Summarize(edges, map[string]int64{"a.com": 3, "b.org": 2}, 0, 0))

	p, s := beam.NewPipelineWithRoot()
	var recs [4][][]byte
	for i, l := range lines {
		key := uint64(1000 + i)
		recs[shuffle.ShardOf(key, 4)] = append(recs[shuffle.ShardOf(key, 4)], result.Record(key, []byte(mustJSON(t, l))))
	}
	var kvs []kv
	for shard, r := range recs {
		if len(r) > 0 {
			kvs = append(kvs, kv{shard, shuffle.KindLines.PackRecords(r...)})
		}
	}
	in := beam.ParDo(s, toKV, beam.CreateList(s, kvs))
	docPairs, read := beam.CreateList(s, pairs), beam.CreateList(s, hosts)
	for _, opt := range []Options{{Web: web, OutputShards: 1}, {Web: web, Shards: 3, OutputShards: 4}} {
		out, summary, counts := Cases(s, shuffle.MakeLines(in), docPairs, read, opt)
		passert.Equals(s, beam.ParDo(s, keyedLines, out.Raw()), want...)
		passert.Equals(s, beam.ParDo(s, bytesString, summary), wantSummary)
		passert.Equals(s, beam.ParDo(s, reuseCounts, counters.Total(s, counts)),
			`{"cross_pairs_capped":0,"cases":3,"content_reuse":2,"structure_reuse":1,"passages":4,"web_pages":2,"articles":2}`)
	}
	ptest.RunAndValidate(t, p)
}
