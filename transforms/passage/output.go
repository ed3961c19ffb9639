package passage

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/minhash"
	"github.com/neardup/neardup/transforms/sentence"
)

// Bounded collects the points of one document pair, keeping the Max
// first in rank order whatever the order they come in, in O(k log Max)
// time and O(Max) memory for k points.
type Bounded struct {
	Max    int
	points []Point
	seen   int64
}

// Add adds a point.
func (b *Bounded) Add(p Point) {
	b.seen++
	b.points = append(b.points, p)
	if len(b.points) >= 2*b.Max {
		b.trim()
	}
}

func (b *Bounded) trim() {
	slices.SortFunc(b.points, comparePoints)
	b.points = b.points[:min(len(b.points), b.Max)]
}

// Take returns the kept points and how many were dropped.
func (b *Bounded) Take() ([]Point, int64) {
	if len(b.points) > b.Max {
		b.trim()
	}
	return b.points, b.seen - int64(len(b.points))
}

// Document is one side of a passage in passages-*.jsonl.
type Document struct {
	ID     string `json:"id"` // wiki:page_id:rev_id, as the sentences' ids without the ordinal
	Wiki   string `json:"wiki"`
	PageID int64  `json:"page_id"`
	RevID  int64  `json:"rev_id"`
	Doc    string `json:"doc,omitempty"` // a text corpus document's own id
	URL    string `json:"url,omitempty"`
	Lang   string `json:"lang,omitempty"` // a text document's own language
	Title  string `json:"title"`
	// First and Last are the ordinals (as in the sentences' ids) of the
	// passage's first and last matched sentences.
	First int `json:"first"`
	Last  int `json:"last"`
	// Sentences is how many in-window sentences the passage spans, and
	// Share that number over the document's in-window sentences.
	Sentences int     `json:"sentences"`
	Share     float64 `json:"share"`
}

// Match is one matched sentence pair of a passage, with its texts.
type Match struct {
	A       int     `json:"a"` // ordinal in document a
	B       int     `json:"b"`
	Jaccard float64 `json:"jaccard"`
	TextA   string  `json:"text_a"`
	TextB   string  `json:"text_b"`
}

// Line is one line of passages-*.jsonl: a passage that two documents
// share.
type Line struct {
	A           Document `json:"a"`
	B           Document `json:"b"`
	Matched     int      `json:"matched"`
	MeanJaccard float64  `json:"mean_jaccard"`
	Matches     []Match  `json:"matches,omitempty"` // with --passage_text
}

// DocPair is a document pair that shares passages, as summary.json lists
// the pairs that share the most.
type DocPair struct {
	A        string  `json:"a"`
	TitleA   string  `json:"title_a"`
	B        string  `json:"b"`
	TitleB   string  `json:"title_b"`
	Passages int64   `json:"passages"`
	Matched  int64   `json:"matched"`
	ShareA   float64 `json:"share_a"` // in-window sentences of a in some passage, over all of them
	ShareB   float64 `json:"share_b"`
}

// errSamePage says a document pair is two revisions of one page.
var errSamePage = errors.New("passage: two revisions of one page")

// writer turns a document pair's record into output lines.
type writer struct {
	wikis []string
	text  bool
	texts map[[3]uint64]string // by DocA, DocB and sentence id
}

// write emits each passage of r as a line with its sort key (its first
// sentence's id in document a) and returns the pair's DocPair.
func (w *writer) write(r *pairRecord, emit func(key uint64, line []byte)) (DocPair, error) {
	var a, b minhash.PageInfo
	if err := a.UnmarshalBinary(r.InfoA); err != nil {
		return DocPair{}, fmt.Errorf("page info of %#x: %w", r.DocA, err)
	}
	if err := b.UnmarshalBinary(r.InfoB); err != nil {
		return DocPair{}, fmt.Errorf("page info of %#x: %w", r.DocB, err)
	}
	if sentence.Doc(r.DocA).Wiki() == sentence.Doc(r.DocB).Wiki() && a.PageID == b.PageID {
		return DocPair{}, errSamePage
	}
	pair := DocPair{Passages: int64(len(r.Passages))}
	for _, p := range r.Passages {
		line := Line{Matched: len(p.Points), MeanJaccard: round(p.MeanJaccard())}
		spanA, spanB := p.Spans()
		line.A = w.document(a, p.First().OrdA, p.Last().OrdA, spanA)
		line.B = w.document(b, p.First().OrdB, p.Last().OrdB, spanB)
		if w.text {
			line.Matches = w.matches(r, p)
		}
		js, err := json.Marshal(line)
		if err != nil {
			return DocPair{}, err
		}
		key := uint64(sentence.Doc(r.DocA).Sentence(p.First().OrdA))
		emit(key, result.Record(key, js))
		pair.Matched += int64(len(p.Points))
		pair.A, pair.TitleA = line.A.ID, line.A.Title
		pair.B, pair.TitleB = line.B.ID, line.B.Title
	}
	pair.ShareA, pair.ShareB = share(r.CoveredA, a), share(r.CoveredB, b)
	return pair, nil
}

// document describes one side of a passage.
func (w *writer) document(info minhash.PageInfo, first, last, span int) Document {
	doc := sentence.Doc(info.Doc)
	wiki := ""
	if i := doc.Wiki(); i < len(w.wikis) {
		wiki = w.wikis[i]
	}
	return Document{
		ID:   wiki + ":" + strconv.FormatInt(info.PageID, 10) + ":" + strconv.FormatInt(doc.Rev(), 10),
		Wiki: wiki, PageID: info.PageID, RevID: doc.Rev(), Doc: info.Name, URL: info.URL, Lang: info.Lang, Title: info.Title,
		First: first, Last: last, Sentences: span, Share: share(span, info),
	}
}

// matches lists a passage's matched pairs with their texts.
func (w *writer) matches(r *pairRecord, p Passage) []Match {
	out := make([]Match, len(p.Points))
	for i, pt := range p.Points {
		out[i] = Match{
			A: pt.OrdA, B: pt.OrdB, Jaccard: round(pt.Jaccard),
			TextA: w.texts[[3]uint64{r.DocA, r.DocB, uint64(sentence.Doc(r.DocA).Sentence(pt.OrdA))}],
			TextB: w.texts[[3]uint64{r.DocA, r.DocB, uint64(sentence.Doc(r.DocB).Sentence(pt.OrdB))}],
		}
	}
	return out
}

// share is n over the document's in-window sentences, rounded.
func share(n int, info minhash.PageInfo) float64 {
	return round(float64(n) / float64(cmp.Or(info.Counts.InWindow, 1)))
}

// round rounds x to four decimals, as the outputs show measures.
func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }
