// Package text reads corpora that are not MediaWiki dumps: JSON lines, one
// document per line (the layout of Dolma, datatrove and most web-text
// corpora), and plain-text files, one document per file.
//
// Their documents become dump.Pages marked Plain, so that everything after
// the reader (sentence splitting, MinHash, buckets, verification,
// clusters) is the same for wikis and for text corpora; only the wikitext
// cleaner is skipped, and a plain document's paragraphs come from its lines
// instead (AppendParagraphs).
//
// A text corpus takes the place of a wiki in sentence ids
// (wiki:page_id:rev_id:ordinal), so that the documents of several corpora,
// and of wikis read in the same run, never share an id: each JSON-lines
// file is a corpus of its own, named after the file (CorpusName), and all
// the plain-text files of a run are one corpus named "text" (PlainCorpus).
// A JSON line's page id is its line number in its file, from 1; a
// plain-text file's is its rank among the run's plain-text files, sorted by
// path, from 1. Revision ids are 0.
//
// A JSON line holds an object with the document's "id" (a string or a
// number) and "text", and optionally its "title", "url" and "lang" or
// "language". Dolma's and datatrove's layouts, which keep the URL, the
// title and the language in a "metadata" object, are read too (see
// JSONLReader). A JSON-lines file is read whole and in order by one worker,
// since its documents' ids are line numbers; most corpora are compressed
// anyway, and a run gets its parallelism from its many files. Files may be
// compressed as dump.Open decompresses them (.gz, .zst, .bz2, .xz).
//
// Bad input is never fatal and never dropped silently: a line that is not
// a JSON object, lacks "text" or "id", or repeats an id of an earlier line
// of its file is a dead letter naming the file, the line's byte offset and
// number and the reason (DocError), and a stream that ends inside a line or
// whose decompressor fails keeps the complete lines before and ends with a
// dead letter (TruncatedError). A document whose text is empty is read and
// counted, not kept. A binary file given as text is refused when the run is
// planned (Detect, CheckText).
package text

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/neardup/neardup/io/document"
)

// Format is the format of an input file.
type Format int

// The formats of --input_format.
const (
	Auto      Format = iota // chosen by each file's content (Detect)
	MediaWiki               // a MediaWiki XML dump (package dump)
	JSONL                   // JSON lines, a document per line
	Plain                   // plain text, a document per file
	WARC                    // WARC or WET records (package io/warc), a document per HTML response or conversion
)

var formatNames = [...]string{Auto: "auto", MediaWiki: "mediawiki", JSONL: "jsonl", Plain: "text", WARC: "warc"}

// String returns the format's name, as --input_format takes it.
func (f Format) String() string {
	if f < 0 || int(f) >= len(formatNames) {
		return fmt.Sprintf("Format(%d)", int(f))
	}
	return formatNames[f]
}

// ParseFormat returns the format of a name: auto, mediawiki, jsonl, text or
// warc.
func ParseFormat(name string) (Format, error) {
	for f, n := range formatNames {
		if n == name {
			return Format(f), nil
		}
	}
	return 0, fmt.Errorf("unknown input format %q (want auto, mediawiki, jsonl, text or warc)", name)
}

// Source is an input file of a text corpus as the read stage plans it.
type Source struct {
	File string
	Size int64
	// Plain says the file is one plain-text document; otherwise it holds
	// JSON lines.
	Plain bool
	// Corpus is the corpus's name, stamped on its documents as
	// document.Page.Wiki: CorpusName(File) for JSON lines, PlainCorpus for
	// plain text.
	Corpus string
	// Rank is a plain-text file's page id: its rank among the run's
	// plain-text files, sorted by path, from 1. It is 0 for JSON lines,
	// whose page ids are line numbers.
	Rank int64
}

// PlainCorpus names the corpus of a run's plain-text files.
const PlainCorpus = "text"

// maxCorpusName bounds a corpus's name, like a wiki's (document.Site.Wiki).
const maxCorpusName = 64

// compressed are the extensions of the compressed files dump.Open reads.
var compressed = []string{".gz", ".zst", ".bz2", ".xz"}

// CorpusName names the corpus of a JSON-lines file: its base name without
// its compression extension and its own extension
// (dolma-cc_en_head-0091.jsonl.gz → dolma-cc_en_head-0091), the ':' and
// white space that sentence ids cannot hold replaced by '_', cut to 64
// bytes; "corpus" if nothing is left.
func CorpusName(file string) string {
	name := path.Base(strings.ReplaceAll(file, "\\", "/"))
	for _, ext := range compressed {
		if n, ok := strings.CutSuffix(name, ext); ok {
			name = n
			break
		}
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	name = strings.Map(func(r rune) rune {
		switch r {
		case ':', ' ', '\t', '\r', '\n', utf8.RuneError:
			return '_'
		}
		return r
	}, name)
	for len(name) > maxCorpusName {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "" || name == "." || name == ".." {
		return "corpus"
	}
	return name
}

// Site is what the pipeline knows of a text corpus, in the place of a
// wiki's header: its name, and no language (a document may have its own,
// document.Page.Lang), no base URL and no namespaces.
func Site(corpus string) document.Site {
	return document.Site{Wiki: corpus}
}
