package passage

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/top"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/hashmix"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/minhash"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/verify"
)

func init() {
	register.DoFn4x1[context.Context, []byte, func(int, []byte), func(counters.Counts), error](&byPairFn{})
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(counters.Counts), error](&findFn{})
	register.DoFn5x1[int, func(*[]byte) bool, func(*[]byte) bool, func(int, []byte), func(int, []byte), error](&attachFn{})
	register.DoFn4x1[int, func(*[]byte) bool, func(*[]byte) bool, func(int, []byte), error](&textsFn{})
	register.DoFn7x1[context.Context, int, func(*[]byte) bool, func(*[]byte) bool, func(int, []byte), func(DocPair), func(counters.Counts), error](&linesFn{})
	register.Emitter1[DocPair]()
	register.Emitter1[counters.Counts]()
	register.Emitter2[int, []byte]()
	register.Iter1[[]byte]()
	register.Function2x1(lessDocPair)
}

// MaxMatches is how many sentence pairs of one document pair the stage
// keeps, the first in rank order: two template pages can share millions,
// and one worker holds a pair's whole dot plot. The rest are counted
// (matches_dropped).
const MaxMatches = 100_000

// Options configures the passage stage.
type Options struct {
	Config
	// Text asks for the texts of each passage's matched sentences.
	Text bool
	// Wikis are the run's wiki names, sorted (sentence.Doc.Wiki indexes
	// them).
	Wikis []string
	// PairShards are the shards of the document pairs; RecordShards those
	// of the sentence records and page infos (minhash.Sign's);
	// OutputShards those of passages-*.jsonl.
	PairShards, RecordShards, OutputShards int
	// MaxMatches bounds the sentence pairs kept per document pair; 0 means
	// the package's MaxMatches.
	MaxMatches int
}

// Find returns the passages that documents share, found from the verified
// edges (sims, verify.Edges' similarities: sentence pairs, not transitive
// cluster membership), as the lines of passages-*.jsonl keyed by output
// shard, every document pair with a passage (PCollection<DocPair>) and
// partial counts. infos are minhash.Sign's page infos, for the documents'
// titles and sizes; needed are verify.Edges' records of the candidates'
// sentences, for the texts when opt.Text asks for them.
func Find(s beam.Scope, sims shuffle.Similarities, infos shuffle.PageInfos, needed shuffle.Sentences, opt Options) (shuffle.Lines, beam.PCollection, beam.PCollection) {
	s = s.Scope("Passages")
	matches, within := beam.ParDo2(s, &byPairFn{Shards: opt.PairShards}, beam.DropKey(s, sims.Raw()))
	found, counts := beam.ParDo2(s, &findFn{Opt: opt}, beam.GroupByKey(s, matches))
	withA, _ := beam.ParDo2(s, &attachFn{Opt: opt, Side: sideA}, beam.CoGroupByKey(s, found, infos.Raw()))
	full, requests := beam.ParDo2(s, &attachFn{Opt: opt, Side: sideB}, beam.CoGroupByKey(s, withA, infos.Raw()))
	texts := beam.ParDo(s, &textsFn{Opt: opt}, beam.CoGroupByKey(s, requests, needed.Raw()))
	lines, pairs, written := beam.ParDo3(s, &linesFn{Opt: opt}, beam.CoGroupByKey(s, full, texts))
	return shuffle.MakeLines(lines), pairs, beam.Flatten(s, within, counts, written)
}

// TopDocPairs returns PCollection<[]DocPair>: the n document pairs that
// share the most, by the smaller of their two shares (near-duplicate
// documents share most of both), then by matched sentences.
func TopDocPairs(s beam.Scope, pairs beam.PCollection, n int) beam.PCollection {
	return top.Largest(s.Scope("Top document pairs"), pairs, n, lessDocPair)
}

func lessDocPair(x, y DocPair) bool {
	if c := cmp.Or(cmp.Compare(min(x.ShareA, x.ShareB), min(y.ShareA, y.ShareB)), cmp.Compare(x.Matched, y.Matched),
		cmp.Compare(y.A, x.A)); c != 0 {
		return c < 0
	}
	return x.B > y.B
}

// pairShard is the shard, of n, of the document pair (a, b).
func pairShard(a, b uint64, n int) int {
	return shuffle.ShardOf(hashmix.Splitmix64(a)^b, n)
}

// byPairFn re-keys each verified edge by its document pair, counting (and
// dropping) the edges between two sentences of one document.
type byPairFn struct {
	Shards int
	out    *shuffle.Packer
	counts counters.Counts
}

