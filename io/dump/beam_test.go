package dump

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/neardup/neardup/transforms/summary"
)

// readOnce runs the read DoFn over one file as a runner would for one
// bundle, and returns everything it emitted.
func readOnce(t *testing.T, fn *readFn, file string) ([]Page, []DeadLetter, []summary.Counts) {
	t.Helper()
	var pages []Page
	var dead []DeadLetter
	var counts []summary.Counts
	emitPage := func(p Page) { pages = append(pages, p) }
	emitDead := func(d DeadLetter) { dead = append(dead, d) }
	emitCounts := func(c summary.Counts) { counts = append(counts, c) }
	ctx := context.Background()
	fn.StartBundle(ctx, emitPage, emitDead, emitCounts)
	if err := fn.ProcessElement(ctx, file, emitPage, emitDead, emitCounts); err != nil {
		t.Fatal(err)
	}
	fn.FinishBundle(ctx, emitPage, emitDead, emitCounts)
	return pages, dead, counts
}

// TestReadIsRetrySafe re-processes the same bundle with the same DoFn
// instance, as Dataflow and Flink do after a failure: the outputs must be
// identical and the counts must not accumulate across attempts.
func TestReadIsRetrySafe(t *testing.T) {
	file := filepath.Join(sharedData(t), "zxmeng-wikidump", "wikidump.part.xml.bz2")
	fn := &readFn{Namespaces: []int{0}}
	p1, d1, c1 := readOnce(t, fn, file)
	p2, d2, c2 := readOnce(t, fn, file)
	if len(p1) == 0 || len(d1) == 0 {
		t.Fatalf("read %d pages and %d dead letters: the test proves nothing", len(p1), len(d1))
	}
	if !reflect.DeepEqual(p1, p2) || !reflect.DeepEqual(d1, d2) || !reflect.DeepEqual(c1, c2) {
		t.Error("a retried bundle emitted different elements or counts")
	}
}
