// Package index holds what the explorer knows of a finished run without
// reading its texts: the run's manifest and summary, and one compact record
// per cluster (kind, size, pages, cohesion, where its line is, and its
// articles as indexes into a table of distinct articles), loaded from the
// run's cluster_index-*.tsv files in parallel. A cluster's members are read
// on demand, with one range read of its line (ReadCluster), so a run of
// millions of clusters starts in a second or two and holds a few hundred
// bytes a cluster. The run's passages (passages-*.jsonl) are read whole at
// start, without their texts, and grouped by document pair.
//
// Load never fails on damaged data it can work around: missing files,
// rows it cannot read and a summary it cannot decode become Warnings, and
// a run written before cluster indexes existed is read by decoding its
// clusters files instead (slower). It fails only when the directory is no
// finished run: no manifest.json, or a manifest that lists no clusters.
package index

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/neardup/neardup/explore/internal/store"
	"github.com/neardup/neardup/transforms/summary"
)

// Run is a finished run, indexed. It is safe for concurrent use: nothing
// changes once Load returns.
type Run struct {
	Store    store.Store
	Manifest summary.Manifest
	Summary  *summary.Document // nil if summary.json could not be read
	Wikis    []Wiki            // from summary.json
	// Warnings say what is missing or damaged, and what the explorer does
	// without it, one sentence each.
	Warnings []string
	// Scanned reports that some clusters files were decoded line by line
	// because their index was missing.
	Scanned bool
	// Report reports that the run has a report.html.
	Report bool
	// LoadTime is how long Load took.
	LoadTime time.Duration

	shards   []shard
	clusters []record
	refs     []uint32 // every cluster's articles, as indexes into arts
	arts     articles
	wikis    []string // interned wiki names, by index
	kinds    []string // interned categories, by index
	rank     []int    // of each wiki's name among the wikis'
	// kindCounts are the clusters and sentences of each category.
	kindCounts []KindCount
	byID       []uint32 // cluster indexes in id order (wiki, page, revision, sentence)
	bySize     []uint32 // cluster indexes by size, largest first, then by id
	ps         passageSet
	texts      *textIndex // the sentence index, built after Load returns
}

// Wiki is what summary.json says of a wiki of the run.
type Wiki struct {
	Name string `json:"wiki"`
	Lang string `json:"lang"`
	Base string `json:"base"` // the URL of its main page, from the dump's <siteinfo>
}

// NotRunError says that a directory is not a finished run.
type NotRunError struct {
	Dir string
	Err error
}

func (e *NotRunError) Error() string {
	return fmt.Sprintf("this run did not finish, or this is not a run directory: %s has no manifest.json (%v)", e.Dir, e.Err)
}

func (e *NotRunError) Unwrap() error { return e.Err }

// Options say how Load reads.
type Options struct {
	// Workers is how many pieces of files are read at once (0: the cores
	// locally, 16 on gs://, where each waits for the network).
	Workers int
	// ChunkBytes is the size of those pieces (0: 8 MiB), so that one large
	// index is read by every worker, not one.
	ChunkBytes int64
	// TextBytes bounds the folded texts of the sentence index, which is
	// built in the background once Load returns (0: 1 GiB; negative: no
	// index, no sentences shown or searched).
	TextBytes int64
}

// Load reads the manifest, the summary and the cluster indexes of the run
// in st.
func Load(ctx context.Context, st store.Store, opts Options) (*Run, error) {
	start := time.Now()
	r := &Run{Store: st}
	b, err := st.ReadFile(ctx, "manifest.json")
	if err != nil {
		if store.IsNotExist(err) {
			return nil, &NotRunError{Dir: st.Dir(), Err: err}
		}
		return nil, fmt.Errorf("reading %s/manifest.json: %w", st.Dir(), err)
	}
	if err := json.Unmarshal(b, &r.Manifest); err != nil {
		return nil, fmt.Errorf("%s/manifest.json is not a run's manifest: %w", st.Dir(), err)
	}
	r.Report = slices.Contains(r.Manifest.Outputs, "report.html")
	r.readSummary(ctx)
	if r.shards, err = shardsOf(r.Manifest); err != nil {
		return nil, fmt.Errorf("%s/manifest.json: %w", st.Dir(), err)
	}
	if err := r.load(ctx, opts); err != nil {
		return nil, err
	}
	if err := r.loadPassages(ctx, cmp.Or(opts.Workers, defaultWorkers(st.Dir()))); err != nil {
		return nil, err
	}
	r.checkCount()
	r.LoadTime = time.Since(start)
	r.buildTexts(ctx, cmp.Or(opts.Workers, defaultWorkers(st.Dir())), cmp.Or(opts.ChunkBytes, chunkBytes), opts.TextBytes)
	return r, nil
}

// readSummary reads summary.json, or says why it cannot.
func (r *Run) readSummary(ctx context.Context) {
	b, err := r.Store.ReadFile(ctx, "summary.json")
	if err != nil {
		r.warnf("summary.json cannot be read (%v): counts by kind and links to the wikis are not shown", err)
		return
	}
	var doc summary.Document
	if err := json.Unmarshal(b, &doc); err != nil {
		r.warnf("summary.json is not a run's summary (%v): counts by kind and links to the wikis are not shown", err)
		return
	}
	r.Summary = &doc
	if len(doc.Wikis) > 0 {
		if err := json.Unmarshal(doc.Wikis, &r.Wikis); err != nil {
			r.warnf("summary.json: its wikis cannot be read (%v): links to the wikis are not shown", err)
		}
	}
}

// checkCount compares the clusters loaded with the summary's count.
func (r *Run) checkCount() {
	if r.Summary == nil || r.Summary.Counts.Clusters == int64(len(r.clusters)) {
		return
	}
	r.warnf("the index lists %d clusters but summary.json counts %d", len(r.clusters), r.Summary.Counts.Clusters)
}

func (r *Run) warnf(format string, args ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

// Len returns the number of clusters.
func (r *Run) Len() int { return len(r.clusters) }

// Articles returns the number of distinct articles with a member in some
// cluster.
func (r *Run) Articles() int { return r.arts.len() }

// Version is the version of the neardup that wrote the run.
func (r *Run) Version() string { return r.Manifest.Version }

// errNoClusters says a manifest lists no clusters file.
var errNoClusters = errors.New("it lists no clusters-*.jsonl file: is this a neardup sentences run?")
