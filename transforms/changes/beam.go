package changes

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/orderedpool"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/internal/varint"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/wikitext"
)

func init() {
	register.DoFn4x0[context.Context, document.Page, func(document.Page), func(counters.Counts)](&wikiFilterFn{})
	register.DoFn3x0[context.Context, counters.Counts, func(counters.Counts)](&readCountsFn{})
	register.DoFn2x1[sentence.Page, func(int, []byte), error](&packFn{})
	register.Function4x0(gather)
	register.Emitter2[int, sides]()
	register.DoFn6x1[context.Context, int, sides, []byte, func(int, []byte), func(counters.Counts), error](&compareFn{})
	register.Emitter1[document.Page]()
	register.Emitter1[counters.Counts]()
	register.Emitter2[int, []byte]()
	register.Iter1[[]byte]()
}

// BeamConfig is what the changes stage needs; it is serialised with the
// DoFns.
type BeamConfig struct {
	Config
	// Wikis are the names of the input's wikis, sorted: a wiki's index in
	// it is its index in sentence ids (sentence.NewWikis).
	Wikis        []string
	Shards       int // shards of the pages' shuffle
	OutputShards int // changes-*.jsonl files
	Workers      int // goroutines of the comparison's pool (0: GOMAXPROCS)
}

// KeepWikis returns the baseline pages (PCollection<document.Page>) of the
// input's wikis, the only ones that can be compared, and the counts of the
// others (Baseline.PagesOtherWiki), whose wiki the cleaning and splitting
// stages would not know.
func KeepWikis(s beam.Scope, pages beam.PCollection, wikis []string) (kept, counts beam.PCollection) {
	s = s.Scope("BaselineWikis")
	outs := beam.ParDoN(s, &wikiFilterFn{Wikis: wikis}, pages)
	return outs[0], outs[1]
}

type wikiFilterFn struct {
	Wikis []string

	other int64
}

func (f *wikiFilterFn) StartBundle(context.Context, func(document.Page), func(counters.Counts)) {
	f.other = 0
}

func (f *wikiFilterFn) ProcessElement(_ context.Context, p document.Page, emit func(document.Page), _ func(counters.Counts)) {
	if _, ok := slices.BinarySearch(f.Wikis, p.Wiki); ok {
		emit(p)
		return
	}
	f.other++
}

func (f *wikiFilterFn) FinishBundle(ctx context.Context, _ func(document.Page), emit func(counters.Counts)) {
	counters.Emit(ctx, counters.Counts{Baseline: counters.Baseline{PagesOtherWiki: f.other}}, emit)
}

// ReadCounts turns the counts of the baseline's readers (files, pages and
// dead letters, in the fields the input's readers use) into Baseline
// counts, so that the input's accounting is untouched.
func ReadCounts(s beam.Scope, counts beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("BaselineCounts"), &readCountsFn{}, counts)
}

type readCountsFn struct{}

func (f *readCountsFn) ProcessElement(_ context.Context, c counters.Counts, emit func(counters.Counts)) {
	emit(counters.Counts{Baseline: counters.FromRead(c)})
}

// Compare brings together the baseline's and the input's revisions of each
// page (PCollection<sentence.Page> both, split by the input's wikis) and
// returns the lines of changes-*.jsonl, keyed by output shard (all the
// changes of a page in one), and partial counts. Pages travel to the shard
// of their wiki and id in batches (shuffle.KindRevisions), never one
// element per page. Of several revisions of a page on one side the newest
// (highest revision id) is compared; a page of the same revision on both
// sides is unchanged.
func Compare(s beam.Scope, baseline, current beam.PCollection, cfg BeamConfig) (shuffle.Lines, beam.PCollection) {
	return CompareWith(s, baseline, current, beam.PCollection{}, cfg)
}

// CompareWith is Compare with the names the run learned are one article:
// entities is a PCollection of one []byte, the table alias.Build makes,
// read as a side input and decoded once by each DoFn; the zero PCollection
// knows no name.
func CompareWith(s beam.Scope, baseline, current, entities beam.PCollection, cfg BeamConfig) (shuffle.Lines, beam.PCollection) {
	s = s.Scope("Changes")
	if !entities.IsValid() {
		entities = beam.Create(s, []byte{})
	}
	old := beam.ParDo(s.Scope("PackBaseline"), &packFn{Shards: cfg.Shards}, baseline)
	cur := beam.ParDo(s.Scope("PackInput"), &packFn{Shards: cfg.Shards}, current)
	joined := beam.ParDo(s, gather, beam.CoGroupByKey(s, old, cur))
	outs := beam.ParDoN(s, &compareFn{Cfg: cfg}, joined, beam.SideInput{Input: entities})
	return shuffle.MakeLines(outs[0]), outs[1]
}

// sides are the batches of both sides of one page shard.
type sides struct {
	Baseline, Current [][]byte
}

