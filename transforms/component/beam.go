package component

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"
)

func init() {
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, []byte), error](&contractFn{})
	register.DoFn3x1[int, []byte, func(int, []byte), error](&spreadFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, []byte), error](&starFn{})
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(int, []byte), error](&settleFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, []byte), error](&leftoverFn{})
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(*[]byte) bool, func(int, []byte), error](&relabelFn{})
	register.Iter1[[]byte]()
	register.Emitter2[int, []byte]()
}

// The Beam metrics (distributions, in counters.Namespace) of the most pairs
// one worker held at once, by step: the state that must fit a worker.
// Leftover edges are also counted: they are the only ones gathered on one
// worker, and none are left on the graphs the tests make.
var (
	contractState = beam.NewDistribution(counters.Namespace, "components_contract_state")
	starState     = beam.NewDistribution(counters.Namespace, "components_star_state")
	settleState   = beam.NewDistribution(counters.Namespace, "components_settle_state")
	relabelState  = beam.NewDistribution(counters.Namespace, "components_relabel_state")
	leftoverState = beam.NewDistribution(counters.Namespace, "components_leftover_state")
	leftoverEdges = beam.NewCounter(counters.Namespace, "components_leftover_edges")
)

// Labels computes the connected components of the verified edges (keyed
// by Shard(e, 0, edgeShards)) with no worker holding more than a shard of
// the graph or one node's neighbours. It runs rounds of contraction, each
// grouping the edges into edgeShards shards and replacing each shard's
// edges by its star forest; then depth rounds of large-star and
// small-star (see LargeStar), which turn every component into a star
// around its smallest node; then every node is settled (see Settle) and
// takes its label from the node it targets. Depth(nodes) rounds suffice
// for the graphs the tests make; whatever a too shallow depth leaves
// unsettled is labelled by a union-find of the leftover edges on one
// worker, so the labels are exact at any depth. It returns (node,
// component) pairs keyed by shuffle.ShardOf(node, labelShards); a
// component's smallest node is labelled with itself.
func Labels(s beam.Scope, verified shuffle.Edges, rounds, depth, edgeShards, labelShards int) shuffle.Labels {
	s = s.Scope("Components")
	edges := verified.Raw()
	for r := 1; r <= rounds; r++ {
		rs := s.Scope(fmt.Sprintf("Round %d", r))
		edges = beam.ParDo(rs, &contractFn{Round: r, Shards: edgeShards}, beam.GroupByKey(rs, edges))
	}
	nbrs := beam.ParDo(s, &spreadFn{Shards: edgeShards}, edges)
	for d := 1; d <= depth; d++ {
		ds := s.Scope(fmt.Sprintf("Stars %d", d))
		down := beam.ParDo(ds, &starFn{Large: true, Shards: edgeShards}, beam.GroupByKey(ds, nbrs))
		nbrs = beam.ParDo(ds, &starFn{Shards: edgeShards}, beam.GroupByKey(ds, down))
	}
	targets, leftover := beam.ParDo2(s, &settleFn{Shards: edgeShards}, beam.GroupByKey(s, nbrs))
	roots := beam.ParDo(s, &leftoverFn{Shards: edgeShards}, beam.GroupByKey(s, leftover))
	joined := beam.CoGroupByKey(s, targets, roots)
	return shuffle.MakeLabels(beam.ParDo(s, &relabelFn{LabelShards: labelShards}, joined))
}

// contractFn contracts one shard's edges and routes the star forest to the
// shards of the round.
type contractFn struct {
	Round, Shards int
}

func (f *contractFn) ProcessElement(ctx context.Context, shard int, batches func(*[]byte) bool, emit func(int, []byte)) error {
	pairs, err := readPairs(shuffle.KindEdges, batches)
	if err != nil {
		return fmt.Errorf("component: round %d shard %d: %w", f.Round, shard, err)
	}
	contractState.Update(ctx, int64(len(pairs)))
	edges := make([]Edge, len(pairs))
	for i, p := range pairs {
		edges[i] = Edge{U: p.A, V: p.B}
	}
	p := shuffle.NewPacker(shuffle.KindEdges, f.Shards)
	for _, e := range Contract(edges) {
		p.Add(Shard(e, f.Round, f.Shards), shuffle.Pair{A: e.U, B: e.V}, emit)
	}
	p.Flush(emit)
	return nil
}

// spreadFn sends every edge to the shards of both its nodes, as
// neighbours, for the first large-star round.
type spreadFn struct {
	Shards int
}

func (f *spreadFn) ProcessElement(_ int, b []byte, emit func(int, []byte)) error {
	edges, err := shuffle.KindEdges.AppendPairs(nil, b)
	if err != nil {
		return fmt.Errorf("component: edges: %w", err)
	}
	p := shuffle.NewPacker(shuffle.KindNeighbours, f.Shards)
	for _, e := range edges {
		if e.A != e.B { // a self-loop's node is a singleton: it has no label
			addBothWays(p, Edge{U: e.A, V: e.B}, emit)
		}
	}
	p.Flush(emit)
	return nil
}

// addBothWays adds edge e to the shards of both its nodes.
func addBothWays(p *shuffle.Packer, e Edge, emit func(int, []byte)) {
	p.Add(shuffle.ShardOf(e.U, p.Shards()), shuffle.Pair{A: e.U, B: e.V}, emit)
	p.Add(shuffle.ShardOf(e.V, p.Shards()), shuffle.Pair{A: e.V, B: e.U}, emit)
}

