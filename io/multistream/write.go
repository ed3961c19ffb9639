package multistream

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"

	"github.com/dsnet/compress/bzip2"

	"github.com/neardup/neardup/internal/bytecount"
)

// Write writes a multistream bzip2 file to w and its index to indexW, as
// Wikimedia's recompressxml does: header as the first bzip2 stream, then
// each group of perStream pages as one stream, then footer as the last
// stream (an empty header or footer gets no stream). Each page is a raw
// <page>…</page> element, written as given with whatever white space
// surrounds it, so that decompressing the whole file gives header, the
// pages and footer concatenated. Streams are compressed at bzip2's level 9
// (900 kB blocks), as Wikimedia's are, on up to GOMAXPROCS goroutines, and
// written in order.
//
// The index gets one line "offset:page_id:title" per page, offset being the
// byte offset in w of the page's stream, and page_id and title the first
// <id> after the page's <title> and that title, as written in the XML (so
// still escaped, as in Wikimedia's indexes). The index is written as plain
// text; Wikimedia publishes it compressed with bzip2, and ParseIndex reads
// either. A page without a title or a page id is an error, reported before
// anything is written.
func Write(w, indexW io.Writer, pages [][]byte, header, footer []byte, perStream int) error {
	if perStream < 1 {
		return fmt.Errorf("multistream: %d pages per stream: must be at least 1", perStream)
	}
	chunks, err := plan(pages, header, footer, perStream)
	if err != nil {
		return err
	}
	out := &bytecount.Writer{W: w}
	index := bufio.NewWriter(indexW)
	var line []byte
	err = compressInOrder(chunks, runtime.GOMAXPROCS(0), func(c chunk, stream []byte) error {
		for _, k := range c.keys {
			line = strconv.AppendInt(line[:0], out.N, 10)
			line = append(line, ':')
			line = strconv.AppendInt(line, k.id, 10)
			line = append(line, ':')
			line = append(line, k.title...)
			line = append(line, '\n')
			if _, err := index.Write(line); err != nil {
				return fmt.Errorf("multistream: writing index: %w", err)
			}
		}
		if _, err := out.Write(stream); err != nil {
			return fmt.Errorf("multistream: writing stream at offset %d: %w", out.N, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := index.Flush(); err != nil {
		return fmt.Errorf("multistream: writing index: %w", err)
	}
	return nil
}

// chunk is the content of one bzip2 stream: a header, a footer, or a group
// of pages with their index keys.
type chunk struct {
	parts [][]byte
	keys  []pageKey
}

// pageKey is what the index says of a page.
type pageKey struct {
	id    int64
	title []byte
}

// plan groups the pages into the streams of the file and reads their keys.
func plan(pages [][]byte, header, footer []byte, perStream int) ([]chunk, error) {
	var chunks []chunk
	if len(header) > 0 {
		chunks = append(chunks, chunk{parts: [][]byte{header}})
	}
	for start := 0; start < len(pages); start += perStream {
		group := pages[start:min(start+perStream, len(pages))]
		keys := make([]pageKey, len(group))
		for i, page := range group {
			k, err := keyOf(page)
			if err != nil {
				return nil, fmt.Errorf("multistream: page %d: %w", start+i, err)
			}
			keys[i] = k
		}
		chunks = append(chunks, chunk{parts: group, keys: keys})
	}
	if len(footer) > 0 {
		chunks = append(chunks, chunk{parts: [][]byte{footer}})
	}
	return chunks, nil
}

// keyOf finds the raw title of a page and the first <id> after it, which is
// the page's own id in every export schema.
func keyOf(page []byte) (pageKey, error) {
	title, rest, ok := element(page, "title")
	switch {
	case !ok:
		return pageKey{}, errors.New("no <title>…</title>")
	case len(title) == 0:
		return pageKey{}, errors.New("empty <title>")
	case bytes.ContainsAny(title, "\r\n"):
		return pageKey{}, fmt.Errorf("title %q spans lines", truncate(title))
	}
	raw, _, ok := element(rest, "id")
	if !ok {
		return pageKey{}, fmt.Errorf("page %q has no <id>…</id>", truncate(title))
	}
	id, ok := parseDigits(bytes.TrimSpace(raw))
	if !ok {
		return pageKey{}, fmt.Errorf("page %q: id %q is not a decimal number", truncate(title), truncate(raw))
	}
	return pageKey{id: id, title: title}, nil
}

// element returns the content of the first <name>…</name> of b and the
// bytes after it.
func element(b []byte, name string) (content, rest []byte, ok bool) {
	open, end := "<"+name+">", "</"+name+">"
	_, after, ok := bytes.Cut(b, []byte(open))
	if !ok {
		return nil, nil, false
	}
	return bytes.Cut(after, []byte(end))
}

// compressInOrder compresses each chunk as one bzip2 stream on up to
// workers goroutines and passes the streams to emit in chunk order. At most
// 2×workers compressed streams wait for emit at any time. It stops at the
// first error.
func compressInOrder(chunks []chunk, workers int, emit func(chunk, []byte) error) error {
	type result struct {
		stream []byte
		err    error
	}
	workers = max(workers, 1)
	results := make([]chan result, len(chunks))
	for i := range results {
		results[i] = make(chan result, 1) // a worker never waits for emit
	}
	done := make(chan struct{})
	defer close(done)
	tokens := make(chan struct{}, 2*workers)
	jobs := make(chan int)
	go func() {
		defer close(jobs)
		for i := range chunks {
			select {
			case tokens <- struct{}{}:
			case <-done:
				return
			}
			select {
			case jobs <- i:
			case <-done:
				return
			}
		}
	}()
	for range workers {
		go func() {
			var c compressor
			for i := range jobs {
				stream, err := c.compress(chunks[i].parts)
				results[i] <- result{stream, err}
			}
		}()
	}
	for i, c := range chunks {
		r := <-results[i]
		<-tokens
		if r.err != nil {
			return fmt.Errorf("multistream: compressing stream %d: %w", i, r.err)
		}
		if err := emit(c, r.stream); err != nil {
			return err
		}
	}
	return nil
}

// compressor compresses byte slices into bzip2 streams, reusing one
// encoder.
type compressor struct {
	zw *bzip2.Writer
}

// compress returns parts, concatenated, as one bzip2 stream.
func (c *compressor) compress(parts [][]byte) ([]byte, error) {
	var buf bytes.Buffer
	if c.zw == nil {
		zw, err := bzip2.NewWriter(&buf, &bzip2.WriterConfig{Level: bzip2.BestCompression})
		if err != nil {
			return nil, err
		}
		c.zw = zw
	} else if err := c.zw.Reset(&buf); err != nil {
		return nil, err
	}
	for _, p := range parts {
		if _, err := c.zw.Write(p); err != nil {
			return nil, err
		}
	}
	if err := c.zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Split cuts a dump document into the parts that Write takes: the header
// before the first page, the raw pages, and the footer after the last one,
// so that header, pages and footer concatenated give doc back. A page
// starts at the line of its "<page>" tag (with the indentation before it,
// when only spaces or tabs precede the tag on its line) and runs to the
// start of the next page, or, for the last page, to the end of the line of
// its "</page>" tag; the footer is the rest ("</mediawiki>" and a newline
// in a real dump). Tags are recognised as io/dump recognises them: '<' is
// always escaped inside text. The parts are slices of doc.
func Split(doc []byte) (header []byte, pages [][]byte, footer []byte) {
	starts := pageStarts(doc)
	if len(starts) == 0 {
		return doc, nil, nil
	}
	last := starts[len(starts)-1]
	end := lastPageEnd(doc, last)
	pages = make([][]byte, len(starts))
	for i, s := range starts {
		e := end
		if i+1 < len(starts) {
			e = starts[i+1]
		}
		pages[i] = doc[s:e:e]
	}
	return doc[:starts[0]:starts[0]], pages, doc[end:]
}

// pageStarts returns where each page of doc starts: at its "<page" tag, or
// at the start of the tag's line if only blanks precede it there.
func pageStarts(doc []byte) []int {
	var starts []int
	for i := 0; ; {
		j := bytes.Index(doc[i:], []byte("<page"))
		if j < 0 {
			return starts
		}
		tag := i + j
		i = tag + len("<page")
		if i < len(doc) && isTagEnd(doc[i]) {
			starts = append(starts, lineStart(doc, tag))
		}
	}
}

// isTagEnd reports whether c may follow an element name in a start tag.
func isTagEnd(c byte) bool {
	return c == '>' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// lineStart returns the start of the line of doc[tag] if only spaces or
// tabs precede it on that line, and tag otherwise.
func lineStart(doc []byte, tag int) int {
	i := tag
	for i > 0 && (doc[i-1] == ' ' || doc[i-1] == '\t') {
		i--
	}
	if i == 0 || doc[i-1] == '\n' {
		return i
	}
	return tag
}

// lastPageEnd returns the end of the last page, which starts at start: the
// end of the line of its "</page>" tag (after trailing blanks and one line
// break), or the end of doc if the page is not closed.
func lastPageEnd(doc []byte, start int) int {
	j := bytes.Index(doc[start:], []byte("</page>"))
	if j < 0 {
		return len(doc)
	}
	i := start + j + len("</page>")
	for i < len(doc) && (doc[i] == ' ' || doc[i] == '\t') {
		i++
	}
	switch {
	case bytes.HasPrefix(doc[i:], []byte("\r\n")):
		return i + 2
	case i < len(doc) && doc[i] == '\n':
		return i + 1
	}
	return start + j + len("</page>")
}
