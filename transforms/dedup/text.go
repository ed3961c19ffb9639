package dedup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Paragraph is a paragraph of a document as the run read it, with the
// byte spans of its sentences in Text, in order.
type Paragraph struct {
	Text  string
	Spans [][2]int
}

// Rebuilt is a document's text without its removed sentences.
type Rebuilt struct {
	Text    string
	Removed int // sentences removed
	// Drop says that nothing the run compares is left: every sentence was
	// removed, or every one left is outside the length window.
	Drop bool
}

// Rebuild returns the text of a document of paragraphs paras without the
// sentences removed says to remove, by ordinal (numbered from 0 across the
// paragraphs, as sentence ids number them). inWindow says whether a
// sentence's text is one the run compares (its shingles within the length
// window): a document none of whose kept sentences is, is dropped. A
// paragraph that keeps every sentence is kept as it is; one that loses
// some becomes its kept sentences joined by a space, and one that loses all
// is left out. The paragraphs are joined by a blank line, which ends a
// paragraph in every text reader (text.AppendParagraphs).
func Rebuild(paras []Paragraph, removed func(ordinal int) bool, inWindow func(sentence string) bool) Rebuilt {
	var out Rebuilt
	var kept []string
	compared := false
	ordinal := 0
	for _, p := range paras {
		var sents []string
		for _, sp := range p.Spans {
			s := p.Text[sp[0]:sp[1]]
			if removed(ordinal) {
				out.Removed++
			} else {
				sents = append(sents, s)
				compared = compared || inWindow(s)
			}
			ordinal++
		}
		switch {
		case len(sents) == len(p.Spans) && len(sents) > 0:
			kept = append(kept, p.Text)
		case len(sents) > 0:
			kept = append(kept, strings.Join(sents, " "))
		}
	}
	out.Text = strings.Join(kept, "\n\n")
	out.Drop = !compared
	return out
}

// errNoTextField says a JSON line has no top-level "text".
var errNoTextField = errors.New(`dedup: no top-level "text" field`)

// SetText returns the JSON object line with the value of its top-level
// "text" field (the last, if it repeats, as encoding/json reads it)
// replaced by text (as encoding/json writes a string, but for <, > and &,
// which it leaves as they are), and every other byte as it was.
func SetText(line []byte, text string) ([]byte, error) {
	start, end, err := textValue(line)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // text reads as it was written: <, > and & as they are
	if err := enc.Encode(text); err != nil {
		return nil, err
	}
	v := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	out := make([]byte, 0, len(line)-(end-start)+len(v))
	out = append(out, line[:start]...)
	out = append(out, v...)
	return append(out, line[end:]...), nil
}

// textValue returns the byte range of the value of the last top-level
// "text" field of a JSON object.
func textValue(line []byte) (start, end int, err error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, 0, fmt.Errorf("dedup: not a JSON object")
	}
	start, end = -1, -1
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return 0, 0, fmt.Errorf("dedup: %w", err)
		}
		key, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return 0, 0, fmt.Errorf("dedup: field %q: %w", key, err)
		}
		if key == "text" {
			// InputOffset is just past the value; its start is after the
			// colon and any space before the value.
			end = int(dec.InputOffset())
			start = end - len(raw)
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return 0, 0, fmt.Errorf("dedup: the object does not end")
	}
	if start < 0 {
		return 0, 0, errNoTextField
	}
	return start, end, nil
}
