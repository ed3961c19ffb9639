package shuffle

import (
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/typex"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/util/reflectx"
)

// Batches is a collection that crosses a stage boundary: a
// PCollection<KV<int, []byte>> of batches of one kind keyed by shard. Its
// collection is unexported, as privacy-on-beam's PrivatePCollection's is,
// so that a composite's signature states which kind it takes and returns,
// and two stages wired wrongly fail to compile. A stage makes one from
// the collection its DoFn emits, with the kind's Make function, and takes
// the collection out again, with Raw, only to hand it to a Beam transform.
type Batches[K kind] struct{ col beam.PCollection }

// kind names, as a type, the kind of a Batches.
type kind interface{ kind() Kind }

// Raw returns the collection of batches, for a Beam transform to consume:
// the only way out of the type, so that a collection rewrapped as another
// kind stands out in review.
func (b Batches[K]) Raw() beam.PCollection { return b.col }

// batchType is the element type of every Batches collection.
var batchType = typex.NewKV(typex.New(reflectx.Int), typex.New(reflectx.ByteSlice))

// makeBatches wraps col as batches of kind K. It panics, as Beam's
// transforms do when a pipeline is built wrongly, if col is not a valid
// PCollection<KV<int, []byte>>.
func makeBatches[K kind](col beam.PCollection) Batches[K] {
	if err := checkBatches(col); err != nil {
		panic(fmt.Sprintf("shuffle: %v batches: %v", (*new(K)).kind(), err))
	}
	return Batches[K]{col}
}

// checkBatches reports why col cannot hold batches, or nil.
func checkBatches(col beam.PCollection) error {
	if !col.IsValid() {
		return fmt.Errorf("invalid PCollection")
	}
	if !typex.IsEqual(col.Type(), batchType) {
		return fmt.Errorf("a PCollection of %v, want %v", col.Type(), batchType)
	}
	return nil
}

// The kinds that cross a package boundary, each a type of its own. The
// record layouts of each kind are documented beside the kind's constant.

type (
	entriesKind      struct{}
	sentencesKind    struct{}
	pageInfosKind    struct{}
	candidatesKind   struct{}
	edgesKind        struct{}
	similaritiesKind struct{}
	labelsKind       struct{}
	linesKind        struct{}
	pagePairsKind    struct{}
)

func (entriesKind) kind() Kind      { return KindEntries }
func (sentencesKind) kind() Kind    { return KindSentences }
func (pageInfosKind) kind() Kind    { return KindPageInfos }
func (candidatesKind) kind() Kind   { return KindCandidates }
func (edgesKind) kind() Kind        { return KindEdges }
func (similaritiesKind) kind() Kind { return KindSimilarities }
func (labelsKind) kind() Kind       { return KindLabels }
func (linesKind) kind() Kind        { return KindLines }
func (pagePairsKind) kind() Kind    { return KindPagePairs }

// Entries are KindEntries batches (minhash.Sign → bucket.Candidates and
// the other candidate schemes).
type Entries = Batches[entriesKind]

// Sentences are KindSentences batches (minhash.Sign → verify, cluster,
// passage and the outputs).
type Sentences = Batches[sentencesKind]

// PageInfos are KindPageInfos batches (minhash.Sign → rereads.Count,
// passage.Find).
type PageInfos = Batches[pageInfosKind]

// Candidates are KindCandidates batches (bucket.Candidates and the other
// schemes → verify.Edges).
type Candidates = Batches[candidatesKind]

// Edges are KindEdges batches (verify.Edges → component.Labels).
type Edges = Batches[edgesKind]

// Similarities are KindSimilarities batches (verify.Edges →
// cluster.Assemble, passage.Find).
type Similarities = Batches[similaritiesKind]

// Labels are KindLabels batches (component.Labels → cluster.Assemble).
type Labels = Batches[labelsKind]

// Lines are KindLines batches of output lines (→ result.Write).
type Lines = Batches[linesKind]

// PagePairs are KindPagePairs batches (cluster.Assemble → summary.TopPairs).
type PagePairs = Batches[pagePairsKind]

// MakeEntries wraps col, a PCollection<KV<int, []byte>> of KindEntries
// batches keyed by shard; it panics if col holds another type. So do the
// other Make functions, each for its kind.
func MakeEntries(col beam.PCollection) Entries { return makeBatches[entriesKind](col) }

// MakeSentences wraps col, of KindSentences batches.
func MakeSentences(col beam.PCollection) Sentences { return makeBatches[sentencesKind](col) }

// MakePageInfos wraps col, of KindPageInfos batches.
func MakePageInfos(col beam.PCollection) PageInfos { return makeBatches[pageInfosKind](col) }

// MakeCandidates wraps col, of KindCandidates batches.
func MakeCandidates(col beam.PCollection) Candidates { return makeBatches[candidatesKind](col) }

// MakeEdges wraps col, of KindEdges batches.
func MakeEdges(col beam.PCollection) Edges { return makeBatches[edgesKind](col) }

// MakeSimilarities wraps col, of KindSimilarities batches.
func MakeSimilarities(col beam.PCollection) Similarities {
	return makeBatches[similaritiesKind](col)
}

// MakeLabels wraps col, of KindLabels batches.
func MakeLabels(col beam.PCollection) Labels { return makeBatches[labelsKind](col) }

// MakeLines wraps col, of KindLines batches.
func MakeLines(col beam.PCollection) Lines { return makeBatches[linesKind](col) }

// MakePagePairs wraps col, of KindPagePairs batches.
func MakePagePairs(col beam.PCollection) PagePairs { return makeBatches[pagePairsKind](col) }
