package summary

import (
	"context"
	"encoding/json"
	"reflect"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/io/result"
)

func init() {
	beam.RegisterCoder(reflect.TypeOf(Counts{}), encodeCounts, decodeCounts)
	register.Function2x1(mergeCounts)
	register.Emitter1[Counts]()
	register.DoFn2x2[context.Context, Counts, Counts, error](&writeFn{})
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
	Version        string          `json:"version"`
	Parameters     json.RawMessage `json:"parameters"`
	CollisionCurve json.RawMessage `json:"collision_curve"`
	Counts         Counts          `json:"counts"`
}

// Write writes doc, with its Counts taken from the single element of total
// (the output of Total), as indented JSON to path. It returns the counts
// again once the file is written, for stages that must come after it.
func Write(s beam.Scope, path string, doc Document, total beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("Write summary"), &writeFn{Path: path, Doc: doc}, total)
}

type writeFn struct {
	Path string
	Doc  Document
}

func (f *writeFn) ProcessElement(ctx context.Context, c Counts) (Counts, error) {
	doc := f.Doc
	doc.Counts = c
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
// PCollection<Counts>, with the final counts.
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
	m.Finished = time.Now().UTC()
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return result.WriteBytes(ctx, f.Path, append(b, '\n'))
}

// Done turns a PCollection of anything into PCollection<Counts> of zero
// counts, so that WriteManifest can wait for it.
func Done(s beam.Scope, col beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("Done"), doneFn, col)
}

func doneFn(int) Counts { return Counts{} }
