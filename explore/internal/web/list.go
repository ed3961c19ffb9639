package web

import (
	"net/http"
	"slices"

	"github.com/neardup/neardup/explore/internal/index"
)

// listBody is a page of clusters: the list's, or an article's.
type listBody struct {
	Path    string // the page's path, that the form submits to
	Filter  filter
	Kinds   []kindOption
	Error   string // a parameter that could not be read
	Matches int
	Total   int
	Page    int
	Pages   int
	Prev    string // URL of the previous page, "" on the first
	Next    string // URL of the next page, "" on the last
	Rows    []row
	Article *articleHead // on an article's page
}

// kindOption is a choice of the form's kind filter.
type kindOption struct {
	Kind     string
	Clusters int64
	Selected bool
}

// row is a cluster in a list.
type row struct {
	index.Entry
	URL    string
	Titles []articleLink // the first few
	More   int           // articles not in Titles
}

// articleLink is an article with the explorer's URL of it.
type articleLink struct {
	index.Article
	URL     string
	Current bool // the article of the page it is shown on
}

// rowTitles is how many titles a row of a list shows.
const rowTitles = 3

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	s.serveList(w, r, "/", nil, nil)
}

// serveList serves a page of the clusters the URL's filters select, and,
// for an article's page, have a member in it.
func (s *Server) serveList(w http.ResponseWriter, r *http.Request, path string, article *int, head *articleHead) {
	f, q, err := parseFilter(r.URL.Query())
	b := listBody{Path: path, Filter: f, Total: s.run.Len(), Article: head, Kinds: s.kindOptions(f.Kinds)}
	title := "Clusters"
	if head != nil {
		title = head.Title
	}
	if err != nil {
		b.Error = err.Error()
		s.render(w, http.StatusBadRequest, "list", title, b)
		return
	}
	q.Article = article
	p := s.run.Filter(q, (f.Page-1)*PerPage, PerPage)
	b.Matches, b.Page, b.Pages = p.Matches, f.Page, max(1, (p.Matches+PerPage-1)/PerPage)
	if f.Page > 1 {
		b.Prev = f.link(path, min(f.Page-1, b.Pages))
	}
	if f.Page < b.Pages {
		b.Next = f.link(path, f.Page+1)
	}
	for _, i := range p.Clusters {
		b.Rows = append(b.Rows, s.row(i, article))
	}
	s.render(w, http.StatusOK, "list", title, b)
}

// row returns cluster i as a list shows it; on an article's page (article
// not nil) that article comes first among its titles.
func (s *Server) row(i int, article *int) row {
	e := s.run.Entry(i)
	arts := e.Articles
	if article != nil {
		arts = slices.Clone(arts)
		slices.SortStableFunc(arts, func(a, b index.Article) int { return boolRank(b.Index == *article) - boolRank(a.Index == *article) })
	}
	rw := row{Entry: e, URL: clusterPath(e.ID), More: max(0, len(arts)-rowTitles)}
	for _, a := range arts[:min(len(arts), rowTitles)] {
		rw.Titles = append(rw.Titles, articleLink{a, articlePath(a.Wiki, a.PageID), article != nil && a.Index == *article})
	}
	return rw
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// kindOptions lists the run's categories for the form.
func (s *Server) kindOptions(selected []string) []kindOption {
	var out []kindOption
	for _, k := range s.run.Kinds() {
		out = append(out, kindOption{k.Kind, k.Clusters, slices.Contains(selected, k.Kind)})
	}
	return out
}