// gather brings the batches of a page shard together, for the comparison's
// DoFn, which then takes a side input (Beam's Go SDK refuses one beside the
// iterators of a CoGroupByKey in a DoFn with bundle methods). A shard
// without a page of the baseline has nothing to compare.
func gather(shard int, baseline, cur func(*[]byte) bool, emit func(int, sides)) {
	s := sides{Baseline: shuffle.Collect(baseline), Current: shuffle.Collect(cur)}
	if len(s.Baseline) > 0 {
		emit(shard, s)
	}
}

// packFn packs each page's revision into the batch of its page's shard.
type packFn struct {
	Shards int

	packer *shuffle.Packer
	buf    []byte
}

func (f *packFn) StartBundle(func(int, []byte)) {
	f.packer = shuffle.NewPacker(shuffle.KindRevisions, f.Shards)
}

func (f *packFn) ProcessElement(p sentence.Page, emit func(int, []byte)) error {
	f.buf = appendRevision(f.buf[:0], p)
	f.packer.AddRecord(pageShard(p.Doc.Wiki(), p.PageID, f.Shards), f.buf, emit)
	return nil
}

func (f *packFn) FinishBundle(emit func(int, []byte)) error {
	f.packer.Flush(emit)
	return nil
}

// pageKey identifies a page among the run's wikis: the wiki's index in the
// high 10 bits, the page id (cut to its low 53 bits) below.
func pageKey(wiki int, page int64) uint64 {
	return uint64(wiki)<<53 | uint64(page)&(1<<53-1)
}

// pageShard is the shard, of n, of a page's revisions.
func pageShard(wiki int, page int64, n int) int {
	return shuffle.ShardOf(pageKey(wiki, page), n)
}

// appendRevision appends p's revision to b as a shuffle.KindRevisions
// record. The wiki's name is not sent: the wiki index gives it.
func appendRevision(b []byte, p sentence.Page) []byte {
	var rev int64
	if len(p.Sentences) > 0 {
		rev = p.Sentences[0].RevID
	} else {
		rev = p.Doc.Rev()
	}
	b = binary.AppendUvarint(b, uint64(p.Doc.Wiki()))
	b = binary.AppendUvarint(b, uint64(p.PageID))
	b = binary.AppendUvarint(b, uint64(rev))
	b = binary.AppendUvarint(b, uint64(len(p.Sentences)))
	b = varint.AppendString(b, p.Title)
	for _, s := range p.Sentences {
		b = binary.AppendUvarint(b, uint64(s.ID.Ordinal()))
		b = append(b, s.Context)
		b = varint.AppendString(b, s.Section)
		b = varint.AppendString(b, s.Text)
	}
	return b
}

// packed is a decoded revision with its wiki's index.
type packed struct {
	wiki int
	Revision
}

var errShort = errors.New("changes: truncated revision")

// unmarshalRevision decodes what appendRevision wrote; wikis names the wiki
// indices.
func unmarshalRevision(b []byte, wikis []string) (packed, error) {
	d := varint.NewDecoder(b)
	wiki, page, rev, n := d.Uvarint(), d.Uvarint(), d.Uvarint(), d.Count(4) // a sentence: ordinal, context, two lengths
	title := d.Text()
	if d.Err() != nil {
		return packed{}, errShort
	}
	if wiki >= uint64(len(wikis)) {
		return packed{}, fmt.Errorf("changes: wiki index %d of page %d, but the run has %d wikis", wiki, page, len(wikis))
	}
	p := packed{wiki: int(wiki), Revision: Revision{Wiki: wikis[wiki], PageID: int64(page), RevID: int64(rev), Title: title}}
	p.Sentences = make([]Sentence, n)
	for i := range p.Sentences {
		ord := d.Uvarint()
		ctx := d.Byte()
		p.Sentences[i] = Sentence{Ordinal: int(ord), Context: wikitext.Context(ctx).String(), Section: d.Text(), Text: d.Text()}
	}
	if d.Done() != nil {
		return packed{}, errShort
	}
	return p, nil
}

// compareFn compares the revisions of one page shard. Shards are compared
// on every core (package ordered) and emitted in input order, as a serial
// loop would.
type compareFn struct {
	Cfg BeamConfig

	orderedpool.Owner[shardWork, shardResult]
	counts counters.Counts
	// know is what the run learned, decoded from the side input by the
	// first element; the pool's workers read it.
	know *categorize.Knowledge
}

// shardWork is the batches of one page shard.
type shardWork struct {
	shard         int
	baseline, cur [][]byte
}

// shardResult is the lines and counts of one page shard.
type shardResult struct {
	lines  shuffle.Held
	counts counters.Baseline
}

func (f *compareFn) Setup() {
	f.know = nil
	f.Start(f.Cfg.Workers, 0, func() func(shardWork) (shardResult, error) {
		c := NewComparer(f.Cfg.Config)
		return func(w shardWork) (shardResult, error) {
			c.Knowledge = *f.know
			return compareShard(c, w, f.Cfg)
		}
	})
}

