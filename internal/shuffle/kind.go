package shuffle

import (
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// Kind says what a batch holds. It is the batch's first byte, so a stage fed
// the wrong kind fails with an error naming both kinds.
type Kind byte

// The kinds of batch, in the order the pipeline makes them.
const (
	KindEntries      Kind = 'e' // (band key, sentence id) delta pairs, by the band key's shard
	KindSentences    Kind = 's' // encoded sentence.Sentence records, by the id's shard
	KindPageInfos    Kind = 'i' // encoded minhash.PageInfo records, by the document's shard
	KindCandidates   Kind = 'c' // candidate edges (U, V), by U's shard
	KindHalfEdges    Kind = 'h' // uvarint V then U's encoded sentence, by V's shard
	KindEdges        Kind = 'g' // verified edges (U, V), by component.Shard
	KindNeighbours   Kind = 'n' // (node, neighbour) pairs, by the node's shard (components' star rounds)
	KindTargets      Kind = 'o' // (node, the node whose label it takes), by the latter's shard (components)
	KindSimilarities Kind = 'm' // encoded verify.Edge records, by U's shard
	KindLabels       Kind = 'l' // (sentence id, component) pairs, by the id's shard
	KindParts        Kind = 'p' // a component's members and edges, by the component's shard
	KindLines        Kind = 'j' // result.Record output lines, by output shard
	KindRevisions    Kind = 'r' // a page's revision and its sentences, by the page's shard (changes)
	KindMatches      Kind = 'x' // encoded verify.Edge records, by their document pair's shard (passage)
	KindPassages     Kind = 'q' // a document pair's passages, by one document's or the pair's shard (passage)
	KindTexts        Kind = 't' // sentence texts asked for by passages, by the sentence's or the pair's shard (passage)
	KindWindows      Kind = 'w' // (permuted signature, sentence id) delta pairs, by permutation and signature range (simhash)
	KindPrefixes     Kind = 'f' // prefix-token entries of shingle sets, by the token's shard (exact join)
	KindPagePairs    Kind = 'a' // encoded cluster.PairCount records, by the page pair's shard (top article pairs)
	KindClaims       Kind = 'k' // a wiki's index and an encoded alias.Claim, by the name's shard (alias table)
)

type encoding int

const (
	unknown encoding = iota
	records
	pairs
	deltaPairs
)

// kinds describes each kind, indexed by its byte: the encoders look a
// kind up for every record, so a table, not a map.
var kinds = [256]struct {
	name string
	enc  encoding
}{
	KindEntries:      {"signature entries", deltaPairs},
	KindSentences:    {"sentences", records},
	KindPageInfos:    {"page infos", records},
	KindCandidates:   {"candidate edges", pairs},
	KindHalfEdges:    {"half-joined edges", records},
	KindEdges:        {"verified edges", pairs},
	KindNeighbours:   {"neighbours", pairs},
	KindTargets:      {"label targets", pairs},
	KindSimilarities: {"edge similarities", records},
	KindLabels:       {"component labels", pairs},
	KindParts:        {"component parts", records},
	KindLines:        {"output lines", records},
	KindRevisions:    {"page revisions", records},
	KindMatches:      {"passage matches", records},
	KindPassages:     {"document pairs' passages", records},
	KindTexts:        {"passage texts", records},
	KindWindows:      {"permuted simhash signatures", deltaPairs},
	KindPrefixes:     {"prefix entries", records},
	KindPagePairs:    {"page pair counts", records},
	KindClaims:       {"alias claims", records},
}

func (k Kind) String() string {
	if kinds[k].enc != unknown {
		return kinds[k].name
	}
	if k&spillFlag != 0 && kinds[k&^spillFlag].enc != unknown {
		return "spilled " + kinds[k&^spillFlag].name
	}
	return fmt.Sprintf("unknown kind %#02x", byte(k))
}

func (k Kind) encoding() encoding {
	if enc := kinds[k].enc; enc != unknown {
		return enc
	}
	panic(fmt.Sprintf("shuffle: %v", k))
}

// body checks that b is a batch of kind k, whose encoding is enc, and
// returns what follows the kind byte.
func (k Kind) body(b []byte, enc encoding) ([]byte, error) {
	if k.encoding() != enc {
		return nil, fmt.Errorf("shuffle: %v are not decoded that way", k)
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: empty batch where %v were expected", ErrCorrupt, k)
	}
	if b[0] == byte(k)|spillFlag {
		var err error
		if b, err = load(b); err != nil {
			return nil, err
		}
	}
	if got := Kind(b[0]); got != k {
		return nil, fmt.Errorf("shuffle: a batch of %v where %v were expected", got, k)
	}
	return b[1:], nil
}

// The typed collections that cross the pipeline's stage boundaries: each
// is a PCollection<KV<int, []byte>> of batches of one kind keyed by shard,
// wrapped so that a composite states which kind it takes and returns.

// Entries are KindEntries batches (minhash.Sign → bucket.Candidates).
type Entries struct{ beam.PCollection }

// Sentences are KindSentences batches (minhash.Sign → verify, cluster, outputs).
type Sentences struct{ beam.PCollection }

// PageInfos are KindPageInfos batches (minhash.Sign → rereads.Count).
type PageInfos struct{ beam.PCollection }

// Candidates are KindCandidates batches (bucket.Candidates → verify.Edges).
type Candidates struct{ beam.PCollection }

// Edges are KindEdges batches (verify.Edges → component.Labels).
type Edges struct{ beam.PCollection }

// Similarities are KindSimilarities batches (verify.Edges → cluster.Assemble).
type Similarities struct{ beam.PCollection }

// Labels are KindLabels batches (component.Labels → cluster.Assemble).
type Labels struct{ beam.PCollection }

// Passages are KindPassages batches (passage.Find's stages).
type Passages struct{ beam.PCollection }

// Lines are KindLines batches of output lines (→ result.Write).
type Lines struct{ beam.PCollection }

// PagePairs are KindPagePairs batches (cluster.Assemble → summary.TopPairs).
type PagePairs struct{ beam.PCollection }
