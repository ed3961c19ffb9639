// Package warc reads web crawls in the WARC format (ISO 28500, WARC 1.0
// and 1.1): the response records of HTML pages, whose main content
// package htmltext extracts, and the conversion records of WET files,
// which are text already. Each becomes a document (dump.Page, marked
// Plain) of the corpus named after its file.
package warc
