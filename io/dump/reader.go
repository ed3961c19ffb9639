package dump

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/neardup/neardup/io/document"
)

// windowSize is the size of the Reader's read buffer.
const windowSize = 256 << 10

// maxTagLen is the longest tag the scanner recognises, "</mediawiki>",
// plus one byte to see what follows a name.
const maxTagLen = len("</mediawiki>") + 1

// maxEmptyReads is how many reads returning no data and no error in a row
// are taken as a broken reader, as in bufio.
const maxEmptyReads = 100

// tag is a markup boundary the scanner looks for.
type tag int

const (
	tagNone tag = iota
	tagPageOpen
	tagPageClose
	tagRootOpen
	tagRootClose
	tagSiteinfoOpen
	tagSiteinfoClose
)

// Reader reads the pages of one dump stream. It is not safe for concurrent
// use.
type Reader struct {
	file    string
	maxPage int

	in      io.Reader // decoded stream; nil until the byte order mark is checked
	src     io.Reader // the stream given to NewReader
	buf     []byte    // read window; unread bytes are buf[r:w]
	r, w    int
	base    int64 // stream offset of buf[0]
	readErr error // sticky error from in

	capturing bool   // bytes passed over are appended to record
	record    []byte // the page or siteinfo being captured
	recordLen int64  // bytes passed over since the capture started, kept or not
	overflow  bool   // the record outgrew maxPage and was cut

	rootOpen    bool           // <mediawiki> seen
	rootClosed  bool           // </mediawiki> seen
	rootLang    string         // the xml:lang attribute of <mediawiki>
	siteinfo    []byte         // the last complete <siteinfo> element
	namespaces  map[string]int // namespace name -> key, from <siteinfo> or Options.Namespaces
	sawSiteinfo bool           // a <siteinfo> start tag was seen

	// A reader of a byte range that starts after the file's first byte is
	// unsynced until it knows whether it started inside a CDATA section or
	// comment: it holds back what it reads until it meets an opener (it
	// was outside), a terminator (it was inside: everything before it is
	// dropped) or offset syncEnd (no section that long is honoured).
	unsynced     bool
	syncEnd      int64
	stray        bool         // an unsynced reader met a terminator first
	held         []heldRecord // what an unsynced reader read, in order
	sectionLimit int          // see skipSection

	fileStart bool   // Options.FileStart
	sawPage   bool   // a <page> start tag was seen
	head      []byte // the stream's first bytes, leading white space skipped, when fileStart

	parser pageParser
	done   error // terminal error returned by every later Next
}

// NewReader returns a Reader of the dump in r. file names the input in pages
// and errors.
//
// Readers returned by Open mark decompression failures so that they are
// reported as truncation; for other streams only io.ErrUnexpectedEOF is.
func NewReader(r io.Reader, file string, opt Options) *Reader {
	maxPage := opt.MaxPageBytes
	if maxPage <= 0 {
		maxPage = DefaultMaxPageBytes
	}
	rd := &Reader{file: file, maxPage: maxPage, src: r, buf: make([]byte, windowSize),
		base: opt.StartOffset, rootOpen: opt.InsideRoot, namespaces: opt.Namespaces, fileStart: opt.FileStart}
	if opt.StartOffset > 0 {
		rd.in = r // a byte order mark is only at the start of a file
	}
	rd.sectionLimit = min(maxPage, maxSectionBytes)
	if opt.StartOffset > 0 && !opt.FileStart {
		rd.unsynced = true
		rd.syncEnd = opt.StartOffset + int64(rd.sectionLimit) + int64(len(cdataEnd))
	}
	return rd
}

// maxSectionBytes bounds the CDATA sections and comments the scanner
// honours (see skipSection), and so what a byte range's reader holds back
// while it is unsynced.
const maxSectionBytes = 1 << 20

// heldRecord is a page, or a bad page's error, held back by an unsynced
// reader.
type heldRecord struct {
	page document.Page
	err  error
}

