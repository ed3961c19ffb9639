package counters

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	beam.RegisterCoder(reflect.TypeOf(Counts{}), encodeCounts, decodeCounts)
	register.Function2x1(mergeCounts)
	register.Emitter1[Counts]()
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
// can be watched while the job runs; the baseline's are named
// baseline_NAME.
func Report(ctx context.Context, c Counts) {
	report(ctx, reflect.ValueOf(c), "")
	report(ctx, reflect.ValueOf(c.Baseline), "baseline_")
	report(ctx, reflect.ValueOf(c.Passages), "passages_")
	report(ctx, reflect.ValueOf(c.Scheme), "scheme_")
	report(ctx, reflect.ValueOf(c.Web), "web_")
	report(ctx, reflect.ValueOf(c.Reuse), "reuse_")
	report(ctx, reflect.ValueOf(c.Aliases), "aliases_")
	report(ctx, reflect.ValueOf(c.Duplicates), "duplicates_")
}

// report adds the int64 fields of the struct v to the counters of their
// JSON names, prefixed.
func report(ctx context.Context, v reflect.Value, prefix string) {
	t := v.Type()
	for i := range t.NumField() {
		f := v.Field(i)
		if f.Kind() != reflect.Int64 || f.Int() == 0 {
			continue
		}
		name := prefix + t.Field(i).Tag.Get("json")
		if strings.HasPrefix(t.Field(i).Name, "Largest") {
			beam.NewDistribution(Namespace, name).Update(ctx, f.Int())
			continue
		}
		beam.NewCounter(Namespace, name).Inc(ctx, f.Int())
	}
}
