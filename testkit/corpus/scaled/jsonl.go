package scaled

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/neardup/neardup/internal/bytecount"
	"github.com/neardup/neardup/io/text"
	"github.com/neardup/neardup/testkit/corpus"
)

// Doc is a document of a text corpus, as a scaled JSON-lines corpus holds
// it.
type Doc struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	URL  string `json:"url"`
}

// ReadDocs reads the documents of JSON-lines files (Dolma's, datatrove's or
// plain {"id", "text", "url"} lines, compressed or not) as the pipeline's
// reader does, and returns their ids, texts and URLs in file order. A bad
// line, or an id that two files share, is an error: the copies' ids would
// repeat.
func ReadDocs(ctx context.Context, paths []string) ([]Doc, error) {
	var docs []Doc
	seen := map[string]string{}
	for _, path := range paths {
		data, err := corpus.ReadFile(ctx, path)
		if err != nil {
			return nil, err
		}
		r := text.NewJSONLReader(bytes.NewReader(data), path, len(data)+1)
		for {
			p, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, err
			}
			if first, ok := seen[p.Name]; ok {
				return nil, fmt.Errorf("%s: id %q is in %s too", path, p.Name, first)
			}
			seen[p.Name] = path
			docs = append(docs, Doc{ID: p.Name, Text: p.Text, URL: p.URL})
		}
	}
	if len(docs) == 0 {
		return nil, errors.New("no document in the JSON-lines files")
	}
	return docs, nil
}

// WriteJSONL writes k copies of the documents to w as JSON lines
// {"id", "text", "url"}, copy by copy, and returns the number of bytes
// written. Copy c of a document has the id "ID-c" (ids stay distinct when
// the documents' are) and its URL; its text is the document's, edited by
// s.Edit for every copy but the first, with the document's rank in docs as
// its index. HTML characters are not escaped, so that a line is as long as
// a corpus's would be.
func WriteJSONL(w io.Writer, s Scaler, docs []Doc, k int) (int64, error) {
	cw := &bytecount.Writer{W: w}
	enc := json.NewEncoder(cw)
	enc.SetEscapeHTML(false)
	for c := range k {
		for i, d := range docs {
			line := Doc{ID: d.ID + "-" + strconv.Itoa(c), Text: string(s.Edit([]byte(d.Text), i, c)), URL: d.URL}
			if err := enc.Encode(line); err != nil {
				return cw.N, err
			}
		}
	}
	return cw.N, nil
}
