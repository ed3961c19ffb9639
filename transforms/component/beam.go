package component

import (
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/internal/shuffle"
)

func init() {
	register.DoFn3x1[int, func(*[]byte) bool, func(int, []byte), error](&contractFn{})
	register.DoFn3x1[int, func(*[]byte) bool, func(int, []byte), error](&finishFn{})
	register.DoFn3x0[int, []byte, func(int, []byte)](&gatherFn{})
	register.Iter1[[]byte]()
	register.Emitter2[int, []byte]()
}

// Labels computes the connected components of the verified edges (keyed by
// Shard(e, 0, edgeShards)). It runs rounds of distributed contraction, each grouping
// the edges into edgeShards shards and replacing each shard's edges by its
// star forest, then gathers what is left on one worker, whose union-find
// labels every node with the smallest id of its component. It returns
// (node, component) pairs keyed by shuffle.ShardOf(node, labelShards); a
// component's smallest node is labelled with itself.
func Labels(s beam.Scope, verified shuffle.Edges, rounds, edgeShards, labelShards int) shuffle.Labels {
	s = s.Scope("Components")
	edges := verified.PCollection
	for r := 1; r <= rounds; r++ {
		rs := s.Scope(fmt.Sprintf("Round %d", r))
		edges = beam.ParDo(rs, &contractFn{Round: r, Shards: edgeShards}, beam.GroupByKey(rs, edges))
	}
	gathered := beam.GroupByKey(s, beam.ParDo(s, &gatherFn{}, edges))
	return shuffle.Labels{PCollection: beam.ParDo(s, &finishFn{LabelShards: labelShards}, gathered)}
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
	p := shuffle.NewPacker(shuffle.KindEdges, f.Shards)
	for _, e := range Contract(edges) {
		p.Add(Shard(e, f.Round, f.Shards), shuffle.Pair{A: e.U, B: e.V}, emit)
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
	p := shuffle.NewPacker(shuffle.KindLabels, f.LabelShards)
	label := func(node, root uint64) {
		p.Add(shuffle.ShardOf(node, f.LabelShards), shuffle.Pair{A: node, B: root}, emit)
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
	var pairs []shuffle.Pair
	for _, b := range shuffle.Collect(batches) {
		var err error
		if pairs, err = shuffle.KindEdges.AppendPairs(pairs, b); err != nil {
			return nil, err
		}
	}
	edges := make([]Edge, len(pairs))
	for i, p := range pairs {
		edges[i] = Edge{U: p.A, V: p.B}
	}
	return edges, nil
}
