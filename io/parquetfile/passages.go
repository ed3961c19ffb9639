package parquetfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/parquet-go/parquet-go/compress/zstd"
)

// PassageRow is a row of a passages Parquet file: one passage that two
// documents share, the fields of its two documents side by side (a_…, b_…).
// Its fields are the file's columns, in order.
type PassageRow struct {
	AID         string  `parquet:"a_id"` // wiki:page_id:rev_id
	AWiki       string  `parquet:"a_wiki,dict"`
	APageID     int64   `parquet:"a_page_id"`
	ARevID      int64   `parquet:"a_rev_id"`
	ATitle      string  `parquet:"a_title"`
	ADoc        string  `parquet:"a_doc"`       // a text corpus document's own id, "" for a wiki page
	AURL        string  `parquet:"a_url"`       // a web document's URL, "" for a wiki page
	ALang       string  `parquet:"a_lang,dict"` // a text document's own language, "" if it says none
	AFirst      int64   `parquet:"a_first"`     // ordinal of the passage's first matched sentence in a
	ALast       int64   `parquet:"a_last"`      // and of its last
	ASentences  int64   `parquet:"a_sentences"` // in-window sentences the passage spans in a
	AShare      float64 `parquet:"a_share"`     // a_sentences over a's in-window sentences
	BID         string  `parquet:"b_id"`
	BWiki       string  `parquet:"b_wiki,dict"`
	BPageID     int64   `parquet:"b_page_id"`
	BRevID      int64   `parquet:"b_rev_id"`
	BTitle      string  `parquet:"b_title"`
	BDoc        string  `parquet:"b_doc"`
	BURL        string  `parquet:"b_url"`
	BLang       string  `parquet:"b_lang,dict"`
	BFirst      int64   `parquet:"b_first"`
	BLast       int64   `parquet:"b_last"`
	BSentences  int64   `parquet:"b_sentences"`
	BShare      float64 `parquet:"b_share"`
	Matched     int64   `parquet:"matched"`      // matched sentence pairs
	MeanJaccard float64 `parquet:"mean_jaccard"` // their mean shingle Jaccard similarity
	Matches     string  `parquet:"matches"`      // the line's matches as a JSON array, "[]" without --passage_text
}

// size estimates the bytes of r's values.
func (r *PassageRow) size() int {
	const numbers = 14 * 8
	return numbers + len(r.AID) + len(r.AWiki) + len(r.ATitle) + len(r.ADoc) + len(r.AURL) + len(r.ALang) +
		len(r.BID) + len(r.BWiki) + len(r.BTitle) + len(r.BDoc) + len(r.BURL) + len(r.BLang) + len(r.Matches)
}

// passageLine mirrors a line of passages-*.jsonl (passage.Line) in the
// fields the rows take; other fields are ignored.
type passageLine struct {
	A           passageDoc      `json:"a"`
	B           passageDoc      `json:"b"`
	Matched     int64           `json:"matched"`
	MeanJaccard float64         `json:"mean_jaccard"`
	Matches     json.RawMessage `json:"matches"`
}

// passageDoc is one document of a passage line.
type passageDoc struct {
	ID        string  `json:"id"`
	Wiki      string  `json:"wiki"`
	PageID    int64   `json:"page_id"`
	RevID     int64   `json:"rev_id"`
	Title     string  `json:"title"`
	Doc       string  `json:"doc"`
	URL       string  `json:"url"`
	Lang      string  `json:"lang"`
	First     int64   `json:"first"`
	Last      int64   `json:"last"`
	Sentences int64   `json:"sentences"`
	Share     float64 `json:"share"`
}

// WritePassages writes lines, each a passage as a line of
// passages-*.jsonl, to w as a Parquet file of PassageRow, a row for each
// line, in order. A line that is not such a passage is an error that names
// its number, from 1. WritePassages does not close w, nor change lines. It
// is NewPassagesWriter for lines all at hand.
func WritePassages(w io.Writer, lines [][]byte) error {
	return writePassages(w, lines, defaultOptions())
}

// writePassages is WritePassages with the settings opts.
func writePassages(w io.Writer, lines [][]byte, opts options) error {
	return writeAll(w, lines, passagesTable, opts)
}

// passagesTable is the table of passages files. Passage lines are few (a
// line for each passage, not each sentence), so they are decoded by
// encoding/json alone.
var passagesTable = table[PassageRow]{name: "passages", level: zstd.SpeedDefault, decode: decodePassage}

// decodePassage adds the row of a passage line.
func decodePassage(_ *decoder, line []byte, add func(PassageRow, int)) error {
	var p passageLine
	if err := json.Unmarshal(line, &p); err != nil {
		return err
	}
	if p.A.ID == "" || p.B.ID == "" {
		return errors.New("passage has no document id")
	}
	matches := "[]"
	if len(p.Matches) > 0 && string(p.Matches) != "null" {
		var b bytes.Buffer
		if err := json.Compact(&b, p.Matches); err != nil {
			return err
		}
		matches = b.String()
	}
	r := PassageRow{
		AID: p.A.ID, AWiki: p.A.Wiki, APageID: p.A.PageID, ARevID: p.A.RevID, ATitle: p.A.Title,
		ADoc: p.A.Doc, AURL: p.A.URL, ALang: p.A.Lang, AFirst: p.A.First, ALast: p.A.Last,
		ASentences: p.A.Sentences, AShare: p.A.Share,
		BID: p.B.ID, BWiki: p.B.Wiki, BPageID: p.B.PageID, BRevID: p.B.RevID, BTitle: p.B.Title,
		BDoc: p.B.Doc, BURL: p.B.URL, BLang: p.B.Lang, BFirst: p.B.First, BLast: p.B.Last,
		BSentences: p.B.Sentences, BShare: p.B.Share,
		Matched: p.Matched, MeanJaccard: p.MeanJaccard, Matches: matches,
	}
	add(r, r.size())
	return nil
}
