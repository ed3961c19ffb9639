package web

import (
	"fmt"
	"html"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/neardup/neardup/explore/internal/testrun"
	"github.com/neardup/neardup/transforms/categorize"
)

// TestRealRuns checks the pages of real runs of the pipeline against the
// run's own files: the committed sample dump over one and three shards,
// and the first 100 kB of the Greek Wikipedia.
func TestRealRuns(t *testing.T) {
	for _, tc := range []struct {
		name string
		dir  func(testing.TB) string
	}{
		{"sample", testrun.Sample},
		{"sample over 3 shards", func(tb testing.TB) string {
			return testrun.Of(tb, "testdata/sample/simplewiki-sample.xml", "--output_shards", "3")
		}},
		{"elwiki", testrun.Greek},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir(t)
			s, r := serve(t, dir)
			rows := readIndex(t, dir)
			if len(rows) == 0 {
				t.Fatal("the run has no clusters")
			}
			if len(r.Warnings) > 0 {
				t.Errorf("warnings: %q", r.Warnings)
			}
			t.Run("list", func(t *testing.T) { checkList(t, s, rows) })
			t.Run("kinds", func(t *testing.T) { checkKinds(t, s, dir) })
			t.Run("cluster", func(t *testing.T) { checkClusters(t, s, dir, rows) })
			t.Run("article", func(t *testing.T) { checkArticle(t, s, rows) })
			t.Run("title", func(t *testing.T) { checkTitle(t, s, rows) })
		})
	}
}

// checkList: the list, page after page, shows exactly the clusters of
// the index.
func checkList(t *testing.T, s *Server, rows []indexRow) {
	listed, count := listAll(t, s, "/")
	var got, want []string
	for _, l := range listed {
		got = append(got, l.kind+" "+l.id)
	}
	for _, r := range rows {
		want = append(want, r.digest.Category+" "+r.digest.ID)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the list shows %d clusters %q,\nthe index has %d: %q", len(got), got, len(want), want)
	}
	if count != thousands(int64(len(rows))) {
		t.Errorf("the list counts %s clusters, the index has %d", count, len(rows))
	}
	for i := 1; i < len(listed); i++ { // largest first
		if size(rows, listed[i].id) > size(rows, listed[i-1].id) {
			t.Errorf("%s (size %d) after %s (size %d)", listed[i].id, size(rows, listed[i].id), listed[i-1].id, size(rows, listed[i-1].id))
		}
	}
}

func size(rows []indexRow, id string) int {
	for _, r := range rows {
		if r.digest.ID == id {
			return r.digest.Size
		}
	}
	return -1
}

// checkKinds: filtering by a kind lists only clusters of that kind, as
// many as summary.json counts.
func checkKinds(t *testing.T, s *Server, dir string) {
	doc := readSummary(t, dir)
	if len(doc.Counts.Categories) == 0 {
		t.Fatal("summary.json counts no category")
	}
	for kind, c := range doc.Counts.Categories {
		listed, count := listAll(t, s, "/?kind="+url.QueryEscape(kind))
		if count != thousands(c.Clusters) || len(listed) != int(c.Clusters) {
			t.Errorf("kind %s: %s matches, %d listed; summary.json counts %d", kind, count, len(listed), c.Clusters)
		}
		for _, l := range listed {
			if l.kind != kind {
				t.Errorf("kind %s lists %s of kind %s", kind, l.id, l.kind)
			}
		}
	}
}

