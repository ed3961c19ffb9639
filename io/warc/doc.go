// Package warc reads web crawls in the WARC format (ISO 28500, WARC 1.0
// and 1.1): the response records of HTML pages, whose main content
// package htmltext extracts, and the conversion records of WET files,
// which are text already. Each becomes a document (document.Page, marked
// Plain) of the corpus named after its file (text.CorpusName), whose page
// id is its record's offset: unique in its file, and the same whoever
// reads it. It frames records itself, since the Go WARC libraries give
// neither a record's compressed offset nor a way to skip an oversized
// record unread; Writer writes the files the tests and corpora need.
//
//   - Plan cuts a gzip-per-record or uncompressed file into splits read in
//     parallel, at the offsets of a CDX index when there is one.
//   - Bad input is never fatal: it is a dead letter naming the file, the
//     record's offset and the reason, and is counted.
//
// Fields, parsing, splits and bad input in full: docs/reuse.md, "Reading
// WARC files".
package warc
