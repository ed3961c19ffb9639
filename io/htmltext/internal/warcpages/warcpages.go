// Package warcpages gives the HTML pages of a WARC file, read by package
// io/warc, to the tests and the measure command of package htmltext. (It
// cannot be imported by htmltext itself: io/warc imports htmltext.)
package warcpages

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/neardup/neardup/io/warc"
)

// Page is the HTTP response of a response record whose status is 200 and
// whose Content-Type is text/html.
type Page struct {
	URL             string
	ContentType     string
	ContentLanguage string
	Body            []byte // the payload, de-chunked
}

// Read returns the HTML pages of the WARC file at path, in file order.
func Read(path string) ([]Page, error) {
	ctx := context.Background()
	srcs, err := warc.Plan(ctx, []string{path}, 0, nil)
	if err != nil {
		return nil, err
	}
	var out []Page
	for _, src := range srcs {
		r, err := warc.Open(ctx, src, warc.ReadOptions{}, nil)
		if err != nil {
			return nil, err
		}
		out, err = appendPages(out, r)
		r.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func appendPages(out []Page, r *warc.Reader) ([]Page, error) {
	for {
		rec, off, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if rec.Type != "response" {
			continue
		}
		p, ok, err := htmlPage(rec)
		if err != nil {
			return out, fmt.Errorf("record at offset %d: %w", off, err)
		}
		if ok {
			out = append(out, p)
		}
	}
}

// htmlPage returns the page of a response record, if its status is 200 and
// its Content-Type text/html.
func htmlPage(rec warc.Record) (Page, bool, error) {
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(rec.Block)), nil)
	if err != nil {
		return Page{}, false, err
	}
	ct := resp.Header.Get("Content-Type")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(strings.ToLower(strings.TrimSpace(ct)), "text/html") {
		return Page{}, false, nil
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return Page{}, false, err
	}
	return Page{URL: strings.Trim(rec.Get("WARC-Target-URI"), "<>"), ContentType: ct, ContentLanguage: resp.Header.Get("Content-Language"), Body: body}, true, nil
}
