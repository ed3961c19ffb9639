package verify

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/orderedpool"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
)

func init() {
	register.DoFn5x1[int, func(*[]byte) bool, func(*[]byte) bool, func(int, []byte), func(int, []byte), error](&attachFirstFn{})
	register.DoFn8x1[context.Context, int, func(*[]byte) bool, func(*[]byte) bool, func(int, []byte), func(int, []byte), func(int, []byte), func(counters.Counts), error](&compareFn{})
	register.Emitter1[counters.Counts]()
	register.Iter1[[]byte]()
	register.Emitter2[int, []byte]()
}

// Config says how Edges compares sentences and where it sends the result.
type Config struct {
	ShingleLength int
	Norm          shingle.Normalization
	Thresholds    Thresholds
	RecordShards  int // shards of the sentence records (and of candidates by U)
	EdgeShards    int // shards of the component stage
	Workers       int // goroutines of each DoFn's pool (0: GOMAXPROCS)
	// LineShards, if not 0, asks for a line of edges-*.jsonl for each
	// verified edge (EdgeLine), in that many output shards.
	LineShards int
}

// Edges verifies candidate edges before they enter the graph. candidates
// are star edges, each twice: (U, V) keyed by shuffle.ShardOf(U,
// RecordShards) and (V, U) keyed by shuffle.ShardOf(V, RecordShards), with
// U < V (a star's anchor is its smallest id); records are the encoded
// sentences keyed by their id's shard. Each distinct pair is compared once,
// after both texts have been joined to it. It returns:
//   - edges: the accepted (U, V) pairs keyed by shuffle.EdgeShard(U, V, 0, EdgeShards);
//   - similarities: Edge records (U, V and the two measures) keyed by
//     shuffle.ShardOf(U, RecordShards), to compute each cluster's cohesion;
//   - needed: the records of the sentences of some candidate edge, keyed as
//     records are: the only ones that can be in a cluster;
//   - counts: candidate_edges, edges_verified, edges_rejected.
//
// Every in-window sentence's text crosses one shuffle (records). Only a
// candidate's sentence goes further: in the half-joined edges of which it
// is U, and in needed, which the verification and cluster joins read. On
// real dumps, where most sentences have no near duplicate, those joins see
// a small fraction of the text.
//
// With cfg.LineShards, lines are the lines of edges-*.jsonl (EdgeLine),
// keyed by U's output shard; otherwise lines is empty.
func Edges(s beam.Scope, candidates shuffle.Candidates, records shuffle.Sentences, cfg Config) (edges shuffle.Edges, sims shuffle.Similarities, needed shuffle.Sentences, lines shuffle.Lines, counts beam.PCollection) {
	s = s.Scope("Verify")
	halves, neededRecs := beam.ParDo2(s, &attachFirstFn{RecordShards: cfg.RecordShards, Workers: cfg.Workers},
		beam.CoGroupByKey(s, candidates.Raw(), records.Raw()))
	verified, similarities, edgeLines, counts := beam.ParDo4(s, &compareFn{Cfg: cfg}, beam.CoGroupByKey(s, halves, neededRecs))
	return shuffle.MakeEdges(verified), shuffle.MakeSimilarities(similarities), shuffle.MakeSentences(neededRecs),
		shuffle.MakeLines(edgeLines), counts
}

// EdgeLine is a line of edges-*.jsonl: a verified edge between the
// sentences A and B (ids as everywhere, A's internal id below B's) with
// the similarity that verified it.
type EdgeLine struct {
	A       string  `json:"a"`
	B       string  `json:"b"`
	Jaccard float64 `json:"jaccard"`
	Edit    float64 `json:"edit"`
}

// attachFirstFn attaches U's record to each distinct candidate (U, V) of its
// shard and sends the half-joined edge to V's shard: uvarint V, then U's
// encoded sentence. It also passes on, in the same shard, the record of
// every sentence of a candidate, U or V. Shards are joined on every core
// (package ordered) and emitted in input order, as a serial loop would.
type attachFirstFn struct {
	RecordShards int
	Workers      int

	orderedpool.Owner[attachWork, *attached]
}