func (f *byPairFn) StartBundle(context.Context, func(int, []byte), func(counters.Counts)) {
	f.out, f.counts = shuffle.NewPacker(shuffle.KindMatches, f.Shards), counters.Counts{}
}

func (f *byPairFn) ProcessElement(_ context.Context, batch []byte, emit func(int, []byte), _ func(counters.Counts)) error {
	return shuffle.KindSimilarities.Records(batch, func(rec []byte) error {
		var e verify.Edge
		if err := e.UnmarshalBinary(rec); err != nil {
			return fmt.Errorf("passage: %w", err)
		}
		a, b := sentence.ID(e.U).Doc(), sentence.ID(e.V).Doc()
		if a == b {
			f.counts.Passages.MatchesWithinPages++
			return nil
		}
		f.out.AddRecord(pairShard(uint64(min(a, b)), uint64(max(a, b)), f.Shards), rec, emit)
		return nil
	})
}

func (f *byPairFn) FinishBundle(ctx context.Context, emit func(int, []byte), emitCounts func(counters.Counts)) {
	f.out.Flush(emit)
	counters.Emit(ctx, f.counts, emitCounts)
}

// findFn finds the passages of each document pair of a shard and sends the
// pairs that have some to the shard of their first document.
type findFn struct {
	Opt    Options
	finder *Finder
	out    *shuffle.Packer
	counts counters.Counts
}

func (f *findFn) StartBundle(context.Context, func(int, []byte), func(counters.Counts)) {
	f.finder = NewFinder(f.Opt.Config)
	f.out, f.counts = shuffle.NewPacker(shuffle.KindPassages, f.Opt.RecordShards), counters.Counts{}
}

func (f *findFn) ProcessElement(_ context.Context, shard int, batches func(*[]byte) bool, emit func(int, []byte), _ func(counters.Counts)) error {
	limit := cmp.Or(f.Opt.MaxMatches, MaxMatches)
	plots := map[[2]uint64]*Bounded{}
	err := eachRecord(batches, shuffle.KindMatches, func(rec []byte) error {
		var e verify.Edge
		if err := e.UnmarshalBinary(rec); err != nil {
			return err
		}
		u, v := sentence.ID(e.U), sentence.ID(e.V)
		pt := Point{RankA: int(e.RankU), RankB: int(e.RankV), OrdA: u.Ordinal(), OrdB: v.Ordinal(), Jaccard: e.Similarity.Jaccard}
		if u.Doc() > v.Doc() {
			u, v = v, u
			pt.RankA, pt.RankB, pt.OrdA, pt.OrdB = pt.RankB, pt.RankA, pt.OrdB, pt.OrdA
		}
		key := [2]uint64{uint64(u.Doc()), uint64(v.Doc())}
		plot := plots[key]
		if plot == nil {
			plot = &Bounded{Max: limit}
			plots[key] = plot
		}
		plot.Add(pt)
		return nil
	})
	if err != nil {
		return fmt.Errorf("passage: shard %d: %w", shard, err)
	}
	keys := make([][2]uint64, 0, len(plots))
	for k := range plots {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y [2]uint64) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) })
	for _, k := range keys {
		f.find(k, plots[k], emit)
		delete(plots, k)
	}
	return nil
}

// find finds the passages of one document pair and sends them on.
func (f *findFn) find(docs [2]uint64, plot *Bounded, emit func(int, []byte)) {
	points, dropped := plot.Take()
	c := &f.counts.Passages
	c.DocumentPairs++
	c.MatchesDropped += dropped
	runs := f.finder.Find(points)
	if !f.Opt.MayKeep(runs) {
		return
	}
	r := pairRecord{DocA: docs[0], DocB: docs[1], Passages: runs}
	f.out.AddRecord(shuffle.ShardOf(docs[0], f.Opt.RecordShards), r.AppendBinary(nil), emit)
}

func (f *findFn) FinishBundle(ctx context.Context, emit func(int, []byte), emitCounts func(counters.Counts)) {
	f.out.Flush(emit)
	counters.Emit(ctx, f.counts, emitCounts)
}

// The document of a pair a join attaches.
const (
	sideA = iota
	sideB
)

// attachFn joins the page info of one document of each pair (Side) to it.
// Side A sends the pair on to the shard of its second document; side B,
// knowing both documents' sizes, keeps the passages among the pair's runs
// and sends the pair, if it has some, to the pair's shard, with, if the texts are asked for, a request for each
// matched sentence's text sent to the sentence's shard.
type attachFn struct {
	Opt  Options
	Side int
}

