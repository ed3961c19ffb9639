package web

import (
	"net/url"
	"strconv"
	"strings"
)

// clusterPath is the explorer's page of a cluster.
func clusterPath(id string) string { return "/cluster/" + url.PathEscape(id) }

// articlePath is the explorer's page of an article.
func articlePath(wiki string, page int64) string {
	return "/article/" + url.PathEscape(wiki) + "/" + strconv.FormatInt(page, 10)
}

// WikiURL returns the URL of the page titled title on the wiki whose main
// page is at base (its dump's <base>: https://en.wikipedia.org/wiki/Main_Page
// gives https://en.wikipedia.org/wiki/ + the title with underscores for
// spaces, path-escaped; http://host/index.php?title=Main_Page gives the
// title as the query's), or "" if base is not an http(s) URL.
func WikiURL(base, title string) string {
	if !strings.HasPrefix(base, "https://") && !strings.HasPrefix(base, "http://") {
		return ""
	}
	name := strings.ReplaceAll(title, " ", "_")
	if i := strings.Index(base, "?title="); i >= 0 {
		return base[:i+len("?title=")] + url.QueryEscape(name)
	}
	base, _, _ = strings.Cut(base, "#")
	base, _, _ = strings.Cut(base, "?")
	slash := strings.LastIndexByte(base, '/')
	if slash < len("https://") {
		return ""
	}
	segs := strings.Split(name, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return base[:slash+1] + strings.Join(segs, "/")
}

// wikiURL returns the URL of a page of one of the run's wikis, or "".
func (s *Server) wikiURL(wiki, title string) string {
	for _, w := range s.run.Wikis {
		if w.Name == wiki {
			return WikiURL(w.Base, title)
		}
	}
	return ""
}
