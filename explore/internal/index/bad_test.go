package index

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/explore/internal/store"
	"github.com/neardup/neardup/transforms/summary"
)

// editManifest changes the manifest of the run in dir.
func editManifest(t *testing.T, dir string, edit func(*summary.Manifest)) {
	t.Helper()
	path := filepath.Join(dir, "manifest.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m summary.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(&m)
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	write(t, path, b)
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func remove(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := os.Remove(filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
}

// replace replaces the first old in a file of dir by new.
func replace(t *testing.T, dir, name, old, new string) {
	t.Helper()
	path := filepath.Join(dir, name)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s holds no %q", name, old)
	}
	write(t, path, bytes.Replace(b, []byte(old), []byte(new), 1))
}

// TestLoadRefuses checks the directories that are no finished run.
func TestLoadRefuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir string) string // returns the directory to load
		want   string
	}{
		{"no manifest", func(t *testing.T, dir string) string { remove(t, dir, "manifest.json"); return dir },
			"this run did not finish, or this is not a run directory: "},
		{"no directory", func(t *testing.T, dir string) string { return filepath.Join(dir, "nope") },
			"this run did not finish, or this is not a run directory: "},
		{"manifest not JSON", func(t *testing.T, dir string) string {
			write(t, filepath.Join(dir, "manifest.json"), []byte("{\"run_id\": "))
			return dir
		}, "manifest.json is not a run's manifest"},
		{"manifest lists no clusters", func(t *testing.T, dir string) string {
			editManifest(t, dir, func(m *summary.Manifest) { m.Outputs = []string{"summary.json", "manifest.json"} })
			return dir
		}, "manifest.json: it lists no clusters-*.jsonl file"},
		{"manifest lists one shard of two", func(t *testing.T, dir string) string {
			editManifest(t, dir, func(m *summary.Manifest) {
				m.Outputs = slices.DeleteFunc(m.Outputs, func(s string) bool { return s == "clusters-00001-of-00002.jsonl" })
			})
			return dir
		}, "it lists 1 of the 2 clusters files, not clusters-00001-of-00002.jsonl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.damage(t, writeRun(t, 2, queryClusters()...))
			st, err := store.Open(t.Context(), dir)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Load(t.Context(), st, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			var nr *NotRunError
			if errors.As(err, &nr) != strings.HasPrefix(tc.want, "this run did not finish") {
				t.Errorf("error %T", err)
			}
		})
	}
}

