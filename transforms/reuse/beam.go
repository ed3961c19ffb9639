package reuse

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/passage"
)

func init() {
	register.DoFn4x1[context.Context, int, []byte, func(int, []byte), error](&byPairFn{})
	register.DoFn5x1[int, func(*[]byte) bool, func(*passage.DocPair) bool, func(int, []byte), func([]byte), error](&casesFn{})
	register.DoFn5x1[[]byte, func(*[]byte) bool, func(*string, *int) bool, func([]byte), func(counters.Counts), error](&summaryFn{})
	register.DoFn1x2[passage.DocPair, int, passage.DocPair](&keyPairFn{})
	register.Function1x1(Host)
	register.Emitter1[[]byte]()
	register.Emitter1[counters.Counts]()
	register.Emitter2[int, []byte]()
	register.Iter1[[]byte]()
	register.Iter1[passage.DocPair]()
	register.Iter2[string, int]()
}

// Options configures the reuse stage.
type Options struct {
	// Web are the names of the web corpora; every other document is a
	// Wikipedia article.
	Web []string
	// Shards are the shards the passages are grouped on by document pair
	// (0: OutputShards); OutputShards those of reuse-*.jsonl.
	Shards, OutputShards int
	// TopHosts and TopArticles bound the summary's lists (0: DefaultTop).
	TopHosts, TopArticles int
}

func (o Options) shards() int { return max(cmp.Or(o.Shards, o.OutputShards), 1) }

// Cases turns the passages of passage.Find (run with its Text option) and
// its document pairs (PCollection<passage.DocPair>) into reuse cases. It
// returns the lines of reuse-*.jsonl keyed by output shard (result.Record
// sort keys: Case.SortKey), the summary (PCollection<[]byte>: one JSON
// document, a Summary) and the stage's counts (PCollection<counters.Counts>,
// Reuse but CrossPairsCapped). hosts (PCollection<string>) has the URL or
// host of every web page read, for the share of each host's pages with
// reuse.
//
// The passages are grouped by document pair on Options.Shards shards and
// joined to their pair; passages not between a web page and an article
// are dropped. The summary and the counts are computed on one worker from
// one small record per case.
func Cases(s beam.Scope, passages shuffle.Lines, docPairs, hosts beam.PCollection, opt Options) (lines shuffle.Lines, summary, counts beam.PCollection) {
	s = s.Scope("Reuse")
	byPair := beam.ParDo(s, &byPairFn{Opt: opt}, passages.Raw())
	pairs := beam.ParDo(s, &keyPairFn{Shards: opt.shards()}, docPairs)
	out, edges := beam.ParDo2(s, &casesFn{Opt: opt}, beam.CoGroupByKey(s, byPair, pairs))
	read := stats.Count(s, beam.ParDo(s, Host, hosts))
	summary, counts = beam.ParDo2(s, &summaryFn{Opt: opt}, beam.Impulse(s),
		beam.SideInput{Input: edges}, beam.SideInput{Input: read})
	return shuffle.MakeLines(out), summary, counts
}

// pairShard is the shard, of n, of the documents a and b, in either order.
func pairShard(a, b string, n int) int {
	return shuffle.ShardOf(pairHash(min(a, b), max(a, b)), n)
}

// keyPairFn keys each document pair by its shard.
type keyPairFn struct{ Shards int }

func (f *keyPairFn) ProcessElement(p passage.DocPair) (int, passage.DocPair) {
	return pairShard(p.A, p.B, f.Shards), p
}

// unordered is the key of the documents a and b, in either order.
func unordered(a, b string) string { return min(a, b) + "\x00" + max(a, b) }

// lineDocs is what byPairFn reads of a passage line.
type lineDocs struct {
	A, B struct {
		ID   string `json:"id"`
		Wiki string `json:"wiki"`
	}
}

// byPairFn sends the passage lines between a web page and an article to
// their document pair's shard, dropping the others.
type byPairFn struct {
	Opt Options
	web corpora
	out *shuffle.Packer
}

func (f *byPairFn) Setup() { f.web = newCorpora(f.Opt.Web) }

func (f *byPairFn) StartBundle(context.Context, func(int, []byte)) {
	f.out = shuffle.NewPacker(shuffle.KindLines, f.Opt.shards())
}

