package web

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/neardup/neardup/explore/internal/index"
	"github.com/neardup/neardup/transforms/categorize"
)

// pairFilter is the pairs list's filters as the URL's query gives them,
// kept as written so that the form shows them again.
type pairFilter struct {
	Title      string
	Wiki       string
	ShareMin   string
	MatchedMin string
	Sort       string // one of index.PairSorts
	Page       int
}

// parsePairFilter reads the filters of the pairs list.
func parsePairFilter(v url.Values) (pairFilter, index.PairQuery, error) {
	f := pairFilter{Title: v.Get("title"), Wiki: strings.TrimSpace(v.Get("wiki")), ShareMin: strings.TrimSpace(v.Get("share_min")),
		MatchedMin: strings.TrimSpace(v.Get("matched_min")), Sort: v.Get("sort"), Page: 1}
	q := index.PairQuery{Title: f.Title, Wiki: f.Wiki}
	share, err := fraction("share_min", f.ShareMin)
	if err != nil {
		return f, q, err
	}
	if share != nil {
		q.ShareMin = *share
	}
	if q.MatchedMin, err = wholeNumber("matched_min", f.MatchedMin); err != nil {
		return f, q, err
	}
	if f.Sort == "" {
		f.Sort = index.PairSorts[0]
	}
	if !slices.Contains(index.PairSorts, f.Sort) {
		return f, q, fmt.Errorf("sort: %q is not a sort order; use %s", f.Sort, strings.Join(index.PairSorts, ", "))
	}
	q.Sort = f.Sort
	if f.Page, err = pageNumber(v.Get("page")); err != nil {
		return f, q, err
	}
	return f, q, nil
}

// link is the URL of the pairs list with f's query on page p.
func (f pairFilter) link(p int) string {
	v := url.Values{}
	for _, kv := range [][2]string{{"title", f.Title}, {"wiki", f.Wiki}, {"share_min", f.ShareMin}, {"matched_min", f.MatchedMin}} {
		if kv[1] != "" {
			v.Set(kv[0], kv[1])
		}
	}
	if f.Sort != index.PairSorts[0] {
		v.Set("sort", f.Sort)
	}
	if p > 1 {
		v.Set("page", strconv.Itoa(p))
	}
	if q := v.Encode(); q != "" {
		return "/pairs?" + q
	}
	return "/pairs"
}

// exportLink is the URL of the export of f's pairs (every page).
func (f pairFilter) exportLink(format string) string {
	l := f.link(1)
	if q, ok := strings.CutPrefix(l, "/pairs?"); ok {
		return "/pairs/export." + format + "?" + q
	}
	return "/pairs/export." + format
}

// pairsBody is a page of document pairs.
type pairsBody struct {
	Filter     pairFilter
	Sorts      []string
	Wikis      []string
	Error      string
	Matches    int
	Total      int
	Passages   int
	Page       int
	Pages      int
	Prev, Next string
	Rows       []pairRow
	HasText    bool // the run's passages carry their texts
	// ExportJSONL and ExportCSV are the URLs of the export of every pair
	// of the filter.
	ExportJSONL, ExportCSV string
	Files                  bool // the run wrote passages files
}

// pairRow is a document pair in a list.
type pairRow struct {
	index.DocPair
	URL        string
	ALink      string // the explorer's page of each article, "" if no cluster has a member in it
	BLink      string
	NPassages  int
	ShareLabel string
}

func (s *Server) pairs(w http.ResponseWriter, r *http.Request) {
	f, q, err := parsePairFilter(r.URL.Query())
	b := pairsBody{Filter: f, Sorts: index.PairSorts, Wikis: s.wikiNames(), Total: s.run.PairCount(),
		Passages: s.run.PassageCount(), Files: s.run.HasPassages()}
	if err != nil {
		b.Error = err.Error()
		s.render(w, http.StatusBadRequest, "pairs", "Document pairs", b)
		return
	}
	b.ExportJSONL, b.ExportCSV = f.exportLink("jsonl"), f.exportLink("csv")
	p := s.run.FilterPairs(q, (f.Page-1)*PerPage, PerPage)
	b.Matches, b.Page, b.Pages = p.Matches, f.Page, max(1, (p.Matches+PerPage-1)/PerPage)
	if f.Page > 1 {
		b.Prev = f.link(min(f.Page-1, b.Pages))
	}
	if f.Page < b.Pages {
		b.Next = f.link(f.Page + 1)
	}
	for _, i := range p.Clusters {
		b.Rows = append(b.Rows, s.pairRow(s.run.Pair(i)))
	}
	if s.run.PassageCount() > 0 {
		b.HasText = s.run.Passage(0).HasText
	}
	s.render(w, http.StatusOK, "pairs", "Document pairs", b)
}

