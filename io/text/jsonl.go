package text

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
)

// DocError reports a document that could not be read: a bad JSON line, a
// plain-text file over the size limit. The reader has skipped it: call
// Next again to go on.
type DocError struct {
	DeadLetter document.DeadLetter
}

func (e *DocError) Error() string {
	d := e.DeadLetter
	if d.Line > 0 {
		return fmt.Sprintf("text: %s: bad line %d at offset %d: %s", d.File, d.Line, d.Offset, d.Reason)
	}
	return fmt.Sprintf("text: %s: %s", d.File, d.Reason)
}

// TruncatedError reports that a stream ended, or its decompressor failed,
// before its end: every complete document before that point has been
// returned. It is terminal, and matches dump.ErrTruncated.
type TruncatedError struct {
	File string
	// Offset is where the cut document starts (a JSON line's first byte;
	// 0 for a plain-text file), or, when none was cut, the decompressed
	// offset at which the stream ended.
	Offset int64
	// Line is the number of the cut line of a JSON-lines file; 0 if no
	// line was cut or the file is plain text.
	Line int64
	// Cut says a document was cut: bytes of it were read.
	Cut bool
	Err error // the cause: the decompressor's error
}

func (e *TruncatedError) Error() string {
	return fmt.Sprintf("text: %s: truncated at offset %d: %v", e.File, e.Offset, e.Err)
}

func (e *TruncatedError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, dump.ErrTruncated) true.
func (e *TruncatedError) Is(target error) bool { return target == dump.ErrTruncated }

// JSONLReader reads the documents of a JSON-lines stream, one per line.
//
// A line holds a JSON object. Its "id" (a string, or a number kept as it is
// written) is the document's Name, and its "text" the document; both are
// required, and "text" must be a string. Optional fields, each used only
// when it is a string: "title" (else "metadata"."title"; a document without
// one is titled by its id), "url" (else "metadata"."url") and the language,
// "lang" or "language" (else "metadata"."language" or "metadata"."lang"),
// kept as a lower-case tag ("en", "pt-br") if it looks like one. Dolma's
// documents ("id", "text", "source", "metadata" {"url", "language", …})
// and datatrove's ("text", "id", "metadata" {"url", "language", …}) are
// read so. Other fields are ignored. Blank lines are skipped (they count in
// the line numbers), and a UTF-8 byte order mark before the first line too.
type JSONLReader struct {
	r    *bufio.Reader
	file string
	max  int

	offset int64 // of the next line
	line   int64 // number of the last line read
	buf    []byte
	seen   map[[16]byte]int64 // the line of each id read, by hash
	raw    []byte             // the line of the last document (Raw)
	err    error              // terminal
}

// NewJSONLReader returns a reader of the JSON lines of r, a stream of file
// (opened with dump.Open, so that a decompression failure is told from an
// I/O error). A line of more than maxLineBytes bytes (0:
// dump.DefaultMaxPageBytes) is skipped without being buffered and reported.
func NewJSONLReader(r io.Reader, file string, maxLineBytes int) *JSONLReader {
	if maxLineBytes <= 0 {
		maxLineBytes = dump.DefaultMaxPageBytes
	}
	return &JSONLReader{r: bufio.NewReaderSize(r, 64<<10), file: file, max: maxLineBytes, seen: map[[16]byte]int64{}}
}

