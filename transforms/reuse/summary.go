package reuse

import (
	"cmp"
	"maps"
	"slices"

	"github.com/neardup/neardup/internal/counters"
)

// Summary is summary.json's reuse object: the cases aggregated per host,
// per article and as the bipartite reuse graph. Every list is sorted, so
// the same cases give the same bytes.
type Summary struct {
	Totals Totals `json:"totals"`
	// Hosts are the hosts with reuse, by pages with reuse (most first),
	// then by host, the first TopHosts; HostsCut is how many more there
	// were.
	Hosts    []HostStats `json:"hosts"`
	HostsCut int         `json:"hosts_cut"`
	// Articles are the reused articles, by web pages reusing them (most
	// first), then by id, the first TopArticles; ArticlesCut is how many
	// more there were.
	Articles    []ArticleStats `json:"articles"`
	ArticlesCut int            `json:"articles_cut"`
	Graph       Graph          `json:"graph"`
}

// Totals are the run's totals of reuse.
type Totals struct {
	Cases     int64 `json:"cases"`
	Content   int64 `json:"content"`
	Structure int64 `json:"structure"`
	Passages  int64 `json:"passages"`
	// WebPages and Articles are the distinct documents in some case.
	WebPages int64 `json:"web_pages"`
	Articles int64 `json:"articles"`
	// HostsRead and PagesRead are the distinct hosts and the pages of the
	// web pages read; HostsWithReuse the hosts with a page in some case.
	HostsRead      int64 `json:"hosts_read"`
	PagesRead      int64 `json:"pages_read"`
	HostsWithReuse int64 `json:"hosts_with_reuse"`
}

// HostStats is the reuse of one host.
type HostStats struct {
	Host string `json:"host"`
	// PagesRead are the host's web pages read; PagesWithReuse those in
	// some case, and ShareWithReuse their share of the pages read (of the
	// pages with reuse if fewer were reported read).
	PagesRead      int64   `json:"pages_read"`
	PagesWithReuse int64   `json:"pages_with_reuse"`
	ShareWithReuse float64 `json:"share_with_reuse"`
	// Cases are the host's cases, by kind, and MeanSharePage the mean of
	// their share_of_page.
	Cases         int64   `json:"cases"`
	Content       int64   `json:"content"`
	Structure     int64   `json:"structure"`
	MeanSharePage float64 `json:"mean_share_of_page"`
}

// ArticleStats is the reuse of one article. A case is one (page, article)
// pair, so the article's cases are its WebPages, of which Content and
// Structure are of each kind.
type ArticleStats struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	WebPages  int64  `json:"web_pages"`
	Hosts     int64  `json:"hosts"`
	Content   int64  `json:"content"`
	Structure int64  `json:"structure"`
}

// Bin is one bar of a distribution: [value, count].
type Bin [2]int64

// Graph is the bipartite reuse graph: a node per web page and per article
// in some case, an edge per case.
type Graph struct {
	WebPages int64 `json:"web_pages"`
	Articles int64 `json:"articles"`
	Edges    int64 `json:"edges"`
	// WebDegree and ArticleDegree are the nodes' degree distributions:
	// [degree, nodes] by degree.
	WebDegree     []Bin      `json:"web_degree"`
	ArticleDegree []Bin      `json:"article_degree"`
	Components    Components `json:"components"`
}

// Components are the graph's connected components.
type Components struct {
	Count   int64 `json:"count"`
	Largest int64 `json:"largest"` // nodes of the largest
	// Sizes is the size distribution: [nodes, components] by size.
	Sizes []Bin `json:"sizes"`
	// Top are the TopComponents largest, by size, then by their first
	// member's id.
	Top []Component `json:"top"`
}

// Component is one connected component, with its members: the first
// MaxMembers URLs of its web pages and titles of its articles, sorted.
type Component struct {
	Size     int64    `json:"size"`
	WebPages int64    `json:"web_pages"`
	Articles int64    `json:"articles"`
	URLs     []string `json:"urls"`
	Titles   []string `json:"titles"`
}

// The bounds of the summary's lists.
const (
	DefaultTop    = 100 // hosts and articles listed, unless told otherwise
	TopComponents = 5   // components listed with their members
	MaxMembers    = 20  // members listed per side of a component
)