func (f *attachFn) ProcessElement(shard int, pairs, infos func(*[]byte) bool, emit, emitRequests func(int, []byte)) error {
	var recs []pairRecord
	want := map[uint64]bool{}
	err := eachPair(pairs, func(r *pairRecord) error {
		recs = append(recs, *r)
		want[f.doc(r)] = true
		return nil
	})
	if err != nil {
		return fmt.Errorf("passage: shard %d: %w", shard, err)
	}
	if len(recs) == 0 {
		return nil
	}
	found, err := pageInfos(infos, want)
	if err != nil {
		return fmt.Errorf("passage: shard %d: %w", shard, err)
	}
	out := shuffle.NewPacker(shuffle.KindPassages, f.Opt.RecordShards)
	requests := shuffle.NewPacker(shuffle.KindTexts, f.Opt.RecordShards)
	for i := range recs {
		r := &recs[i]
		info, ok := found[f.doc(r)]
		if !ok {
			return fmt.Errorf("passage: shard %d: no page info for document %#x", shard, f.doc(r))
		}
		if f.Side == sideA {
			r.InfoA = info
			out.AddRecord(shuffle.ShardOf(r.DocB, f.Opt.RecordShards), r.AppendBinary(nil), emit)
			continue
		}
		r.InfoB = info
		if err := f.selectPassages(r); err != nil {
			return fmt.Errorf("passage: shard %d: %w", shard, err)
		}
		if len(r.Passages) == 0 {
			continue
		}
		out.AddRecord(pairShard(r.DocA, r.DocB, f.Opt.PairShards), r.AppendBinary(nil), emit)
		if f.Opt.Text {
			f.request(r, requests, emitRequests)
		}
	}
	out.Flush(emit)
	requests.Flush(emitRequests)
	return nil
}

// selectPassages keeps the passages among r's runs (Config.Select), now
// that both documents' sizes are known, and the share of each document
// they cover.
func (f *attachFn) selectPassages(r *pairRecord) error {
	var a, b minhash.PageInfo
	if err := a.UnmarshalBinary(r.InfoA); err != nil {
		return fmt.Errorf("page info of %#x: %w", r.DocA, err)
	}
	if err := b.UnmarshalBinary(r.InfoB); err != nil {
		return fmt.Errorf("page info of %#x: %w", r.DocB, err)
	}
	r.Passages = f.Opt.Select(r.Passages, int(a.Counts.InWindow), int(b.Counts.InWindow))
	r.CoveredA, r.CoveredB = Covered(r.Passages)
	return nil
}

// doc is the document of r whose info the join attaches.
func (f *attachFn) doc(r *pairRecord) uint64 {
	if f.Side == sideA {
		return r.DocA
	}
	return r.DocB
}

// request asks for the text of every matched sentence of r's passages.
func (f *attachFn) request(r *pairRecord, out *shuffle.Packer, emit func(int, []byte)) {
	seen := map[sentence.ID]bool{}
	ask := func(id sentence.ID) {
		if seen[id] {
			return
		}
		seen[id] = true
		t := textRecord{DocA: r.DocA, DocB: r.DocB, ID: uint64(id)}
		out.AddRecord(id.Shard(f.Opt.RecordShards), t.AppendBinary(nil), emit)
	}
	for _, p := range r.Passages {
		for _, pt := range p.Points {
			ask(sentence.Doc(r.DocA).Sentence(pt.OrdA))
			ask(sentence.Doc(r.DocB).Sentence(pt.OrdB))
		}
	}
}

// pageInfos returns the encoded page infos of the wanted documents. A
// document read twice (a page given in two inputs) has two: the smaller
// encoding is taken, so that the choice does not depend on their order.
func pageInfos(infos func(*[]byte) bool, want map[uint64]bool) (map[uint64][]byte, error) {
	found := map[uint64][]byte{}
	err := eachRecord(infos, shuffle.KindPageInfos, func(rec []byte) error {
		d, n := binary.Uvarint(rec) // an encoded minhash.PageInfo starts with its Doc
		if n <= 0 {
			return errShort
		}
		if !want[d] {
			return nil
		}
		if old, ok := found[d]; !ok || bytes.Compare(rec, old) < 0 {
			found[d] = slices.Clone(rec)
		}
		return nil
	})
	return found, err
}

// textsFn answers the text requests of a shard from its sentence records,
// sending each text to its document pair's shard.
type textsFn struct{ Opt Options }