// attachWork is the batches of one shard.
type attachWork struct {
	shard               int
	candidates, records [][]byte
}

// attached is what a shard emits: half-joined edges and needed records.
type attached struct{ halves, needed shuffle.Held }

func (f *attachFirstFn) Setup() {
	f.Start(f.Workers, 0, func() func(attachWork) (*attached, error) {
		return func(w attachWork) (*attached, error) { return attach(w, f.RecordShards) }
	})
}

func (f *attachFirstFn) ProcessElement(shard int, candidates, records func(*[]byte) bool, emitHalves, emitNeeded func(int, []byte)) error {
	w := attachWork{shard: shard, candidates: shuffle.Collect(candidates)}
	if len(w.candidates) == 0 {
		return nil
	}
	w.records = shuffle.Collect(records)
	return f.Pool().Submit(w, deliverAttached(emitHalves, emitNeeded))
}

// FinishBundle emits the shards still being joined.
func (f *attachFirstFn) FinishBundle(emitHalves, emitNeeded func(int, []byte)) error {
	return f.Pool().Flush(deliverAttached(emitHalves, emitNeeded))
}

func deliverAttached(emitHalves, emitNeeded func(int, []byte)) func(*attached) error {
	return func(a *attached) error {
		a.halves.Replay(emitHalves)
		a.needed.Replay(emitNeeded)
		return nil
	}
}

// attach joins the candidates of one shard with its records.
func attach(w attachWork, recordShards int) (*attached, error) {
	targets := map[uint64][]uint64{} // U -> its Vs
	needed := map[uint64]bool{}
	for _, b := range w.candidates {
		pairs, err := shuffle.KindCandidates.AppendPairs(nil, b)
		if err != nil {
			return nil, fmt.Errorf("verify: candidates of shard %d: %w", w.shard, err)
		}
		for _, p := range pairs {
			needed[p.A] = true
			if p.A < p.B {
				targets[p.A] = append(targets[p.A], p.B)
			}
		}
	}
	out := &attached{}
	emitHalves, emitNeeded := out.halves.Emit, out.needed.Emit
	halves := shuffle.NewPacker(shuffle.KindHalfEdges, recordShards)
	pass := shuffle.NewPacker(shuffle.KindSentences, recordShards)
	recs, err := neededRecords(w.records, needed)
	if err != nil {
		return nil, fmt.Errorf("verify: records of shard %d: %w", w.shard, err)
	}
	var half []byte
	for _, r := range recs {
		pass.AddRecord(w.shard, r.rec, emitNeeded)
		for _, v := range dedupe(targets[uint64(r.id)]) {
			half = binary.AppendUvarint(half[:0], v)
			halves.AddRecord(shuffle.ShardOf(v, recordShards), append(half, r.rec...), emitHalves)
		}
	}
	halves.Flush(emitHalves)
	pass.Flush(emitNeeded)
	return out, nil
}

// idRecord is an encoded sentence and its id.
type idRecord struct {
	id  sentence.ID
	rec []byte
}