// errPhantom ends the reading of a "page" found inside a CDATA section or
// comment that a byte range started in.
var errPhantom = errors.New("dump: page inside a section")

// Offset returns the number of decompressed bytes consumed so far (bytes of
// the UTF-8 stream for a UTF-16 input).
func (r *Reader) Offset() int64 { return r.base + int64(r.r) }

// Next returns the next page. It returns io.EOF at the clean end of the
// input; a *PageError for a bad page, after which Next may be called again;
// a *TruncatedError when the input ends or its decompressor fails inside a
// page or before </mediawiki>; with Options.FileStart, a *NotDumpError at
// the end of an input that holds data but nothing of a dump; or another
// error, wrapping an I/O failure. The last three are terminal.
func (r *Reader) Next() (document.Page, error) {
	for r.unsynced && r.done == nil {
		p, err := r.next()
		if r.stray { // what was held back was inside a section
			r.held, r.stray = r.held[:0], false
		}
		if r.done != nil {
			break
		}
		r.held = append(r.held, heldRecord{p, err})
	}
	if len(r.held) > 0 {
		h := r.held[0]
		r.held = r.held[1:]
		return h.page, h.err
	}
	return r.next()
}

// next is Next for a synced reader.
func (r *Reader) next() (document.Page, error) {
	for {
		n, ok := r.toPage()
		if !ok {
			return document.Page{}, r.done
		}
		r.sawPage = true
		p, err := r.readPage(n)
		if err == errPhantom {
			continue
		}
		return p, err
	}
}

// toPage reads past everything up to the next "<page>" (the root element,
// the <siteinfo> header, stray bytes) and returns the length of that start
// tag, not consumed, or false once the input is done (r.done says how).
func (r *Reader) toPage() (n int, ok bool) {
	for r.done == nil {
		t, n, err := r.nextTag()
		if err != nil {
			r.done = r.endError(err, -1)
			break
		}
		switch t {
		case tagPageOpen:
			return n, true
		case tagSiteinfoOpen:
			r.readSiteinfo(n)
			continue
		case tagRootOpen:
			r.openRoot()
		case tagRootClose:
			r.rootClosed = true
		}
		r.advance(n)
	}
	return 0, false
}

// Header reads the part of the dump before its first page and returns the
// xml:lang attribute of its <mediawiki> element and its <siteinfo> element
// (nil if it has none, or a malformed or oversized one). Next then goes on
// with the first page. A dump without pages is not an error here.
func (r *Reader) Header() (lang string, siteinfo []byte, err error) {
	if _, ok := r.toPage(); ok || errors.Is(r.done, io.EOF) || errors.Is(r.done, ErrTruncated) {
		return r.rootLang, r.siteinfo, nil // Next reports the end
	}
	return r.rootLang, r.siteinfo, r.done
}

// openRoot notes a <mediawiki> start tag at the front of the window and
// its xml:lang attribute.
func (r *Reader) openRoot() {
	r.rootOpen, r.rootClosed = true, false
	if bytes.IndexByte(r.buf[r.r:r.w], '>') < 0 && r.readErr == nil {
		r.fill() // a long start tag cut by the window's end
	}
	tag := r.buf[r.r:r.w]
	if end := bytes.IndexByte(tag, '>'); end >= 0 {
		r.rootLang = attribute(tag[:end], "xml:lang")
	}
}

// readPage reads the page whose n-byte opening tag is next in the window.
func (r *Reader) readPage(n int) (document.Page, error) {
	start := r.Offset()
	strayBefore := r.stray
	r.startCapture()
	r.advance(n)
	for {
		t, n, err := r.nextTag()
		if r.stray && !strayBefore { // the page started inside the section the range started in
			r.stopCapture()
			if err != nil {
				r.done = r.endError(err, -1)
				return document.Page{}, r.done
			}
			return document.Page{}, errPhantom
		}
		if err != nil {
			r.stopCapture()
			r.done = r.endError(err, start)
			return document.Page{}, r.done
		}
		switch t {
		case tagPageClose:
			r.advance(n)
			r.stopCapture()
			return r.finishPage(start)
		case tagPageOpen:
			r.stopCapture()
			return document.Page{}, r.pageError(start, errors.New("page not closed before the next <page>"))
		case tagRootClose:
			r.stopCapture()
			return document.Page{}, r.pageError(start, errors.New("page not closed before </mediawiki>"))
		}
		r.advance(n)
	}
}