// starFn runs a large-star operation (Large) or a small-star one on the
// nodes of one shard. A large-star's edges go to their larger node's
// shard only, as the small-star that follows needs a node's smaller
// neighbours alone; a small-star's go to both nodes'.
type starFn struct {
	Large  bool
	Shards int
}

func (f *starFn) ProcessElement(ctx context.Context, shard int, batches func(*[]byte) bool, emit func(int, []byte)) error {
	adj, err := readPairs(shuffle.KindNeighbours, batches)
	if err != nil {
		return fmt.Errorf("component: star shard %d: %w", shard, err)
	}
	starState.Update(ctx, int64(len(adj)))
	p := shuffle.NewPacker(shuffle.KindNeighbours, f.Shards)
	if f.Large {
		down := func(e Edge) { p.Add(shuffle.ShardOf(e.U, f.Shards), shuffle.Pair{A: e.U, B: e.V}, emit) }
		Neighbours(adj, func(node uint64, nbrs []uint64) { LargeStar(node, nbrs, down) })
	} else {
		both := func(e Edge) { addBothWays(p, e, emit) }
		Neighbours(adj, func(node uint64, smaller []uint64) { SmallStar(node, smaller, both) })
	}
	p.Flush(emit)
	return nil
}

// settleFn settles the nodes of one shard: it sends each node's target to
// the target's shard, and the edges of unsettled nodes to one worker.
type settleFn struct {
	Shards int
}

func (f *settleFn) ProcessElement(ctx context.Context, shard int, batches func(*[]byte) bool, emitTarget, emitLeftover func(int, []byte)) error {
	adj, err := readPairs(shuffle.KindNeighbours, batches)
	if err != nil {
		return fmt.Errorf("component: settle shard %d: %w", shard, err)
	}
	settleState.Update(ctx, int64(len(adj)))
	targets := shuffle.NewPacker(shuffle.KindTargets, f.Shards)
	leftover := shuffle.NewPacker(shuffle.KindEdges, 1)
	left := 0
	Neighbours(adj, func(node uint64, nbrs []uint64) {
		target, settled := Settle(node, nbrs)
		targets.Add(shuffle.ShardOf(target, f.Shards), shuffle.Pair{A: node, B: target}, emitTarget)
		if !settled {
			for _, v := range nbrs {
				leftover.Add(0, shuffle.Pair{A: node, B: v}, emitLeftover)
			}
			left += len(nbrs)
		}
	})
	targets.Flush(emitTarget)
	leftover.Flush(emitLeftover)
	if left > 0 {
		leftoverEdges.Inc(ctx, int64(left))
	}
	return nil
}

// leftoverFn labels the nodes of the leftover edges with the smallest node
// each is connected to, and sends the labels to the nodes' shards.
type leftoverFn struct {
	Shards int
}

func (f *leftoverFn) ProcessElement(ctx context.Context, _ int, batches func(*[]byte) bool, emit func(int, []byte)) error {
	edges, err := readPairs(shuffle.KindEdges, batches)
	if err != nil {
		return fmt.Errorf("component: leftover edges: %w", err)
	}
	leftoverState.Update(ctx, int64(len(edges)))
	u := NewUnionFind(len(edges))
	for _, e := range edges {
		u.Union(e.A, e.B)
	}
	p := shuffle.NewPacker(shuffle.KindLabels, f.Shards)
	for _, id := range u.ids {
		p.Add(shuffle.ShardOf(id, f.Shards), shuffle.Pair{A: id, B: u.Root(id)}, emit)
	}
	p.Flush(emit)
	return nil
}

// relabelFn labels each node with its target's label: the leftovers'
// label of the target if it has one, or else the target itself.
type relabelFn struct {
	LabelShards int
}

func (f *relabelFn) ProcessElement(ctx context.Context, shard int, targets, roots func(*[]byte) bool, emit func(int, []byte)) error {
	rootPairs, err := readPairs(shuffle.KindLabels, roots)
	if err != nil {
		return fmt.Errorf("component: leftover labels of shard %d: %w", shard, err)
	}
	root := make(map[uint64]uint64, len(rootPairs))
	for _, r := range rootPairs {
		root[r.A] = r.B
	}
	pairs, err := readPairs(shuffle.KindTargets, targets)
	if err != nil {
		return fmt.Errorf("component: targets of shard %d: %w", shard, err)
	}
	relabelState.Update(ctx, int64(len(pairs)+len(rootPairs)))
	p := shuffle.NewPacker(shuffle.KindLabels, f.LabelShards)
	for _, t := range pairs {
		label, ok := root[t.B]
		if !ok {
			label = t.B
		}
		p.Add(shuffle.ShardOf(t.A, f.LabelShards), shuffle.Pair{A: t.A, B: label}, emit)
	}
	p.Flush(emit)
	return nil
}

// readPairs decodes every pair of kind k in the batches of one group.
func readPairs(k shuffle.Kind, batches func(*[]byte) bool) ([]shuffle.Pair, error) {
	var pairs []shuffle.Pair
	var b []byte
	for batches(&b) {
		var err error
		if pairs, err = k.AppendPairs(pairs, b); err != nil {
			return nil, err
		}
	}
	return pairs, nil
}