// Summarize aggregates the cases' edges, given how many web pages of each
// host were read. It lists the first topHosts hosts and topArticles
// articles (DefaultTop if 0). Edges are of distinct (page, article) pairs.
func Summarize(edges []Edge, pagesRead map[string]int64, topHosts, topArticles int) Summary {
	edges = slices.Clone(edges)
	slices.SortFunc(edges, func(x, y Edge) int { return cmp.Or(cmp.Compare(x.Web, y.Web), cmp.Compare(x.Article, y.Article)) })
	var s Summary
	s.Totals = totals(edges, pagesRead)
	s.Hosts, s.HostsCut = top(hostStats(edges, pagesRead), compareHosts, cmp.Or(topHosts, DefaultTop))
	s.Articles, s.ArticlesCut = top(articleStats(edges), compareArticles, cmp.Or(topArticles, DefaultTop))
	s.Graph = graph(edges)
	s.Totals.HostsWithReuse = int64(len(s.Hosts) + s.HostsCut)
	return s
}

// Counts returns the summary's totals as the run's counters (all but
// CrossPairsCapped, which the pipeline counts before).
func (s *Summary) Counts() counters.Reuse {
	t := s.Totals
	return counters.Reuse{
		Cases: t.Cases, ContentReuse: t.Content, StructureReuse: t.Structure, Passages: t.Passages,
		WebPages: t.WebPages, Articles: t.Articles,
	}
}

func totals(edges []Edge, pagesRead map[string]int64) Totals {
	t := Totals{HostsRead: int64(len(pagesRead))}
	for _, n := range pagesRead {
		t.PagesRead += n
	}
	pages, articles := map[string]bool{}, map[string]bool{}
	for _, e := range edges {
		t.Cases++
		t.Passages += int64(e.Passages)
		if e.Kind == Content {
			t.Content++
		} else {
			t.Structure++
		}
		pages[e.Web], articles[e.Article] = true, true
	}
	t.WebPages, t.Articles = int64(len(pages)), int64(len(articles))
	return t
}

// top sorts xs by compare and keeps the first n, returning how many it
// cut.
func top[T any](xs []T, compare func(x, y T) int, n int) ([]T, int) {
	slices.SortFunc(xs, compare)
	if len(xs) <= n {
		return xs, 0
	}
	return xs[:n:n], len(xs) - n
}

// compareHosts orders hosts by pages with reuse, most first, then by name.
func compareHosts(h, o HostStats) int {
	return cmp.Or(cmp.Compare(o.PagesWithReuse, h.PagesWithReuse), cmp.Compare(h.Host, o.Host))
}

// compareArticles orders articles by web pages, most first, then by id.
func compareArticles(a, o ArticleStats) int {
	return cmp.Or(cmp.Compare(o.WebPages, a.WebPages), cmp.Compare(a.ID, o.ID))
}

// hostStats aggregates sorted edges per host.
func hostStats(edges []Edge, pagesRead map[string]int64) []HostStats {
	by := map[string]*HostStats{}
	sums := map[string]float64{}
	var last string
	for _, e := range edges {
		h := by[e.Host]
		if h == nil {
			h = &HostStats{Host: e.Host, PagesRead: pagesRead[e.Host]}
			by[e.Host] = h
		}
		if e.Web != last {
			h.PagesWithReuse++
			last = e.Web
		}
		h.Cases++
		if e.Kind == Content {
			h.Content++
		} else {
			h.Structure++
		}
		sums[e.Host] += e.SharePage
	}
	out := make([]HostStats, 0, len(by))
	for _, k := range slices.Sorted(maps.Keys(by)) {
		h := by[k]
		h.ShareWithReuse = round(float64(h.PagesWithReuse) / float64(max(h.PagesRead, h.PagesWithReuse)))
		h.MeanSharePage = round(sums[k] / float64(h.Cases))
		out = append(out, *h)
	}
	return out
}

// articleStats aggregates edges per article.
func articleStats(edges []Edge) []ArticleStats {
	by := map[string]*ArticleStats{}
	hosts := map[string]map[string]bool{}
	for _, e := range edges {
		a := by[e.Article]
		if a == nil {
			a = &ArticleStats{ID: e.Article, Title: e.Title}
			by[e.Article], hosts[e.Article] = a, map[string]bool{}
		}
		a.WebPages++
		if e.Kind == Content {
			a.Content++
		} else {
			a.Structure++
		}
		hosts[e.Article][e.Host] = true
	}
	out := make([]ArticleStats, 0, len(by))
	for _, k := range slices.Sorted(maps.Keys(by)) {
		a := by[k]
		a.Hosts = int64(len(hosts[k]))
		out = append(out, *a)
	}
	return out
}