// Next returns the next document: a document.Page marked Plain whose ID is its
// line number, Name its id, Offset its line's decompressed byte offset, and
// Wiki unset. It returns a *DocError for a line that holds no document
// (the reader has skipped it), a *TruncatedError if the stream was cut,
// io.EOF at its end, and any other error of the stream.
func (r *JSONLReader) Next() (document.Page, error) {
	for r.err == nil {
		start := r.offset
		line, n, long, err := r.readLine()
		r.offset += n
		if n > 0 {
			r.line++
		}
		switch {
		case err == io.EOF && n == 0:
			r.err = io.EOF
			return document.Page{}, r.err
		case err == io.EOF:
			r.err = io.EOF // the last line has no newline: it is whole
		case err != nil && dump.IsDecodeFailure(err):
			r.err = r.truncated(start, n, err)
			return document.Page{}, r.err
		case err != nil:
			r.err = fmt.Errorf("text: reading %s at offset %d: %w", r.file, r.offset, err)
			return document.Page{}, r.err
		}
		if r.line == 1 {
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		if !long && len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		r.raw = line
		if long {
			r.raw = nil
		}
		return r.document(line, start, long)
	}
	return document.Page{}, r.err
}

// Raw returns the line of the document (or of the *DocError) that Next
// last returned, as it is in the file without its newline (and, on the
// first line, without a byte order mark); nil for a line longer than the
// reader's maximum, which it skipped without holding. It is valid until
// the next call to Next.
func (r *JSONLReader) Raw() []byte { return r.raw }

// truncated is the error of a stream that failed after n bytes of the line
// starting at start.
func (r *JSONLReader) truncated(start, n int64, err error) error {
	t := &TruncatedError{File: r.file, Offset: start, Err: err}
	if n > 0 {
		t.Cut, t.Line = true, r.line
	}
	return t
}

// readLine reads the next line, without its newline, and returns it, the
// bytes it took in the stream (newline included) and whether it is longer
// than r.max, in which case the line returned is empty: its bytes are
// skipped, not kept.
func (r *JSONLReader) readLine() (line []byte, n int64, long bool, err error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.r.ReadSlice('\n')
		n += int64(len(chunk))
		if !long {
			r.buf = append(r.buf, chunk...)
			if len(bytes.TrimSuffix(r.buf, []byte{'\n'})) > r.max {
				long, r.buf = true, r.buf[:0]
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSuffix(r.buf, []byte{'\n'}), n, long, err
	}
}

// document decodes the line starting at offset start.
func (r *JSONLReader) document(line []byte, start int64, long bool) (document.Page, error) {
	bad := func(format string, args ...any) error {
		return &DocError{DeadLetter: document.DeadLetter{File: r.file, Offset: start, Line: r.line, Reason: fmt.Sprintf(format, args...)}}
	}
	switch {
	case long:
		return document.Page{}, bad("line longer than %d bytes (--max_page_bytes)", r.max)
	case r.line > document.MaxKey:
		return document.Page{}, bad("line number beyond %d, the largest page id", int64(document.MaxKey))
	}
	rec, err := decodeRecord(line)
	if err != nil {
		return document.Page{}, bad("%v", err)
	}
	key := idKey(rec.id)
	if first, ok := r.seen[key]; ok {
		return document.Page{}, bad("id %s repeats line %d", quoteID(rec.id), first)
	}
	r.seen[key] = r.line
	title := rec.title
	if title == "" {
		title = rec.id
	}
	return document.Page{File: r.file, Offset: start, ID: r.line, Title: title, Text: rec.text,
		Plain: true, Name: rec.id, URL: rec.url, Lang: rec.lang}, nil
}

// idKey is the 128-bit FNV-1a hash of an id: the reader remembers the ids
// of a file by it, 16 bytes each whatever their length.
func idKey(id string) [16]byte {
	h := fnv.New128a()
	h.Write([]byte(id))
	var k [16]byte
	h.Sum(k[:0])
	return k
}

// maxQuotedID bounds the bytes of an id a dead letter's reason quotes.
const maxQuotedID = 200

// quoteID quotes an id for a dead letter's reason, cut to maxQuotedID bytes.
func quoteID(id string) string {
	if len(id) <= maxQuotedID {
		return fmt.Sprintf("%q", id)
	}
	cut := id[:maxQuotedID]
	for len(cut) > 0 && !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	return fmt.Sprintf("%q…", cut)
}

// record is what the pipeline takes of a JSON line.
type record struct {
	id, text, title, url, lang string
}

// rawRecord are the fields of a JSON line that are read, undecoded.
type rawRecord struct {
	ID       json.RawMessage `json:"id"`
	Text     json.RawMessage `json:"text"`
	Title    json.RawMessage `json:"title"`
	URL      json.RawMessage `json:"url"`
	Lang     json.RawMessage `json:"lang"`
	Language json.RawMessage `json:"language"`
	Metadata json.RawMessage `json:"metadata"`
}

// rawMetadata are the fields of Dolma's and datatrove's "metadata" that
// are read.
type rawMetadata struct {
	Title    json.RawMessage `json:"title"`
	URL      json.RawMessage `json:"url"`
	Lang     json.RawMessage `json:"lang"`
	Language json.RawMessage `json:"language"`
}

var (
	errNotObject = errors.New("not a JSON object")
	errNoID      = errors.New(`no "id"`)
	errEmptyID   = errors.New(`empty "id"`)
	errBadID     = errors.New(`"id" is neither a string nor a number`)
	errNoText    = errors.New(`no "text"`)
	errBadText   = errors.New(`"text" is not a string`)
)

// decodeRecord decodes one JSON line.
func decodeRecord(line []byte) (record, error) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		var v any
		if err := json.Unmarshal(line, &v); err != nil {
			return record{}, fmt.Errorf("invalid JSON: %w", err)
		}
		return record{}, errNotObject
	}
	var raw rawRecord
	if err := json.Unmarshal(line, &raw); err != nil {
		return record{}, fmt.Errorf("invalid JSON: %w", err)
	}
	var rec record
	var err error
	if rec.id, err = decodeID(raw.ID); err != nil {
		return record{}, err
	}
	switch text, ok := decodeString(raw.Text); {
	case ok:
		rec.text = text
	case isNull(raw.Text):
		return record{}, errNoText
	default:
		return record{}, errBadText
	}
	var meta rawMetadata
	if len(raw.Metadata) > 0 && raw.Metadata[0] == '{' {
		_ = json.Unmarshal(raw.Metadata, &meta) // valid JSON, since the line is: no error
	}
	rec.title = firstString(raw.Title, meta.Title)
	rec.url = firstString(raw.URL, meta.URL)
	rec.lang = cleanLang(firstString(raw.Lang, raw.Language, meta.Language, meta.Lang))
	return rec, nil
}

// decodeID decodes an id: a non-empty string, or a number as it is written.
func decodeID(raw json.RawMessage) (string, error) {
	switch {
	case isNull(raw):
		return "", errNoID
	case raw[0] == '-' || '0' <= raw[0] && raw[0] <= '9':
		return string(raw), nil
	}
	id, ok := decodeString(raw)
	switch {
	case !ok:
		return "", errBadID
	case id == "":
		return "", errEmptyID
	}
	return id, nil
}

// isNull reports whether a field is absent or null.
func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// decodeString decodes a JSON string; ok is false for any other value.
func decodeString(raw json.RawMessage) (s string, ok bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// firstString returns the first of the fields that is a non-empty string.
func firstString(fields ...json.RawMessage) string {
	for _, f := range fields {
		if s, ok := decodeString(f); ok && s != "" {
			return s
		}
	}
	return ""
}

// maxLang bounds a language tag.
const maxLang = 20

// cleanLang returns a language tag as a lower-case tag of letters and '-'
// ("en", "pt-br"; '_' read as '-'), or "" if it does not look like one.
func cleanLang(tag string) string {
	tag = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(tag)), "_", "-")
	if tag == "" || len(tag) > maxLang || tag[0] == '-' {
		return ""
	}
	for _, c := range tag {
		if !('a' <= c && c <= 'z' || c == '-') {
			return ""
		}
	}
	return tag
}
