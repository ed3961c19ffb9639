package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/neardup/neardup/transforms/sentence"
)

// TestSentencesCarryClusterIDs runs the pipeline with --emit_sentences on
// the sample read twice (every page a duplicate) and, with ../shared, on
// Greek and German dumps, with clusters capped at 2 listed members: every
// sentence of a cluster, listed or omitted, carries that cluster's id, and
// no other sentence carries one.
func TestSentencesCarryClusterIDs(t *testing.T) {
	inputs := [][]string{{sampleDump, sampleDump}}
	if testing.Short() {
		t.Log("-short: the sample only")
	} else {
		inputs = append(inputs, []string{
			needShared(t, "xztextfilter-wiki-truncated/elwiki-truncated-100k.xml.xz"),
			needShared(t, "dbpedia-minidumps/dewiki-minidump.xml.bz2"),
		})
	}
	for _, in := range inputs {
		t.Run(fmt.Sprint(len(in), "files"), func(t *testing.T) {
			o := testOptions(t, t.TempDir(), in...)
			o.EmitSentences, o.MaxMembers, o.OutputShards = true, 2, 3
			files := run(t, o)
			clusters := readClusters(t, files)
			rows := map[string]string{} // sentence id → cluster id
			inCluster := map[string]int{}
			for name, b := range files {
				if !strings.HasPrefix(name, "sentences-") || !strings.HasSuffix(name, ".jsonl") {
					continue
				}
				for line := range bytes.Lines(b) {
					var r sentence.Row
					if err := json.Unmarshal(line, &r); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if _, dup := rows[r.ID]; dup {
						t.Errorf("sentence %s written twice", r.ID)
					}
					rows[r.ID] = r.ClusterID
					if r.ClusterID != "" {
						inCluster[r.ClusterID]++
					}
				}
			}
			omitted := 0
			for _, c := range clusters {
				omitted += c.MembersOmitted
				for _, m := range c.Members {
					if got, ok := rows[m.ID]; !ok || got != c.ID {
						t.Errorf("member %s of cluster %s: sentence row has cluster_id %q (written: %v)", m.ID, c.ID, got, ok)
					}
				}
				if inCluster[c.ID] != c.Size {
					t.Errorf("cluster %s of size %d: %d sentence rows carry its id", c.ID, c.Size, inCluster[c.ID])
				}
				delete(inCluster, c.ID)
			}
			if len(inCluster) > 0 {
				t.Errorf("sentence rows carry ids of no cluster: %v", inCluster)
			}
			if len(clusters) == 0 || (len(in) > 1 && omitted == 0) {
				t.Errorf("%d clusters, %d members omitted: the test proves little", len(clusters), omitted)
			}
		})
	}
}
