package index

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/summary"
)

// The prefixes of the files of a run that the explorer reads
// (pipelines/sentences names them so).
const (
	clustersPrefix = "clusters"
	indexPrefix    = "cluster_index"
)

// shard is one clusters file and its index.
type shard struct {
	clusters string // clusters-SSSSS-of-NNNNN.jsonl
	index    string // cluster_index-SSSSS-of-NNNNN.tsv, "" if the manifest lists none
	size     int64  // of the clusters file; -1 if it is missing
}

// shardsOf finds the clusters files the manifest lists, in shard order,
// and the index of each.
func shardsOf(m summary.Manifest) ([]shard, error) {
	n := -1
	listed := map[string]bool{}
	var numbers []int // of the clusters files listed
	for _, name := range m.Outputs {
		if listed[name] {
			continue
		}
		listed[name] = true
		if i, of, ok := shardNumber(name, clustersPrefix, ".jsonl"); ok {
			if n >= 0 && of != n {
				return nil, fmt.Errorf("it lists clusters files of %d and of %d shards", n, of)
			}
			n = of
			numbers = append(numbers, i)
		}
	}
	if n < 0 {
		return nil, errNoClusters
	}
	// Checked before the shards are made: n is only the manifest's word
	// (clusters-00000-of-2000000000.jsonl).
	if len(numbers) != n {
		slices.Sort(numbers)
		missing := len(numbers)
		for k, i := range numbers {
			if i != k {
				missing = k
				break
			}
		}
		return nil, fmt.Errorf("it lists %d of the %d clusters files, not %s", len(numbers), n, result.ShardName(clustersPrefix, missing, n))
	}
	shards := make([]shard, n)
	for i := range shards {
		s := shard{clusters: result.ShardName(clustersPrefix, i, n)}
		if idx := result.IndexName(indexPrefix, i, n); listed[idx] {
			s.index = idx
		}
		shards[i] = s
	}
	return shards, nil
}

// shardNumber parses PREFIX-SSSSS-of-NNNNN.SUFFIX.
func shardNumber(name, prefix, suffix string) (i, n int, ok bool) {
	rest, ok1 := strings.CutPrefix(name, prefix+"-")
	rest, ok2 := strings.CutSuffix(rest, suffix)
	si, sn, ok3 := strings.Cut(rest, "-of-")
	if !ok1 || !ok2 || !ok3 {
		return 0, 0, false
	}
	i, err1 := strconv.Atoi(si)
	n, err2 := strconv.Atoi(sn)
	if err1 != nil || err2 != nil || i < 0 || n <= 0 || i >= n {
		return 0, 0, false
	}
	return i, n, true
}
