// Package crawl reads the HTTP responses out of a WARC file, for the tests
// and the measurement of package htmltext. It is deliberately small: it
// reads the whole (possibly gzip-compressed) file, and it is not the
// project's WARC reader (package io/warc).
package crawl

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
)

// Response is an HTTP response recorded in a WARC file.
type Response struct {
	URL             string
	Status          int
	ContentType     string
	ContentLanguage string
	Body            []byte // the payload, de-chunked if it still was
}

// IsHTML reports whether r is a successful text/html response.
func (r Response) IsHTML() bool {
	return r.Status == 200 && strings.HasPrefix(strings.ToLower(strings.TrimSpace(r.ContentType)), "text/html")
}

// Read returns the response records of the WARC file at path, in order.
func Read(path string) ([]Response, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		r = zr
	}
	br := bufio.NewReader(r)
	var out []Response
	for {
		typ, uri, block, err := record(br)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("%s: %v", path, err)
		}
		if typ == "response" {
			if resp, ok := parseHTTP(uri, block); ok {
				out = append(out, resp)
			}
		}
	}
}

// record reads one WARC record: its type, target URI and block.
func record(br *bufio.Reader) (typ, uri string, block []byte, err error) {
	line := ""
	for line == "" { // skip the blank lines ending the previous record
		if line, err = br.ReadString('\n'); err != nil {
			if err == io.EOF && strings.TrimSpace(line) == "" {
				return "", "", nil, io.EOF
			}
			return "", "", nil, err
		}
		line = strings.TrimSpace(line)
	}
	if !strings.HasPrefix(line, "WARC/") {
		return "", "", nil, fmt.Errorf("no WARC version line: %q", line)
	}
	n := -1
	for {
		if line, err = br.ReadString('\n'); err != nil {
			return "", "", nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimSpace(value)
		switch strings.ToLower(name) {
		case "warc-type":
			typ = value
		case "warc-target-uri":
			uri = strings.Trim(value, "<>")
		case "content-length":
			if n, err = strconv.Atoi(value); err != nil {
				return "", "", nil, err
			}
		}
	}
	if n < 0 {
		return "", "", nil, fmt.Errorf("record without Content-Length")
	}
	block = make([]byte, n)
	_, err = io.ReadFull(br, block)
	return typ, uri, block, err
}

func parseHTTP(uri string, block []byte) (Response, bool) {
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(block)), nil)
	if err != nil {
		return Response{}, false
	}
	r := Response{
		URL:             uri,
		Status:          resp.StatusCode,
		ContentType:     resp.Header.Get("Content-Type"),
		ContentLanguage: resp.Header.Get("Content-Language"),
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil || len(body) == 0 {
		// The payload was stored de-chunked under its original
		// Transfer-Encoding header: take the bytes after the header.
		if i := bytes.Index(block, []byte("\r\n\r\n")); i >= 0 {
			body = block[i+4:]
		}
	}
	r.Body = body
	return r, true
}
