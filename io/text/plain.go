package text

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
)

// ReadPlain reads the one document of a plain-text file from r, its stream
// (opened with dump.Open): a document.Page marked Plain whose ID is src.Rank
// and whose Name and Title are the file's path. Invalid UTF-8 is replaced
// by U+FFFD and a UTF-8 byte order mark is skipped. A file of more than
// maxBytes bytes (0: dump.DefaultMaxPageBytes) is a *DocError, read no
// further; a stream cut or whose decompressor fails is a *TruncatedError;
// any other error of the stream is returned.
func ReadPlain(r io.Reader, src Source, maxBytes int) (document.Page, error) {
	if maxBytes <= 0 {
		maxBytes = dump.DefaultMaxPageBytes
	}
	b, err := io.ReadAll(io.LimitReader(r, int64(maxBytes)+1))
	switch {
	case err != nil && dump.IsDecodeFailure(err):
		return document.Page{}, &TruncatedError{File: src.File, Offset: 0, Cut: len(b) > 0, Err: err}
	case err != nil:
		return document.Page{}, fmt.Errorf("text: reading %s: %w", src.File, err)
	case len(b) > maxBytes:
		return document.Page{}, &DocError{DeadLetter: document.DeadLetter{File: src.File,
			Reason: fmt.Sprintf("file longer than %d bytes (--max_page_bytes)", maxBytes)}}
	}
	b = bytes.ToValidUTF8(bytes.TrimPrefix(b, utf8BOM), []byte(string(utf8.RuneError)))
	return document.Page{File: src.File, Wiki: src.Corpus, ID: src.Rank, Title: src.File, Text: string(b),
		Plain: true, Name: src.File}, nil
}

// AppendParagraphs appends the paragraphs of a plain-text document to dst
// and returns it. The paragraphs come from the document's lines (ended by
// "\n", "\r\n" or "\r"), each with its runs of white space collapsed to
// one space and none at either end:
//
//   - a blank line always ends a paragraph;
//   - a line break ends one too, unless the line before does not end a
//     sentence and the next line starts with a lower-case letter
//     (unicode.IsLower): then the two are one paragraph's, joined by a
//     space, so that hard-wrapped prose is joined again. A line ends a
//     sentence if its last character is a sentence terminal (Unicode's
//     Sentence_Terminal, as . ! ? 。, and …) or a closing bracket or
//     quotation mark (Unicode's Pe and Pf, as ) ] } » ” ’, and " ').
//
// So a list, a heading or a line of a poem, which starts with a capital, a
// digit or a symbol, stays a paragraph of its own, while a sentence broken
// across lines by a word-wrapping editor is one again. A word hyphenated
// at a line's end keeps its hyphen and gets a space ("exam- ple"). The
// paragraphs' strings share one allocation; none is empty.
func AppendParagraphs(dst []string, doc string) []string {
	b := paragraphs{text: make([]byte, 0, len(doc))}
	for doc != "" {
		line := doc
		doc = ""
		if i := strings.IndexAny(line, "\r\n"); i >= 0 {
			brk := line[i]
			line, doc = line[:i], line[i+1:]
			if brk == '\r' && strings.HasPrefix(doc, "\n") {
				doc = doc[1:]
			}
		}
		b.add(line)
	}
	b.end()
	s := string(b.text)
	for _, sp := range b.spans {
		dst = append(dst, s[sp[0]:sp[1]])
	}
	return dst
}

// paragraphs builds the paragraphs of a document, line by line.
type paragraphs struct {
	text  []byte   // the paragraphs, one after the other
	spans [][2]int // each paragraph's bytes in text
	open  bool     // a paragraph is open: the next line may join it
	start int      // where the open paragraph starts in text
	last  rune     // the open paragraph's last character
}

// add adds a line: to the open paragraph if it continues it, else as a new
// paragraph; a blank line ends the open paragraph.
func (b *paragraphs) add(line string) {
	line = strings.TrimFunc(line, unicode.IsSpace)
	if line == "" {
		b.end()
		return
	}
	first, _ := utf8.DecodeRuneInString(line)
	if b.open && !endsSentence(b.last) && unicode.IsLower(first) {
		b.text = append(b.text, ' ')
	} else {
		b.end()
		b.open, b.start = true, len(b.text)
	}
	space := false
	for _, r := range line {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b.text = append(b.text, ' ')
			space = false
		}
		b.text = utf8.AppendRune(b.text, r)
		b.last = r
	}
}

// end ends the open paragraph, if any.
func (b *paragraphs) end() {
	if b.open {
		b.spans = append(b.spans, [2]int{b.start, len(b.text)})
		b.open = false
	}
}

// endsSentence reports whether a line whose last character is r ends a
// sentence: r is a sentence terminal or a closing bracket or quotation
// mark.
func endsSentence(r rune) bool {
	switch r {
	case '…', '"', '\'':
		return true
	}
	return unicode.In(r, unicode.Sentence_Terminal, unicode.Pe, unicode.Pf)
}