// finishPage parses the captured page that started at offset start.
func (r *Reader) finishPage(start int64) (document.Page, error) {
	if r.overflow {
		return document.Page{}, r.pageError(start, fmt.Errorf("page of %d bytes, larger than %d bytes", r.recordLen, r.maxPage))
	}
	f, err := r.parser.parse(r.record)
	if err != nil {
		return document.Page{}, r.pageError(start, err)
	}
	if err := checkKey(f.id, f.revID); err != nil {
		return document.Page{}, r.pageError(start, err)
	}
	p := document.Page{
		File:     r.file,
		Offset:   start,
		ID:       f.id,
		RevID:    f.revID,
		NS:       f.ns,
		Title:    f.title,
		Redirect: f.redirect,
		Text:     f.text,
	}
	if !f.hasNS {
		p.NS = namespaceOf(p.Title, r.namespaces)
	}
	return p, nil
}

// pageError reports the captured record that started at offset start as bad,
// recovering its id and title from the raw bytes when possible.
func (r *Reader) pageError(start int64, cause error) error {
	id, title := salvage(r.record)
	return &PageError{
		DeadLetter: document.DeadLetter{
			File:   r.file,
			Offset: start,
			PageID: id,
			Title:  title,
			Reason: cause.Error(),
		},
		Err: cause,
	}
}

// readSiteinfo captures the <siteinfo> element whose n-byte opening tag is
// next in the window and learns its namespaces. A malformed or unterminated
// siteinfo is skipped: namespaces are then those of Options.Namespaces.
func (r *Reader) readSiteinfo(n int) {
	r.sawSiteinfo = true
	r.startCapture()
	r.advance(n)
	for {
		t, n, err := r.nextTag()
		if err != nil || t == tagPageOpen || t == tagRootClose {
			r.stopCapture() // leave the error or the tag to Next
			return
		}
		r.advance(n)
		if t == tagSiteinfoClose {
			r.stopCapture()
			if !r.overflow {
				r.siteinfo = bytes.Clone(r.record)
				if ns := parseNamespaces(r.record); ns != nil {
					r.namespaces = ns
				}
			}
			return
		}
	}
}

// endError turns the error that ended the input into what Next returns.
// pageStart is the offset of the unfinished page, or -1 between pages.
func (r *Reader) endError(err error, pageStart int64) error {
	truncated := func(cause error) error {
		if pageStart < 0 {
			return &TruncatedError{File: r.file, Offset: r.Offset(), Err: cause}
		}
		id, title := salvage(r.record)
		return &TruncatedError{File: r.file, Offset: pageStart, Err: cause, PageCut: true, PageID: id, Title: title}
	}
	switch {
	case err == io.EOF && pageStart >= 0:
		return truncated(io.ErrUnexpectedEOF)
	case err == io.EOF && r.rootOpen && !r.rootClosed:
		return truncated(errNoRootEnd)
	case err == io.EOF && r.fileStart && len(r.head) > 0 && !r.sawPage && !r.rootOpen && !r.rootClosed && !r.sawSiteinfo:
		return &NotDumpError{File: r.file, Head: r.head}
	case err == io.EOF:
		return io.EOF
	case IsDecodeFailure(err):
		return truncated(err)
	}
	return fmt.Errorf("dump: reading %s at offset %d: %w", r.file, r.Offset(), err)
}

