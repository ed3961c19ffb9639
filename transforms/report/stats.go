// Package report writes report.html, the page of a run that a person opens
// first: the run's funnel from pages to clusters, the kinds of duplication
// beside the shares the papers report, the cluster sizes, the clusters'
// cohesion, the banding's collision curve, the article pairs that share the
// most, the passages documents share (the pairs they cover most, with an
// example passage of each of the first, side by side), a few example
// clusters of each kind with their differences marked, and the dead letters
// by reason.
//
// The page is one self-contained file (inline CSS and SVG, no script, no
// request to anywhere) of a bounded size, whatever the run's size: counts
// come from summary.json, and what summary.json does not hold comes from
// Stats, built from the clusters' digest rows (categorize.Digest) without
// decoding their JSON; only the sampled example clusters are decoded. Stats
// merge associatively, so a runner may build them in any number of bundles.
package report

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/hashmix"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/categorize"
)

// CohesionBins is the number of equal bins of [0, 1] of the cohesion
// histograms (a cluster's min Jaccard and max edit).
const CohesionBins = 20

// DefaultExamples is how many clusters of each kind the page shows.
const DefaultExamples = 3

// MaxExamples bounds the clusters of each kind the page may show, so that
// the page stays small.
const MaxExamples = 5

// Stats is what report.html shows that summary.json does not hold: for each
// kind of cluster, its cohesion histograms and a uniform sample of its
// clusters; and the dead letters by reason. The zero Stats is empty and
// samples nothing.
type Stats struct {
	// Examples is how many clusters of each kind are sampled.
	Examples int `json:"examples"`
	// Seed salts the hash that orders clusters for the sample.
	Seed  uint64                 `json:"seed"`
	Kinds map[string]KindStats   `json:"kinds,omitempty"`
	Dead  map[string]DeadReasons `json:"dead,omitempty"`
}

// KindStats are the statistics of the clusters of one kind.
type KindStats struct {
	Clusters   int64     `json:"clusters"`
	Sentences  int64     `json:"sentences"`
	MinJaccard Histogram `json:"min_jaccard"` // of each cluster's lowest edge Jaccard similarity
	MaxEdit    Histogram `json:"max_edit"`    // of each cluster's largest edge edit distance
	// Sample holds the clusters whose SampleHash is least, least first:
	// a bottom-k sample, uniform over the kind's clusters.
	Sample []Example `json:"sample,omitempty"`
}

// Histogram counts values of [0, 1] in CohesionBins equal bins; bin i holds
// [i/n, (i+1)/n), and the last one 1 too.
type Histogram [CohesionBins]int64

// Bin returns the bin of v; values outside [0, 1] go to the nearest end.
func Bin(v float64) int {
	switch {
	case !(v > 0): // 0, negative or NaN
		return 0
	case v >= 1:
		return CohesionBins - 1
	}
	return min(int(v*CohesionBins), CohesionBins-1)
}

// Add counts v.
func (h *Histogram) Add(v float64) { h[Bin(v)]++ }

// Example is a sampled cluster: its line of clusters-*.jsonl.
type Example struct {
	Hash uint64          `json:"hash"`
	ID   string          `json:"id"`
	Line json.RawMessage `json:"line"`
}

// DeadReasons counts the dead letters of one kind of reason (ReasonKind)
// and keeps the first of them, by file and offset.
type DeadReasons struct {
	Count int64               `json:"count"`
	First document.DeadLetter `json:"first"`
}

// NewStats returns empty Stats that sample examples clusters of each kind
// by a hash salted with seed.
func NewStats(examples int, seed uint64) Stats {
	return Stats{Examples: examples, Seed: seed}
}

// SampleHash is the hash that orders clusters for the sample: FNV-1a of the
// cluster's id, salted with seed and mixed by splitmix64. The sample of a
// kind is its clusters of least hash, so it does not depend on the order in
// which clusters are added or Stats merged.
func SampleHash(seed uint64, id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return hashmix.Splitmix64(h.Sum64() ^ hashmix.Splitmix64(seed+hashmix.Gamma))
}

// AddRecord adds a record of categorize.Clusters' lines: result.Record's
// 8-byte key, the cluster's JSON, result.IndexSep and its digest row.
func (s *Stats) AddRecord(rec []byte) error {
	if len(rec) < 8 {
		return fmt.Errorf("report: cluster record of %d bytes", len(rec))
	}
	line := rec[8:]
	i := bytes.IndexByte(line, result.IndexSep)
	if i < 0 {
		return fmt.Errorf("report: cluster line of key %d has no digest row", binary.BigEndian.Uint64(rec))
	}
	d, err := categorize.ParseDigest(line[i+1:])
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	s.AddCluster(d, line[:i])
	return nil
}

