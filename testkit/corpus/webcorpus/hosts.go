package webcorpus

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/neardup/neardup/io/warc"
)

// hostPage is a real HTML page of a WARC sample: the boilerplate and the
// untouched negatives come from these.
type hostPage struct {
	URL  string
	Body []byte // UTF-8 HTML
}

// readHosts returns the HTML pages (status 200, text/html, valid UTF-8) of
// the WARC file at path, in file order, read by package io/warc.
func readHosts(path string) ([]hostPage, error) {
	ctx := context.Background()
	srcs, err := warc.Plan(ctx, []string{path}, 0, nil)
	if err != nil {
		return nil, fmt.Errorf("webcorpus: %w", err)
	}
	var out []hostPage
	for _, src := range srcs {
		r, err := warc.Open(ctx, src, warc.ReadOptions{}, nil)
		if err != nil {
			return nil, fmt.Errorf("webcorpus: %w", err)
		}
		out, err = appendHosts(out, r)
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("webcorpus: %s: %w", path, err)
		}
	}
	return out, nil
}

// readHostsFrom reads the HTML pages of a WARC stream of gzip members, one
// per record (as Build writes it).
func readHostsFrom(r io.Reader) ([]hostPage, error) {
	return appendHosts(nil, warc.NewReader(r, warc.Source{File: "web.warc.gz", Members: true, Aligned: true}, warc.ReadOptions{}))
}

// appendHosts appends the HTML pages of r's records to out. Bad records are
// skipped, as io/warc skips them.
func appendHosts(out []hostPage, r *warc.Reader) ([]hostPage, error) {
	for {
		rec, _, err := r.Next()
		var bad *warc.RecordError
		switch {
		case errors.Is(err, io.EOF):
			return out, nil
		case errors.As(err, &bad):
			continue
		case err != nil:
			return out, err
		}
		if p, ok := htmlResponse(rec); ok {
			out = append(out, p)
		}
	}
}

// htmlResponse returns the page of a response record whose payload is a
// UTF-8 HTML page served with status 200.
func htmlResponse(rec warc.Record) (hostPage, bool) {
	if rec.Type != "response" {
		return hostPage{}, false
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(rec.Block)), nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		return hostPage{}, false
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil || !utf8.Valid(body) || resp.Header.Get("Content-Encoding") != "" {
		return hostPage{}, false
	}
	mt, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || mt != "text/html" || !isUTF8(params["charset"]) {
		return hostPage{}, false
	}
	uri := strings.Trim(rec.Get("WARC-Target-URI"), "<>")
	return hostPage{URL: uri, Body: body}, uri != ""
}

func isUTF8(charset string) bool {
	c := strings.ToLower(charset)
	return c == "" || c == "utf-8" || c == "utf8"
}
