package summary

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/neardup/neardup/transforms/cluster"
	"github.com/neardup/neardup/transforms/passage"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/internal/shuffle"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/top"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/io/rundir"
)

func init() {
	register.DoFn7x2[context.Context, int, func(*counters.Counts) bool, func(*[]PairCount) bool, func(*[]DocPair) bool, func(*[]byte) bool, func([]byte), counters.Counts, error](&writeFn{})
	register.Iter1[[]byte]()
	register.Emitter1[[]byte]()
	register.Iter1[counters.Counts]()
	register.Iter1[[]PairCount]()
	register.Iter1[[]DocPair]()
	register.DoFn3x1[int, func(*[]byte) bool, func(PairCount), error](&shardTopFn{})
	register.Emitter1[PairCount]()
	register.Function2x1(lessPair)
	register.DoFn2x1[context.Context, counters.Counts, error](&manifestFn{})
	register.Function1x1(doneFn)
}

// Document is the content of summary.json.
type Document struct {
	Version         string          `json:"version"`
	Parameters      json.RawMessage `json:"parameters"`
	CollisionCurve  json.RawMessage `json:"collision_curve,omitempty"`
	Wikis           json.RawMessage `json:"wikis"`
	Counts          counters.Counts `json:"counts"`
	TopArticlePairs []PairCount     `json:"top_article_pairs"`
	// NearDuplicates are the document pairs that share the most in
	// passages (passage.TopDocPairs).
	NearDuplicates []DocPair `json:"near_duplicate_documents"`
	// Reuse is the reuse pipeline's summary of the reuse between web
	// pages and Wikipedia articles (reuse.Summary); absent from the
	// sentence pipeline's.
	Reuse json.RawMessage `json:"reuse,omitempty"`
}

// DocPair is passage.DocPair: a row of the near-duplicate documents.
type DocPair = passage.DocPair

// Write writes doc as indented JSON to path, with its Counts taken from the
// single element of total (the output of counters.Total), its TopArticlePairs
// from the single element, if any, of top (the output of TopPairs) and its
// NearDuplicates from that of docPairs (passage.TopDocPairs). Once the
// file is written it returns the counts again (done), for stages that must
// come after it, and the file's bytes (file, PCollection<[]byte>), for
// stages that read the final document (the report).
func Write(s beam.Scope, path string, doc Document, total, top, docPairs beam.PCollection) (done, file beam.PCollection) {
	return WriteWithReuse(s, path, doc, total, top, docPairs, beam.CreateList(s, [][]byte{}))
}

// WriteWithReuse is Write with the document's Reuse taken from the single
// element, if any, of reuse (PCollection<[]byte>, a JSON object).
func WriteWithReuse(s beam.Scope, path string, doc Document, total, top, docPairs, reuse beam.PCollection) (done, file beam.PCollection) {
	s = s.Scope("Write summary")
	joined := beam.CoGroupByKey(s, beam.AddFixedKey(s, total), beam.AddFixedKey(s, top), beam.AddFixedKey(s, docPairs), beam.AddFixedKey(s, reuse))
	return beam.ParDo2(s, &writeFn{Path: path, Doc: doc}, joined)
}

type writeFn struct {
	Path string
	Doc  Document
}

func (f *writeFn) ProcessElement(ctx context.Context, _ int, totals func(*counters.Counts) bool, tops func(*[]PairCount) bool, docPairs func(*[]DocPair) bool, reuse func(*[]byte) bool, emitFile func([]byte)) (counters.Counts, error) {
	doc := f.Doc
	var c counters.Counts
	for totals(&c) {
		doc.Counts = c
	}
	var top []PairCount
	for tops(&top) {
		doc.TopArticlePairs = top
	}
	if doc.TopArticlePairs == nil {
		doc.TopArticlePairs = []PairCount{}
	}
	var near []DocPair
	for docPairs(&near) {
		doc.NearDuplicates = near
	}
	if doc.NearDuplicates == nil {
		doc.NearDuplicates = []DocPair{}
	}
	var r []byte
	for reuse(&r) {
		doc.Reuse = r
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return c, err
	}
	b = append(b, '\n')
	if err := result.WriteBytes(ctx, f.Path, b); err != nil {
		return c, err
	}
	emitFile(b)
	return c, nil
}

// Manifest is the content of a run's manifest.json, written last: a run
// directory without one did not finish.
type Manifest struct {
	RunID      string           `json:"run_id"`
	Version    string           `json:"version"`
	Commit     string           `json:"commit"`
	Parameters json.RawMessage  `json:"parameters"`
	Inputs     []document.Input `json:"inputs"`
	Outputs    []string         `json:"outputs"`
	Started    time.Time        `json:"started"`
	Finished   time.Time        `json:"finished"`
	Counts     counters.Counts  `json:"counts"`
}

