package summary

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/neardup/neardup/io/result"
)

func init() {
	beam.RegisterCoder(reflect.TypeOf(Counts{}), encodeCounts, decodeCounts)
	register.Function2x1(mergeCounts)
	register.Emitter1[Counts]()
	register.DoFn2x1[context.Context, Counts, error](&writeFn{})
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
// (the output of Total), as indented JSON to path.
func Write(s beam.Scope, path string, doc Document, total beam.PCollection) {
	beam.ParDo0(s.Scope("Write summary"), &writeFn{Path: path, Doc: doc}, total)
}

type writeFn struct {
	Path string
	Doc  Document
}

func (f *writeFn) ProcessElement(ctx context.Context, c Counts) error {
	doc := f.Doc
	doc.Counts = c
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return result.WriteBytes(ctx, f.Path, append(b, '\n'))
}
