package parquetfile

import (
	"encoding/json"
	"errors"
	"io"
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
// its number, from 1. WriteSentences does not close w.
func WriteSentences(w io.Writer, lines [][]byte) error {
	return writeLines(w, lines, "sentences", decodeSentence)
}

// decodeSentence adds the row of a sentence line.
func decodeSentence(line []byte, add func(SentenceRow, int) error) error {
	var s sentenceLine
	if err := json.Unmarshal(line, &s); err != nil {
		return err
	}
	if s.ID == "" {
		return errors.New("sentence has no id")
	}
	r := SentenceRow(s)
	return add(r, r.size())
}
