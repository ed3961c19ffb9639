// Package dump reads MediaWiki XML export files ("dumps") one page at a time.
//
// Real dumps are large, usually compressed, and now and then damaged. A
// single XML decoder over the whole file would stop at the first bad byte
// and lose everything after it, so Reader scans the stream for the raw
// <page> and </page> tags, buffers one page (at most Options.MaxPageBytes)
// and parses only that page: a bad page becomes a *PageError carrying a
// DeadLetter, and reading resumes at the next page.
//
//   - Text is valid UTF-8: bad bytes become U+FFFD, UTF-16 is transcoded.
//   - Declared entities are never expanded: a page using one is bad.
//   - Open opens a possibly compressed file (.bz2, .gz, .xz, .zst) through
//     Beam's filesystem layer, and Expand expands comma-separated globs.
//
// How pages are found: docs/input.md, "How a dump is read".
package dump

import (
	"errors"
	"fmt"

	"github.com/neardup/neardup/io/document"
)

// DefaultMaxPageBytes is the page size limit used when Options.MaxPageBytes
// is zero. The largest pages of the English Wikipedia are a few MiB.
const DefaultMaxPageBytes = 64 << 20

// Options configures a Reader.
type Options struct {
	// MaxPageBytes bounds the bytes buffered for one page, from "<page>" to
	// "</page>" inclusive. A larger page is skipped without being buffered and
	// reported as a *PageError. Zero means DefaultMaxPageBytes.
	MaxPageBytes int

	// StartOffset is the byte offset in the file at which the given stream
	// starts, for a reader of a byte range of a plain file: offsets count
	// from it and no byte order mark is looked for.
	StartOffset int64

	// FileStart says the stream starts at the first byte of its file (a
	// whole file, or the byte range that starts it). Then a stream with data
	// but no <page>, no <mediawiki> root and no <siteinfo> ends with a
	// *NotDumpError instead of io.EOF. Streams that start elsewhere (later
	// byte ranges, multistream ranges) cannot tell.
	FileStart bool

	// Namespaces maps namespace names to keys, for deriving the namespace
	// of a page without <ns> from its title until the stream's own
	// <siteinfo>, if any, declares them: a byte range after the file's
	// header is given those of the header (Site.Namespaces), so that it
	// derives what a reader of the whole file would.
	Namespaces map[string]int

	// InsideRoot says the stream starts inside an open <mediawiki> element,
	// so that a stream that ends without </mediawiki> is reported as
	// truncated, as for a whole file.
	InsideRoot bool
}

// PageError reports one page that could not be read. The Reader has already
// skipped it: call Next again to go on with the following page.
type PageError struct {
	DeadLetter document.DeadLetter
	Err        error // the cause; its text is DeadLetter.Reason
}

func (e *PageError) Error() string {
	d := e.DeadLetter
	who := ""
	if d.PageID != 0 || d.Title != "" {
		who = fmt.Sprintf(" (id %d, title %q)", d.PageID, d.Title)
	}
	return fmt.Sprintf("dump: %s: bad page at offset %d%s: %s", d.File, d.Offset, who, d.Reason)
}

func (e *PageError) Unwrap() error { return e.Err }

// ErrTruncated is matched, through errors.Is, by every *TruncatedError.
var ErrTruncated = errors.New("dump: truncated input")

// checkKey checks the id that identifies a page's sentences: its revision
// id, or its page id when it has no revision id (0).
func checkKey(id, revID int64) error {
	switch {
	case revID != 0 && (revID < 0 || revID > document.MaxKey):
		return fmt.Errorf("revision id %d outside 0…%d", revID, int64(document.MaxKey))
	case revID == 0 && (id < 0 || id > document.MaxKey):
		return fmt.Errorf("page id %d (no revision id) outside 0…%d", id, int64(document.MaxKey))
	}
	return nil
}

// NotDumpError reports a file with data but no <page>, no <mediawiki> root
// and no <siteinfo> (a README, a JSON file, UTF-16 without a byte order
// mark...): nothing in it looks like a MediaWiki XML dump. It is terminal.
type NotDumpError struct {
	File string
	Head []byte // the first bytes of the file, leading white space skipped
}

func (e *NotDumpError) Error() string {
	return fmt.Sprintf("no pages found: %s does not look like a MediaWiki XML dump (first bytes: %q)", e.File, e.Head)
}

// headBytes is how many of a file's first bytes a NotDumpError shows.
const headBytes = 32

// errNoRootEnd is the cause of a TruncatedError for a document whose
// <mediawiki> element is never closed although no page was cut.
var errNoRootEnd = errors.New("input ended before </mediawiki>")

// TruncatedError reports that the input ended, or its decompressor failed,
// inside a page or before the closing </mediawiki> tag. Every complete page
// before that point has been returned. It is terminal: later calls to Next
// return it again.
type TruncatedError struct {
	File string
	// Offset is where the unfinished page starts ("<page>"), or, when no page
	// was cut, the decompressed offset at which the input ended.
	Offset int64
	// Err is the cause: io.ErrUnexpectedEOF when a page was cut, the
	// decompressor's error when it failed, or an error saying that
	// </mediawiki> is missing.
	Err error
	// PageCut says a page was cut (Offset is its "<page>"); PageID and
	// Title are what could be recovered of it from its partial bytes.
	PageCut bool
	PageID  int64
	Title   string
}

func (e *TruncatedError) Error() string {
	return fmt.Sprintf("dump: %s: truncated at offset %d: %v", e.File, e.Offset, e.Err)
}

func (e *TruncatedError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrTruncated) true.
func (e *TruncatedError) Is(target error) bool { return target == ErrTruncated }