// nextTag advances to the next recognised tag and returns it with its length
// in bytes, without consuming it. It returns the read error, io.EOF at the
// end of the input, when no tag is left.
func (r *Reader) nextTag() (tag, int, error) {
	for {
		if r.unsynced && r.Offset() > r.syncEnd {
			r.unsynced = false
		}
		i := bytes.IndexByte(r.buf[r.r:r.w], '<')
		if r.unsynced && r.findStray(i) {
			continue
		}
		if i < 0 {
			keep := 0
			if r.unsynced {
				keep = len(cdataEnd) - 1 // they may start a terminator
			}
			r.advance(max(0, r.w-r.r-keep))
			if err := r.fill(); err != nil {
				r.advance(r.w - r.r)
				return tagNone, 0, err
			}
			continue
		}
		r.advance(i)
		if r.w-r.r < maxTagLen && r.readErr == nil {
			r.fill() // a read error is seen at the next fill
			continue
		}
		if t, n := classify(r.buf[r.r:r.w]); t != tagNone {
			return t, n, nil
		}
		if open, end := section(r.buf[r.r:r.w]); end != "" {
			r.unsynced = false // it started outside any section
			if err := r.skipSection(len(open), end); err != nil {
				return tagNone, 0, err
			}
			continue
		}
		r.advance(1)
	}
}

// findStray looks for a CDATA or comment terminator in the text before the
// next '<' (at i in the window, or its end if i < 0) of an unsynced reader.
// One there means that the reader started inside a section: it consumes
// the text up to the terminator, marks the reader stray and synced, and
// reports true. The text of a gap is looked at once, and a terminator
// holds no '<', so this is linear.
func (r *Reader) findStray(i int) bool {
	gap := r.buf[r.r:r.w]
	if i >= 0 {
		gap = gap[:i]
	}
	j, end := bytes.Index(gap, []byte(cdataEnd)), cdataEnd
	if k := bytes.Index(gap, []byte(commentEnd)); k >= 0 && (j < 0 || k < j) {
		j, end = k, commentEnd
	}
	if j < 0 {
		return false
	}
	r.advance(j + len(end))
	r.unsynced, r.stray = false, true
	return true
}

// section returns the opener and terminator of the CDATA section or comment
// that starts at the start of b, or "", "" if none does. Their content is
// text, in which "<page>" is not a tag.
func section(b []byte) (open, end string) {
	switch {
	case bytes.HasPrefix(b, []byte(cdataOpen)):
		return cdataOpen, cdataEnd
	case bytes.HasPrefix(b, []byte(commentOpen)):
		return commentOpen, commentEnd
	}
	return "", ""
}

const (
	cdataOpen   = "<![CDATA["
	cdataEnd    = "]]>"
	commentOpen = "<!--"
	commentEnd  = "-->"
)

// skipSection consumes the CDATA section or comment at the front of the
// window (its opener is n bytes long), up to and including its terminator
// end, in linear time. A terminator that does not start within
// sectionLimit bytes of the opener (the page size limit, at most
// maxSectionBytes) is not looked for further: the opener is taken as stray
// bytes, not markup, and scanning for tags resumes that far after it, so
// that a lone "<!--" between pages costs at most that much. Where that is depends only
// on the bytes, not on how reads cut them. It returns the read error that
// ends the input inside the section.
func (r *Reader) skipSection(n int, end string) error {
	r.advance(n)
	limit := r.sectionLimit // the terminator must start at most this far ahead
	for {
		win := r.buf[r.r:r.w]
		if j := bytes.Index(win, []byte(end)); j >= 0 && j <= limit {
			r.advance(j + len(end))
			return nil
		}
		if len(win) >= limit+len(end) {
			r.advance(limit)
			return nil
		}
		if k := len(win) - (len(end) - 1); k > 0 { // the last bytes may start the terminator
			r.advance(k)
			limit -= k
		}
		if err := r.fill(); err != nil {
			return err
		}
	}
}

