// Package counters is the run's counters: every stage, from the dump reader
// to the clusters, adds to one Counts, which summary.json reports.
//
// Stages emit partial Counts (one per bundle); Merge adds them, so the totals
// do not depend on how the runner split the work. The counters live below
// every stage so that a reader or a transform can count without importing
// the stage that writes the summary.
package counters

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Counts are the run's totals. Field meanings are documented in docs/outputs.md (summary.json).
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
	// PagesEmpty counts the documents of text corpora (package io/text)
	// whose text is empty or only white space: read, not kept.
	PagesEmpty int64 `json:"pages_empty"`

	Sentences         int64 `json:"sentences"`
	SentencesTooShort int64 `json:"sentences_too_short"`
	SentencesTooLong  int64 `json:"sentences_too_long"`
	SentencesInWindow int64 `json:"sentences_in_window"`
	SentencesCut      int64 `json:"sentences_cut"`
	DebrisLines       int64 `json:"debris_lines"`
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
	// ReferenceSections counts the section headings learned to hold
	// citations, all wikis together (package transforms/sectionkind).
	ReferenceSections int64 `json:"reference_sections"`

	// Categories counts clusters and their sentences by category.
	Categories map[string]Category `json:"categories"`

	// Baseline counts the reading of the --baseline dumps and the
	// comparison of their pages with the input's; it is absent from a run
	// without them.
	Baseline Baseline `json:"baseline,omitzero"`

	// Passages counts the shared passages between documents (package
	// passage).
	Passages Passages `json:"passages"`

	// Scheme counts the candidate stage of --scheme simhash and exact; it
	// is absent from a run of a MinHash scheme, whose candidates are the
	// buckets' star edges (Buckets … Edges above).
	Scheme Scheme `json:"scheme,omitzero"`

	// Web counts the reading of WARC and WET files (package io/warc) and
	// the main-content extraction of their HTML pages (package
	// io/htmltext); it is absent from a run without them.
	Web Web `json:"web,omitzero"`

	// Reuse counts the reuse cases between web pages and Wikipedia
	// articles (package transforms/reuse); it is absent from a run of the
	// sentence pipeline.
	Reuse Reuse `json:"reuse,omitzero"`

	// Aliases counts the table of the names that name one article
	// (package transforms/alias); it is absent from a run without one.
	Aliases Aliases `json:"aliases,omitzero"`

	// Duplicates counts the lines of duplicates-*.jsonl and the
	// deduplicated copies of text corpora (--emit_duplicates); it is absent
	// from a run without them.
	Duplicates Duplicates `json:"duplicates,omitzero"`

	// ClusterSizes maps a cluster size to the number of clusters of that size.
	ClusterSizes map[int64]int64 `json:"-"`
}

// Baseline counts what a run with --baseline read of the baseline dumps and
// what comparing them with the input found. Field meanings are documented
// in docs/outputs.md (summary.json).
type Baseline struct {
	FilesRead             int64 `json:"files_read"`
	FilesTruncated        int64 `json:"files_truncated"`
	FilesNotDumps         int64 `json:"files_not_dumps"`
	DeadLetters           int64 `json:"dead_letters"`
	PagesRead             int64 `json:"pages_read"`
	PagesKept             int64 `json:"pages_kept"`
	PagesSkippedNamespace int64 `json:"pages_skipped_namespace"`
	Redirects             int64 `json:"redirects"`
	PagesFailed           int64 `json:"pages_failed"`
	PagesEmpty            int64 `json:"pages_empty"`

	PagesOtherWiki  int64 `json:"pages_other_wiki"`
	PagesUnmatched  int64 `json:"pages_unmatched"`
	PagesSuperseded int64 `json:"pages_superseded"`
	PagesUnchanged  int64 `json:"pages_unchanged"`
	PagesCompared   int64 `json:"pages_compared"`

	SentencesBefore    int64 `json:"sentences_before"`
	SentencesAfter     int64 `json:"sentences_after"`
	SentencesUnchanged int64 `json:"sentences_unchanged"`
	SentencesRemoved   int64 `json:"sentences_removed"`
	SentencesAdded     int64 `json:"sentences_added"`
	PairsCompared      int64 `json:"pairs_compared"`
	PairsMoved         int64 `json:"pairs_moved"`
	PairsCopyEdit      int64 `json:"pairs_copy_edit"`
	PairsOther         int64 `json:"pairs_other"`
	Changes            int64 `json:"changes"`
	// Changes by type: replaced + added + removed + added_removed = changes.
	ChangesReplaced     int64 `json:"changes_replaced"`
	ChangesAdded        int64 `json:"changes_added"`
	ChangesRemoved      int64 `json:"changes_removed"`
	ChangesAddedRemoved int64 `json:"changes_added_removed"`
	ComparisonsSkipped  int64 `json:"comparisons_skipped"`
}

