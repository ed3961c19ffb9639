package component

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/neardup/neardup/internal/shuffle"
)

func init() {
	register.Function3x0(emitLabelStrings)
	register.Emitter1[string]()
	register.DoFn2x0[[]byte, func(int, []byte)](&keyByShardFn{})
}

func TestMain(m *testing.M) { ptest.Main(m) }

// keyByShardFn keys a batch of one edge by the edge's round-0 shard.
type keyByShardFn struct{ Shards int }

func (f *keyByShardFn) ProcessElement(b []byte, emit func(int, []byte)) {
	pairs, _ := shuffle.KindEdges.AppendPairs(nil, b)
	emit(Shard(Edge{pairs[0].A, pairs[0].B}, 0, f.Shards), b)
}

func emitLabelStrings(_ int, b []byte, emit func(string)) {
	pairs, _ := shuffle.KindLabels.AppendPairs(nil, b)
	for _, p := range pairs {
		emit(fmt.Sprintf("%d→%d", p.A, p.B))
	}
}

// TestLabelsOnPrism runs the distributed components stage on the embedded
// runner and compares its labels with a plain union-find.
func TestLabelsOnPrism(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var edges []Edge
	for i := uint64(1000); i < 1300; i++ { // a shuffled chain
		edges = append(edges, Edge{i, i + 1})
	}
	r.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
	for i := uint64(1); i <= 200; i++ { // a star
		edges = append(edges, Edge{5000 + i, 5000})
	}
	for len(edges) < 800 { // random sparse graph; no self-loops, as buckets never make them
		if u, v := 10000+r.Uint64N(400), 10000+r.Uint64N(400); u != v {
			edges = append(edges, Edge{u, v})
		}
	}
	var want []any
	for node, root := range Components(edges) {
		want = append(want, fmt.Sprintf("%d→%d", node, root))
	}
	depth := Depth(1300) // more nodes than the graph has
	for _, c := range []struct{ rounds, depth int }{{0, depth}, {2, depth}, {2, 1}, {0, 0}} {
		t.Run(fmt.Sprintf("rounds=%d/depth=%d", c.rounds, c.depth), func(t *testing.T) {
			p, s := beam.NewPipelineWithRoot()
			var batches [][]byte
			for _, e := range edges {
				batches = append(batches, shuffle.KindEdges.PackPairs(shuffle.Pair{A: e.U, B: e.V}))
			}
			in := beam.ParDo(s, &keyByShardFn{Shards: 4}, beam.CreateList(s, batches))
			labels := Labels(s, shuffle.MakeEdges(in), c.rounds, c.depth, 4, 3)
			passert.Equals(s, beam.ParDo(s, emitLabelStrings, labels.Raw()), want...)
			res := ptest.RunAndValidate(t, p)
			left, largest := int64(0), int64(0)
			for _, r := range res.Metrics().Query(func(metrics.SingleResult) bool { return true }).Counters() {
				if r.Name() == "components_leftover_edges" {
					left += r.Result()
				}
			}
			for _, r := range res.Metrics().Query(func(metrics.SingleResult) bool { return true }).Distributions() {
				if r.Name() == "components_star_state" {
					largest = max(largest, r.Result().Max)
				}
			}
			// The shuffled chain is the deepest component: 301 nodes.
			if c.depth == depth && left != 0 {
				t.Errorf("%d edges left over at depth %d", left, c.depth)
			}
			if c.depth == 0 && left == 0 {
				t.Errorf("no edges left over without star rounds")
			}
			if c.depth > 0 && (largest == 0 || largest > 2*int64(len(edges))) {
				t.Errorf("largest star state %d pairs, want between 1 and %d", largest, 2*len(edges))
			}
		})
	}
}
