// Package document is the model every reader produces and every stage
// reads: a Page (a wiki's page or a document of a text corpus or a web
// crawl), a DeadLetter for a record that could not be read, the Site (wiki
// or corpus) a page belongs to, the limits of the id space that sentence
// ids pack, and the Input files a run read. It holds no reading or
// parsing: io/dump, io/multistream, io/text and io/warc fill it in.
package document

// MaxKey is the largest revision id (or, for a page without one, page id)
// a page may have: sentence ids keep 33 bits for it (8.6 billion, six times
// the English Wikipedia's revision ids in 2026). A reader reports a page
// whose id is negative or larger as a dead letter.
const MaxKey = 1<<33 - 1

// MaxWikis is how many wikis and corpora one run can read: sentence ids
// keep 10 bits for a page's wiki.
const MaxWikis = 1 << 10

// Page is one page of a wiki's dump, or one document of a text corpus or a
// web crawl.
type Page struct {
	File     string // file name as given to the reader
	Wiki     string // the wiki's or corpus's name (Site.Wiki of the file), set by the reader
	Offset   int64  // byte offset of "<page>" (or of the record) in the decompressed stream
	ID       int64  // <page><id>
	RevID    int64  // <revision><id> (last revision if several)
	NS       int    // <ns>, or derived from the title's prefix when absent
	Title    string
	Redirect string // <redirect title="..."/> target, "" if not a redirect
	Text     string // <revision><text> of the last revision, entities decoded

	// The fields below are those of a document of a text corpus (package
	// io/text): a JSON line or a plain-text file. They are zero for a
	// wiki's page.

	Plain bool   // Text is plain text, not wikitext: the wikitext cleaner is skipped
	Name  string // the document's own id in its corpus: the JSON "id", a text file's path
	URL   string // the document's URL, "" if it has none
	Lang  string // the document's language (a lower-case tag), "" if it says none
}

// DeadLetter is a record that could not be read.
type DeadLetter struct {
	File   string `json:"file"`
	Offset int64  `json:"offset"`            // decompressed byte offset where the bad record starts
	Line   int64  `json:"line,omitempty"`    // a JSON line's number in its file, from 1
	PageID int64  `json:"page_id,omitempty"` // when it could be recovered
	Title  string `json:"title,omitempty"`   // when it could be recovered
	Reason string `json:"reason"`
}
