package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"reflect"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/cluster"
	"github.com/neardup/neardup/transforms/sentence"
)

func init() {
	register.Function1x2(cleanPageJSON)
	register.Function1x2(sentencePageJSON)
	register.Function1x2(clusterJSON)
}

// Beam names a function by its symbol, which generic instances share: one
// named function per type.
func cleanPageJSON(v clean.Page) (string, error)       { return jsonOf(v) }
func sentencePageJSON(v sentence.Page) (string, error) { return jsonOf(v) }
func clusterJSON(v cluster.Cluster) (string, error)    { return jsonOf(v) }

func jsonOf(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// TestStageValuesSurviveEncoding sends the Go values that fused stages pass
// each other (clean.Page, sentence.Page, cluster.Cluster) through a
// Reshuffle, where the runner must encode them with the coders Beam infers,
// as a runner that does not fuse those stages would: each must come out
// equal, field for field. Real pages of the Katrina export, with sections,
// list and reference contexts, and a cluster built of their sentences.
func TestStageValuesSurviveEncoding(t *testing.T) {
	f, err := os.Open(testshared.Katrina(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := dump.NewReader(f, "Katrina.xml", dump.Options{})
	var cleaner clean.Cleaner
	var splitter sentence.Splitter
	var cleaned []clean.Page
	var split []sentence.Page
	for len(cleaned) < 12 {
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		p.Wiki = "enwiki"
		cp, err := cleaner.Clean(p)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := splitter.Split(cp)
		if err != nil {
			t.Fatal(err)
		}
		cleaned, split = append(cleaned, cp), append(split, sp)
	}
	var sections, contexts int
	for _, cp := range cleaned {
		for _, para := range cp.Paragraphs {
			if para.Section != "" {
				sections++
			}
			if para.Context != 0 {
				contexts++
			}
		}
	}
	if sections == 0 || contexts == 0 {
		t.Fatalf("%d paragraphs in sections, %d not prose: the pages prove little", sections, contexts)
	}
	var members []sentence.Sentence
	for _, p := range split[:3] {
		members = append(members, p.Sentences[:min(len(p.Sentences), 4)]...)
	}
	c, _ := cluster.Build(members, nil, 5)
	c.Root = uint64(members[0].ID)

	p, s := beam.NewPipelineWithRoot()
	check(t, s, cleaned, cleanPageJSON)
	check(t, s, split, sentencePageJSON)
	check(t, s, []cluster.Cluster{c}, clusterJSON)
	ptest.RunAndValidate(t, p)
}

// check adds to s the round trip of values through a Reshuffle and the
// assertion that they come out as they went in.
func check[T any](t *testing.T, s beam.Scope, values []T, toJSON func(T) (string, error)) {
	t.Helper()
	var want []any
	for _, v := range values {
		j, err := jsonOf(v)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, j)
	}
	s = s.Scope(reflect.TypeFor[T]().String())
	out := beam.ParDo(s, toJSON, beam.Reshuffle(s, beam.CreateList(s, values)))
	passert.Equals(s, out, want...)
}