// classify recognises the tag at the start of b, which starts with '<'.
func classify(b []byte) (tag, int) {
	switch {
	case hasTag(b, "<page"):
		return tagPageOpen, len("<page")
	case bytes.HasPrefix(b, []byte("</page>")):
		return tagPageClose, len("</page>")
	case hasTag(b, "<mediawiki"):
		return tagRootOpen, len("<mediawiki")
	case bytes.HasPrefix(b, []byte("</mediawiki>")):
		return tagRootClose, len("</mediawiki>")
	case hasTag(b, "<siteinfo"):
		return tagSiteinfoOpen, len("<siteinfo")
	case bytes.HasPrefix(b, []byte("</siteinfo>")):
		return tagSiteinfoClose, len("</siteinfo>")
	}
	return tagNone, 0
}

// hasTag reports whether b starts with the start tag name open followed by
// '>' or white space.
func hasTag(b []byte, open string) bool {
	if len(b) <= len(open) || string(b[:len(open)]) != open {
		return false
	}
	switch b[len(open)] {
	case '>', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// advance consumes n buffered bytes, capturing them if a record is open.
func (r *Reader) advance(n int) {
	if r.fileStart && len(r.head) < headBytes {
		r.keepHead(r.buf[r.r : r.r+n])
	}
	if r.capturing {
		r.recordLen += int64(n)
	}
	if r.capturing && !r.overflow {
		if len(r.record)+n > r.maxPage {
			r.overflow = true
		} else {
			r.record = append(r.record, r.buf[r.r:r.r+n]...)
		}
	}
	r.r += n
}

// keepHead appends the first of b to the stream's head, skipping leading
// white space.
func (r *Reader) keepHead(b []byte) {
	if len(r.head) == 0 {
		b = bytes.TrimLeft(b, " \t\r\n")
	}
	r.head = append(r.head, b[:min(len(b), headBytes-len(r.head))]...)
}

func (r *Reader) startCapture() {
	r.capturing, r.overflow = true, false
	r.record, r.recordLen = r.record[:0], 0
}

func (r *Reader) stopCapture() { r.capturing = false }

// fill moves the unread bytes to the front of the window and reads more. It
// returns an error only when it read nothing.
func (r *Reader) fill() error {
	if r.r > 0 {
		copy(r.buf, r.buf[r.r:r.w])
		r.base += int64(r.r)
		r.w -= r.r
		r.r = 0
	}
	before := r.w
	if r.in == nil {
		r.detectEncoding()
		before = r.r
	}
	if r.w == before {
		r.read(r.in, r.w+1)
	}
	if r.w > before || r.w == len(r.buf) {
		return nil
	}
	return r.readErr
}

// read reads from in into the window until it holds at least min bytes or
// an error occurs.
func (r *Reader) read(in io.Reader, min int) {
	empty := 0
	for r.readErr == nil && r.w < min {
		n, err := in.Read(r.buf[r.w:])
		r.w += n
		r.readErr = err
		if n > 0 {
			empty = 0
			continue
		}
		if empty++; empty == maxEmptyReads {
			r.readErr = io.ErrNoProgress
		}
	}
}

// detectEncoding reads the first bytes of the stream and, after a UTF-16
// byte order mark, switches to transcoding them. A UTF-8 mark is skipped.
func (r *Reader) detectEncoding() {
	r.read(r.src, len(bomUTF8))
	r.in = r.src
	skip, isUTF16, bigEndian := detectBOM(r.buf[:r.w])
	if !isUTF16 {
		r.r = skip
		return
	}
	rest := bytes.Clone(r.buf[skip:r.w])
	r.in = newUTF16Reader(io.MultiReader(bytes.NewReader(rest), &errReader{err: r.readErr, src: r.src}), bigEndian)
	r.r, r.w, r.readErr = 0, 0, nil
}

// errReader returns err, if not nil, and src's bytes otherwise.
type errReader struct {
	err error
	src io.Reader
}

func (e *errReader) Read(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return e.src.Read(p)
}