// TestLoadDamaged checks what Load and ReadCluster say of runs with
// missing or damaged files: Load warns and goes on, a cluster that cannot
// be read says why.
func TestLoadDamaged(t *testing.T) {
	const (
		idx0, idx1 = "cluster_index-00000-of-00002.tsv", "cluster_index-00001-of-00002.tsv"
		cl0, cl1   = "clusters-00000-of-00002.jsonl", "clusters-00001-of-00002.jsonl"
	)
	// With two shards, c1, c3 and c5 are in shard 0, the others in shard 1.
	clusters := queryClusters()
	full := entries(load(t, writeRun(t, 2, clusters...), Options{}))
	for _, tc := range []struct {
		name     string
		damage   func(t *testing.T, dir string)
		warnings []string
		clusters int    // listed
		scanned  bool   // some clusters file was read whole
		cluster  int    // of clusters, to read
		readErr  string // what reading it says, "" if it reads
		same     bool   // the entries are those of the whole run
	}{
		{name: "written before cluster indexes", damage: func(t *testing.T, dir string) {
			remove(t, dir, idx0, idx1)
			editManifest(t, dir, func(m *summary.Manifest) {
				m.Version = "v0.1.0"
				m.Outputs = slices.DeleteFunc(m.Outputs, func(s string) bool { return strings.HasPrefix(s, "cluster_index") })
			})
		}, warnings: []string{"this run was written by version v0.1.0, before cluster indexes: its clusters files were read whole instead, which is slower; rerun with a newer neardup for a fast start"},
			clusters: 6, scanned: true, cluster: 3, same: true},
		{name: "an index is missing", damage: func(t *testing.T, dir string) { remove(t, dir, idx1) },
			warnings: []string{idx1 + " is listed in manifest.json but cannot be read (stat "},
			clusters: 6, scanned: true, cluster: 1, same: true},
		{name: "a clusters file is missing", damage: func(t *testing.T, dir string) { remove(t, dir, cl1) },
			warnings: []string{cl1 + " cannot be read (stat "},
			clusters: 6, cluster: 1, readErr: cl1 + ", which holds cluster enwiki:10:100:20, is missing from ", same: true},
		{name: "a clusters file and its index are missing", damage: func(t *testing.T, dir string) { remove(t, dir, cl1, idx1) },
			warnings: []string{cl1 + " cannot be read (stat ", "the index lists 3 clusters but summary.json counts 6"},
			clusters: 3, cluster: 0},
		{name: "a clusters file is truncated", damage: func(t *testing.T, dir string) {
			path := filepath.Join(dir, cl0)
			fi, _ := os.Stat(path)
			os.Truncate(path, fi.Size()-10)
		}, warnings: []string{idx0 + ": 1 row points past the end of " + cl0 + " ("},
			clusters: 6, cluster: 4, readErr: "the index places cluster enwiki:30:300:50 at bytes ", same: true},
		{name: "a line is not JSON", damage: func(t *testing.T, dir string) {
			replace(t, dir, cl0, `{"id":"enwiki:20:200:30"`, `{"id":"enwiki:20:200:30"}{`)
		}, clusters: 6, cluster: 2,
			readErr: "where the index places cluster enwiki:20:200:30, is not a cluster's JSON (", same: true},
		{name: "a line is another cluster", damage: func(t *testing.T, dir string) {
			replace(t, dir, cl0, `{"id":"enwiki:20:200:30"`, `{"id":"enwiki:20:200:39"`)
		}, clusters: 6, cluster: 2, readErr: "is cluster enwiki:20:200:39, not enwiki:20:200:30 as the index says", same: true},
		{name: "index rows that cannot be read", damage: func(t *testing.T, dir string) {
			path := filepath.Join(dir, idx0)
			b, _ := os.ReadFile(path)
			write(t, path, append(b, "garbage\n0\t5\tenwiki:1:2:3\tother\tmany\t1\t0\t1\t0\n"...))
		}, warnings: []string{idx0 + ": 2 lines cannot be read (the first at byte "}, clusters: 6, cluster: 0, same: true},
		{name: "a truncated index", damage: func(t *testing.T, dir string) {
			path := filepath.Join(dir, idx1)
			fi, _ := os.Stat(path)
			os.Truncate(path, fi.Size()-1)
		}, warnings: []string{idx1 + ": 1 line cannot be read (the first at byte ", "the last line ends without a newline: the file is truncated",
			"the index lists 5 clusters but summary.json counts 6"}, clusters: 5, cluster: 0},
		{name: "a clusters file without index, with a line that is not JSON", damage: func(t *testing.T, dir string) {
			remove(t, dir, idx0)
			replace(t, dir, cl0, `{"id":"enwiki:20:200:30"`, `{"id"`)
		}, warnings: []string{idx0 + " is listed", cl0 + ": 1 line cannot be read (the first at byte ", "not a cluster's JSON",
			"the index lists 5 clusters but summary.json counts 6"}, clusters: 5, scanned: true, cluster: 0},
		{name: "no summary", damage: func(t *testing.T, dir string) { remove(t, dir, "summary.json") },
			warnings: []string{"summary.json cannot be read (open ", "counts by kind and links to the wikis are not shown"},
			clusters: 6, cluster: 0, same: true},
		{name: "a summary that is not JSON", damage: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "summary.json"), []byte("[")) },
			warnings: []string{"summary.json is not a run's summary ("}, clusters: 6, cluster: 0, same: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeRun(t, 2, clusters...)
			tc.damage(t, dir)
			r := load(t, dir, Options{})
			all := strings.Join(r.Warnings, "\n")
			for _, w := range tc.warnings {
				if !strings.Contains(all, w) {
					t.Errorf("warnings %q do not say %q", r.Warnings, w)
				}
			}
			if len(tc.warnings) == 0 && len(r.Warnings) > 0 {
				t.Errorf("warnings %q", r.Warnings)
			}
			if r.Len() != tc.clusters || r.Scanned != tc.scanned {
				t.Errorf("%d clusters, scanned %v; want %d, %v", r.Len(), r.Scanned, tc.clusters, tc.scanned)
			}
			if tc.same && !reflect.DeepEqual(entries(r), full) {
				t.Errorf("entries differ from the whole run's")
			}
			i, ok := r.Find(clusters[tc.cluster].ID)
			if !ok {
				t.Fatalf("cluster %s is not listed", clusters[tc.cluster].ID)
			}
			c, err := r.ReadCluster(t.Context(), i)
			switch {
			case tc.readErr == "" && err != nil:
				t.Errorf("reading %s: %v", clusters[tc.cluster].ID, err)
			case tc.readErr == "" && c.ID != clusters[tc.cluster].ID:
				t.Errorf("read cluster %s, want %s", c.ID, clusters[tc.cluster].ID)
			case tc.readErr != "" && (err == nil || !strings.Contains(err.Error(), tc.readErr)):
				t.Errorf("reading %s: error %v, want one saying %q", clusters[tc.cluster].ID, err, tc.readErr)
			}
		})
	}
}
