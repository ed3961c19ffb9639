package summary

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/top"
	"github.com/neardup/neardup/io/result"
)

func init() {
	beam.RegisterCoder(reflect.TypeOf(Counts{}), encodeCounts, decodeCounts)
	register.Function2x1(mergeCounts)
	register.Emitter1[Counts]()
	register.DoFn4x2[context.Context, int, func(*Counts) bool, func(*[]PairCount) bool, Counts, error](&writeFn{})
	register.Iter1[Counts]()
	register.Iter1[[]PairCount]()
	register.Function2x1(mergePairs)
	register.Function1x2(keyPair)
	register.Function2x1(lessPair)
	register.DoFn2x1[context.Context, Counts, error](&manifestFn{})
	register.Function1x1(doneFn)
}

func encodeCounts(c Counts) ([]byte, error) { return json.Marshal(c) }

func decodeCounts(b []byte) (Counts, error) {
	var c Counts
	err := json.Unmarshal(b, &c)
	return c, err
}

func mergeCounts(a, b Counts) Counts {
	a.Merge(b)
	return a
}

// Total merges every partial Counts of the given PCollections into one.
func Total(s beam.Scope, partials ...beam.PCollection) beam.PCollection {
	s = s.Scope("Total counts")
	return beam.Combine(s, mergeCounts, beam.Flatten(s, partials...))
}

// Namespace is the Beam metrics namespace of the counters.
const Namespace = "neardup"

// Emit reports c to the Beam metrics and emits it, unless nothing was
// counted: DoFns call it when a bundle finishes.
func Emit(ctx context.Context, c Counts, emit func(Counts)) {
	if c.IsZero() {
		return
	}
	Report(ctx, c)
	emit(c)
}

// Report adds c to the Beam metrics counters of the same names, so the counts
// can be watched while the job runs.
func Report(ctx context.Context, c Counts) {
	v := reflect.ValueOf(c)
	t := v.Type()
	for i := range t.NumField() {
		f := v.Field(i)
		if f.Kind() != reflect.Int64 || f.Int() == 0 {
			continue
		}
		name := t.Field(i).Tag.Get("json")
		if t.Field(i).Name == "LargestCluster" || t.Field(i).Name == "LargestBucket" {
			beam.NewDistribution(Namespace, name).Update(ctx, f.Int())
			continue
		}
		beam.NewCounter(Namespace, name).Inc(ctx, f.Int())
	}
}

// Document is the content of summary.json.
type Document struct {
	Version         string          `json:"version"`
	Parameters      json.RawMessage `json:"parameters"`
	CollisionCurve  json.RawMessage `json:"collision_curve"`
	Wikis           json.RawMessage `json:"wikis"`
	Counts          Counts          `json:"counts"`
	TopArticlePairs []PairCount     `json:"top_article_pairs"`
}

// Write writes doc as indented JSON to path, with its Counts taken from the
// single element of total (the output of Total) and its TopArticlePairs
// from the single element, if any, of top (the output of TopPairs). It
// returns the counts again once the file is written, for stages that must
// come after it.
func Write(s beam.Scope, path string, doc Document, total, top beam.PCollection) beam.PCollection {
	s = s.Scope("Write summary")
	joined := beam.CoGroupByKey(s, beam.AddFixedKey(s, total), beam.AddFixedKey(s, top))
	return beam.ParDo(s, &writeFn{Path: path, Doc: doc}, joined)
}

type writeFn struct {
	Path string
	Doc  Document
}

func (f *writeFn) ProcessElement(ctx context.Context, _ int, totals func(*Counts) bool, tops func(*[]PairCount) bool) (Counts, error) {
	doc := f.Doc
	var c Counts
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
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return c, err
	}
	return c, result.WriteBytes(ctx, f.Path, append(b, '\n'))
}

// Manifest is the content of a run's manifest.json, written last: a run
// directory without one did not finish.
type Manifest struct {
	RunID      string          `json:"run_id"`
	Version    string          `json:"version"`
	Commit     string          `json:"commit"`
	Parameters json.RawMessage `json:"parameters"`
	Inputs     []Input         `json:"inputs"`
	Outputs    []string        `json:"outputs"`
	Started    time.Time       `json:"started"`
	Finished   time.Time       `json:"finished"`
	Counts     Counts          `json:"counts"`
}

// Input is an input file and its size in bytes.
type Input struct {
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
}

// WriteManifest writes m to path once every PCollection in after has
// produced all its elements: it waits for them by merging them, as
// PCollection<Counts>, with the final counts. Just before, it removes from
// the manifest's directory every file that m.Outputs does not list (a shard
// of an earlier attempt, a temporary file of a killed one; see
// result.Clean), so that the directory holds exactly what the manifest
// lists.
func WriteManifest(s beam.Scope, path string, m Manifest, after ...beam.PCollection) {
	s = s.Scope("Write manifest")
	beam.ParDo0(s, &manifestFn{Path: path, Manifest: m}, Total(s, after...))
}

type manifestFn struct {
	Path     string
	Manifest Manifest
}

func (f *manifestFn) ProcessElement(ctx context.Context, c Counts) error {
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
	removed, err := result.Clean(ctx, manifest[:i], outputs)
	if err != nil {
		return fmt.Errorf("cleaning the run directory before writing %s: %w", manifest, err)
	}
	for _, r := range removed {
		log.Infof(ctx, "removed %s: not an output of this run", r)
	}
	return nil
}

// Done turns a PCollection of anything into PCollection<Counts> of zero
// counts, so that WriteManifest can wait for it.
func Done(s beam.Scope, col beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("Done"), doneFn, col)
}

func doneFn(int) Counts { return Counts{} }

// PairCount is a pair of pages and the number of clusters (near-duplicate
// sentences) they share: a row of the papers' "article pairs" table.
type PairCount struct {
	WikiA    string `json:"wiki_a"`
	PageA    int64  `json:"page_a"`
	WikiB    string `json:"wiki_b"`
	PageB    int64  `json:"page_b"`
	TitleA   string `json:"title_a"`
	TitleB   string `json:"title_b"`
	Clusters int64  `json:"shared_clusters"`
}

// TopPairs sums PCollection<PairCount> by pair of pages and returns
// PCollection<[]PairCount>: the n pairs sharing the most clusters, most
// first, ties by page ids.
func TopPairs(s beam.Scope, pairs beam.PCollection, n int) beam.PCollection {
	s = s.Scope("Top article pairs")
	summed := beam.DropKey(s, beam.CombinePerKey(s, mergePairs, beam.ParDo(s, keyPair, pairs)))
	return top.Largest(s, summed, n, lessPair)
}

func keyPair(p PairCount) (string, PairCount) {
	return fmt.Sprintf("%s:%d %s:%d", p.WikiA, p.PageA, p.WikiB, p.PageB), p
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
