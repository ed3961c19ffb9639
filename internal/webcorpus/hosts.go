package webcorpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/textproto"
	"os"
	"strings"
	"unicode/utf8"
)

// hostPage is a real HTML page of a WARC sample: the boilerplate and the
// untouched negatives come from these.
type hostPage struct {
	URL  string
	Body []byte // UTF-8 HTML
}

// readHosts returns the HTML pages (status 200, text/html, valid UTF-8) of
// the gzipped WARC file at path, in file order.
//
// It is a small reader of its own: package io/warc has no reader yet. Each
// record is one gzip member (as Common Crawl ships them), read with
// Multistream(false); its HTTP payload is parsed by net/http.
func readHosts(path string) ([]hostPage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out, err := readHostsFrom(f)
	if err != nil {
		return nil, fmt.Errorf("webcorpus: %s: %w", path, err)
	}
	return out, nil
}

// readHostsFrom reads the HTML pages of a gzipped WARC stream.
func readHostsFrom(r io.Reader) ([]hostPage, error) {
	br := bufio.NewReader(r)
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, err
	}
	var out []hostPage
	for {
		zr.Multistream(false)
		member, err := io.ReadAll(zr)
		if err != nil {
			return nil, err
		}
		out = appendRecords(out, member)
		if err := zr.Reset(br); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, err
		}
	}
}

// appendRecords appends the HTML responses among the WARC records of b (a
// gzip member holds one record, an uncompressed file several).
func appendRecords(out []hostPage, b []byte) []hostPage {
	r := bufio.NewReader(bytes.NewReader(b))
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return out
		}
		if !strings.HasPrefix(line, "WARC/") {
			continue
		}
		hdr, err := textproto.NewReader(r).ReadMIMEHeader()
		if err != nil {
			return out
		}
		var n int
		if _, err := fmt.Sscan(hdr.Get("Content-Length"), &n); err != nil || n < 0 {
			return out
		}
		block := make([]byte, n)
		if _, err := io.ReadFull(r, block); err != nil {
			return out
		}
		if p, ok := htmlResponse(hdr, block); ok {
			out = append(out, p)
		}
	}
}

// htmlResponse returns the page of a response record whose payload is a
// UTF-8 HTML page served with status 200.
func htmlResponse(hdr textproto.MIMEHeader, block []byte) (hostPage, bool) {
	if hdr.Get("WARC-Type") != "response" {
		return hostPage{}, false
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(block)), nil)
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
	uri := strings.Trim(hdr.Get("WARC-Target-URI"), "<>")
	return hostPage{URL: uri, Body: body}, uri != ""
}

func isUTF8(charset string) bool {
	c := strings.ToLower(charset)
	return c == "" || c == "utf-8" || c == "utf8"
}