// WriteManifest writes m to path once every PCollection in after has
// produced all its elements: it waits for them by merging them, as
// PCollection<counters.Counts>, with the final counts. Just before, it removes from
// the manifest's directory every file that m.Outputs does not list (a shard
// of an earlier attempt, a temporary file of a killed one; see
// rundir.Clean), so that the directory holds exactly what the manifest
// lists.
func WriteManifest(s beam.Scope, path string, m Manifest, after ...beam.PCollection) {
	s = s.Scope("Write manifest")
	beam.ParDo0(s, &manifestFn{Path: path, Manifest: m}, counters.Total(s, after...))
}

type manifestFn struct {
	Path     string
	Manifest Manifest
}

func (f *manifestFn) ProcessElement(ctx context.Context, c counters.Counts) error {
	m := f.Manifest
	m.Counts = c
	if err := cleanRunDir(ctx, f.Path, m.Outputs); err != nil {
		return err
	}
	m.Finished = time.Now().UTC()
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return result.WriteBytes(ctx, f.Path, append(b, '\n'))
}

// cleanRunDir removes the files of the manifest's directory that outputs
// does not list. Outputs that do not list the manifest itself are no list of
// the directory, and nothing is removed.
func cleanRunDir(ctx context.Context, manifest string, outputs []string) error {
	i := strings.LastIndex(manifest, "/")
	if i < 0 || !slices.Contains(outputs, manifest[i+1:]) {
		return nil
	}
	removed, err := rundir.Clean(ctx, manifest[:i], outputs)
	if err != nil {
		return fmt.Errorf("cleaning the run directory before writing %s: %w", manifest, err)
	}
	for _, r := range removed {
		log.Infof(ctx, "removed %s: not an output of this run", r)
	}
	return nil
}

// Done turns a PCollection of anything into PCollection<counters.Counts> of zero
// counts, so that WriteManifest can wait for it.
func Done(s beam.Scope, col beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("Done"), doneFn, col)
}

func doneFn(int) counters.Counts { return counters.Counts{} }

// PairCount is cluster.PairCount: a row of the top article pairs.
type PairCount = cluster.PairCount

// TopPairs sums the page pair counts (shuffle.KindPagePairs batches keyed
// by the pair's shard, cluster.Assemble's) by pair of pages and returns
// PCollection<[]PairCount>: the n pairs sharing the most clusters, most
// first, ties by page ids. Each shard keeps its n largest sums, so that
// only n per shard reach the one worker that picks the n largest of all.
func TopPairs(s beam.Scope, pairs shuffle.PagePairs, n int) beam.PCollection {
	s = s.Scope("Top article pairs")
	tops := beam.ParDo(s, &shardTopFn{N: n}, beam.GroupByKey(s, pairs.Raw()))
	return top.Largest(s, tops, n, lessPair)
}

// shardTopFn sums one shard's page pair counts and emits its n largest.
type shardTopFn struct{ N int }

func (f *shardTopFn) ProcessElement(shard int, batches func(*[]byte) bool, emit func(PairCount)) error {
	sums := map[pairKey]PairCount{}
	var b []byte
	for batches(&b) {
		err := shuffle.KindPagePairs.Records(b, func(rec []byte) error {
			var p cluster.PairCount
			if err := p.UnmarshalBinary(rec); err != nil {
				return err
			}
			k := pairKey{p.WikiA, p.PageA, p.WikiB, p.PageB}
			if q, ok := sums[k]; ok {
				p = mergePairs(q, p)
			}
			sums[k] = p
			return nil
		})
		if err != nil {
			return fmt.Errorf("summary: page pairs of shard %d: %w", shard, err)
		}
	}
	all := slices.Collect(maps.Values(sums))
	slices.SortFunc(all, func(a, b PairCount) int {
		if lessPair(b, a) {
			return -1
		}
		if lessPair(a, b) {
			return 1
		}
		return 0
	})
	for _, p := range all[:min(len(all), f.N)] {
		emit(p)
	}
	return nil
}

// pairKey identifies a pair of pages.
type pairKey struct {
	wikiA string
	pageA int64
	wikiB string
	pageB int64
}

func mergePairs(a, b PairCount) PairCount {
	a.Clusters += b.Clusters
	return a
}

// lessPair orders pairs by shared clusters, then by reversed wikis and page
// ids, so that the largest come first and ties list lower ids first.
func lessPair(a, b PairCount) bool {
	if c := cmp.Or(cmp.Compare(a.Clusters, b.Clusters), cmp.Compare(b.WikiA, a.WikiA), cmp.Compare(b.PageA, a.PageA),
		cmp.Compare(b.WikiB, a.WikiB)); c != 0 {
		return c < 0
	}
	return a.PageB > b.PageB
}
