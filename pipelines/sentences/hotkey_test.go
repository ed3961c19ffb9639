package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/testkit/corpus/hotkey"
	"github.com/neardup/neardup/transforms/component"
	"github.com/neardup/neardup/transforms/minhash"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/verify"
)

// hotModel is what the pipeline should count on a corpus whose sentences
// are known, worked out sentence by sentence as docs/architecture.md says each stage
// works: the shingle window, one bucket per band key, a star on each
// bucket's smallest id, the distinct star edges verified by the thresholds,
// and the connected components of the verified ones.
type hotModel struct {
	counts counters.Counts
	ids    []string // the in-window sentences' ids, in id order
}

func modelHotCorpus(t *testing.T, o Options, pages [][]string) hotModel {
	t.Helper()
	scheme, err := o.stages().SignConfig().NewScheme()
	if err != nil {
		t.Fatal(err)
	}
	norm := shingle.Normalization{FoldCase: o.FoldCase, CollapseSpace: o.CollapseSpace}
	shingler, signer := shingle.New(o.ShingleLength, norm), minhash.NewSigner(scheme)
	var m hotModel
	var texts []string
	buckets := map[uint64][]int{} // band key -> members, ascending
	for p, sents := range pages {
		for i, text := range sents {
			m.counts.Sentences++
			hashes, n := shingler.HashesBelow(text, o.MaxShingles)
			if n <= o.MinShingles || n >= o.MaxShingles {
				continue
			}
			id := len(m.ids)
			m.ids, texts = append(m.ids, hotkey.Key(p, i)), append(texts, text)
			for _, key := range signer.AppendKeys(nil, hashes) {
				m.counts.Signatures++
				if b := buckets[key]; len(b) == 0 || b[len(b)-1] != id {
					buckets[key] = append(b, id)
				}
			}
		}
	}
	m.counts.SentencesInWindow = int64(len(m.ids))
	candidates := map[[2]int]bool{}
	for _, members := range buckets {
		m.counts.Buckets++
		m.counts.LargestBucket = max(m.counts.LargestBucket, int64(len(members)))
		if len(members) < 2 {
			continue
		}
		m.counts.MultiBuckets++
		m.counts.Edges += int64(len(members) - 1)
		for _, v := range members[1:] {
			candidates[[2]int{members[0], v}] = true
		}
	}
	checker := verify.NewChecker(o.ShingleLength, norm, verify.Thresholds{MinJaccard: o.MinJaccard, MaxEdit: o.MaxEdit})
	var edges []component.Edge
	for e := range candidates {
		m.counts.CandidateEdges++
		if _, ok := checker.Compare(texts[e[0]], texts[e[1]]); !ok {
			m.counts.EdgesRejected++
			continue
		}
		m.counts.EdgesVerified++
		edges = append(edges, component.Edge{U: uint64(e[0]), V: uint64(e[1])})
	}
	sizes := map[uint64]int64{} // component (its smallest index) -> members
	for _, root := range component.Components(edges) {
		sizes[root]++
	}
	for _, n := range sizes {
		m.counts.Clusters++
		m.counts.SentencesInClusters += n
		m.counts.LargestCluster = max(m.counts.LargestCluster, n)
		if o.MaxMembers > 0 {
			m.counts.MembersOmitted += max(0, n-int64(o.MaxMembers))
		}
	}
	return m
}

