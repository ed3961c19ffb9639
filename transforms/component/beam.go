package component

import (
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/transforms/batch"
)

func init() {
	register.DoFn3x1[int, func(*[]byte) bool, func(int, []byte), error](&contractFn{})
	register.DoFn3x1[int, func(*[]byte) bool, func(int, []byte), error](&finishFn{})
	register.DoFn3x0[int, []byte, func(int, []byte)](&gatherFn{})
	register.Iter1[[]byte]()
	register.Emitter2[int, []byte]()
}

// Labels computes the connected components of the edges in
// PCollection<KV<int, []byte>> (batches of edges keyed by Shard(e, 0,
// edgeShards)). It runs rounds of distributed contraction, each grouping
// the edges into edgeShards shards and replacing each shard's edges by its
// star forest, then gathers what is left on one worker, whose union-find
// labels every node with the smallest id of its component. It returns
// PCollection<KV<int, []byte>>: batches of (node, component) pairs keyed by
// batch.ShardOf(node, labelShards); a component's smallest node is labelled
// with itself.
func Labels(s beam.Scope, edges beam.PCollection, rounds, edgeShards, labelShards int) beam.PCollection {
	s = s.Scope("Components")
	for r := 1; r <= rounds; r++ {
		rs := s.Scope(fmt.Sprintf("Round %d", r))
		edges = beam.ParDo(rs, &contractFn{Round: r, Shards: edgeShards}, beam.GroupByKey(rs, edges))
	}
	gathered := beam.GroupByKey(s, beam.ParDo(s, &gatherFn{}, edges))
	return beam.ParDo(s, &finishFn{LabelShards: labelShards}, gathered)
}

// contractFn contracts one shard's edges and routes the star forest to the
// shards of the round.
type contractFn struct {
	Round, Shards int
}

func (f *contractFn) ProcessElement(shard int, batches func(*[]byte) bool, emit func(int, []byte)) error {
	edges, err := readEdges(batches)
	if err != nil {
		return fmt.Errorf("component: round %d shard %d: %w", f.Round, shard, err)
	}
	p := batch.NewPacker(f.Shards, 0)
	for _, e := range Contract(edges) {
		p.AddPair(Shard(e, f.Round, f.Shards), batch.Pair{A: e.U, B: e.V}, emit)
	}
	p.Flush(emit)
	return nil
}

// gatherFn sends every batch to the single finishing worker.
type gatherFn struct{}

func (gatherFn) ProcessElement(_ int, b []byte, emit func(int, []byte)) { emit(0, b) }

// finishFn labels every node with its component.
type finishFn struct {
	LabelShards int
}

func (f *finishFn) ProcessElement(_ int, batches func(*[]byte) bool, emit func(int, []byte)) error {
	edges, err := readEdges(batches)
	if err != nil {
		return fmt.Errorf("component: finish: %w", err)
	}
	p := batch.NewPacker(f.LabelShards, 0)
	label := func(node, root uint64) {
		p.AddPair(batch.ShardOf(node, f.LabelShards), batch.Pair{A: node, B: root}, emit)
	}
	stars := Contract(edges)
	for _, e := range stars {
		label(e.U, e.V)
	}
	for _, root := range roots(stars) {
		label(root, root)
	}
	p.Flush(emit)
	return nil
}

// roots returns the distinct roots (V) of a star forest, ascending.
func roots(stars []Edge) []uint64 {
	seen := make(map[uint64]bool)
	var out []uint64
	for _, e := range stars {
		if !seen[e.V] {
			seen[e.V] = true
			out = append(out, e.V)
		}
	}
	slices.Sort(out)
	return out
}

func readEdges(batches func(*[]byte) bool) ([]Edge, error) {
	var pairs []batch.Pair
	var b []byte
	for batches(&b) {
		var err error
		if pairs, err = batch.AppendPairs(pairs, b); err != nil {
			return nil, err
		}
	}
	edges := make([]Edge, len(pairs))
	for i, p := range pairs {
		edges[i] = Edge{U: p.A, V: p.B}
	}
	return edges, nil
}
