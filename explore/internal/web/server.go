// Package web serves the explorer's pages over an indexed run: the list of
// clusters with filters whose values are the URL's query, so that a view
// can be shared; a cluster with its members aligned and their changed words
// marked; the clusters of an article; the document pairs that share
// passages, and a passage side by side; the export of a filtered list as
// JSON lines or CSV; and the run's report.html. Pages are
// html/template, styles and the little script are embedded, and nothing is
// fetched from the network, so the explorer works offline.
package web

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log"
	"net/http"

	"github.com/neardup/neardup/transforms/kindstyle"
)

//go:embed templates static
var assets embed.FS

// PerPage is how many clusters a page of a list shows.
const PerPage = 50

// Server serves the pages of one run.
type Server struct {
	run     *Run
	loadErr error // why the run could not be loaded; every page says it
	pages   map[string]*template.Template
	mux     *http.ServeMux
	logf    func(format string, args ...any)
}

// New returns the server of run, or, if loading it failed (run is nil),
// of a page that says why. logf reports the errors pages show (nil: the
// log package's default logger).
func New(run *Run, loadErr error, logf func(format string, args ...any)) (*Server, error) {
	if logf == nil {
		logf = log.Printf
	}
	s := &Server{run: run, loadErr: loadErr, pages: map[string]*template.Template{}, logf: logf}
	for _, name := range []string{"list", "cluster", "pairs", "pair", "error"} {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(assets, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", name, err)
		}
		s.pages[name] = t
	}
	static, err := fs.Sub(assets, "static")
	if err != nil {
		return nil, err
	}
	s.mux = http.NewServeMux()
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.mux.HandleFunc("GET /kinds.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		io.WriteString(w, kindCSS)
	})
	s.mux.HandleFunc("GET /{$}", s.loaded(s.list))
	s.mux.HandleFunc("GET /cluster/{id}", s.loaded(s.cluster))
	s.mux.HandleFunc("GET /article/{wiki}/{page}", s.loaded(s.article))
	for _, f := range []string{"jsonl", "csv"} {
		s.mux.HandleFunc("GET /export."+f, s.loaded(s.export))
		s.mux.HandleFunc("GET /article/{wiki}/{page}/export."+f, s.loaded(s.exportArticle))
		s.mux.HandleFunc("GET /pairs/export."+f, s.loaded(s.exportPairs))
	}
	s.mux.HandleFunc("GET /pairs", s.loaded(s.pairs))
	s.mux.HandleFunc("GET /pair/{a}/{b}", s.loaded(s.pair))
	s.mux.HandleFunc("GET /report.html", s.loaded(s.report))
	s.mux.HandleFunc("/", s.loaded(func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, http.StatusNotFound, "There is no page at %s.", r.URL.Path)
	}))
	return s, nil
}

// kindCSS is the kinds' stylesheet, the colours of report.html's.
var kindCSS = kindstyle.ChipCSS()

// pageCSP lets the explorer's pages load only the server's own script and
// styles: a string of the run that got past the templates' escaping could
// run no script of its own and send nothing anywhere.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// reportCSP is report.html's: its inline styles and script (it is one
// self-contained file), and nothing from the network.
const reportCSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", pageCSP)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.mux.ServeHTTP(w, r)
}

// loaded serves h if the run was loaded, and otherwise why it was not.
func (s *Server) loaded(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.run == nil {
			s.fail(w, http.StatusInternalServerError, "%v", s.loadErr)
			return
		}
		h(w, r)
	}
}

// view is what every page's template gets.
type view struct {
	Title  string
	Header *header // nil when no run is loaded
	Body   any
}

// render executes a page's template into a buffer first, so that a
// failure gives an error page rather than half a page.
func (s *Server) render(w http.ResponseWriter, status int, page, title string, body any) {
	v := view{Title: title, Body: body}
	if s.run != nil {
		v.Header = s.header()
	}
	var buf bytes.Buffer
	if err := s.pages[page].Execute(&buf, v); err != nil {
		s.logf("explore: rendering %s: %v", page, err)
		http.Error(w, "explore: rendering the page failed: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// errorBody is the body of an error page.
type errorBody struct {
	Status  int
	Message string
}

// fail serves an error page with a message, and logs it if it is the
// server's or the run's fault.
func (s *Server) fail(w http.ResponseWriter, status int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if status >= 500 {
		s.logf("explore: %s", msg)
	}
	s.render(w, status, "error", http.StatusText(status), errorBody{Status: status, Message: msg})
}
