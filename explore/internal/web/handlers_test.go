package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/explore/internal/index"
	"github.com/neardup/neardup/explore/internal/store"
	"github.com/neardup/neardup/testkit/corpus/synthrun"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/summary"
)

// Pages of the hand-made runs: a title that is markup, Greek and
// Japanese ones.
var (
	scriptPage = synthrun.Page{Wiki: "enwiki", ID: 30, Title: "<script>alert(1)</script>"}
	lakePage   = synthrun.Page{Wiki: "enwiki", ID: 10, Title: "Lake Orsel"}
	greekPage  = synthrun.Page{Wiki: "elwiki", ID: 5, Title: "Ποταμός Αχελώος"}
	tokyoPage  = synthrun.Page{Wiki: "jawiki", ID: 7, Title: "東京駅"}
)

// handMade writes a run of three clusters and returns its directory.
func handMade(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	w, err := synthrun.NewWriter(dir, 1, []synthrun.Wiki{{Name: "enwiki", Lang: "en", Base: "https://en.wikipedia.org/wiki/Main_Page"},
		{Name: "elwiki", Lang: "el", Base: "https://el.wikipedia.org/wiki/Main"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []categorize.Cluster{
		synthrun.Cluster(1, categorize.FactualDrift, 0.8, 0.1, scriptPage, lakePage),
		synthrun.Cluster(2, categorize.Template, 0.6, 0.2, greekPage, tokyoPage, lakePage),
		synthrun.Cluster(3, categorize.Identical, 1, 0, tokyoPage, greekPage),
	} {
		if err := w.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestEscaping checks that titles and texts that are markup are shown as
// text on every page, never run: the page's only script is its own.
func TestEscaping(t *testing.T) {
	s, _ := serve(t, handMade(t))
	for _, tc := range []struct{ path, want string }{
		{"/", `<a href="/article/enwiki/30" title="&lt;script&gt;alert(1)&lt;/script&gt; (enwiki)"><bdi>&lt;script&gt;alert(1)&lt;/script&gt;</bdi></a>`},
		{"/?title=%3Cscript%3E", `<input type="search" name="title" value="&lt;script&gt;" dir="auto"`},
		{"/cluster/enwiki:30:300:10", `<div class="text" dir="auto">Sentence <mark>0</mark> of cluster 1 in <mark>&lt;script&gt;alert(1)&lt;/script&gt;</mark>.</div>`},
		{"/article/enwiki/30", `<h1><bdi>&lt;script&gt;alert(1)&lt;/script&gt;</bdi></h1>`},
		{"/cluster/%3Cscript%3Ealert(1)%3C%2Fscript%3E", `There is no cluster &lt;script&gt;alert(1)&lt;/script&gt; in this run.`},
		{"/?size_min=%3Cscript%3E", `size_min: &#34;&lt;script&gt;&#34; is not a whole number`},
	} {
		_, body := get(t, s, tc.path)
		if n := strings.Count(body, "<script"); n != 1 || !strings.Contains(body, `<script src="/static/explore.js" defer></script>`) {
			t.Errorf("%s: %d <script> tags:\n%s", tc.path, n, body)
		}
		if !strings.Contains(body, tc.want) {
			t.Errorf("%s: no %s:\n%s", tc.path, tc.want, body)
		}
	}
}

// TestNonASCII checks title search and links in Greek and Japanese.
func TestNonASCII(t *testing.T) {
	s, _ := serve(t, handMade(t))
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"ΑΧΕΛΏΟΣ", []string{"elwiki:5:50:20", "jawiki:7:70:30"}},
		{"αχελώος", []string{"elwiki:5:50:20", "jawiki:7:70:30"}},
		{"京駅", []string{"elwiki:5:50:20", "jawiki:7:70:30"}},
		{"lake_orsel", []string{"elwiki:5:50:20", "enwiki:30:300:10"}},
	} {
		listed, _ := listAll(t, s, "/?title="+tc.query)
		var got []string
		for _, l := range listed {
			got = append(got, l.id)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("title %q lists %q, want %q", tc.query, got, tc.want)
		}
	}
	body := mustGet(t, s, "/cluster/elwiki:5:50:20")
	for _, want := range []string{
		`<a class="ext" href="https://el.wikipedia.org/wiki/%CE%A0%CE%BF%CF%84%CE%B1%CE%BC%CF%8C%CF%82_%CE%91%CF%87%CE%B5%CE%BB%CF%8E%CE%BF%CF%82"`,
		`<a href="/article/elwiki/5"><bdi>Ποταμός Αχελώος</bdi></a>`,
		`<a href="/article/jawiki/7"><bdi>東京駅</bdi></a>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the cluster's page has no %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, `href="https://ja`) {
		t.Error("a link to a wiki the summary does not list")
	}
}

// TestBadRequests checks the answers to what cannot be served.
func TestBadRequests(t *testing.T) {
	s, _ := serve(t, handMade(t))
	for _, tc := range []struct {
		path string
		code int
		want string
	}{
		{"/nope", 404, "There is no page at /nope."},
		{"/cluster/", 404, "There is no page at /cluster/."},
		{"/cluster/enwiki:1:2:3", 404, "There is no cluster enwiki:1:2:3 in this run."},
		{"/cluster/nonsense", 404, "There is no cluster nonsense in this run."},
		{"/article/enwiki/99", 404, "No cluster of this run has a member in page 99 of enwiki."},
		{"/article/enwiki/x", 404, "&#34;x&#34; is not a page id: an article&#39;s page is /article/WIKI/PAGE_ID."},
		{"/article/enwiki", 404, "There is no page at /article/enwiki."},
		{"/report.html", 404, "This run has no report.html."},
		{"/?size_min=abc", 400, "size_min: &#34;abc&#34; is not a whole number"},
		{"/?jaccard_max=1.5", 400, "jaccard_max: &#34;1.5&#34; is not a number from 0 to 1"},
		{"/?sort=x", 400, "sort: &#34;x&#34; is not a sort order; use size or id"},
		{"/article/enwiki/10?page=-1", 400, "page: &#34;-1&#34; is not a page number"},
		{"/?page=2", 200, "No cluster on this page."},
		{"/?title=nothing+like+it", 200, "No cluster matches."},
		{"/static/style.css", 200, "neardup explorer"},
		{"/static/nope.css", 404, "404 page not found"},
	} {
		code, body := get(t, s, tc.path)
		if code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("GET %s: %d, want %d saying %q:\n%s", tc.path, code, tc.code, tc.want, body)
		}
	}
}

// TestNotARun checks that a directory that is no finished run gives a page
// that says so, on every route.
func TestNotARun(t *testing.T) {
	dir := handMade(t)
	os.Remove(filepath.Join(dir, "manifest.json"))
	st, err := store.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	_, loadErr := index.Load(t.Context(), st, index.Options{})
	var nr *index.NotRunError
	if !errors.As(loadErr, &nr) {
		t.Fatalf("Load: %v", loadErr)
	}
	s, err := New(nil, loadErr, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/", "/cluster/enwiki:30:300:10", "/nope"} {
		code, body := get(t, s, path)
		if code != 500 || !strings.Contains(body, "this run did not finish, or this is not a run directory: "+dir+" has no manifest.json") {
			t.Errorf("GET %s: %d\n%s", path, code, body)
		}
	}
}

// TestDamagedRun checks the pages of a run whose files are damaged: the
// warnings are on every page, and a cluster that cannot be read says why.
func TestDamagedRun(t *testing.T) {
	dir := handMade(t)
	path := filepath.Join(dir, "clusters-00000-of-00001.jsonl")
	b, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.Replace(b, []byte(`{"id":"elwiki:5:50:20"`), []byte(`{"id":"elwiki:5:50:20"}{`), 1), 0o644)
	fi, _ := os.Stat(path)
	os.Truncate(path, fi.Size()-20)
	s, _ := serve(t, dir)
	for _, tc := range []struct {
		path string
		code int
		want []string
	}{
		{"/", 200, []string{`<div class="warnings"><p>⚠ cluster_index-00000-of-00001.tsv: 1 row points past the end of clusters-00000-of-00001.jsonl`}},
		{"/cluster/elwiki:5:50:20", 500, []string{"Cluster elwiki:5:50:20 cannot be shown: the line at byte ", " of clusters-00000-of-00001.jsonl, where the index places cluster elwiki:5:50:20, is not a cluster&#39;s JSON (invalid character &#39;{&#39; after top-level value): the file is damaged, or not the one indexed"}},
		{"/cluster/jawiki:7:70:30", 500, []string{"Cluster jawiki:7:70:30 cannot be shown: the index places cluster jawiki:7:70:30 at bytes ", "past its end", "the file is truncated, or not the one indexed"}},
		{"/cluster/enwiki:30:300:10", 200, []string{"<mark>"}},
	} {
		code, body := get(t, s, tc.path)
		for _, w := range tc.want {
			if code != tc.code || !strings.Contains(body, w) {
				t.Errorf("GET %s: %d, want %d saying %q:\n%s", tc.path, code, tc.code, w, body)
			}
		}
	}
}

// TestReport checks that a run's report.html is served, and what is said
// when the manifest lists one that is missing.
func TestReport(t *testing.T) {
	dir := handMade(t)
	mpath := filepath.Join(dir, "manifest.json")
	var m summary.Manifest
	b, _ := os.ReadFile(mpath)
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m.Outputs = append(m.Outputs, "report.html")
	b, _ = json.Marshal(m)
	os.WriteFile(mpath, b, 0o644)
	s, _ := serve(t, dir)
	if code, body := get(t, s, "/report.html"); code != 500 || !strings.Contains(body, "report.html, which manifest.json lists, cannot be read") {
		t.Errorf("a missing report: %d\n%s", code, body)
	}
	os.WriteFile(filepath.Join(dir, "report.html"), []byte("<!doctype html><title>the report</title>"), 0o644)
	if body := mustGet(t, s, "/report.html"); body != "<!doctype html><title>the report</title>" {
		t.Errorf("report: %q", body)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("GET", "/report.html", nil))
	if got := rec.Header().Get("Content-Security-Policy"); got != reportCSP {
		t.Errorf("report.html: Content-Security-Policy %q, want %q", got, reportCSP)
	}
	if body := mustGet(t, s, "/"); !strings.Contains(body, `<a class="report" href="/report.html">report</a>`) {
		t.Error("no link to the report")
	}
	if code, _ := get(t, s, "/"); code != http.StatusOK {
		t.Error(code)
	}
}

// TestSecurityHeaders checks that every page forbids scripts and styles
// other than the server's own and report.html anything from the network.
func TestSecurityHeaders(t *testing.T) {
	s, _ := serve(t, handMade(t))
	for path, csp := range map[string]string{"/": pageCSP, "/no-such-page": pageCSP, "/static/style.css": pageCSP} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if got := rec.Header().Get("Content-Security-Policy"); got != csp {
			t.Errorf("%s: Content-Security-Policy %q, want %q", path, got, csp)
		}
		if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", path, got)
		}
	}
	if pageCSP != "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'" {
		t.Errorf("pageCSP %q", pageCSP)
	}
}
