package parquetfile

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/parquet-go/parquet-go/compress/zstd"
)

// SentenceRow is a row of a sentences Parquet file: one sentence. Its
// fields are the file's columns, in order.
type SentenceRow struct {
	ID        string `parquet:"id"` // wiki:page_id:rev_id:sentence
	Wiki      string `parquet:"wiki,dict"`
	PageID    int64  `parquet:"page_id"`
	RevID     int64  `parquet:"rev_id"`
	Title     string `parquet:"title"`
	Sentence  int64  `parquet:"sentence"` // ordinal of the sentence in its page, from 0
	Section   string `parquet:"section"`
	Context   string `parquet:"context,dict"` // prose, list or reference
	Text      string `parquet:"text"`
	ClusterID string `parquet:"cluster_id"` // the cluster the sentence is in, "" if none
}

// size estimates the bytes of r's values.
func (r *SentenceRow) size() int {
	const numbers = 3 * 8
	return numbers + len(r.ID) + len(r.Wiki) + len(r.Title) + len(r.Section) + len(r.Context) +
		len(r.Text) + len(r.ClusterID)
}

// sentenceLine mirrors a line of sentences-*.jsonl (sentence.View, with
// the cluster's id) and a member of a cluster line; other fields are
// ignored.
type sentenceLine struct {
	ID        string `json:"id"`
	Wiki      string `json:"wiki"`
	PageID    int64  `json:"page_id"`
	RevID     int64  `json:"rev_id"`
	Title     string `json:"title"`
	Sentence  int64  `json:"sentence"`
	Section   string `json:"section"`
	Context   string `json:"context"`
	Text      string `json:"text"`
	ClusterID string `json:"cluster_id"`
}

// WriteSentences writes lines, each a sentence as a line of
// sentences-*.jsonl, to w as a Parquet file of SentenceRow, a row for each
// line, in order. A line that is not such a sentence is an error that names
// its number, from 1. WriteSentences does not close w, nor change lines. It
// is NewSentencesWriter for lines all at hand.
func WriteSentences(w io.Writer, lines [][]byte) error {
	return writeSentences(w, lines, defaultOptions())
}

// writeSentences is WriteSentences with the settings opts.
func writeSentences(w io.Writer, lines [][]byte, opts options) error {
	return writeAll(w, lines, sentencesTable, opts)
}

// sentencesTable is the table of sentences files.
var sentencesTable = table[SentenceRow]{name: "sentences", level: zstd.SpeedFastest, decode: decodeSentence}

// decodeSentence adds the row of a sentence line.
func decodeSentence(d *decoder, line []byte, add func(SentenceRow, int)) error {
	s, err := d.sentenceLine(line)
	if err != nil {
		return err
	}
	if s.ID == "" {
		return errors.New("sentence has no id")
	}
	r := SentenceRow(s)
	add(r, r.size())
	return nil
}

// sentenceLine decodes a sentence line, with the scanner if it can and with
// encoding/json if not.
func (d *decoder) sentenceLine(line []byte) (sentenceLine, error) {
	var s sentenceLine
	d.scan.reset(line)
	if d.scan.sentence(&s) && d.scan.end() {
		return s, nil
	}
	var slow sentenceLine // apart from s, which then stays on the stack
	err := json.Unmarshal(line, &slow)
	return slow, err
}

// sentenceKeys are the keys of a sentence's object.
var sentenceKeys = []string{"id", "wiki", "page_id", "rev_id", "title", "sentence", "section", "context", "text", "cluster_id"}

// sentence reads a sentence's object, a line's or a cluster member's, into
// s, whose fields are zero.
func (p *scanner) sentence(s *sentenceLine) bool {
	return p.object(sentenceKeys, 1, func(key int) (ok bool) {
		switch key {
		case 2:
			s.PageID, ok = p.int()
		case 3:
			s.RevID, ok = p.int()
		case 5:
			s.Sentence, ok = p.int()
		default:
			f := [...]*string{0: &s.ID, 1: &s.Wiki, 4: &s.Title, 6: &s.Section, 7: &s.Context, 8: &s.Text, 9: &s.ClusterID}[key]
			*f, ok = p.str()
		}
		return ok
	})
}
