package index

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/categorize"
)

// TestSentenceSearch builds the sentence index of a run of 300 clusters
// over 3 shards, read in chunks of 1 kB, and checks that each cluster
// shows its first member's text and that a search, in any case and
// without accents, finds exactly the clusters with a member's text that
// holds it.
func TestSentenceSearch(t *testing.T) {
	var cs []categorize.Cluster
	titles := []string{"Αλβανία", "Lake Orsel", "Ωραιόκαστρο"}
	for n := range 300 {
		cs = append(cs, makeCluster(n, categorize.Identical, 1, 0, page{Wiki: "elwiki", ID: int64(n + 1), Title: titles[n%3]},
			page{Wiki: "enwiki", ID: int64(n + 1), Title: fmt.Sprintf("Page %d", n)}))
	}
	r := load(t, writeRun(t, 3, cs...), Options{ChunkBytes: 1024, Workers: 3})
	if st := r.WaitTexts(t.Context()); !st.Ready || st.Err != nil || st.Left != 0 || st.Read != st.Of || st.Of == 0 {
		t.Fatalf("sentence index: %+v", st)
	}
	for i := range r.Len() {
		e := r.Entry(i)
		shown, ok := r.Shown(i)
		c, err := r.ReadCluster(t.Context(), i)
		if err != nil {
			t.Fatal(err)
		}
		if !ok || shown != c.Members[0].Text {
			t.Fatalf("cluster %s shows %q, want %q", e.ID, shown, c.Members[0].Text)
		}
	}
	for _, tc := range []struct {
		query string
		want  func(text []string) bool
	}{
		{"OF CLUSTER 7 IN", func(ts []string) bool {
			return slices.ContainsFunc(ts, func(s string) bool { return strings.Contains(s, "of cluster 7 in") })
		}},
		{"ΑΛΒΑΝΙΑ.", func(ts []string) bool { return strings.HasSuffix(ts[0], "Αλβανία.") }},
		{"in page 29", func(ts []string) bool {
			return slices.ContainsFunc(ts, func(s string) bool { return strings.Contains(s, "in Page 29") })
		}},
		{"ωραιοκαστρο", func(ts []string) bool { return strings.Contains(ts[0], "Ωραιόκαστρο") }},
		{"nowhere", func([]string) bool { return false }},
	} {
		p := r.Filter(Query{Text: tc.query, ByID: true}, 0, r.Len())
		var want []int
		for _, i := range r.Filter(Query{ByID: true}, 0, r.Len()).Clusters {
			c, _ := r.ReadCluster(t.Context(), i)
			var ts []string
			for _, m := range c.Members {
				ts = append(ts, m.Text)
			}
			if tc.want(ts) {
				want = append(want, i)
			}
		}
		if p.Matches != len(want) || !slices.Equal(p.Clusters, want) || p.TextsPending {
			t.Errorf("%q finds %d clusters %v, want %d %v", tc.query, p.Matches, p.Clusters, len(want), want)
		}
	}
}

// TestSentenceBudget checks that the clusters over the budget of folded
// text are counted and not searched, and that a negative budget builds
// nothing.
func TestSentenceBudget(t *testing.T) {
	var cs []categorize.Cluster
	for n := range 100 {
		cs = append(cs, makeCluster(n, categorize.Identical, 1, 0, page{Wiki: "enwiki", ID: int64(n + 1), Title: "T"},
			page{Wiki: "enwiki", ID: int64(n + 1000), Title: "U"}))
	}
	dir := writeRun(t, 1, cs...)
	r := load(t, dir, Options{TextBytes: 2000, Workers: 1})
	st := r.WaitTexts(t.Context())
	p := r.Filter(Query{Text: "sentence 0 of cluster"}, 0, 200)
	if !st.Ready || st.Left == 0 || p.Matches != 100-st.Left {
		t.Errorf("budget 2000 bytes: %+v, %d clusters found", st, p.Matches)
	}
	none := load(t, dir, Options{TextBytes: -1})
	if st := none.WaitTexts(t.Context()); st.Ready || !st.Disabled {
		t.Errorf("no index: %+v", st)
	}
	if p := none.Filter(Query{Text: "sentence"}, 0, 10); !p.TextsPending || p.Matches != 0 {
		t.Errorf("no index: %+v", p)
	}
}