// FromRead returns the counts a dump reader made (files, pages and dead
// letters) as counts of the baseline's reading.
func FromRead(c Counts) Baseline {
	return Baseline{
		FilesRead: c.FilesRead, FilesTruncated: c.FilesTruncated, FilesNotDumps: c.FilesNotDumps, DeadLetters: c.DeadLetters,
		PagesRead: c.PagesRead, PagesKept: c.PagesKept, PagesSkippedNamespace: c.PagesSkippedNamespace,
		Redirects: c.Redirects, PagesFailed: c.PagesFailed, PagesEmpty: c.PagesEmpty,
	}
}

// Passages counts what the shared-passage stage saw and found. Field
// meanings are documented in docs/outputs.md (summary.json).
type Passages struct {
	DocumentPairs      int64 `json:"document_pairs"`
	PairsWithPassages  int64 `json:"document_pairs_with_passages"`
	Passages           int64 `json:"passages"`
	SentencePairs      int64 `json:"sentence_pairs"`
	LargestPassage     int64 `json:"largest_passage"`
	MatchesWithinPages int64 `json:"matches_within_documents"`
	PairsSamePage      int64 `json:"document_pairs_same_page"`
	MatchesDropped     int64 `json:"matches_dropped"`
	// Lengths maps a passage's number of matched sentence pairs to the
	// number of passages of that length.
	Lengths map[int64]int64 `json:"-"`
}

// AddPassage counts one passage of n matched sentence pairs.
func (p *Passages) AddPassage(n int64) {
	p.addLength(n, 1)
	p.Passages++
	p.SentencePairs += n
	p.LargestPassage = max(p.LargestPassage, n)
}

// addLength records k passages of n matches in the histogram.
func (p *Passages) addLength(n, k int64) {
	if p.Lengths == nil {
		p.Lengths = map[int64]int64{}
	}
	p.Lengths[n] += k
}

// Scheme counts the candidate stage of the schemes that are not MinHash
// banding: --scheme simhash (sorted windows over permuted signatures) and
// --scheme exact (a prefix-filtering join). A group is what one step
// compares all against all: a sorted run of one permutation's shard
// (simhash), or the entries of one prefix token (exact).
type Scheme struct {
	// Entries are the entries shuffled to the groups: one per sentence
	// and permutation (simhash), one per prefix shingle of each sentence
	// whose count the sketch does not show to be 1 (exact; sentences of
	// one shingle set included).
	Entries      int64 `json:"entries"`
	Groups       int64 `json:"groups"`
	LargestGroup int64 `json:"largest_group"`
	// PairsCompared are the pairs a group looked at: neighbours inside the
	// window (simhash), pairs of a token's entries (exact).
	PairsCompared int64 `json:"pairs_compared"`
	// PairsFiltered are the compared pairs dropped before verification: over
	// the Hamming limit (simhash), refused by the length or positional
	// filter or already met at an earlier shared prefix token (exact).
	PairsFiltered int64 `json:"pairs_filtered"`
	// Candidates are the pairs passed on to verification (before the
	// removal of repeats across groups).
	Candidates int64 `json:"candidates"`
	// IdenticalSets are sentences whose shingle set equals an earlier
	// one's (exact): linked to it directly, not joined again.
	IdenticalSets int64 `json:"identical_sets"`
}

// Web counts what the WARC reader read and kept. Field meanings are
// documented in docs/outputs.md (summary.json).
type Web struct {
	// Records are the WARC records read whole, of every type.
	Records int64 `json:"records"`
	// Responses are the response records; HTMLPages those of them that
	// are text/html with status 200 and became documents.
	Responses int64 `json:"responses"`
	HTMLPages int64 `json:"html_pages"`
	// Conversions are the conversion records (WET text) that became
	// documents.
	Conversions int64 `json:"conversions"`
	// OtherRecords are the records of other types (warcinfo, request,
	// metadata, revisit…), skipped.
	OtherRecords int64 `json:"other_records"`
	// NotHTML are response records skipped for their payload's type
	// (images, PDF, JSON…); NotOK those skipped for their HTTP status
	// (redirects, errors).
	NotHTML int64 `json:"not_html"`
	NotOK   int64 `json:"not_ok"`
	// TooLarge are records over the size cap, skipped unread and
	// dead-lettered; BadRecords records that could not be parsed
	// (dead-lettered).
	TooLarge   int64 `json:"too_large"`
	BadRecords int64 `json:"bad_records"`
	// SkippedBytes are the bytes skipped unread: the records over the
	// size cap, the bad records, and whatever lies between a bad record
	// and the next record start.
	SkippedBytes int64 `json:"skipped_bytes"`
	// CharsetSniffed are HTML pages that declare no charset, decoded
	// with the one html/charset guesses; CharsetRepaired those whose
	// declared charset did not decode every byte.
	CharsetSniffed  int64 `json:"charset_sniffed"`
	CharsetRepaired int64 `json:"charset_repaired"`
	// NoContent are HTML pages whose extracted main content is empty.
	NoContent int64 `json:"no_content"`
	// HTMLBytes are the bytes of the HTML pages' payloads; TextBytes those
	// of the main content extracted from them.
	HTMLBytes int64 `json:"html_bytes"`
	TextBytes int64 `json:"text_bytes"`
}