func (f *textsFn) ProcessElement(shard int, requests, records func(*[]byte) bool, emit func(int, []byte)) error {
	asked := map[uint64][]textRecord{}
	err := eachText(requests, func(t *textRecord) error {
		asked[t.ID] = append(asked[t.ID], *t)
		return nil
	})
	if err != nil {
		return fmt.Errorf("passage: shard %d: %w", shard, err)
	}
	if len(asked) == 0 {
		return nil
	}
	out := shuffle.NewPacker(shuffle.KindTexts, f.Opt.PairShards)
	err = eachRecord(records, shuffle.KindSentences, func(rec []byte) error {
		var id sentence.ID
		if err := id.UnmarshalPrefix(rec); err != nil {
			return err
		}
		ts := asked[uint64(id)]
		if len(ts) == 0 {
			return nil
		}
		var s sentence.Sentence
		if err := s.UnmarshalBinary(rec); err != nil {
			return err
		}
		for _, t := range ts {
			t.Text = s.Text
			out.AddRecord(pairShard(t.DocA, t.DocB, f.Opt.PairShards), t.AppendBinary(nil), emit)
		}
		delete(asked, uint64(id)) // a sentence read twice is answered once
		return nil
	})
	if err != nil {
		return fmt.Errorf("passage: shard %d: %w", shard, err)
	}
	out.Flush(emit)
	return nil
}

// linesFn writes the passages of each document pair of a shard as output
// lines, with their texts if asked for, and emits the pair's DocPair. A
// pair of two revisions of one page (a run of two dump dates) is no copy:
// it is counted and left out.
type linesFn struct {
	Opt    Options
	counts counters.Counts
}

func (f *linesFn) StartBundle(context.Context, func(int, []byte), func(DocPair), func(counters.Counts)) {
	f.counts = counters.Counts{}
}

func (f *linesFn) ProcessElement(_ context.Context, shard int, pairs, texts func(*[]byte) bool, emit func(int, []byte), emitPair func(DocPair), _ func(counters.Counts)) error {
	known, err := passageTexts(texts)
	if err != nil {
		return fmt.Errorf("passage: shard %d: %w", shard, err)
	}
	out := shuffle.NewPacker(shuffle.KindLines, f.Opt.OutputShards)
	w := writer{wikis: f.Opt.Wikis, text: f.Opt.Text, texts: known}
	err = eachPair(pairs, func(r *pairRecord) error {
		pair, err := w.write(r, func(key uint64, line []byte) {
			out.AddRecord(shuffle.ShardOf(key, f.Opt.OutputShards), line, emit)
		})
		if errors.Is(err, errSamePage) {
			f.counts.Passages.PairsSamePage++
			return nil
		}
		if err != nil {
			return err
		}
		f.count(r)
		emitPair(pair)
		return nil
	})
	if err != nil {
		return fmt.Errorf("passage: shard %d: %w", shard, err)
	}
	out.Flush(emit)
	return nil
}

// count counts a document pair's passages.
func (f *linesFn) count(r *pairRecord) {
	c := &f.counts.Passages
	c.PairsWithPassages++
	for _, p := range r.Passages {
		c.AddPassage(int64(len(p.Points)))
	}
}

func (f *linesFn) FinishBundle(ctx context.Context, _ func(int, []byte), _ func(DocPair), emitCounts func(counters.Counts)) {
	counters.Emit(ctx, f.counts, emitCounts)
}

// passageTexts reads the texts a shard's passages asked for, by DocA, DocB
// and sentence id.
func passageTexts(texts func(*[]byte) bool) (map[[3]uint64]string, error) {
	known := map[[3]uint64]string{}
	err := eachText(texts, func(t *textRecord) error {
		known[[3]uint64{t.DocA, t.DocB, t.ID}] = t.Text
		return nil
	})
	return known, err
}

// eachRecord calls fn with every record of the batches of kind k that a
// GroupByKey iterator yields.
func eachRecord(batches func(*[]byte) bool, k shuffle.Kind, fn func(rec []byte) error) error {
	var b []byte
	for batches(&b) {
		if err := k.Records(b, fn); err != nil {
			return err
		}
	}
	return nil
}

// eachPair calls fn with every document pair's record of the batches.
func eachPair(batches func(*[]byte) bool, fn func(*pairRecord) error) error {
	return eachRecord(batches, shuffle.KindPassages, func(rec []byte) error {
		var r pairRecord
		if err := r.UnmarshalBinary(rec); err != nil {
			return err
		}
		return fn(&r)
	})
}

// eachText calls fn with every text record (or request) of the batches.
func eachText(batches func(*[]byte) bool, fn func(*textRecord) error) error {
	return eachRecord(batches, shuffle.KindTexts, func(rec []byte) error {
		var t textRecord
		if err := t.UnmarshalBinary(rec); err != nil {
			return err
		}
		return fn(&t)
	})
}
