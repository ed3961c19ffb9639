package web

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/neardup/neardup/explore/internal/index"
)

// filter is a list's filters as the URL's query gives them, kept as
// written so that the form shows them again.
type filter struct {
	Kinds      []string
	SizeMin    string
	SizeMax    string
	Title      string
	Text       string
	JaccardMin string
	JaccardMax string
	EditMax    string
	Sort       string // "size" (the default) or "id"
	Page       int    // from 1
}

// parseFilter reads the filters of a URL's query. The error names the
// parameter that is wrong and why.
func parseFilter(v url.Values) (filter, index.Query, error) {
	f := filter{Title: v.Get("title"), Text: v.Get("text"), SizeMin: strings.TrimSpace(v.Get("size_min")),
		SizeMax: strings.TrimSpace(v.Get("size_max")), JaccardMin: strings.TrimSpace(v.Get("jaccard_min")),
		JaccardMax: strings.TrimSpace(v.Get("jaccard_max")), EditMax: strings.TrimSpace(v.Get("edit_max")),
		Sort: v.Get("sort"), Page: 1}
	for _, k := range v["kind"] {
		if k != "" {
			f.Kinds = append(f.Kinds, k)
		}
	}
	q := index.Query{Kinds: f.Kinds, Title: f.Title, Text: f.Text}
	var err error
	if q.SizeMin, err = wholeNumber("size_min", f.SizeMin); err != nil {
		return f, q, err
	}
	if q.SizeMax, err = wholeNumber("size_max", f.SizeMax); err != nil {
		return f, q, err
	}
	for _, b := range []struct {
		name, value string
		to          **float64
	}{{"jaccard_min", f.JaccardMin, &q.JaccardMin}, {"jaccard_max", f.JaccardMax, &q.JaccardMax}, {"edit_max", f.EditMax, &q.EditMax}} {
		if *b.to, err = fraction(b.name, b.value); err != nil {
			return f, q, err
		}
	}
	switch f.Sort {
	case "", "size":
		f.Sort = "size"
	case "id":
		q.ByID = true
	default:
		return f, q, fmt.Errorf("sort: %q is not a sort order; use size or id", f.Sort)
	}
	if f.Page, err = pageNumber(v.Get("page")); err != nil {
		return f, q, err
	}
	return f, q, nil
}

// pageNumber parses a list's optional page number (1 if empty).
func pageNumber(p string) (int, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return 1, nil
	}
	n, err := wholeNumber("page", p)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("page: %q is not a page number (1, 2, …)", p)
	}
	if n > maxPage { // (page-1)*PerPage would wrap around
		return 0, fmt.Errorf("page: %q is beyond the last page of any run (at most %d)", p, maxPage)
	}
	return n, nil
}

// maxPage is the last page a list may have: its first row's index,
// (page-1)*PerPage, stays an int32.
const maxPage = math.MaxInt32 / PerPage

// wholeNumber parses an optional count (0 if empty).
func wholeNumber(name, s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s: %q is not a whole number", name, s)
	}
	return n, nil
}

// fraction parses an optional number from 0 to 1 (nil if empty).
func fraction(name, s string) (*float64, error) {
	if s == "" {
		return nil, nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || !(x >= 0 && x <= 1) {
		return nil, fmt.Errorf("%s: %q is not a number from 0 to 1", name, s)
	}
	return &x, nil
}

// values returns the query of f on page p, with only the parameters set.
func (f filter) values(p int) url.Values {
	v := url.Values{}
	for _, k := range f.Kinds {
		v.Add("kind", k)
	}
	for _, kv := range [][2]string{{"size_min", f.SizeMin}, {"size_max", f.SizeMax}, {"title", f.Title},
		{"text", f.Text}, {"jaccard_min", f.JaccardMin}, {"jaccard_max", f.JaccardMax}, {"edit_max", f.EditMax}} {
		if kv[1] != "" {
			v.Set(kv[0], kv[1])
		}
	}
	if f.Sort != "size" && f.Sort != "" {
		v.Set("sort", f.Sort)
	}
	if p > 1 {
		v.Set("page", strconv.Itoa(p))
	}
	return v
}

// link is the URL of path with f's query on page p.
func (f filter) link(path string, p int) string {
	if q := f.values(p).Encode(); q != "" {
		return path + "?" + q
	}
	return path
}

// exportLink is the URL of the export of f's clusters (every page) in a
// format, from the list at path.
func (f filter) exportLink(path, format string) string {
	path = strings.TrimSuffix(path, "/") + "/export." + format
	if q := f.values(1).Encode(); q != "" {
		return path + "?" + q
	}
	return path
}