func (f *byPairFn) ProcessElement(_ context.Context, _ int, batch []byte, emit func(int, []byte)) error {
	return shuffle.KindLines.Records(batch, func(rec []byte) error {
		var l lineDocs
		if len(rec) < 8 {
			return fmt.Errorf("reuse: a passage record of %d bytes", len(rec))
		}
		if err := json.Unmarshal(rec[8:], &l); err != nil {
			return fmt.Errorf("reuse: passage line: %w", err)
		}
		if f.web[l.A.Wiki] == f.web[l.B.Wiki] {
			return nil // two pages or two articles: no case
		}
		f.out.AddRecord(pairShard(l.A.ID, l.B.ID, f.Opt.shards()), rec, emit)
		return nil
	})
}

func (f *byPairFn) FinishBundle(_ context.Context, emit func(int, []byte)) { f.out.Flush(emit) }

// casesFn makes the cases of a shard's document pairs: it emits each as a
// line of reuse-*.jsonl and its Edge, as JSON, for the summary.
type casesFn struct {
	Opt Options
	web corpora
}

func (f *casesFn) Setup() { f.web = newCorpora(f.Opt.Web) }

func (f *casesFn) ProcessElement(shard int, lines func(*[]byte) bool, pairs func(*passage.DocPair) bool, emit func(int, []byte), emitEdge func([]byte)) error {
	byPair, err := f.group(lines)
	if err != nil {
		return fmt.Errorf("reuse: shard %d: %w", shard, err)
	}
	if len(byPair) == 0 {
		return nil
	}
	docPairs := map[string]passage.DocPair{}
	var p passage.DocPair
	for pairs(&p) {
		docPairs[unordered(p.A, p.B)] = p
	}
	out := shuffle.NewPacker(shuffle.KindLines, max(f.Opt.OutputShards, 1))
	for _, k := range slices.Sorted(maps.Keys(byPair)) {
		if err := f.write(byPair[k], docPairs, out, emit, emitEdge); err != nil {
			return fmt.Errorf("reuse: shard %d: %w", shard, err)
		}
	}
	out.Flush(emit)
	return nil
}

// group reads the shard's lines by (web page, article) pair.
func (f *casesFn) group(batches func(*[]byte) bool) (map[string][]passage.Line, error) {
	byPair := map[string][]passage.Line{}
	var b []byte
	for batches(&b) {
		err := shuffle.KindLines.Records(b, func(rec []byte) error {
			var l passage.Line
			if err := json.Unmarshal(rec[8:], &l); err != nil {
				return fmt.Errorf("passage line: %w", err)
			}
			if k, ok := f.web.pairKey(&l); ok {
				byPair[k] = append(byPair[k], l)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return byPair, nil
}

// write makes the case of one pair's lines and emits its line and edge.
func (f *casesFn) write(lines []passage.Line, docPairs map[string]passage.DocPair, out *shuffle.Packer, emit func(int, []byte), emitEdge func([]byte)) error {
	a, b := lines[0].A.ID, lines[0].B.ID
	pair, ok := docPairs[unordered(a, b)]
	if !ok {
		return fmt.Errorf("no document pair for the passages of %s and %s", a, b)
	}
	c, err := newCase(lines, pair, f.web)
	if err != nil {
		return err
	}
	js, err := json.Marshal(c)
	if err != nil {
		return err
	}
	key := c.SortKey()
	out.AddRecord(shuffle.ShardOf(key, max(f.Opt.OutputShards, 1)), result.Record(key, js), emit)
	e, err := json.Marshal(c.Edge())
	if err != nil {
		return err
	}
	emitEdge(e)
	return nil
}

// summaryFn summarises every case's edge and the pages read per host, and
// emits the summary and the counts.
type summaryFn struct{ Opt Options }

func (f *summaryFn) ProcessElement(_ []byte, edges func(*[]byte) bool, hosts func(*string, *int) bool, emit func([]byte), emitCounts func(counters.Counts)) error {
	var all []Edge
	var b []byte
	for edges(&b) {
		var e Edge
		if err := json.Unmarshal(b, &e); err != nil {
			return fmt.Errorf("reuse: edge: %w", err)
		}
		all = append(all, e)
	}
	read := map[string]int64{}
	var h string
	var n int
	for hosts(&h, &n) {
		read[h] += int64(n)
	}
	sum := Summarize(all, read, f.Opt.TopHosts, f.Opt.TopArticles)
	js, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	emit(js)
	emitCounts(counters.Counts{Reuse: sum.Counts()})
	return nil
}
