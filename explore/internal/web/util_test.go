package web

import (
	"html"
	"net/url"
	"strconv"
	"testing"
)

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func htmlUnescape(s string) string { return html.UnescapeString(s) }

func unescapePath(t *testing.T, s string) string {
	t.Helper()
	p, err := url.PathUnescape(html.UnescapeString(s))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
