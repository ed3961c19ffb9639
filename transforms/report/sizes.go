package report

import (
	"math/bits"

	"github.com/neardup/neardup/internal/counters"
)

// ExactSizes is the largest cluster size with a bar of its own in the
// size histogram; above it, a bar covers the sizes up to the next power of
// two: 11–16, 17–32, 33–64, …
const ExactSizes = 10

// SizeBin is a bar of the cluster-size histogram: the clusters of Lo to Hi
// members.
type SizeBin struct {
	Lo, Hi    int64
	Clusters  int64
	Sentences int64
}

// SizeBinOf returns the bounds of the bar of clusters of the given size.
func SizeBinOf(size int64) (lo, hi int64) {
	if size <= ExactSizes {
		return size, size
	}
	hi = int64(1) << bits.Len64(uint64(size-1)) // the least power of two ≥ size
	return max(hi/2+1, ExactSizes+1), hi
}

// SizeBins returns the bars of a cluster-size histogram (summary.json's
// counts.cluster_size_histogram), ascending, without empty bars.
func SizeBins(hist []counters.Bin) []SizeBin {
	var out []SizeBin
	for _, b := range hist {
		if b.Clusters <= 0 {
			continue
		}
		lo, hi := SizeBinOf(b.Size)
		if n := len(out); n > 0 && out[n-1].Lo == lo {
			out[n-1].Clusters += b.Clusters
			out[n-1].Sentences += b.Size * b.Clusters
			continue
		}
		out = append(out, SizeBin{Lo: lo, Hi: hi, Clusters: b.Clusters, Sentences: b.Size * b.Clusters})
	}
	return out
}

// sizeShares returns the share of clusters of at most limit members and
// the share of sentences in clusters of more.
func sizeShares(hist []counters.Bin, limit int64) (smallClusters, sentencesInLarger float64) {
	var clusters, small, sentences, large int64
	for _, b := range hist {
		clusters += b.Clusters
		sentences += b.Size * b.Clusters
		if b.Size <= limit {
			small += b.Clusters
		} else {
			large += b.Size * b.Clusters
		}
	}
	return share(small, clusters), share(large, sentences)
}

// share is n/total, 0 when total is 0.
func share(n, total int64) float64 {
	if total == 0 {
		return 0
	}
	return float64(n) / float64(total)
}
