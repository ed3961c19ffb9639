package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/neardup/neardup/explore/internal/index"
	"github.com/neardup/neardup/explore/internal/store"
	"github.com/neardup/neardup/explore/internal/testrun"
	"github.com/neardup/neardup/transforms/categorize"
	"github.com/neardup/neardup/transforms/summary"
)

func TestMain(m *testing.M) { os.Exit(testrun.Main(m)) }

// serve loads the run in dir (a path or gs:// URL) and returns its server.
func serve(t *testing.T, dir string) (*Server, *index.Run) {
	t.Helper()
	st, err := store.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r, err := index.Load(t.Context(), st, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(r, nil, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	return s, r
}

// get serves a GET of path and returns the status and body.
func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	return w.Code, w.Body.String()
}

// mustGet serves a GET of path that must succeed.
func mustGet(t *testing.T, h http.Handler, path string) string {
	t.Helper()
	code, body := get(t, h, path)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", path, code, body)
	}
	return body
}

var (
	rowRE     = regexp.MustCompile(`<tr data-kind="([^"]*)">\s*<td class="id"><a href="/cluster/([^"]*)">`)
	matchesRE = regexp.MustCompile(`<b id="matches">([\d,]+)</b>`)
	nextRE    = regexp.MustCompile(`<a rel="next" href="([^"]*)">`)
	textRE    = regexp.MustCompile(`(?s)<li id="m(\d+)">\s*<div class="text" dir="auto">(.*?)</div>`)
)

// listed is a row of a list page.
type listed struct{ kind, id string }

// listAll follows a list's pages from path and returns every row and the
// count of matches the first page gives.
func listAll(t *testing.T, h http.Handler, path string) ([]listed, string) {
	t.Helper()
	var rows []listed
	count := ""
	for path != "" {
		body := mustGet(t, h, path)
		if count == "" {
			m := matchesRE.FindStringSubmatch(body)
			if m == nil {
				t.Fatalf("GET %s: no count of matches", path)
			}
			count = m[1]
		}
		for _, m := range rowRE.FindAllStringSubmatch(body, -1) {
			rows = append(rows, listed{m[1], unescapePath(t, m[2])})
		}
		path = ""
		if m := nextRE.FindStringSubmatch(body); m != nil {
			path = htmlUnescape(m[1])
		}
	}
	return rows, count
}

// indexRow is a row of a run's cluster index, read as the tests read it.
type indexRow struct {
	file           string // the clusters file
	offset, length int
	digest         categorize.Digest
}

// readIndex reads every cluster index of the run in dir.
func readIndex(t *testing.T, dir string) []indexRow {
	t.Helper()
	var m summary.Manifest
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		t.Fatal(err)
	}
	var rows []indexRow
	for _, name := range m.Outputs {
		if !strings.HasPrefix(name, "cluster_index-") {
			continue
		}
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			fs := bytes.SplitN(sc.Bytes(), []byte{'\t'}, 3)
			d, err := categorize.ParseDigest(fs[2])
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, indexRow{file: "clusters-" + strings.TrimSuffix(strings.TrimPrefix(name, "cluster_index-"), ".tsv") + ".jsonl",
				offset: atoi(t, string(fs[0])), length: atoi(t, string(fs[1])), digest: d})
		}
		f.Close()
	}
	return rows
}

// readLine reads and decodes the cluster a row locates.
func readLine(t *testing.T, dir string, r indexRow) categorize.Cluster {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, r.file))
	if err != nil {
		t.Fatal(err)
	}
	var c categorize.Cluster
	if err := json.Unmarshal(b[r.offset:r.offset+r.length], &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// readSummary reads the run's summary.json.
func readSummary(t *testing.T, dir string) summary.Document {
	t.Helper()
	var doc summary.Document
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err == nil {
		err = json.Unmarshal(b, &doc)
	}
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
