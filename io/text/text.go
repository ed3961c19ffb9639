// Package text reads corpora that are not MediaWiki dumps: JSON lines, one
// document per line (the layout of Dolma, datatrove and most web-text
// corpora), and plain-text files, one document per file.
//
// Their documents become document.Pages marked Plain, so that everything
// after the reader is the same for wikis and text corpora; only the
// wikitext cleaner is skipped, a plain document's paragraphs coming from
// its lines instead (AppendParagraphs).
//
//   - Each JSON-lines file is a corpus named after it (CorpusName), read
//     whole by one worker, since its ids are line numbers; the plain-text
//     files of a run are one corpus, PlainCorpus.
//   - A bad line is a dead letter (DocError, TruncatedError); a binary
//     file is refused when the run is planned (Detect, CheckText).
//
// Fields, ids and bad input: docs/input.md, "Text corpora".
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
