package web

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/explore/internal/index"
	"github.com/neardup/neardup/explore/internal/testrun"
	"github.com/neardup/neardup/transforms/kindstyle"
	"github.com/neardup/neardup/transforms/passage"
)

// readPassageLines reads a run's passages files.
func readPassageLines(t *testing.T, dir string) []passage.Line {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "passages-*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no passages file in %s (%v)", dir, err)
	}
	var out []passage.Line
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var l passage.Line
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatal(err)
			}
			out = append(out, l)
		}
		f.Close()
	}
	return out
}

// TestPassagesUkrainian checks the explorer's passages against the
// passages files of a real run, with and without --passage_text: every
// line is a passage of its document pair; the pairs' counts, shares and
// mean Jaccard are their passages'; and the sentences found in the
// clusters for a run without texts are, pair for pair, the matched pairs
// the run with texts lists (and a few more, of the same clusters).
func TestPassagesUkrainian(t *testing.T) {
	textDir := testrun.Ukrainian(t, "--passage_text")
	plainDir := testrun.Ukrainian(t)
	_, withText := serve(t, textDir)
	_, plain := serve(t, plainDir)
	lines := readPassageLines(t, textDir)
	if withText.PassageCount() != len(lines) || plain.PassageCount() != len(lines) {
		t.Fatalf("%d and %d passages loaded, %d lines", withText.PassageCount(), plain.PassageCount(), len(lines))
	}
	pairs := map[[2]string][]passage.Line{}
	for _, l := range lines {
		pairs[[2]string{l.A.ID, l.B.ID}] = append(pairs[[2]string{l.A.ID, l.B.ID}], l)
	}
	if withText.PairCount() != len(pairs) || plain.PairCount() != len(pairs) {
		t.Errorf("%d and %d pairs, want %d", withText.PairCount(), plain.PairCount(), len(pairs))
	}
	found, want, extra := 0, 0, 0
	for key, ls := range pairs {
		i, ok := withText.FindPair(key[1], key[0])
		j, ok2 := plain.FindPair(key[0], key[1])
		if !ok || !ok2 {
			t.Fatalf("pair %q not found", key)
		}
		p := withText.Pair(i)
		matched, shareA, shareB := 0, 0.0, 0.0
		for _, l := range ls {
			matched += l.Matched
			shareA += l.A.Share
			shareB += l.B.Share
		}
		if p.Matched != matched || p.ShareA != round4(min(shareA, 1)) || p.ShareB != round4(min(shareB, 1)) || len(p.Passages) != len(ls) {
			t.Errorf("pair %q: %d passages, matched %d, shares %v %v; want %d, %d, %v %v", key, len(p.Passages), p.Matched,
				p.ShareA, p.ShareB, len(ls), matched, shareA, shareB)
		}
		q := plain.Pair(j)
		for k, pi := range p.Passages {
			tt, err := withText.PassageText(t.Context(), pi)
			if err != nil {
				t.Fatal(err)
			}
			tc, err := plain.PassageText(t.Context(), q.Passages[k])
			if err != nil {
				t.Fatal(err)
			}
			if tt.FromClusters || !tc.FromClusters || len(tt.Rows) != withText.Passage(pi).Matched {
				t.Fatalf("pair %q passage %d: from clusters %v and %v, %d rows of %d matched", key, k, tt.FromClusters, tc.FromClusters,
					len(tt.Rows), withText.Passage(pi).Matched)
			}
			want += len(tt.Rows)
			for _, r := range tc.Rows {
				if slices.ContainsFunc(tt.Rows, func(m index.Aligned) bool {
					return m.OrdA == r.OrdA && m.OrdB == r.OrdB && m.TextA == r.TextA && m.TextB == r.TextB
				}) {
					found++
					continue
				}
				// Two sentences of one cluster that the verification did
				// not link (clusters are connected components): shown, as
				// within the passage.
				extra++
				pa := withText.Passage(pi)
				if r.OrdA < pa.A.First || r.OrdA > pa.A.Last || r.OrdB < pa.B.First || r.OrdB > pa.B.Last || r.Cluster == "" {
					t.Errorf("pair %q passage %d: row %d–%d of cluster %q is outside the passage", key, k, r.OrdA, r.OrdB, r.Cluster)
				}
			}
		}
	}
	t.Logf("%d of the %d matched pairs of %d passages found in the clusters, and %d pairs of sentences of one cluster the passages do not match",
		found, want, len(lines), extra)
	if found != want {
		t.Errorf("%d of the %d matched pairs found in the clusters", found, want)
	}
}

func round4(x float64) float64 { return float64(int64(x*1e4+0.5)) / 1e4 }

// TestPairsPages serves the pairs list, filtered and sorted, and a pair's
// page, of the Ukrainian run without texts, and checks them against the
// index.
func TestPairsPages(t *testing.T) {
	s, r := serve(t, testrun.Ukrainian(t))
	for _, tc := range []struct {
		query string
		q     index.PairQuery
	}{
		{"", index.PairQuery{}},
		{"?sort=matched", index.PairQuery{Sort: "matched"}},
		{"?share_min=0.5&sort=jaccard", index.PairQuery{ShareMin: 0.5, Sort: "jaccard"}},
		{"?matched_min=5", index.PairQuery{MatchedMin: 5}},
	} {
		code, body := get(t, s, "/pairs"+tc.query)
		if code != http.StatusOK {
			t.Fatalf("%s: status %d", tc.query, code)
		}
		p := r.FilterPairs(tc.q, 0, PerPage)
		if p.Matches == 0 {
			t.Fatalf("%s: no pair", tc.query)
		}
		for _, i := range p.Clusters {
			pr := r.Pair(i)
			if !strings.Contains(body, `data-a="`+pr.A.ID+`" data-b="`+pr.B.ID+`"`) {
				t.Errorf("%s: pair %s %s not listed", tc.query, pr.A.ID, pr.B.ID)
			}
		}
		if n := strings.Count(body, "<tr data-a="); n != len(p.Clusters) {
			t.Errorf("%s: %d rows, want %d", tc.query, n, len(p.Clusters))
		}
	}
	if code, body := get(t, s, "/pairs?share_min=2"); code != http.StatusBadRequest || !strings.Contains(body, "share_min") {
		t.Errorf("share_min=2: status %d", code)
	}
	if code, _ := get(t, s, "/pair/ukwiki:1:1/ukwiki:2:2"); code != http.StatusNotFound {
		t.Errorf("a pair that shares nothing: status %d", code)
	}
}

// TestKindStyle checks that the explorer's kind chips have report.html's
// labels and colours: /kinds.css is kindstyle's, and the list shows each
// kind by its label.
func TestKindStyle(t *testing.T) {
	s, r := serve(t, testrun.Sample(t))
	code, css := get(t, s, "/kinds.css")
	if code != http.StatusOK || css != kindstyle.ChipCSS() {
		t.Errorf("/kinds.css: status %d, %q", code, css)
	}
	_, body := get(t, s, "/")
	for _, k := range r.Kinds() {
		if want := `<span class="kind k-` + k.Kind + `">` + kindstyle.Label(k.Kind) + `</span>`; !strings.Contains(body, want) {
			t.Errorf("the list does not show %s", want)
		}
	}
}
