package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/verify"
)

// TestEdgesAreTheClustersGraph runs the pipeline with --emit_edges on the
// sample read twice and, with ../shared, on the Greek dump, in 3 output
// shards: edges-*.jsonl holds each verified edge once (as many as
// counts.edges_verified), every edge passes verification's thresholds, and
// the connected components of the edges are exactly the clusters.
func TestEdgesAreTheClustersGraph(t *testing.T) {
	inputs := [][]string{{sampleDump, sampleDump}}
	if !testing.Short() {
		inputs = append(inputs, []string{needShared(t, "xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz")})
	}
	for _, in := range inputs {
		t.Run(fmt.Sprint(len(in), "files"), func(t *testing.T) {
			o := testOptions(t, t.TempDir(), in...)
			o.EmitEdges, o.EmitSentences, o.OutputShards = true, true, 3
			files := run(t, o)
			parent := map[string]string{}
			var find func(string) string
			find = func(x string) string {
				if p, ok := parent[x]; ok && p != x {
					parent[x] = find(p)
					return parent[x]
				}
				parent[x] = x
				return x
			}
			seen := map[[2]string]bool{}
			for name, b := range files {
				if !strings.HasPrefix(name, "edges-") {
					continue
				}
				for line := range bytes.Lines(b) {
					var e verify.EdgeLine
					if err := json.Unmarshal(line, &e); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if seen[[2]string{e.A, e.B}] || seen[[2]string{e.B, e.A}] {
						t.Errorf("edge %s – %s written twice", e.A, e.B)
					}
					seen[[2]string{e.A, e.B}] = true
					if e.Jaccard < o.MinJaccard && e.Edit > o.MaxEdit {
						t.Errorf("edge %+v passes neither threshold", e)
					}
					parent[find(e.A)] = find(e.B)
				}
			}
			if got := readSummary(t, files).EdgesVerified; int64(len(seen)) != got || got == 0 {
				t.Errorf("%d edges written, counts.edges_verified %d", len(seen), got)
			}
			components := map[string]map[string]bool{} // root → members
			for x := range parent {
				r := find(x)
				if components[r] == nil {
					components[r] = map[string]bool{}
				}
				components[r][x] = true
			}
			clusterOf := map[string]string{} // sentence id → cluster id, from sentences-*.jsonl
			for name, b := range files {
				if !strings.HasPrefix(name, "sentences-") || !strings.HasSuffix(name, ".jsonl") {
					continue
				}
				for line := range bytes.Lines(b) {
					var r sentence.Row
					if err := json.Unmarshal(line, &r); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if r.ClusterID != "" {
						clusterOf[r.ID] = r.ClusterID
					}
				}
			}
			clusters := readClusters(t, files)
			if len(components) != len(clusters) {
				t.Errorf("%d components of the edges, %d clusters", len(components), len(clusters))
			}
			for _, c := range clusters {
				comp := components[find(c.Members[0].ID)]
				if len(comp) != c.Size {
					t.Errorf("cluster %s of %d members: its component has %d", c.ID, c.Size, len(comp))
				}
				for id := range comp {
					if clusterOf[id] != c.ID {
						t.Errorf("sentence %s of cluster %s's component is in cluster %q", id, c.ID, clusterOf[id])
					}
				}
			}
		})
	}
}