// AddCluster counts a cluster by its digest, and samples its JSON line
// (copied if kept).
func (s *Stats) AddCluster(d categorize.Digest, line []byte) {
	if s.Kinds == nil {
		s.Kinds = map[string]KindStats{}
	}
	k := s.Kinds[d.Category]
	k.Clusters++
	k.Sentences += int64(d.Size)
	k.MinJaccard.Add(d.MinJaccard)
	k.MaxEdit.Add(d.MaxEdit)
	if s.Examples > 0 {
		e := Example{Hash: SampleHash(s.Seed, d.ID), ID: d.ID}
		if len(k.Sample) < s.Examples || compareExamples(e, k.Sample[len(k.Sample)-1]) < 0 {
			e.Line = bytes.Clone(line)
			k.Sample = insertExample(k.Sample, e, s.Examples)
		}
	}
	s.Kinds[d.Category] = k
}

func compareExamples(a, b Example) int {
	return cmp.Or(cmp.Compare(a.Hash, b.Hash), strings.Compare(a.ID, b.ID))
}

// insertExample inserts e in the sorted sample and keeps the first n. An
// example already there (the same cluster counted twice) is not repeated.
func insertExample(sample []Example, e Example, n int) []Example {
	i, found := slices.BinarySearchFunc(sample, e, compareExamples)
	if found {
		return sample
	}
	sample = slices.Insert(sample, i, e)
	return sample[:min(len(sample), n)]
}

// AddDeadLetter counts a dead letter under the kind of its reason.
func (s *Stats) AddDeadLetter(d document.DeadLetter) {
	if s.Dead == nil {
		s.Dead = map[string]DeadReasons{}
	}
	kind := ReasonKind(d)
	r, ok := s.Dead[kind]
	if !ok || deadBefore(d, r.First) {
		r.First = d
	}
	r.Count++
	s.Dead[kind] = r
}

func deadBefore(a, b document.DeadLetter) bool {
	return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Offset, b.Offset), strings.Compare(a.Reason, b.Reason)) < 0
}

// Merge adds o to s. Merging is associative and commutative: the counts
// add, each kind's sample keeps the least hashes of both, and each reason
// the first dead letter of both.
func (s *Stats) Merge(o Stats) {
	s.Examples = max(s.Examples, o.Examples)
	if s.Seed == 0 {
		s.Seed = o.Seed
	}
	for name, ok := range o.Kinds {
		if s.Kinds == nil {
			s.Kinds = map[string]KindStats{}
		}
		k := s.Kinds[name]
		k.Clusters += ok.Clusters
		k.Sentences += ok.Sentences
		for i := range CohesionBins {
			k.MinJaccard[i] += ok.MinJaccard[i]
			k.MaxEdit[i] += ok.MaxEdit[i]
		}
		sample := slices.Clone(k.Sample)
		for _, e := range ok.Sample {
			sample = insertExample(sample, e, s.Examples)
		}
		k.Sample = sample
		s.Kinds[name] = k
	}
	for kind, or := range o.Dead {
		if s.Dead == nil {
			s.Dead = map[string]DeadReasons{}
		}
		r, ok := s.Dead[kind]
		if !ok || deadBefore(or.First, r.First) {
			r.First = or.First
		}
		r.Count += or.Count
		s.Dead[kind] = r
	}
}

var (
	quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|«[^»]*»`)
	digits = regexp.MustCompile(`[0-9]+`)
)

// maxReasonKind bounds a reason kind, in runes.
const maxReasonKind = 80

// ReasonKind groups dead letters by reason: the letter's file becomes
// <file>, quoted strings "…" and runs of digits N, and the reason is cut
// where the details of an error begin, at its second ": " or its first " (":
// "truncated: page cut: unexpected EOF" → "truncated: page cut", "page of
// 70000000 bytes, larger than 67108864 bytes" → "page of N bytes, larger
// than N bytes".
func ReasonKind(d document.DeadLetter) string {
	k := d.Reason
	if d.File != "" {
		k = strings.ReplaceAll(k, d.File, "<file>")
	}
	k = quoted.ReplaceAllString(k, `"…"`)
	k = digits.ReplaceAllString(k, "N")
	if i := strings.Index(k, ": "); i >= 0 {
		if j := strings.Index(k[i+2:], ": "); j >= 0 {
			k = k[:i+2+j]
		}
	}
	if i := strings.Index(k, " ("); i >= 0 {
		k = k[:i]
	}
	k = strings.TrimSpace(k)
	if k == "" {
		return "(no reason given)"
	}
	if utf8.RuneCountInString(k) > maxReasonKind {
		k = string([]rune(k)[:maxReasonKind-1]) + "…"
	}
	return k
}
