package report

import (
	"net/url"
	"strings"
)

// ArticleURL returns the URL of the article titled title on the wiki whose
// <base> (the URL of its main page, as the dump's <siteinfo> gives it) is
// base: base's path up to its last slash, then the title with spaces as
// underscores, path-escaped ("?", "#", "%", non-ASCII letters…) but for its
// slashes. A base of the form …/index.php?title=Main_Page gets the title
// in its query instead. It returns "" if base is not an http or https URL,
// so that no link is made.
func ArticleURL(base, title string) string {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || title == "" {
		return ""
	}
	t := strings.ReplaceAll(title, " ", "_")
	u.User, u.Fragment, u.RawFragment = nil, "", ""
	if q := u.Query(); q.Has("title") {
		q.Set("title", t)
		u.RawQuery = q.Encode()
		return u.String()
	}
	path := u.EscapedPath()
	prefix := path[:strings.LastIndex(path, "/")+1]
	if prefix == "" {
		prefix = "/"
	}
	return u.Scheme + "://" + u.Host + prefix + escapeTitle(t)
}

// escapeTitle path-escapes each slash-separated part of a title.
func escapeTitle(t string) string {
	parts := strings.Split(t, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}
