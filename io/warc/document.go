package warc

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/htmltext"
	"golang.org/x/text/language"
)

// skip is why a record is not a document.
type skip int

const (
	isDocument skip = iota
	otherRecord
	notOK
	notHTML
)

// docError is a document that could not be made: its reason, and whether
// it is too large (else it is bad).
type docError struct {
	reason   string
	tooLarge bool
	bad      bool // a malformed HTTP response: a bad record, not a document
}

func (e *docError) Error() string { return e.reason }

func failed(format string, args ...any) *docError {
	return &docError{reason: fmt.Sprintf(format, args...)}
}

// converter makes documents of records.
type converter struct {
	file string
	max  int64
	web  *counters.Web
}

// document returns the document of the record at off, or why the record
// is not one (skip), or a *docError.
func (c *converter) document(rec Record, off int64) (document.Page, skip, error) {
	var p document.Page
	var err error
	switch rec.Type {
	case "response":
		c.web.Responses++
		var why skip
		p, why, err = c.response(rec)
		if why != isDocument || err != nil {
			return p, why, err
		}
	case "conversion":
		p = conversion(rec)
	default:
		return p, otherRecord, nil
	}
	if off > document.MaxKey {
		return document.Page{}, isDocument, failed("record offset beyond %d, the largest page id", int64(document.MaxKey))
	}
	p.File, p.Offset, p.ID, p.Plain = c.file, off, off, true
	p.Name = rec.Get("WARC-Record-ID")
	p.URL = strings.TrimSuffix(strings.TrimPrefix(rec.Get("WARC-Target-URI"), "<"), ">") // WARC 1.0 writers may bracket it
	if p.Title == "" {
		p.Title = p.URL
	}
	return p, isDocument, nil
}

// conversion returns the document of a conversion record: its block, a
// paragraph per line.
func conversion(rec Record) document.Page {
	block := bytes.ToValidUTF8(rec.Block, []byte(string(utf8.RuneError)))
	var paras []string
	for line := range strings.Lines(string(block)) {
		if line = strings.TrimSpace(line); line != "" {
			paras = append(paras, line)
		}
	}
	lang, _, _ := strings.Cut(rec.Get("WARC-Identified-Content-Language"), ",")
	return document.Page{Text: joinParagraphs(paras), Lang: langTag(lang)}
}

// joinParagraphs joins paragraphs with blank lines, each on one line, so
// that text.AppendParagraphs, which joins a line to the next when the
// first ends no sentence and the second starts in lower case, finds them
// again one for one.
func joinParagraphs(paras []string) string {
	var b strings.Builder
	for _, p := range paras {
		p = strings.Join(strings.Fields(p), " ")
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(p)
	}
	return b.String()
}

// langTag returns a language code (ISO 639-1 or 639-3, or a BCP 47 tag) as
// the lower-case ISO 639-1 code where there is one ("eng" → "en"), "" if
// it is not one.
func langTag(code string) string {
	code = strings.TrimSpace(code)
	if code == "" {
		return ""
	}
	tag, err := language.Parse(code)
	if err != nil {
		return ""
	}
	base, conf := tag.Base()
	if conf == language.No || base.String() == "und" {
		return ""
	}
	return strings.ToLower(base.String())
}

// checkLang returns a language tag in lower case, "" if it is not one.
func checkLang(tag string) string {
	if _, err := language.Parse(tag); err != nil {
		return ""
	}
	return strings.ToLower(tag)
}

// response returns the document of a response record, or why it is not
// one.
func (c *converter) response(rec Record) (document.Page, skip, error) {
	if ct := strings.ToLower(rec.Get("Content-Type")); ct != "" && !strings.HasPrefix(ct, "application/http") {
		return document.Page{}, notHTML, nil // dns:, whois:…
	}
	resp, body, err := parseHTTP(rec.Block)
	if err != nil {
		return document.Page{}, isDocument, &docError{reason: "bad HTTP response: " + err.Error(), bad: true}
	}
	if resp.StatusCode != http.StatusOK {
		return document.Page{}, notOK, nil
	}
	contentType := resp.Header.Get("Content-Type")
	if !isHTML(contentType, rec.Get("WARC-Identified-Payload-Type"), body) {
		return document.Page{}, notHTML, nil
	}
	body, err = c.decode(body, resp.Header.Get("Content-Encoding"))
	if err != nil {
		return document.Page{}, isDocument, err
	}
	if err := checkText(body); err != nil {
		return document.Page{}, isDocument, err
	}
	page, err := htmltext.Extract(body, contentType, resp.Header.Get("Content-Language"))
	if err != nil {
		return document.Page{}, isDocument, failed("extracting the HTML page: %v", err)
	}
	c.count(page, len(body))
	return document.Page{Title: strings.Join(strings.Fields(page.Title), " "), Text: joinParagraphs(page.Paragraphs), Lang: checkLang(page.Lang)}, isDocument, nil
}

