package web

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/explore/internal/index"
	"github.com/neardup/neardup/explore/internal/testrun"
)

// TestExport checks the exports of filtered lists of the Ukrainian run
// against the index: the JSON lines are the selected clusters' lines of
// clusters-*.jsonl, verbatim, in the list's order; the CSV has a row a
// cluster with its first member's sentence; an article's export is its
// clusters'; the pairs' exports are the selected pairs.
func TestExport(t *testing.T) {
	s, r := serve(t, testrun.Ukrainian(t))
	r.WaitTexts(t.Context())
	for _, tc := range []struct {
		query string
		q     index.Query
	}{
		{"", index.Query{}},
		{"?kind=copy_edit&kind=template&sort=id", index.Query{Kinds: []string{"copy_edit", "template"}, ByID: true}},
		{"?text=%D0%A3%D0%9A%D0%A0%D0%90%D0%87%D0%9D", index.Query{Text: "УКРАЇН"}},
	} {
		want := r.Filter(tc.q, 0, r.Len())
		if want.Matches == 0 {
			t.Fatalf("%q selects nothing", tc.query)
		}
		code, body := get(t, s, "/export.jsonl"+tc.query)
		if code != http.StatusOK {
			t.Fatalf("%s: status %d", tc.query, code)
		}
		lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
		if len(lines) != want.Matches {
			t.Fatalf("%s: %d lines, want %d", tc.query, len(lines), want.Matches)
		}
		for k, i := range want.Clusters {
			line, err := r.ReadLine(t.Context(), i)
			if err != nil {
				t.Fatal(err)
			}
			if lines[k] != string(line) {
				t.Errorf("%s: line %d is not cluster %s's line", tc.query, k, r.Entry(i).ID)
			}
		}
		_, body = get(t, s, "/export.csv"+tc.query)
		rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
		if err != nil || len(rows) != want.Matches+1 || !slices.Equal(rows[0], csvHeader) {
			t.Fatalf("%s: CSV of %d rows (%v), want %d and the header", tc.query, len(rows), err, want.Matches+1)
		}
		for k, i := range want.Clusters {
			c, err := r.ReadCluster(t.Context(), i)
			if err != nil {
				t.Fatal(err)
			}
			if rows[k+1][0] != c.ID || rows[k+1][1] != c.Category || strings.TrimPrefix(rows[k+1][8], "'") != c.Members[0].Text {
				t.Errorf("%s: row %d is %q, want cluster %s", tc.query, k+1, rows[k+1][:2], c.ID)
			}
		}
	}
	a := r.Entry(r.Filter(index.Query{}, 0, 1).Clusters[0]).Articles[0]
	_, body := get(t, s, articlePath(a.Wiki, a.PageID)+"/export.jsonl")
	if n, want := strings.Count(body, "\n"), r.Filter(index.Query{Article: &a.Index}, 0, r.Len()).Matches; n != want {
		t.Errorf("the article's export has %d lines, want %d", n, want)
	}
	if code, _ := get(t, s, "/export.jsonl?size_min=x"); code != http.StatusBadRequest {
		t.Errorf("a bad filter: status %d", code)
	}

	want := r.FilterPairs(index.PairQuery{ShareMin: 0.5, Sort: "matched"}, 0, r.PairCount())
	_, body = get(t, s, "/pairs/export.jsonl?share_min=0.5&sort=matched")
	var got []string
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		var l pairLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		got = append(got, l.A.ID+" "+l.B.ID)
	}
	var wantIDs []string
	for _, i := range want.Clusters {
		wantIDs = append(wantIDs, r.Pair(i).A.ID+" "+r.Pair(i).B.ID)
	}
	if len(wantIDs) == 0 || !slices.Equal(got, wantIDs) {
		t.Errorf("pairs export %q, want %q", got, wantIDs)
	}
	_, body = get(t, s, "/pairs/export.csv?share_min=0.5&sort=matched")
	if rows, err := csv.NewReader(bytes.NewReader([]byte(body))).ReadAll(); err != nil || len(rows) != len(wantIDs)+1 {
		t.Errorf("pairs CSV of %d rows (%v), want %d", len(rows), err, len(wantIDs)+1)
	}
}

func TestCell(t *testing.T) {
	for in, want := range map[string]string{"=1+1": "'=1+1", "-5 °C": "'-5 °C", "@x": "'@x", "Plain": "Plain", "": ""} {
		if got := cell(in); got != want {
			t.Errorf("cell(%q) = %q, want %q", in, got, want)
		}
	}
}
