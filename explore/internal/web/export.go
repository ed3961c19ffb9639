package web

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/neardup/neardup/explore/internal/index"
	"github.com/neardup/neardup/transforms/categorize"
)

// exportBatch is how many clusters an export reads at once, in parallel.
const exportBatch = 64

// exportFormat is the format of an export, its path's extension: jsonl or
// csv.
func exportFormat(r *http.Request) string { return strings.TrimPrefix(path.Ext(r.URL.Path), ".") }

// export serves every cluster the URL's filters select, in the list's
// order: as JSON lines, each the cluster's line of clusters-*.jsonl
// verbatim; or as CSV, a header and a row a cluster (csvHeader).
func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	s.exportClusters(w, r, nil)
}

// exportArticle serves the export of an article's clusters.
func (s *Server) exportArticle(w http.ResponseWriter, r *http.Request) {
	page, err := strconv.ParseInt(r.PathValue("page"), 10, 64)
	i, ok := s.run.FindArticle(r.PathValue("wiki"), page)
	if err != nil || !ok {
		s.fail(w, http.StatusNotFound, "No cluster of this run has a member in page %s of %s.", r.PathValue("page"), r.PathValue("wiki"))
		return
	}
	s.exportClusters(w, r, &i)
}

// csvHeader is the header of a CSV export of clusters.
var csvHeader = []string{"id", "category", "size", "pages", "members_omitted", "min_jaccard", "max_edit", "titles", "sentence"}

func (s *Server) exportClusters(w http.ResponseWriter, r *http.Request, article *int) {
	format := exportFormat(r)
	if format != "jsonl" && format != "csv" {
		s.fail(w, http.StatusNotFound, "An export is .jsonl or .csv, not .%s.", format)
		return
	}
	_, q, err := parseFilter(r.URL.Query())
	if err != nil {
		s.fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	q.Article = article
	p := s.run.Filter(q, 0, s.run.Len())
	if p.TextsPending {
		s.fail(w, http.StatusServiceUnavailable, "text: %s", s.sentences(r.Context(), nil))
		return
	}
	setDownload(w, format, s.run.Manifest.RunID+"-clusters")
	var cw *csv.Writer
	if format == "csv" {
		cw = csv.NewWriter(w)
		cw.Write(csvHeader)
	}
	err = s.readLines(r.Context(), p.Clusters, func(i int, line []byte) error {
		if cw == nil {
			w.Write(line)
			_, err := w.Write([]byte{'\n'})
			return err
		}
		var c categorize.Cluster
		if err := json.Unmarshal(line, &c); err != nil {
			return err
		}
		cw.Write(csvRow(s.run.Entry(i), c))
		return cw.Error()
	})
	if cw != nil {
		cw.Flush()
	}
	if err != nil {
		// The status is sent: the truncated download ends with the error.
		s.logf("explore: export: %v", err)
		fmt.Fprintf(w, "\nexplore: the export stopped: %v\n", err)
	}
}

// csvRow is a cluster's row of a CSV export.
func csvRow(e index.Entry, c categorize.Cluster) []string {
	titles := make([]string, len(e.Articles))
	for k, a := range e.Articles {
		titles[k] = a.Title
	}
	sentence := ""
	if len(c.Members) > 0 {
		sentence = c.Members[0].Text
	}
	f := func(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 32) }
	return []string{e.ID, e.Kind, strconv.Itoa(e.Size), strconv.Itoa(e.Pages), strconv.Itoa(e.MembersOmitted),
		f(e.MinJaccard), f(e.MaxEdit), cell(strings.Join(titles, " | ")), cell(sentence)}
}

// cell keeps a spreadsheet from taking a text for a formula: a text that
// starts with =, +, -, @, a tab or a carriage return gets a ' before it.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// readLines reads the clusters' lines, exportBatch at a time in parallel,
// and gives them to fn in order.
func (s *Server) readLines(ctx context.Context, clusters []int, fn func(i int, line []byte) error) error {
	lines := make([][]byte, exportBatch)
	for start := 0; start < len(clusters); start += exportBatch {
		batch := clusters[start:min(len(clusters), start+exportBatch)]
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(16)
		for k, i := range batch {
			g.Go(func() error {
				var err error
				lines[k], err = s.run.ReadLine(gctx, i)
				return err
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
		for k, i := range batch {
			if err := fn(i, lines[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// setDownload sets the headers of a download named name.format.
func setDownload(w http.ResponseWriter, format, name string) {
	ct := "application/x-ndjson; charset=utf-8"
	if format == "csv" {
		ct = "text/csv; charset=utf-8"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", safeName(name)+"."+format))
}

// safeName keeps the letters, digits, '-', '_' and '.' of a file name.
func safeName(s string) string {
	return strings.Map(func(c rune) rune {
		if c < 128 && (c == '-' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return c
		}
		return '_'
	}, s)
}

// pairLine is a document pair in a JSON-lines export.
type pairLine struct {
	A           pairDoc `json:"a"`
	B           pairDoc `json:"b"`
	Passages    int     `json:"passages"`
	Matched     int     `json:"matched"`
	ShareA      float64 `json:"share_a"`
	ShareB      float64 `json:"share_b"`
	MeanJaccard float64 `json:"mean_jaccard"`
}

// pairDoc is a document of a pair in an export.
type pairDoc struct {
	ID     string `json:"id"`
	Wiki   string `json:"wiki"`
	PageID int64  `json:"page_id"`
	RevID  int64  `json:"rev_id"`
	Title  string `json:"title"`
}

// pairCSVHeader is the header of a CSV export of pairs.
var pairCSVHeader = []string{"a_id", "a_wiki", "a_title", "b_id", "b_wiki", "b_title", "passages", "matched", "share_a", "share_b", "mean_jaccard"}

// exportPairs serves every document pair the URL's filters select, in the
// list's order, as JSON lines (pairLine) or CSV (pairCSVHeader).
func (s *Server) exportPairs(w http.ResponseWriter, r *http.Request) {
	format := exportFormat(r)
	if format != "jsonl" && format != "csv" {
		s.fail(w, http.StatusNotFound, "An export is .jsonl or .csv, not .%s.", format)
		return
	}
	_, q, err := parsePairFilter(r.URL.Query())
	if err != nil {
		s.fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	p := s.run.FilterPairs(q, 0, s.run.PairCount())
	setDownload(w, format, s.run.Manifest.RunID+"-document-pairs")
	if format == "jsonl" {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, i := range p.Clusters {
			d := s.run.Pair(i)
			doc := func(x index.DocPair, a bool) pairDoc {
				if a {
					return pairDoc{x.A.ID, x.A.Wiki, x.A.PageID, x.A.RevID, x.A.Title}
				}
				return pairDoc{x.B.ID, x.B.Wiki, x.B.PageID, x.B.RevID, x.B.Title}
			}
			if err := enc.Encode(pairLine{doc(d, true), doc(d, false), len(d.Passages), d.Matched, d.ShareA, d.ShareB, d.MeanJaccard}); err != nil {
				return
			}
		}
		return
	}
	cw := csv.NewWriter(w)
	cw.Write(pairCSVHeader)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, i := range p.Clusters {
		d := s.run.Pair(i)
		cw.Write([]string{d.A.ID, d.A.Wiki, cell(d.A.Title), d.B.ID, d.B.Wiki, cell(d.B.Title), strconv.Itoa(len(d.Passages)),
			strconv.Itoa(d.Matched), f(d.ShareA), f(d.ShareB), f(d.MeanJaccard)})
	}
	cw.Flush()
}
