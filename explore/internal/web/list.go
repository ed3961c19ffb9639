package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"golang.org/x/sync/errgroup"

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
	// ExportJSONL and ExportCSV are the URLs of the export of every
	// cluster of the filter.
	ExportJSONL, ExportCSV string
	// Texts says, when the sentence index is not built, why the rows show
	// no sentence and a sentence search finds nothing yet.
	Texts string
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
	Sentence string // its first member's text
	URL      string
	Titles   []articleLink // the first few
	More     int           // articles not in Titles
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
	b.ExportJSONL, b.ExportCSV = f.exportLink(path, "jsonl"), f.exportLink(path, "csv")
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
	b.Texts = s.sentences(r.Context(), b.Rows)
	if p.TextsPending {
		b.Error = "text: " + b.Texts
		s.render(w, http.StatusServiceUnavailable, "list", title, b)
		return
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

// sentences sets each row's sentence from the sentence index, or, while
// it is being built, from the clusters' lines, one range read each, and
// returns what the index's state is if it is not built.
func (s *Server) sentences(ctx context.Context, rows []row) string {
	st := s.run.TextState()
	if st.Ready {
		for k := range rows {
			rows[k].Sentence, _ = s.run.Shown(rows[k].Index)
		}
		return ""
	}
	var g errgroup.Group
	g.SetLimit(16)
	for k := range rows {
		g.Go(func() error {
			if c, err := s.run.ReadCluster(ctx, rows[k].Index); err == nil && len(c.Members) > 0 {
				rows[k].Sentence = c.Members[0].Text
			}
			return nil
		})
	}
	g.Wait()
	switch {
	case st.Disabled:
		return "the explorer was started with --sentence_index_mb -1: no sentence search"
	case st.Err != nil:
		return fmt.Sprintf("the sentence index could not be built (%v): no sentence search", st.Err)
	}
	return fmt.Sprintf("the sentence index is being built (%d of %d MB of clusters read): search again in a moment",
		st.Read>>20, (st.Of+1<<20-1)>>20)
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