// checkClusters: a cluster's page shows every member's text, and the
// changed words of a copy_edit or factual_drift cluster are marked
// exactly as categorize.Segments cuts them.
func checkClusters(t *testing.T, s *Server, dir string, rows []indexRow) {
	marked := 0
	for _, row := range rows {
		c := readLine(t, dir, row)
		body := mustGet(t, s, clusterPath(c.ID))
		texts := textRE.FindAllStringSubmatch(body, -1)
		if len(texts) != len(c.Members) {
			t.Fatalf("cluster %s: %d texts shown, %d members", c.ID, len(texts), len(c.Members))
		}
		for i, m := range c.Members {
			shown := texts[i][2]
			if plain := html.UnescapeString(strings.NewReplacer("<mark>", "", "</mark>", "").Replace(shown)); plain != m.Text {
				t.Errorf("cluster %s, member %d: shows %q, want %q", c.ID, i, plain, m.Text)
			}
			if plain := html.UnescapeString(body); !strings.Contains(plain, "<code><bdi>"+m.ID+"</bdi></code>") || !strings.Contains(plain, "><bdi>"+m.Title+"</bdi></a>") {
				t.Errorf("cluster %s: member %s of %q is not named", c.ID, m.ID, m.Title)
			}
			if i == 0 || (c.Category != categorize.CopyEdit && c.Category != categorize.FactualDrift) {
				continue
			}
			_, segs := categorize.Segments(c.Members[0].Text, m.Text)
			var want strings.Builder
			for _, sg := range segs {
				if sg.Changed {
					fmt.Fprintf(&want, "<mark>%s</mark>", sg.Text)
				} else {
					want.WriteString(sg.Text)
				}
			}
			if html.UnescapeString(shown) != want.String() {
				t.Errorf("cluster %s, member %d:\nshown %s\nwant  %s", c.ID, i, shown, want.String())
			}
			if strings.Contains(shown, "<mark>") {
				marked++
			}
		}
		if !strings.Contains(html.UnescapeString(body), "<dd>"+c.Evidence.Reason+"</dd>") {
			t.Errorf("cluster %s: the evidence's reason %q is not shown", c.ID, c.Evidence.Reason)
		}
	}
	if marked == 0 {
		t.Error("no copy_edit or factual_drift member has a marked word")
	}
}

// checkArticle: an article's page lists exactly the clusters with a
// member in it; it is tried on the article in most clusters.
func checkArticle(t *testing.T, s *Server, rows []indexRow) {
	in := map[categorize.Article][]string{}
	for _, r := range rows {
		for _, a := range r.digest.Articles {
			in[a] = append(in[a], r.digest.ID)
		}
	}
	var best categorize.Article
	for a, ids := range in {
		if len(ids) > len(in[best]) || len(ids) == len(in[best]) && a.PageID < best.PageID {
			best = a
		}
	}
	listed, count := listAll(t, s, articlePath(best.Wiki, best.PageID))
	var got []string
	for _, l := range listed {
		got = append(got, l.id)
	}
	want := slices.Clone(in[best])
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || count != strconv.Itoa(len(want)) {
		t.Errorf("article %s:%d (%s) lists %q (%s), want %q", best.Wiki, best.PageID, best.Title, got, count, want)
	}
	body := mustGet(t, s, articlePath(best.Wiki, best.PageID))
	if !strings.Contains(html.UnescapeString(body), "<h1><bdi>"+best.Title+"</bdi></h1>") {
		t.Errorf("the article's page does not title it %q", best.Title)
	}
}

// checkTitle: a search for part of a title in capitals lists the
// clusters with an article whose title holds it.
func checkTitle(t *testing.T, s *Server, rows []indexRow) {
	title := ""
	for _, r := range rows {
		for _, a := range r.digest.Articles {
			if utf8.RuneCountInString(a.Title) > utf8.RuneCountInString(title) {
				title = a.Title
			}
		}
	}
	runes := []rune(title)
	part := string(runes[1 : 1+min(4, len(runes)-2)]) // inside the title: no final sigma
	query := strings.ToUpper(part)
	var want []string
	for _, r := range rows {
		for _, a := range r.digest.Articles {
			if strings.Contains(strings.ToLower(a.Title), strings.ToLower(part)) {
				want = append(want, r.digest.ID)
				break
			}
		}
	}
	listed, _ := listAll(t, s, "/?title="+url.QueryEscape(query))
	var got []string
	for _, l := range listed {
		got = append(got, l.id)
	}
	slices.Sort(got)
	slices.Sort(want)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("title %q lists %q, want %q", query, got, want)
	}
}
