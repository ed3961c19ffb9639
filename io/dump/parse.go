package dump

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// pageFields are the parts of a <page> element that Page reports.
type pageFields struct {
	id, revID int64
	ns        int
	hasNS     bool
	title     string
	redirect  string
	text      string
}

// pageParser parses the bytes of one <page> element, reusing its buffers.
type pageParser struct {
	b    builder
	fast fastParser
}

// parse parses page, which runs from "<page" to "</page>". Invalid UTF-8 is
// first replaced by U+FFFD, one per run of bad bytes. A fast scanner handles
// the plain XML that dumps are made of; anything it does not handle (comments,
// CDATA, processing instructions, unusual names or references, carriage
// returns) or finds malformed is left to encoding/xml, which decides.
func (p *pageParser) parse(page []byte) (pageFields, error) {
	if !utf8.Valid(page) {
		page = bytes.ToValidUTF8(page, []byte(string(utf8.RuneError)))
	}
	p.b.reset()
	if p.fast.parse(page, &p.b) {
		return p.b.result()
	}
	p.b.reset()
	if err := parseXML(page, &p.b); err != nil {
		return pageFields{}, err
	}
	return p.b.result()
}

// parseXML parses page with encoding/xml in strict mode, with no entities
// beyond the predefined ones, feeding b.
func parseXML(page []byte, b *builder) error {
	d := xml.NewDecoder(bytes.NewReader(page))
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if depth != 0 {
				return errors.New("malformed XML: unexpected end of page")
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("malformed XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			b.start(depth, t.Name.Local, redirectTarget(t.Attr))
		case xml.EndElement:
			b.end(depth)
			depth--
		case xml.CharData:
			if b.collecting(depth) {
				b.buf = append(b.buf, t...)
			}
		}
	}
}

// redirectTarget returns the value of the attribute named exactly "title".
func redirectTarget(attrs []xml.Attr) attrValue {
	for _, a := range attrs {
		if a.Name.Space == "" && a.Name.Local == "title" {
			return attrValue{s: a.Value, ok: true}
		}
	}
	return attrValue{}
}

// attrValue is an optional attribute value.
type attrValue struct {
	s  string
	ok bool
}

// field is an element of the page whose content is kept.
type field int

const (
	fieldNone field = iota
	fieldTitle
	fieldNS
	fieldID
	fieldRevID
	fieldText
)

// builder assembles pageFields from the elements of a page, reported by
// either parser: depth 1 is <page>, 2 its children, 3 a revision's children.
type builder struct {
	f          pageFields
	hasID      bool
	hasTitle   bool
	inRev      bool // inside a <revision>
	revID      int64
	revText    string
	field      field // element being collected
	fieldDepth int
	buf        []byte // content of the element being collected
	err        error  // first bad value
}

func (b *builder) reset() {
	buf := b.buf[:0]
	*b = builder{buf: buf}
}

// collecting reports whether character data at depth belongs to a kept field.
func (b *builder) collecting(depth int) bool {
	return b.field != fieldNone && depth == b.fieldDepth
}

// start records the start of an element named name at depth; title is its
// title attribute.
func (b *builder) start(depth int, name string, title attrValue) {
	f := fieldNone
	switch {
	case depth == 2 && name == "revision":
		b.inRev, b.revID, b.revText = true, 0, ""
	case depth == 2 && name == "redirect" && title.ok:
		b.f.redirect = title.s
	case depth == 2 && name == "title":
		f = fieldTitle
	case depth == 2 && name == "ns":
		f = fieldNS
	case depth == 2 && name == "id":
		f = fieldID
	case depth == 3 && b.inRev && name == "id":
		f = fieldRevID
	case depth == 3 && b.inRev && name == "text":
		f = fieldText
	}
	if f != fieldNone {
		b.field, b.fieldDepth = f, depth
		b.buf = b.buf[:0]
	}
}

// end records the end of the element at depth.
func (b *builder) end(depth int) {
	if depth == 2 && b.inRev {
		b.inRev = false
		b.f.revID, b.f.text = b.revID, b.revText
		return
	}
	if b.field == fieldNone || depth != b.fieldDepth {
		return
	}
	switch b.field {
	case fieldTitle:
		b.f.title, b.hasTitle = string(b.buf), true
	case fieldNS:
		n, err := strconv.Atoi(string(bytes.TrimSpace(b.buf)))
		b.setErr(err, "ns")
		b.f.ns, b.f.hasNS = n, true
	case fieldID:
		n, err := strconv.ParseInt(string(bytes.TrimSpace(b.buf)), 10, 64)
		b.setErr(err, "page id")
		b.f.id, b.hasID = n, true
	case fieldRevID:
		n, err := strconv.ParseInt(string(bytes.TrimSpace(b.buf)), 10, 64)
		b.setErr(err, "revision id")
		b.revID = n
	case fieldText:
		b.revText = string(b.buf)
	}
	b.field = fieldNone
}

// setErr records a bad numeric value of the element what.
func (b *builder) setErr(err error, what string) {
	if err != nil && b.err == nil {
		b.err = fmt.Errorf("bad %s %q", what, bytes.TrimSpace(b.buf))
	}
}

// result returns the page, or why it is unusable.
func (b *builder) result() (pageFields, error) {
	switch {
	case b.err != nil:
		return pageFields{}, b.err
	case !b.hasID:
		return pageFields{}, errors.New("missing page id")
	case !b.hasTitle:
		return pageFields{}, errors.New("missing title")
	}
	return b.f, nil
}