func (s *Server) pairRow(p index.DocPair) pairRow {
	return pairRow{DocPair: p, URL: pairPath(p.A.ID, p.B.ID, 0), ALink: s.articleLink(p.A.Wiki, p.A.PageID),
		BLink: s.articleLink(p.B.Wiki, p.B.PageID), NPassages: len(p.Passages)}
}

// articleLink is the explorer's page of an article, "" if no cluster has
// a member in it.
func (s *Server) articleLink(wiki string, page int64) string {
	if _, ok := s.run.FindArticle(wiki, page); ok {
		return articlePath(wiki, page)
	}
	return ""
}

// wikiNames lists the wikis of the run's passages' documents.
func (s *Server) wikiNames() []string {
	var out []string
	for i := range s.run.PairCount() {
		p := s.run.Pair(i)
		for _, w := range []string{p.A.Wiki, p.B.Wiki} {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	slices.Sort(out)
	return out
}

// pairPath is the explorer's page of a document pair, showing its
// passage k side by side.
func pairPath(a, b string, k int) string {
	p := "/pair/" + url.PathEscape(a) + "/" + url.PathEscape(b)
	if k > 0 {
		p += "?passage=" + strconv.Itoa(k)
	}
	return p
}

// pairBody is a document pair's page.
type pairBody struct {
	Pair     pairRow
	AURL     string // the documents on their wikis, "" if not known
	BURL     string
	Passages []passageTab
	Current  int // the passage shown, from 0
	Passage  index.Passage
	Text     index.PassageText
	Rows     []alignedRow
}

// passageTab is a passage of the pair, linked.
type passageTab struct {
	index.Passage
	URL     string
	Current bool
}

// alignedRow is a matched sentence pair with its changed words cut out.
type alignedRow struct {
	index.Aligned
	SegA, SegB []categorize.Segment
	Changed    bool
	ClusterURL string
}

func (s *Server) pair(w http.ResponseWriter, r *http.Request) {
	a, b := r.PathValue("a"), r.PathValue("b")
	i, ok := s.run.FindPair(a, b)
	if !ok {
		s.fail(w, http.StatusNotFound, "Documents %s and %s share no passage in this run.", a, b)
		return
	}
	p := s.run.Pair(i)
	k := 0
	if arg := r.URL.Query().Get("passage"); arg != "" {
		n, err := strconv.Atoi(arg)
		if err != nil || n < 0 || n >= len(p.Passages) {
			s.fail(w, http.StatusNotFound, "passage=%q: this pair has passages 0 to %d.", arg, len(p.Passages)-1)
			return
		}
		k = n
	}
	body := pairBody{Pair: s.pairRow(p), AURL: s.wikiURL(p.A.Wiki, p.A.Title), BURL: s.wikiURL(p.B.Wiki, p.B.Title), Current: k}
	for n, pi := range p.Passages {
		body.Passages = append(body.Passages, passageTab{Passage: s.run.Passage(pi), URL: pairPath(p.A.ID, p.B.ID, n), Current: n == k})
	}
	body.Passage = s.run.Passage(p.Passages[k])
	text, err := s.run.PassageText(r.Context(), p.Passages[k])
	if err != nil {
		s.fail(w, http.StatusInternalServerError, "The passage cannot be shown: %v", err)
		return
	}
	body.Text = text
	for _, row := range text.Rows {
		segA, segB := categorize.Segments(row.TextA, row.TextB)
		ar := alignedRow{Aligned: row, SegA: segA, SegB: segB}
		for _, sg := range segB {
			ar.Changed = ar.Changed || sg.Changed
		}
		if row.Cluster != "" {
			ar.ClusterURL = clusterPath(row.Cluster)
		}
		body.Rows = append(body.Rows, ar)
	}
	s.render(w, http.StatusOK, "pair", p.A.Title+" · "+p.B.Title, body)
}