// Aliases counts what the alias table was built from and what its bounds
// dropped. Field meanings are documented in docs/outputs.md (summary.json).
type Aliases struct {
	RedirectClaims  int64 `json:"redirect_claims"`
	LinkClaims      int64 `json:"link_claims"`
	Names           int64 `json:"names"`
	NamesDropped    int64 `json:"names_dropped"`
	ArticlesDropped int64 `json:"articles_dropped"`
}

// Duplicates counts what --emit_duplicates lists and leaves out. Field
// meanings are documented in docs/outputs.md (summary.json).
type Duplicates struct {
	Sentences int64 `json:"sentences"`
	Documents int64 `json:"documents"`
	// The deduplicated copies of the JSON-lines corpora.
	CopyDocuments        int64 `json:"copy_documents"`
	CopyDocumentsDropped int64 `json:"copy_documents_dropped"`
	CopySentencesRemoved int64 `json:"copy_sentences_removed"`
	CopyLinesUnread      int64 `json:"copy_lines_unread"`
	CopyLinesTooLong     int64 `json:"copy_lines_too_long"`
}

// Reuse counts the reuse cases found between web pages and Wikipedia
// articles. Field meanings are documented in docs/outputs.md (summary.json).
type Reuse struct {
	// CrossPairsCapped are the pairs of a web sentence and a Wikipedia
	// sentence left out of buckets too large to link every such pair
	// (--max_bucket_pairs): their members were linked by stars instead.
	CrossPairsCapped int64 `json:"cross_pairs_capped"`
	// Cases are the (web page, article) pairs that share a passage, by
	// kind.
	Cases          int64 `json:"cases"`
	ContentReuse   int64 `json:"content_reuse"`
	StructureReuse int64 `json:"structure_reuse"`
	Passages       int64 `json:"passages"`
	// WebPages and Articles are the distinct documents in some case.
	WebPages int64 `json:"web_pages"`
	Articles int64 `json:"articles"`
}

// LengthBin is one bar of the passage-length histogram.
type LengthBin struct {
	Matched  int64 `json:"matched"`
	Passages int64 `json:"passages"`
}

// MarshalJSON writes the counts with the length histogram as sorted bins.
func (p Passages) MarshalJSON() ([]byte, error) {
	type plain Passages
	bins := make([]LengthBin, 0, len(p.Lengths))
	for _, n := range slices.Sorted(maps.Keys(p.Lengths)) {
		bins = append(bins, LengthBin{n, p.Lengths[n]})
	}
	return json.Marshal(struct {
		plain
		Histogram []LengthBin `json:"length_histogram"`
	}{plain(p), bins})
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (p *Passages) UnmarshalJSON(b []byte) error {
	type plain Passages
	var v struct {
		plain
		Histogram []LengthBin `json:"length_histogram"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*p = Passages(v.plain)
	p.Lengths = nil
	for _, bin := range v.Histogram {
		p.addLength(bin.Matched, bin.Passages)
	}
	return nil
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
// maximum. It walks the fields, so a counter added to Counts (or to
// Baseline) is merged without being listed here.
func (c *Counts) Merge(o Counts) {
	mergeInts(reflect.ValueOf(c).Elem(), reflect.ValueOf(o))
	mergeInts(reflect.ValueOf(&c.Baseline).Elem(), reflect.ValueOf(o.Baseline))
	mergeInts(reflect.ValueOf(&c.Passages).Elem(), reflect.ValueOf(o.Passages))
	mergeInts(reflect.ValueOf(&c.Scheme).Elem(), reflect.ValueOf(o.Scheme))
	mergeInts(reflect.ValueOf(&c.Web).Elem(), reflect.ValueOf(o.Web))
	mergeInts(reflect.ValueOf(&c.Reuse).Elem(), reflect.ValueOf(o.Reuse))
	mergeInts(reflect.ValueOf(&c.Aliases).Elem(), reflect.ValueOf(o.Aliases))
	mergeInts(reflect.ValueOf(&c.Duplicates).Elem(), reflect.ValueOf(o.Duplicates))
	for n, k := range o.Passages.Lengths {
		c.Passages.addLength(n, k)
	}
	for size, n := range o.ClusterSizes {
		c.AddClusterSize(size, n)
	}
	for name, k := range o.Categories {
		c.AddCategory(name, k.Clusters, k.Sentences)
	}
}

// mergeInts adds the int64 fields of the struct o into those of c.
func mergeInts(c, o reflect.Value) {
	for i := range c.NumField() {
		f := c.Type().Field(i)
		if f.Type.Kind() != reflect.Int64 {
			continue
		}
		a, b := c.Field(i), o.Field(i).Int()
		if strings.HasPrefix(f.Name, "Largest") {
			a.SetInt(max(a.Int(), b))
		} else {
			a.SetInt(a.Int() + b)
		}
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
	if len(c.ClusterSizes) > 0 || len(c.Categories) > 0 || len(c.Passages.Lengths) > 0 {
		return false
	}
	type scalars Counts
	c.ClusterSizes, c.Categories, c.Passages.Lengths = nil, nil, nil
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