// count counts an HTML page extracted from a payload of n bytes.
func (c *converter) count(page htmltext.Page, n int) {
	if page.CharsetSource == "sniffed" {
		c.web.CharsetSniffed++
	}
	if page.Repaired {
		c.web.CharsetRepaired++
	}
	c.web.HTMLBytes += int64(n)
}

// parseHTTP parses the HTTP response of a response record's block and
// returns it and its body, chunked transfer coding removed. The body of a
// response that is not chunked is the rest of the block, whatever its
// Content-Length says: the record's is the one that counts.
func parseHTTP(block []byte) (*http.Response, []byte, error) {
	br := bytes.NewReader(block)
	bufr := bufio.NewReader(br)
	resp, err := http.ReadResponse(bufr, nil)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	if !slices.Contains(resp.TransferEncoding, "chunked") {
		rest := br.Len() + bufr.Buffered()
		return resp, block[len(block)-rest:], nil
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, fmt.Errorf("chunked body: %w", err)
	}
	return resp, body, nil
}

// isHTML reports whether a payload is HTML: by its Content-Type, else by
// the type the crawler identified, else by sniffing.
func isHTML(contentType, identified string, body []byte) bool {
	t := mediaType(contentType)
	if t == "" {
		t = mediaType(identified)
	}
	if t == "" {
		t = mediaType(http.DetectContentType(body))
	}
	return t == "text/html" || t == "application/xhtml+xml"
}

// mediaType returns the lower-case media type of a Content-Type value.
func mediaType(v string) string {
	if t, _, err := mime.ParseMediaType(v); err == nil {
		return t
	}
	t, _, _ := strings.Cut(v, ";")
	return strings.ToLower(strings.TrimSpace(t))
}

// decode removes the Content-Encoding of a body: gzip or deflate; a body
// declared gzip that is not (a crawler decoded it and kept the header) is
// taken as it is.
func (c *converter) decode(body []byte, encoding string) ([]byte, error) {
	var r io.Reader
	var err error
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "", "identity", "none":
		return body, nil
	case "gzip", "x-gzip":
		if !bytes.HasPrefix(body, gzipMagic[:2]) {
			return body, nil
		}
		r, err = gzip.NewReader(bytes.NewReader(body))
	case "deflate":
		if r, err = zlib.NewReader(bytes.NewReader(body)); err != nil {
			r, err = flate.NewReader(bytes.NewReader(body)), nil
		}
	default:
		return nil, failed("unsupported Content-Encoding %q", cut(encoding))
	}
	if err != nil {
		return nil, failed("Content-Encoding %s: %v", encoding, err)
	}
	out, err := io.ReadAll(io.LimitReader(r, c.max+1))
	switch {
	case err != nil:
		return nil, failed("Content-Encoding %s: %v", encoding, err)
	case int64(len(out)) > c.max:
		return nil, &docError{reason: fmt.Sprintf("payload decoded from %s over the %d-byte limit (--max_page_bytes)", encoding, c.max), tooLarge: true}
	}
	return out, nil
}

// utf16BOMs start UTF-16 text, whose NUL bytes are not binary.
var utf16BOMs = [][]byte{{0xFE, 0xFF}, {0xFF, 0xFE}}

// checkText refuses a payload declared HTML that is binary: sniffed as
// another type than text (an image, a PDF, an archive…), or holding a NUL
// byte outside UTF-16.
func checkText(body []byte) error {
	if t := mediaType(http.DetectContentType(body)); !strings.HasPrefix(t, "text/") {
		return failed("payload declared HTML is binary (sniffed as %s)", t)
	}
	for _, bom := range utf16BOMs {
		if bytes.HasPrefix(body, bom) {
			return nil
		}
	}
	if i := bytes.IndexByte(body, 0); i >= 0 {
		return failed("payload declared HTML is binary (a NUL byte at payload offset %d)", i)
	}
	return nil
}
