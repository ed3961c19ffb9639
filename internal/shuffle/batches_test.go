package shuffle

import (
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// TestMakeChecksTheCollection checks that a kind's Make function takes a
// PCollection<KV<int, []byte>> and refuses any other, naming the kind and
// the type it was given.
func TestMakeChecksTheCollection(t *testing.T) {
	_, s := beam.NewPipelineWithRoot()
	batches := beam.ParDo(s, func(b []byte) (int, []byte) { return 0, b }, beam.Create(s, []byte{byte(KindLines)}))
	if got := MakeLines(batches).Raw(); got != batches {
		t.Errorf("MakeLines(c).Raw() = %v, want c", got)
	}
	for _, c := range []struct {
		name string
		col  beam.PCollection
		want string
	}{
		{"strings", beam.Create(s, "a"), "a PCollection of string, want KV<int,[]uint8>"},
		{"bytes", beam.Create(s, []byte("a")), "a PCollection of []uint8"},
		{"string keys", beam.ParDo(s, func(b []byte) (string, []byte) { return "", b }, beam.Create(s, []byte("a"))), "a PCollection of KV<string,[]uint8>"},
		{"int values", beam.ParDo(s, func(b []byte) (int, int) { return 0, len(b) }, beam.Create(s, []byte("a"))), "a PCollection of KV<int,int>"},
		{"invalid", beam.PCollection{}, "invalid PCollection"},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				msg, _ := recover().(string)
				if !strings.HasPrefix(msg, "shuffle: output lines batches: ") || !strings.Contains(msg, c.want) {
					t.Errorf("MakeLines panicked with %q, want one naming output lines and %q", msg, c.want)
				}
			}()
			MakeLines(c.col)
		})
	}
}

// TestMakeNamesItsKind checks that every kind's Make function keeps a
// collection of batches and, given another type, names its own kind.
func TestMakeNamesItsKind(t *testing.T) {
	_, s := beam.NewPipelineWithRoot()
	batches := beam.ParDo(s, func(b []byte) (int, []byte) { return 0, b }, beam.Create(s, []byte{0}))
	strs := beam.Create(s, "a")
	for _, c := range []struct {
		kind Kind
		make func(beam.PCollection) beam.PCollection
	}{
		{KindEntries, func(c beam.PCollection) beam.PCollection { return MakeEntries(c).Raw() }},
		{KindSentences, func(c beam.PCollection) beam.PCollection { return MakeSentences(c).Raw() }},
		{KindPageInfos, func(c beam.PCollection) beam.PCollection { return MakePageInfos(c).Raw() }},
		{KindCandidates, func(c beam.PCollection) beam.PCollection { return MakeCandidates(c).Raw() }},
		{KindEdges, func(c beam.PCollection) beam.PCollection { return MakeEdges(c).Raw() }},
		{KindSimilarities, func(c beam.PCollection) beam.PCollection { return MakeSimilarities(c).Raw() }},
		{KindLabels, func(c beam.PCollection) beam.PCollection { return MakeLabels(c).Raw() }},
		{KindLines, func(c beam.PCollection) beam.PCollection { return MakeLines(c).Raw() }},
		{KindPagePairs, func(c beam.PCollection) beam.PCollection { return MakePagePairs(c).Raw() }},
	} {
		t.Run(c.kind.String(), func(t *testing.T) {
			if got := c.make(batches); got != batches {
				t.Errorf("Make(c).Raw() = %v, want c", got)
			}
			defer func() {
				msg, _ := recover().(string)
				if want := "shuffle: " + c.kind.String() + " batches: a PCollection of string"; !strings.HasPrefix(msg, want) {
					t.Errorf("Make of strings panicked with %q, want %q", msg, want)
				}
			}()
			c.make(strs)
		})
	}
}
