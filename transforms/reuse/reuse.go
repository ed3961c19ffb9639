// Package reuse finds text reuse between web pages and Wikipedia articles:
// it turns the passages that package passage finds between a web page and
// an article into reuse cases, classifies each as content or structure
// reuse, and summarises them per web site, per article and as a graph.
//
// It follows chapter 4 of the seed thesis (Alshomary, seed 001). A case is
// one (web page, article) pair that shares at least one passage. Content
// reuse is text copied about the same subject; structure reuse is the same
// phrasing about another subject, a template filled with other names and
// numbers. Classify decides from the features of a case's matched texts by
// rules applied in order, the first that holds naming the kind.
//
//   - Options.Web names the web corpora; every other document is an
//     article, and a passage between two of one side is no case.
//
// The features, the rules and why they differ from the thesis:
// docs/reuse.md, "How a case is classified".
package reuse

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/neardup/neardup/transforms/passage"
)

// Kind is a case's class: content or structure reuse.
type Kind string

// The kinds of reuse.
const (
	Content   Kind = "content"   // the same text about the same subject
	Structure Kind = "structure" // the same phrasing about another subject
)

// Case is one line of reuse-*.jsonl: a web page and a Wikipedia article
// that share at least one passage.
type Case struct {
	// URL is the web page's address; Host its host, lower-case, without
	// "www." or a port, an internationalised name in Unicode (Host).
	URL  string `json:"url"`
	Host string `json:"host"`
	// Web is the web page; Article the Wikipedia article.
	Web     WebPage `json:"web"`
	Article Article `json:"article"`
	// Kind is "content" or "structure" (Classify); Evidence.Rule says
	// which rule decided.
	Kind Kind `json:"kind"`
	// SharePage is the page's in-window sentences inside some passage of
	// the pair over all of them; ShareArticle the same for the article.
	SharePage    float64 `json:"share_of_page"`
	ShareArticle float64 `json:"share_of_article"`
	// Evidence is the features the kind was decided on.
	Evidence Evidence `json:"evidence"`
	// Passages are the shared passages, by the page's first ordinal.
	Passages []Passage `json:"passages"`
}

// WebPage identifies a case's web page.
type WebPage struct {
	ID     string `json:"id"`             // corpus:page_id:rev_id, as in passages-*.jsonl
	Corpus string `json:"corpus"`         // the web corpus's name
	PageID int64  `json:"page_id"`        // the record's offset in its WARC file
	Doc    string `json:"doc"`            // the WARC-Record-ID
	Title  string `json:"title"`          // the page's <title>
	Lang   string `json:"lang,omitempty"` // the page's language: <html lang>, Content-Language, a WET record's or a JSON line's
}

// Article identifies a case's Wikipedia article.
type Article struct {
	ID     string `json:"id"` // wiki:page_id:rev_id
	Wiki   string `json:"wiki"`
	PageID int64  `json:"page_id"`
	RevID  int64  `json:"rev_id"`
	Title  string `json:"title"`
}

// Passage is one passage of a case.
type Passage struct {
	// Web and Article are the passage's extent in each document.
	Web     Span `json:"web"`
	Article Span `json:"article"`
	// Matched is its number of matched sentence pairs, MeanJaccard their
	// mean Jaccard similarity, and Matches the pairs with their texts.
	Matched     int     `json:"matched"`
	MeanJaccard float64 `json:"mean_jaccard"`
	Matches     []Match `json:"matches"`
}

// Span is the extent of a passage in one document.
type Span struct {
	// First and Last are the ordinals of the passage's first and last
	// matched sentences.
	First int `json:"first"`
	Last  int `json:"last"`
	// Sentences is how many in-window sentences the passage spans.
	Sentences int `json:"sentences"`
}

// Match is one matched sentence pair: each side's ordinal, their Jaccard
// similarity and both texts.
type Match struct {
	Web         int     `json:"web"`
	Article     int     `json:"article"`
	Jaccard     float64 `json:"jaccard"`
	WebText     string  `json:"web_text"`
	ArticleText string  `json:"article_text"`
}

// Evidence is what a case's kind was decided on.
type Evidence struct {
	// NGram2, NGram5 and NGram10 are the Jaccard similarities of the two
	// sides' word 2-, 5- and 10-gram sets.
	NGram2  float64 `json:"ngram2"`
	NGram5  float64 `json:"ngram5"`
	NGram10 float64 `json:"ngram10"`
	// Entities is the Jaccard similarity of their named entities.
	Entities float64 `json:"entities"`
	// OnlyWeb and OnlyArticle are the entities found on one side only,
	// the first MaxOnly of each in text order.
	OnlyWeb     []string `json:"only_web"`
	OnlyArticle []string `json:"only_article"`
	// Subject is the article's subject as looked for in the texts, and
	// SubjectMissing says it is named on the article's side only.
	Subject        string `json:"subject"`
	SubjectMissing bool   `json:"subject_missing"`
	// Rule is the rule that decided the kind: subject, H1, H2, entities
	// or web10 (see Classify).
	Rule Rule `json:"rule"`
}

// MaxOnly bounds the entities listed as found on one side only.
const MaxOnly = 10

// corpora is a set of corpus names: the web's.
type corpora map[string]bool

func newCorpora(names []string) corpora {
	c := corpora{}
	for _, n := range names {
		c[n] = true
	}
	return c
}

// orient returns the line's web document first and whether it was the
// line's B; ok is false unless exactly one document is a web page.
func (web corpora) orient(l *passage.Line) (w, a passage.Document, swapped, ok bool) {
	switch wa, wb := web[l.A.Wiki], web[l.B.Wiki]; {
	case wa && !wb:
		return l.A, l.B, false, true
	case wb && !wa:
		return l.B, l.A, true, true
	}
	return passage.Document{}, passage.Document{}, false, false
}