func (f *compareFn) StartBundle(context.Context, []byte, func(int, []byte), func(counters.Counts)) {
	f.counts = counters.Counts{}
}

func (f *compareFn) ProcessElement(_ context.Context, shard int, s sides, entities []byte, emit func(int, []byte), _ func(counters.Counts)) error {
	if f.know == nil {
		// The side input is the same for every element: decoded once.
		names, err := categorize.UnmarshalEntities(entities)
		if err != nil {
			return err
		}
		f.know = &categorize.Knowledge{Entities: names}
	}
	return f.Pool().Submit(shardWork{shard: shard, baseline: s.Baseline, cur: s.Current}, f.deliver(emit))
}

func (f *compareFn) FinishBundle(ctx context.Context, _ []byte, emit func(int, []byte), emitCounts func(counters.Counts)) error {
	if err := f.Pool().Flush(f.deliver(emit)); err != nil {
		return err
	}
	counters.Emit(ctx, f.counts, emitCounts)
	return nil
}

func (f *compareFn) deliver(emit func(int, []byte)) func(shardResult) error {
	return func(r shardResult) error {
		r.lines.Replay(emit)
		f.counts.Merge(counters.Counts{Baseline: r.counts})
		return nil
	}
}

// compareShard compares the newest baseline and input revisions of every
// page of the shard that the baseline has.
func compareShard(c *Comparer, w shardWork, cfg BeamConfig) (shardResult, error) {
	var res shardResult
	old, err := newest(w.baseline, cfg.Wikis, &res.counts.PagesSuperseded)
	if err != nil {
		return res, fmt.Errorf("changes: baseline pages of shard %d: %w", w.shard, err)
	}
	var ignored int64
	cur, err := newest(w.cur, cfg.Wikis, &ignored)
	if err != nil {
		return res, fmt.Errorf("changes: input pages of shard %d: %w", w.shard, err)
	}
	keys := make([]uint64, 0, len(old))
	for k := range old {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	p := shuffle.NewPacker(shuffle.KindLines, cfg.OutputShards)
	for _, k := range keys {
		o := old[k]
		n, ok := cur[k]
		switch {
		case !ok:
			res.counts.PagesUnmatched++
			continue
		case o.RevID == n.RevID:
			res.counts.PagesUnchanged++
			continue
		}
		res.counts.PagesCompared++
		changes, counts := c.Compare(o.Revision, n.Revision)
		addCounts(&res.counts, counts)
		for _, ch := range changes {
			line, err := result.JSONLine(ch)
			if err != nil {
				return res, fmt.Errorf("changes: page %d of %s: %w", ch.PageID, ch.Wiki, err)
			}
			p.AddRecord(shuffle.ShardOf(k, cfg.OutputShards), result.Record(sortKey(n.wiki, n.PageID, ch.New.Sentence), line), res.lines.Emit)
		}
	}
	p.Flush(res.lines.Emit)
	return res, nil
}

// newest decodes revision batches and keeps the newest revision of each
// page, by page key, counting the others in superseded.
func newest(batches [][]byte, wikis []string, superseded *int64) (map[uint64]packed, error) {
	out := map[uint64]packed{}
	for _, b := range batches {
		err := shuffle.KindRevisions.Records(b, func(rec []byte) error {
			p, err := unmarshalRevision(rec, wikis)
			if err != nil {
				return err
			}
			k := pageKey(p.wiki, p.PageID)
			if q, ok := out[k]; ok {
				*superseded++
				if q.RevID >= p.RevID {
					return nil
				}
			}
			out[k] = p
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sortKey orders the lines of changes-*.jsonl: by wiki, page id (its low
// 33 bits; a tie is ordered by the line, which starts with the wiki and
// page id) and the new sentence's ordinal.
func sortKey(wiki int, page int64, ordinal int) uint64 {
	return uint64(wiki)<<53 | (uint64(page)&(1<<33-1))<<20 | uint64(ordinal)&(1<<20-1)
}

// addCounts adds what comparing a page counted to b.
func addCounts(b *counters.Baseline, c Counts) {
	b.SentencesBefore += c.SentencesBefore
	b.SentencesAfter += c.SentencesAfter
	b.SentencesUnchanged += c.SentencesUnchanged
	b.SentencesRemoved += c.SentencesRemoved
	b.SentencesAdded += c.SentencesAdded
	b.PairsCompared += c.PairsCompared
	b.PairsMoved += c.PairsMoved
	b.PairsCopyEdit += c.PairsCopyEdit
	b.PairsOther += c.PairsOther
	b.Changes += c.Changes
	b.ChangesReplaced += c.ChangesReplaced
	b.ChangesAdded += c.ChangesAdded
	b.ChangesRemoved += c.ChangesRemoved
	b.ChangesAddedRemoved += c.ChangesAddedRemoved
	b.ComparisonsSkipped += c.ComparisonsSkipped
}
