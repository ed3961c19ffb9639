// Package dedup decides what a deduplicated corpus leaves out, the lines of
// duplicates-*.jsonl (--emit_duplicates):
//
//   - of each cluster of near-duplicate sentences, every member but one
//     representative: the member of the smallest (wiki, page id, revision,
//     ordinal), which is the cluster's id. In a text corpus that is the
//     first copy in file order (page ids are line numbers); in a wiki, the
//     copy on the oldest page (MediaWiki numbers pages as they are created).
//     The rule reads nothing but the members' ids, so every runner and
//     every sharding chooses the same one;
//   - every document whose passages shared with one earlier document (the
//     same order: wiki, page id, revision) cover at least a share of its
//     in-window sentences: a document mostly copied from one before it.
//
// The two kinds are two ways to deduplicate, not one: removing the listed
// sentences keeps one copy of every sentence (and every sentence of a
// document that only partly repeats another), while dropping the listed
// documents keeps the first of near-duplicate documents whole, as
// document-level deduplication does (datatrove's and NeMo Curator's
// MinHash deduplication, text-dedup). Text rebuilds a document's text
// without its removed sentences, for the deduplicated copy of a corpus.
//
// The package is free of Beam; pipelines/sentences runs it.
package dedup

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// Kinds of a line of duplicates-*.jsonl.
const (
	KindSentence = "sentence"
	KindDocument = "document"
)

// DefaultMinShare is --duplicate_share's default: a document is a
// duplicate when passages shared with one earlier document cover at least
// 80% of its in-window sentences. Near-duplicate documents share nearly
// all of both (the same page crawled twice: 1), while a document quoting
// a paragraph of another shares a small part; 0.8 is the Jaccard
// similarity at which the MinHash deduplication of datatrove, NeMo Curator
// and text-dedup calls two documents duplicates.
const DefaultMinShare = 0.8

// Member is a sentence of a cluster, as its line in the outputs names it.
type Member struct {
	ID       string // wiki:page_id:rev_id:sentence
	Wiki     string
	PageID   int64
	RevID    int64
	Sentence int // ordinal in its page
}

// SentenceLine is a line of duplicates-*.jsonl removing a sentence.
type SentenceLine struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	DuplicateOf string `json:"duplicate_of"`
	ClusterID   string `json:"cluster_id"`
	Wiki        string `json:"wiki"`
	PageID      int64  `json:"page_id"`
	RevID       int64  `json:"rev_id"`
	Sentence    int    `json:"sentence"`
}

// RemoveSentence returns the line removing m, a member of the cluster
// whose id is clusterID ("" when m is in no cluster), and whether m is to
// be removed: it is in a cluster and is not its representative, the
// member whose id the cluster's is.
func RemoveSentence(m Member, clusterID string) (SentenceLine, bool) {
	if clusterID == "" || clusterID == m.ID {
		return SentenceLine{}, false
	}
	return SentenceLine{ID: m.ID, Kind: KindSentence, DuplicateOf: clusterID, ClusterID: clusterID,
		Wiki: m.Wiki, PageID: m.PageID, RevID: m.RevID, Sentence: m.Sentence}, true
}

// DocID is a document's id, wiki:page_id:rev_id, taken apart.
type DocID struct {
	Wiki   string
	PageID int64
	RevID  int64
}

// ParseDocID parses wiki:page_id:rev_id; the wiki's name may hold colons.
func ParseDocID(s string) (DocID, error) {
	rest, rev, ok := cutLast(s)
	wiki, page, ok2 := cutLast(rest)
	if !ok || !ok2 || wiki == "" {
		return DocID{}, fmt.Errorf("dedup: document id %q is not wiki:page_id:rev_id", s)
	}
	p, err := strconv.ParseInt(page, 10, 64)
	if err != nil {
		return DocID{}, fmt.Errorf("dedup: document id %q: page id: %w", s, err)
	}
	r, err := strconv.ParseInt(rev, 10, 64)
	if err != nil {
		return DocID{}, fmt.Errorf("dedup: document id %q: revision: %w", s, err)
	}
	return DocID{Wiki: wiki, PageID: p, RevID: r}, nil
}

func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// String formats d as wiki:page_id:rev_id.
func (d DocID) String() string {
	return d.Wiki + ":" + strconv.FormatInt(d.PageID, 10) + ":" + strconv.FormatInt(d.RevID, 10)
}

// Compare orders documents by wiki, page id and revision: the order of
// the clusters' members, in which the first is kept.
func (d DocID) Compare(o DocID) int {
	return cmp.Or(cmp.Compare(d.Wiki, o.Wiki), cmp.Compare(d.PageID, o.PageID), cmp.Compare(d.RevID, o.RevID))
}

// Pair is a pair of documents that share passages, with the share of
// each one's in-window sentences inside them (passage.DocPair's fields).
type Pair struct {
	A, B           string // wiki:page_id:rev_id
	ShareA, ShareB float64
}

// Cover says that passages shared with the earlier document By cover
// Share of the in-window sentences of Doc.
type Cover struct {
	Doc, By DocID
	Share   float64
}

// Covered returns the cover of the later document of p by the earlier
// (DocID.Compare), and whether it reaches minShare: then the later one is
// a duplicate. A document that shares most of itself with a later, longer
// one is not: it came first, and the later one's copies of its sentences
// are what the sentence lines remove.
func Covered(p Pair, minShare float64) (Cover, bool, error) {
	a, err := ParseDocID(p.A)
	if err != nil {
		return Cover{}, false, err
	}
	b, err := ParseDocID(p.B)
	if err != nil {
		return Cover{}, false, err
	}
	c := Cover{Doc: b, By: a, Share: p.ShareB}
	if b.Compare(a) < 0 {
		c = Cover{Doc: a, By: b, Share: p.ShareA}
	}
	return c, c.Share >= minShare, nil
}

// Best returns the cover a duplicate document is listed under, of the
// covers of that document: the largest share, then the earliest document
// covering it. covers must not be empty.
func Best(covers []Cover) Cover {
	best := covers[0]
	for _, c := range covers[1:] {
		if c.Share > best.Share || c.Share == best.Share && c.By.Compare(best.By) < 0 {
			best = c
		}
	}
	return best
}

// DocumentLine is a line of duplicates-*.jsonl removing a document.
type DocumentLine struct {
	ID          string  `json:"id"`
	Kind        string  `json:"kind"`
	DuplicateOf string  `json:"duplicate_of"`
	Wiki        string  `json:"wiki"`
	PageID      int64   `json:"page_id"`
	RevID       int64   `json:"rev_id"`
	Share       float64 `json:"share"`
}

// Line returns the line removing c's document.
func (c Cover) Line() DocumentLine {
	return DocumentLine{ID: c.Doc.String(), Kind: KindDocument, DuplicateOf: c.By.String(),
		Wiki: c.Doc.Wiki, PageID: c.Doc.PageID, RevID: c.Doc.RevID, Share: c.Share}
}
