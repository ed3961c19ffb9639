package web

import (
	"io"
	"net/http"
	"strconv"
)

// articleHead is what an article's page says of the article.
type articleHead struct {
	Title   string
	Wiki    string
	PageID  int64
	WikiURL string
}

func (s *Server) article(w http.ResponseWriter, r *http.Request) {
	wiki, pageArg := r.PathValue("wiki"), r.PathValue("page")
	page, err := strconv.ParseInt(pageArg, 10, 64)
	if err != nil {
		s.fail(w, http.StatusNotFound, "%q is not a page id: an article's page is /article/WIKI/PAGE_ID.", pageArg)
		return
	}
	i, ok := s.run.FindArticle(wiki, page)
	if !ok {
		s.fail(w, http.StatusNotFound, "No cluster of this run has a member in page %d of %s.", page, wiki)
		return
	}
	a := s.run.Article(i)
	head := &articleHead{Title: a.Title, Wiki: a.Wiki, PageID: a.PageID, WikiURL: s.wikiURL(a.Wiki, a.Title)}
	s.serveList(w, r, articlePath(wiki, page), &i, head)
}

func (s *Server) report(w http.ResponseWriter, r *http.Request) {
	if !s.run.Report {
		s.fail(w, http.StatusNotFound, "This run has no report.html.")
		return
	}
	// Streamed, not read whole: a report of 200 MB asked for by 8 GETs
	// at once held 1.69 GB.
	rc, err := s.run.Store.OpenAt(r.Context(), "report.html", 0)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, "report.html, which manifest.json lists, cannot be read: %v", err)
		return
	}
	defer rc.Close()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", reportCSP)
	if _, err := io.Copy(w, rc); err != nil {
		s.logf("explore: sending report.html: %v", err)
	}
}