// TestHotKey runs the pipeline on the hot-key corpus (bench/cmd/hotkey) with
// 20,000 copies of one template sentence, 100 a page, exact or with a slot
// filled differently, among 20,400 ordinary sentences: its bands' buckets
// hold up to all 20,000 copies, and its component all of them. Every count
// of the buckets, verification and clusters is what the corpus's sentences
// give stage by stage (modelHotCorpus), and the copies make one cluster
// whose line lists an even sample of --max_members of them.
func TestHotKey(t *testing.T) {
	const copies, perPage = 20_000, 100
	dir := t.TempDir()
	input := filepath.Join(dir, "hot.xml")
	f, err := os.Create(input)
	if err != nil {
		t.Fatal(err)
	}
	st, err := hotkey.Write(f, hotkey.Config{Copies: copies, PerPage: perPage, Seed: 1, Record: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	o := testOptions(t, filepath.Join(dir, "out"), input)
	files := run(t, o)
	got := readSummary(t, files)
	checkAccounting(t, got)
	m := modelHotCorpus(t, o, st.Sentences)

	// The design of the corpus, checked on the model: all copies and
	// nothing else in one cluster, buckets that hold most copies.
	const pages = copies / perPage
	if want := int64(copies + st.Ordinary); m.counts.Sentences != want || m.counts.SentencesInWindow != want {
		t.Fatalf("model: %d sentences, %d in window; the corpus wrote %d", m.counts.Sentences, m.counts.SentencesInWindow, want)
	}
	if m.counts.Clusters != 1 || m.counts.LargestCluster != copies || m.counts.EdgesRejected != 0 {
		t.Fatalf("model: %d clusters, the largest of %d, %d edges rejected; want the %d copies alone in one, none rejected",
			m.counts.Clusters, m.counts.LargestCluster, m.counts.EdgesRejected, copies)
	}
	if m.counts.LargestBucket < copies*3/4 {
		t.Fatalf("model: largest bucket %d, want at least the %d exact copies", m.counts.LargestBucket, copies*3/4)
	}

	t.Logf("model: %d sentences; largest bucket %d, %d star edges, %d candidate edges, %d verified; one cluster of %d",
		m.counts.Sentences, m.counts.LargestBucket, m.counts.Edges, m.counts.CandidateEdges, m.counts.EdgesVerified, m.counts.LargestCluster)
	want := m.counts
	want.PagesRead, want.PagesKept = pages, pages
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"pages_read", got.PagesRead, want.PagesRead},
		{"pages_kept", got.PagesKept, want.PagesKept},
		{"sentences", got.Sentences, want.Sentences},
		{"sentences_in_window", got.SentencesInWindow, want.SentencesInWindow},
		{"signatures", got.Signatures, want.Signatures},
		{"buckets", got.Buckets, want.Buckets},
		{"buckets_with_2_or_more", got.MultiBuckets, want.MultiBuckets},
		{"largest_bucket", got.LargestBucket, want.LargestBucket},
		{"edges", got.Edges, want.Edges},
		{"candidate_edges", got.CandidateEdges, want.CandidateEdges},
		{"edges_verified", got.EdgesVerified, want.EdgesVerified},
		{"edges_rejected", got.EdgesRejected, want.EdgesRejected},
		{"clusters", got.Clusters, want.Clusters},
		{"sentences_in_clusters", got.SentencesInClusters, want.SentencesInClusters},
		{"largest_cluster", got.LargestCluster, want.LargestCluster},
		{"members_omitted", got.MembersOmitted, want.MembersOmitted},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}

	clusters := readClusters(t, files)
	if len(clusters) != 1 {
		t.Fatalf("%d clusters, want 1", len(clusters))
	}
	c := clusters[0]
	var copyIDs []string // the copies' ids, in id order
	isCopy := map[string]bool{}
	for _, text := range st.Texts {
		isCopy[text] = true
	}
	for p, sents := range st.Sentences {
		for i, text := range sents {
			if isCopy[text] {
				copyIDs = append(copyIDs, hotkey.Key(p, i))
			}
		}
	}
	if len(copyIDs) != copies {
		t.Fatalf("%d copies among the recorded sentences, want %d", len(copyIDs), copies)
	}
	if c.ID != copyIDs[0] || c.Size != copies || c.Pages != pages || c.MembersOmitted != copies-o.MaxMembers ||
		len(c.Members) != o.MaxMembers || c.Cohesion.Edges != int(want.EdgesVerified) {
		t.Errorf("cluster %s of %d members on %d pages, %d listed, %d omitted, %d edges; want %s, %d on %d, %d listed, %d omitted, %d edges",
			c.ID, c.Size, c.Pages, len(c.Members), c.MembersOmitted, c.Cohesion.Edges,
			copyIDs[0], copies, pages, o.MaxMembers, copies-o.MaxMembers, want.EdgesVerified)
	}
	// The sample: every (copies/max_members)-th copy from the first.
	for j, v := range c.Members {
		if wantID := copyIDs[j*copies/o.MaxMembers]; v.ID != wantID || !isCopy[v.Text] {
			t.Fatalf("member %d is %s (%q), want %s, a copy", j, v.ID, v.Text, wantID)
		}
	}
}