// neededRecords returns the records of the needed ids among the batches,
// sorted by id, each id once: a page revision read twice (dedupe) gives the
// same id twice, and of two differing copies (the same revision under two
// titles) the lesser encoding is kept, whatever order the batches came in.
func neededRecords(batches [][]byte, needed map[uint64]bool) ([]idRecord, error) {
	var recs []idRecord
	var id sentence.ID
	for _, b := range batches {
		err := shuffle.KindSentences.Records(b, func(rec []byte) error {
			if err := id.UnmarshalPrefix(rec); err != nil {
				return err
			}
			if needed[uint64(id)] {
				recs = append(recs, idRecord{id, rec})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(recs, func(a, b idRecord) int { return cmp.Or(cmp.Compare(a.id, b.id), bytes.Compare(a.rec, b.rec)) })
	return slices.CompactFunc(recs, func(a, b idRecord) bool { return a.id == b.id }), nil
}

// dedupe sorts ids and removes repeats (a pair found by several bands).
func dedupe(ids []uint64) []uint64 {
	slices.Sort(ids)
	return slices.Compact(ids)
}

// compareFn compares each half-joined edge with V's record. The
// comparisons run on every core (package ordered), across the shards of a
// bundle; results are packed in shard and record order, as a serial loop
// would.
type compareFn struct {
	Cfg Config

	orderedpool.Owner[[]comparison, []compared]
	edges, sims *shuffle.Packer
	lines       *shuffle.Packer // nil without Cfg.LineShards
	counts      counters.Counts
}

// comparison is V's encoded record and the encoded records of the U's it
// was found with.
type comparison struct {
	v      []byte
	firsts [][]byte
}

// compared is the outcome of one candidate edge.
type compared struct {
	e            shuffle.Pair // U, V
	rankU, rankV int          // the sentences' Sentence.Rank
	sim          Similarity
	ok           bool
	line         []byte // with Cfg.LineShards, a verified edge's EdgeLine
}

// compareBatch is how many records a pool worker compares at a time.
const compareBatch = 32

func (f *compareFn) Setup() {
	f.Start(f.Cfg.Workers, 4, func() func([]comparison) ([]compared, error) {
		w := &comparer{checker: NewChecker(f.Cfg.ShingleLength, f.Cfg.Norm, f.Cfg.Thresholds), lines: f.Cfg.LineShards > 0}
		return w.compare
	})
}

func (f *compareFn) StartBundle(context.Context, func(int, []byte), func(int, []byte), func(int, []byte), func(counters.Counts)) {
	f.edges = shuffle.NewPacker(shuffle.KindEdges, f.Cfg.EdgeShards)
	f.sims = shuffle.NewPacker(shuffle.KindSimilarities, f.Cfg.RecordShards)
	if f.Cfg.LineShards > 0 {
		f.lines = shuffle.NewPacker(shuffle.KindLines, f.Cfg.LineShards)
	}
	f.counts = counters.Counts{}
}

func (f *compareFn) ProcessElement(_ context.Context, shard int, halves, records func(*[]byte) bool, emitEdges, emitSims, emitLines func(int, []byte), _ func(counters.Counts)) error {
	byV := map[uint64][][]byte{}
	for _, b := range shuffle.Collect(halves) {
		err := shuffle.KindHalfEdges.Records(b, func(rec []byte) error {
			v, n := binary.Uvarint(rec)
			if n <= 0 {
				return shuffle.ErrCorrupt
			}
			byV[v] = append(byV[v], rec[n:])
			return nil
		})
		if err != nil {
			return fmt.Errorf("verify: half edges of shard %d: %w", shard, err)
		}
	}
	if len(byV) == 0 {
		return nil
	}
	deliver := f.deliver(emitEdges, emitSims, emitLines)
	var work []comparison
	var id sentence.ID
	var b []byte
	for records(&b) {
		err := shuffle.KindSentences.Records(b, func(rec []byte) error {
			if err := id.UnmarshalPrefix(rec); err != nil {
				return err
			}
			firsts := byV[uint64(id)]
			if len(firsts) == 0 {
				return nil
			}
			work = append(work, comparison{v: rec, firsts: firsts})
			if len(work) < compareBatch {
				return nil
			}
			w := work
			work = nil
			return f.Pool().Submit(w, deliver)
		})
		if err != nil {
			return fmt.Errorf("verify: records of shard %d: %w", shard, err)
		}
	}
	if len(work) > 0 {
		if err := f.Pool().Submit(work, deliver); err != nil {
			return fmt.Errorf("verify: records of shard %d: %w", shard, err)
		}
	}
	return nil
}

// FinishBundle delivers the comparisons still running: the pool runs across
// elements, so one shard's decoding overlaps the previous shard's
// comparisons.
func (f *compareFn) FinishBundle(ctx context.Context, emitEdges, emitSims, emitLines func(int, []byte), emitCounts func(counters.Counts)) error {
	if err := f.Pool().Flush(f.deliver(emitEdges, emitSims, emitLines)); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	f.edges.Flush(emitEdges)
	f.sims.Flush(emitSims)
	if f.lines != nil {
		f.lines.Flush(emitLines)
	}
	counters.Emit(ctx, f.counts, emitCounts)
	return nil
}

// deliver returns the function that counts compared edges and packs the
// verified ones.
func (f *compareFn) deliver(emitEdges, emitSims, emitLines func(int, []byte)) func([]compared) error {
	return func(results []compared) error {
		for _, r := range results {
			f.counts.CandidateEdges++
			if !r.ok {
				f.counts.EdgesRejected++
				continue
			}
			f.counts.EdgesVerified++
			f.edges.Add(shuffle.EdgeShard(r.e.A, r.e.B, 0, f.Cfg.EdgeShards), r.e, emitEdges)
			f.sims.AddRecord(shuffle.ShardOf(r.e.A, f.Cfg.RecordShards), Edge{U: r.e.A, V: r.e.B, RankU: uint32(r.rankU), RankV: uint32(r.rankV), Similarity: r.sim}.AppendBinary(nil), emitSims)
			if f.lines != nil {
				f.lines.AddRecord(shuffle.ShardOf(r.e.A, f.Cfg.LineShards), result.Record(r.e.A, r.line), emitLines)
			}
		}
		return nil
	}
}

// comparer is one pool worker's checker and decoding buffers.
type comparer struct {
	checker *Checker
	us, vs  sentence.Sentence
	lines   bool // write each verified edge's EdgeLine
}

// compare decodes and compares a batch of records with their candidates.
func (w *comparer) compare(work []comparison) ([]compared, error) {
	var out []compared
	for _, c := range work {
		if err := w.vs.UnmarshalBinary(c.v); err != nil {
			return nil, err
		}
		for _, u := range c.firsts {
			if err := w.us.UnmarshalBinary(u); err != nil {
				return nil, err
			}
			sim, ok := w.checker.Compare(w.us.Text, w.vs.Text)
			c := compared{e: shuffle.Pair{A: uint64(w.us.ID), B: uint64(w.vs.ID)}, rankU: w.us.Rank, rankV: w.vs.Rank, sim: sim, ok: ok}
			if ok && w.lines {
				line, err := result.JSONLine(EdgeLine{A: w.us.Key(), B: w.vs.Key(), Jaccard: sim.Jaccard, Edit: sim.Edit})
				if err != nil {
					return nil, err
				}
				c.line = line
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// Edge is a verified edge, its similarity and the ranks of its two
// sentences among their pages' in-window sentences (sentence.Sentence.Rank),
// as carried to the clusters and the shared passages.
type Edge struct {
	U, V         uint64
	RankU, RankV uint32
	Similarity   Similarity
}

// edgeBytes is the size of an Edge's encoding.
const edgeBytes = 40

// AppendBinary appends e to b as a shuffle.KindSimilarities record, of
// edgeBytes.
func (e Edge) AppendBinary(b []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, e.U)
	b = binary.LittleEndian.AppendUint64(b, e.V)
	b = binary.LittleEndian.AppendUint32(b, e.RankU)
	b = binary.LittleEndian.AppendUint32(b, e.RankV)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(e.Similarity.Jaccard))
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(e.Similarity.Edit))
}

// UnmarshalBinary decodes what AppendBinary wrote.
func (e *Edge) UnmarshalBinary(b []byte) error {
	if len(b) != edgeBytes {
		return fmt.Errorf("verify: edge record of %d bytes, want %d", len(b), edgeBytes)
	}
	e.U = binary.LittleEndian.Uint64(b)
	e.V = binary.LittleEndian.Uint64(b[8:])
	e.RankU = binary.LittleEndian.Uint32(b[16:])
	e.RankV = binary.LittleEndian.Uint32(b[20:])
	e.Similarity.Jaccard = math.Float64frombits(binary.LittleEndian.Uint64(b[24:]))
	e.Similarity.Edit = math.Float64frombits(binary.LittleEndian.Uint64(b[32:]))
	return nil
}
