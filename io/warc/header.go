package warc

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// maxHeaderBytes bounds a record's header, version line to blank line.
const maxHeaderBytes = 64 << 10

// header is a parsed WARC record header.
type header struct {
	version string // "WARC/1.0", "WARC/1.1"
	typ     string
	length  int64 // Content-Length
	fields  []Field
	size    int // bytes of the header, blank line included
}

// get returns the value of the first field named name (case-insensitive),
// "" if none.
func get(fields []Field, name string) string {
	for _, f := range fields {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// Get returns the value of the record's first header field named name
// (case-insensitive), "" if none.
func (r Record) Get(name string) string { return get(r.Fields, name) }

// isVersionLine reports whether b starts with a supported WARC version line
// ("WARC/1.0" or "WARC/1.1" ended by CRLF or LF). prefix is true if b is too
// short to tell but is a prefix of one.
func isVersionLine(b []byte) (ok, prefix bool) {
	for _, v := range [...]string{"WARC/1.0\r\n", "WARC/1.1\r\n", "WARC/1.0\n", "WARC/1.1\n"} {
		if bytes.HasPrefix(b, []byte(v)) {
			return true, false
		}
		if len(b) < len(v) && bytes.HasPrefix([]byte(v), b) {
			prefix = true
		}
	}
	return false, prefix
}

// errHeaderCut is the error of a header the stream ends inside.
var errHeaderCut = errors.New("the stream ends inside the record's header")

// headerEnd returns the length of the header at the start of b, blank line
// included, or -1 if b holds no blank line.
func headerEnd(b []byte) int {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return -1
		}
		line := b[i : i+j]
		i += j + 1
		if len(line) == 0 || len(line) == 1 && line[0] == '\r' {
			return i
		}
	}
}

// parseHeader parses the header at the start of b, which holds all of it
// unless the stream ended (atEnd) or it is longer than maxHeaderBytes.
func parseHeader(b []byte, atEnd bool) (header, error) {
	end := headerEnd(b[:min(len(b), maxHeaderBytes)])
	switch {
	case end < 0 && atEnd && len(b) < maxHeaderBytes:
		return header{}, errHeaderCut
	case end < 0:
		return header{}, fmt.Errorf("no blank line ends the header in its first %d bytes", maxHeaderBytes)
	}
	lines := strings.Split(strings.ReplaceAll(string(b[:end]), "\r\n", "\n"), "\n")
	h := header{version: lines[0], size: end, length: -1}
	if h.version != "WARC/1.0" && h.version != "WARC/1.1" {
		return header{}, fmt.Errorf("version line %q is not WARC/1.0 or WARC/1.1", cut(h.version))
	}
	for _, line := range lines[1 : len(lines)-2] {
		if line != "" && (line[0] == ' ' || line[0] == '\t') && len(h.fields) > 0 {
			h.fields[len(h.fields)-1].Value += " " + strings.TrimSpace(line) // a folded line
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return header{}, fmt.Errorf("header line %q is not a field", cut(line))
		}
		if err := h.add(name, strings.TrimSpace(value)); err != nil {
			return header{}, err
		}
	}
	switch {
	case h.length < 0:
		return header{}, errors.New("no Content-Length")
	case h.typ == "":
		return header{}, errors.New("no WARC-Type")
	}
	return h, nil
}

// add adds a field to h.
func (h *header) add(name, value string) error {
	switch {
	case strings.EqualFold(name, "Content-Length"):
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("bad Content-Length %q", cut(value))
		}
		h.length = n
	case strings.EqualFold(name, "WARC-Type"):
		h.typ = value
	default:
		h.fields = append(h.fields, Field{name, value})
	}
	return nil
}

// maxQuoted bounds the bytes of input a dead letter's reason quotes.
const maxQuoted = 80

// cut cuts s to maxQuoted bytes for quoting in a reason.
func cut(s string) string {
	if len(s) > maxQuoted {
		return s[:maxQuoted] + "…"
	}
	return s
}
