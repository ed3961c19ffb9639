// Package tally is the run's counters: every stage, from the dump reader
// to the clusters, adds to one Counts, which summary.json reports.
//
// Stages emit partial Counts (one per bundle); Merge adds them, so the totals
// do not depend on how the runner split the work. The counters live below
// every stage so that a reader or a transform can count without importing
// the stage that writes the summary.
package tally

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Counts are the run's totals. Field meanings are documented in the README.
type Counts struct {
	FilesRead      int64 `json:"files_read"`
	FilesTruncated int64 `json:"files_truncated"`
	// FilesNotDumps counts input files with data but no <page>, no
	// <mediawiki> root and no <siteinfo>: not MediaWiki XML dumps.
	FilesNotDumps int64 `json:"files_not_dumps"`
	DeadLetters   int64 `json:"dead_letters"`

	PagesRead             int64 `json:"pages_read"`
	PagesKept             int64 `json:"pages_kept"`
	PagesDuplicate        int64 `json:"pages_duplicate"`
	PagesSkippedNamespace int64 `json:"pages_skipped_namespace"`
	Redirects             int64 `json:"redirects"`
	PagesFailed           int64 `json:"pages_failed"`

	Sentences         int64 `json:"sentences"`
	SentencesTooShort int64 `json:"sentences_too_short"`
	SentencesTooLong  int64 `json:"sentences_too_long"`
	SentencesInWindow int64 `json:"sentences_in_window"`
	SentencesCut      int64 `json:"sentences_cut"`
	Signatures        int64 `json:"signatures"`

	Buckets             int64 `json:"buckets"`
	MultiBuckets        int64 `json:"buckets_with_2_or_more"`
	LargestBucket       int64 `json:"largest_bucket"`
	Edges               int64 `json:"edges"`
	CandidateEdges      int64 `json:"candidate_edges"`
	EdgesVerified       int64 `json:"edges_verified"`
	EdgesRejected       int64 `json:"edges_rejected"`
	Clusters            int64 `json:"clusters"`
	SentencesInClusters int64 `json:"sentences_in_clusters"`
	LargestCluster      int64 `json:"largest_cluster"`
	MembersOmitted      int64 `json:"members_omitted"`

	// Categories counts clusters and their sentences by category.
	Categories map[string]Category `json:"categories"`

	// ClusterSizes maps a cluster size to the number of clusters of that size.
	ClusterSizes map[int64]int64 `json:"-"`
}

// Category counts the clusters of one category and their sentences.
type Category struct {
	Clusters  int64 `json:"clusters"`
	Sentences int64 `json:"sentences"`
}

// AddCategory counts clusters clusters of sentences sentences in category.
func (c *Counts) AddCategory(category string, clusters, sentences int64) {
	if c.Categories == nil {
		c.Categories = map[string]Category{}
	}
	k := c.Categories[category]
	k.Clusters += clusters
	k.Sentences += sentences
	c.Categories[category] = k
}

// Merge adds o into c: sums, except the Largest* fields, which take the
// maximum. It walks the fields, so a counter added to Counts is merged
// without being listed here.
func (c *Counts) Merge(o Counts) {
	cv, ov := reflect.ValueOf(c).Elem(), reflect.ValueOf(o)
	for i, f := range reflect.VisibleFields(cv.Type()) {
		if f.Type.Kind() != reflect.Int64 {
			continue
		}
		a, b := cv.Field(i), ov.Field(i).Int()
		if strings.HasPrefix(f.Name, "Largest") {
			a.SetInt(max(a.Int(), b))
		} else {
			a.SetInt(a.Int() + b)
		}
	}
	for size, n := range o.ClusterSizes {
		c.AddClusterSize(size, n)
	}
	for name, k := range o.Categories {
		c.AddCategory(name, k.Clusters, k.Sentences)
	}
}

// AddClusterSize records n clusters of the given size in the histogram.
func (c *Counts) AddClusterSize(size, n int64) {
	if c.ClusterSizes == nil {
		c.ClusterSizes = map[int64]int64{}
	}
	c.ClusterSizes[size] += n
}

// IsZero reports whether nothing was counted.
func (c Counts) IsZero() bool {
	if len(c.ClusterSizes) > 0 || len(c.Categories) > 0 {
		return false
	}
	type scalars Counts
	c.ClusterSizes, c.Categories = nil, nil
	return reflect.ValueOf(scalars(c)).IsZero()
}

// Bin is one bar of the cluster-size histogram.
type Bin struct {
	Size     int64 `json:"size"`
	Clusters int64 `json:"clusters"`
}

// Histogram returns the cluster-size histogram in ascending order of size.
func (c Counts) Histogram() []Bin {
	bins := make([]Bin, 0, len(c.ClusterSizes))
	for _, size := range slices.Sorted(maps.Keys(c.ClusterSizes)) {
		bins = append(bins, Bin{size, c.ClusterSizes[size]})
	}
	return bins
}

// MarshalJSON writes the counts with the histogram as sorted bins.
func (c Counts) MarshalJSON() ([]byte, error) {
	type plain Counts // drops the method, so this does not recurse
	return json.Marshal(struct {
		plain
		Histogram []Bin `json:"cluster_size_histogram"`
	}{plain(c), c.Histogram()})
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (c *Counts) UnmarshalJSON(b []byte) error {
	type plain Counts
	var v struct {
		plain
		Histogram []Bin `json:"cluster_size_histogram"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*c = Counts(v.plain)
	c.ClusterSizes = nil
	for _, bin := range v.Histogram {
		c.AddClusterSize(bin.Size, bin.Clusters)
	}
	return nil
}
