package parquetfile

import (
	"encoding/json"
	"slices"
	"testing"
)

// wantPassageRows is the rows of passage lines, built from the JSON as
// generic values, apart from the writer's decoding. Matches are canonical.
func wantPassageRows(t testing.TB, lines [][]byte) []PassageRow {
	var rows []PassageRow
	for _, line := range lines {
		p := object(t, line)
		a, b := obj(p, "a"), obj(p, "b")
		matches := "[]"
		if m := p["matches"]; m != nil { // absent or null: no texts asked for
			js, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			matches = canonical(t, js)
		}
		rows = append(rows, PassageRow{
			AID: str(a, "id"), AWiki: str(a, "wiki"), APageID: i64(t, a, "page_id"), ARevID: i64(t, a, "rev_id"),
			ATitle: str(a, "title"), ADoc: str(a, "doc"), AURL: str(a, "url"), ALang: str(a, "lang"),
			AFirst: i64(t, a, "first"), ALast: i64(t, a, "last"), ASentences: i64(t, a, "sentences"), AShare: f64(t, a, "share"),
			BID: str(b, "id"), BWiki: str(b, "wiki"), BPageID: i64(t, b, "page_id"), BRevID: i64(t, b, "rev_id"),
			BTitle: str(b, "title"), BDoc: str(b, "doc"), BURL: str(b, "url"), BLang: str(b, "lang"),
			BFirst: i64(t, b, "first"), BLast: i64(t, b, "last"), BSentences: i64(t, b, "sentences"), BShare: f64(t, b, "share"),
			Matched: i64(t, p, "matched"), MeanJaccard: f64(t, p, "mean_jaccard"), Matches: matches,
		})
	}
	return rows
}

func TestWritePassages(t *testing.T) {
	tests := []struct {
		name        string
		lines       [][]byte
		withMatches int // rows whose matches are not []
	}{
		{"pipeline output", readLines(t, "passages.jsonl"), 0},
		{"pipeline output with --passage_text", readLines(t, "passages-text.jsonl"), len(readLines(t, "passages-text.jsonl"))},
		{"handwritten", readLines(t, "passages-handwritten.jsonl"), 1},
		{"no lines", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := readRows[PassageRow](t, write(t, writePassages, tt.lines))
			withMatches := 0
			for i := range got {
				if got[i].Matches != "[]" {
					withMatches++
				}
				got[i].Matches = canonical(t, []byte(got[i].Matches))
			}
			if want := wantPassageRows(t, tt.lines); !slices.Equal(got, want) {
				t.Errorf("rows differ from the lines:\ngot  %+v\nwant %+v", got, want)
			}
			if withMatches != tt.withMatches {
				t.Errorf("%d rows with matches, want %d", withMatches, tt.withMatches)
			}
		})
	}
}