// pairKey is the key of a line's (web page, article) pair.
func (web corpora) pairKey(l *passage.Line) (string, bool) {
	w, a, _, ok := web.orient(l)
	return w.ID + "\x00" + a.ID, ok
}

var errNoLines = errors.New("reuse: a case without passages")

// NewCase makes the case of one (web page, article) pair from the pair's
// passage lines and its DocPair. web are the web corpora's names. Every
// line must be of the pair and have its matches' texts (passage.Find's
// Options.Text).
func NewCase(lines []passage.Line, pair passage.DocPair, web []string) (Case, error) {
	return newCase(lines, pair, newCorpora(web))
}

func newCase(lines []passage.Line, pair passage.DocPair, web corpora) (Case, error) {
	if len(lines) == 0 {
		return Case{}, errNoLines
	}
	w, a, _, ok := web.orient(&lines[0])
	if !ok {
		return Case{}, fmt.Errorf("reuse: %s and %s are not a web page and an article", lines[0].A.ID, lines[0].B.ID)
	}
	c := Case{
		URL: w.URL, Host: Host(w.URL),
		Web:     WebPage{ID: w.ID, Corpus: w.Wiki, PageID: w.PageID, Doc: w.Doc, Title: w.Title, Lang: w.Lang},
		Article: Article{ID: a.ID, Wiki: a.Wiki, PageID: a.PageID, RevID: a.RevID, Title: a.Title},
	}
	switch {
	case pair.A == w.ID && pair.B == a.ID:
		c.SharePage, c.ShareArticle = pair.ShareA, pair.ShareB
	case pair.B == w.ID && pair.A == a.ID:
		c.SharePage, c.ShareArticle = pair.ShareB, pair.ShareA
	default:
		return Case{}, fmt.Errorf("reuse: document pair %s, %s joined to the passages of %s, %s", pair.A, pair.B, w.ID, a.ID)
	}
	for i := range lines {
		p, err := c.passage(&lines[i], web)
		if err != nil {
			return Case{}, err
		}
		c.Passages = append(c.Passages, p)
	}
	slices.SortFunc(c.Passages, comparePassages)
	c.Evidence = evidence(c.Passages, a.Title)
	f := c.Evidence.features(c.SharePage, c.ShareArticle)
	c.Kind, c.Evidence.Rule = Classify(f)
	return c, nil
}

// passage turns a line of c's pair into one of c's passages.
func (c *Case) passage(l *passage.Line, web corpora) (Passage, error) {
	w, a, swapped, ok := web.orient(l)
	if !ok || w.ID != c.Web.ID || a.ID != c.Article.ID {
		return Passage{}, fmt.Errorf("reuse: a passage of %s and %s in the case of %s and %s", l.A.ID, l.B.ID, c.Web.ID, c.Article.ID)
	}
	if len(l.Matches) == 0 {
		return Passage{}, fmt.Errorf("reuse: a passage of %s and %s without its texts (passage.Options.Text)", l.A.ID, l.B.ID)
	}
	p := Passage{
		Web:     Span{First: w.First, Last: w.Last, Sentences: w.Sentences},
		Article: Span{First: a.First, Last: a.Last, Sentences: a.Sentences},
		Matched: l.Matched, MeanJaccard: l.MeanJaccard,
		Matches: make([]Match, len(l.Matches)),
	}
	for i, m := range l.Matches {
		p.Matches[i] = Match{Web: m.A, Article: m.B, Jaccard: m.Jaccard, WebText: m.TextA, ArticleText: m.TextB}
		if swapped {
			p.Matches[i] = Match{Web: m.B, Article: m.A, Jaccard: m.Jaccard, WebText: m.TextB, ArticleText: m.TextA}
		}
	}
	slices.SortFunc(p.Matches, func(x, y Match) int { return cmp.Or(cmp.Compare(x.Web, y.Web), cmp.Compare(x.Article, y.Article)) })
	return p, nil
}

func comparePassages(x, y Passage) int {
	return cmp.Or(cmp.Compare(x.Web.First, y.Web.First), cmp.Compare(x.Article.First, y.Article.First),
		cmp.Compare(x.Web.Last, y.Web.Last), cmp.Compare(x.Article.Last, y.Article.Last))
}

// SortKey is the sort key of the case's line in reuse-*.jsonl: a hash of
// the page's and the article's ids, so that lines are spread evenly and
// ordered the same whatever the sharding.
func (c *Case) SortKey() uint64 { return pairHash(c.Web.ID, c.Article.ID) }

// pairHash is the FNV-1a hash of two ids, each ended by a zero byte.
func pairHash(a, b string) uint64 { return hashWords([]string{a, b}) }

// Edge is what the summary needs of a case.
type Edge struct {
	Web       string  `json:"web"` // the page's id
	URL       string  `json:"url"`
	Host      string  `json:"host"`
	Article   string  `json:"article"` // the article's id
	Title     string  `json:"title"`
	Kind      Kind    `json:"kind"`
	SharePage float64 `json:"share_of_page"`
	Passages  int     `json:"passages"`
}

// Edge returns the case's edge of the reuse graph.
func (c *Case) Edge() Edge {
	return Edge{
		Web: c.Web.ID, URL: c.URL, Host: c.Host, Article: c.Article.ID, Title: c.Article.Title,
		Kind: c.Kind, SharePage: c.SharePage, Passages: len(c.Passages),
	}
}

// round rounds x to four decimals, as the outputs show measures.
func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }
