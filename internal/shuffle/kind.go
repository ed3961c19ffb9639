package shuffle

import "fmt"

// Kind says what a batch holds. It is the batch's first byte, so a stage fed
// the wrong kind fails with an error naming both kinds.
type Kind byte

// The kinds of batch, in the order the pipeline makes them. Each says what
// its records are, which shard keys a batch, which stages make and read
// it, and how one record is laid out; the batch around the records is the
// package comment's. This is the one place the layouts are written down:
// a codec elsewhere names the kind it encodes for.
//
// In the layouts, uvarint and varint are encoding/binary's; a string is
// its length as a uvarint, then its bytes (varint.AppendString); fixed-size
// numbers are little-endian unless said otherwise; a float is its IEEE 754
// bits in 8 bytes. A pair is A then B in 8 bytes each; a delta pair is A
// in 8 bytes and the varint of B minus the previous pair's B in the batch
// (0 before the first).
const (
	// KindEntries are (band key, sentence id) delta pairs by the band
	// key's shard (minhash.Sign → bucket.Candidates), and (set
	// fingerprint, sentence id) by the fingerprint's shard in exactjoin.
	KindEntries Kind = 'e'

	// KindSentences are sentence.Sentence records by the id's shard
	// (minhash.Sign → docfreq, the candidate schemes, verify, cluster,
	// passage, the sentence lines): uvarint ID, PageID, RevID and Rank,
	// the Context byte, then the strings Wiki, Title, Section and Text. A
	// reader that needs the id alone decodes the first uvarint
	// (sentence.ID.UnmarshalPrefix).
	KindSentences Kind = 's'

	// KindPageInfos are minhash.PageInfo records by the document's shard
	// (minhash.Sign → rereads, passage): uvarint Doc, varint PageID and
	// Offset, TextHash in 4 bytes, the varints of Counts' Sentences,
	// TooShort, TooLong, InWindow, Signatures, Cut and Debris, then the
	// strings File, Title, Name, URL and Lang.
	KindPageInfos Kind = 'i'

	// KindCandidates are candidate edges, pairs (U, V) of sentence ids, by
	// U's shard (bucket, simhash, exactjoin → verify).
	KindCandidates Kind = 'c'

	// KindHalfEdges are candidate edges joined with U's sentence, by V's
	// shard (within verify): uvarint V, then U's KindSentences record.
	KindHalfEdges Kind = 'h'

	// KindEdges are verified edges, pairs (U, V), by shuffle.EdgeShard of
	// round 0 (verify → component) and of each later round (component).
	KindEdges Kind = 'g'

	// KindNeighbours are (node, neighbour) pairs by the node's shard
	// (within component: its star rounds).
	KindNeighbours Kind = 'n'

	// KindTargets are (node, the node whose label it takes) pairs by the
	// latter's shard (within component).
	KindTargets Kind = 'o'

	// KindSimilarities are verify.Edge records by U's shard (verify →
	// cluster, passage), 40 bytes: U and V in 8 bytes each, RankU and
	// RankV in 4 each, then the floats Similarity.Jaccard and
	// Similarity.Edit.
	KindSimilarities Kind = 'm'

	// KindLabels are (sentence id, component) pairs by the id's shard
	// (component → cluster).
	KindLabels Kind = 'l'

	// KindParts are the members and edges of a component by the
	// component's shard (within cluster): uvarint component, a tag byte,
	// then for 'm' a member's KindSentences record, for 'e' an edge's
	// KindSimilarities record.
	KindParts Kind = 'p'

	// KindLines are output lines by output shard (every output →
	// result.Write): the line's sort key in 8 bytes big-endian, then the
	// line to the record's end (result.Record).
	KindLines Kind = 'j'

	// KindRevisions are a page's revision and its sentences by the page's
	// shard (within changes): uvarint wiki index, page id, revision id and
	// sentence count, the string Title, then for each sentence the
	// uvarint ordinal, the Context byte and the strings Section and Text.
	KindRevisions Kind = 'r'

	// KindMatches are verify.Edge records, laid out as KindSimilarities',
	// by their document pair's shard (within passage).
	KindMatches Kind = 'x'

	// KindPassages are a document pair's passages by one document's or the
	// pair's shard (within passage): uvarint DocA, DocB, CoveredA, CoveredB
	// and the number of passages; for each passage the uvarint number of
	// points, and for each point uvarint RankA, RankB, OrdA and OrdB and
	// the float Jaccard; then InfoA and InfoB, each a KindPageInfos record
	// (empty until joined) as a string.
	KindPassages Kind = 'q'

	// KindTexts are sentence texts asked for by passages, by the
	// sentence's shard (the request, with no text) or the pair's (the
	// answer), within passage: uvarint DocA, DocB and sentence id, then the
	// text to the record's end.
	KindTexts Kind = 't'

	// KindWindows are (permuted signature, sentence id) delta pairs by
	// permutation and signature range (within simhash; a seam's batch
	// starts with a header pair, simhash.Seam).
	KindWindows Kind = 'w'

	// KindPrefixes are the prefix entries of one shingle set that go to
	// one shard, by the shingle's shard (within exactjoin): uvarint sentence
	// id, the set's fingerprint in 8 bytes, uvarint set size and number of
	// entries, then for each entry its shingle in 8 bytes and uvarint
	// position in the set's order (exactjoin.Entry).
	KindPrefixes Kind = 'f'

	// KindPagePairs are cluster.PairCount records by the page pair's shard
	// (cluster.Assemble → summary.TopPairs): uvarint PageA, PageB and
	// Clusters, then the strings WikiA, WikiB, TitleA and TitleB.
	KindPagePairs Kind = 'a'

	// KindClaims are alias.Claim records by the name's shard (within
	// alias): uvarint wiki index, the claim's Kind byte, the strings Key,
	// Name and Article, then uvarint Doc.
	KindClaims Kind = 'k'
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
