package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/testkit/testshared"
)

// TestSpilledShuffles runs the pipeline with its shuffles spilled to disk
// (--spill_dir, the default with the workers in this process) and in
// memory: every output byte must be the same, the batches must have gone
// through the spill directory, and nothing may be left in it. The input
// holds the same dump twice, under two names, and a non-English dump.
func TestSpilledShuffles(t *testing.T) {
	katrina, err := os.ReadFile("../../testdata/katrina/katrina-slice.xml")
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(t.TempDir(), "katrina-again.xml")
	if err := os.WriteFile(again, katrina, 0o644); err != nil {
		t.Fatal(err)
	}
	in := []string{"../../testdata/katrina/katrina-slice.xml", again, "../../testdata/sample/simplewiki-sample.xml"}
	if _, err := os.Stat(filepath.Join("..", "..", "..", "shared", "data")); err == nil {
		in = append(in, testshared.Data(t, "xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz"))
	}
	mem := testOptions(t, t.TempDir(), in...)
	mem.EmitSentences, mem.EmitEdges, mem.PassageText = true, true, true
	inMemory := run(t, mem)

	spilled := mem
	spilled.Output = t.TempDir()
	dir := t.TempDir()
	s, err := shuffle.SpillTo(dir, "neardup-test")
	if err != nil {
		t.Fatal(err)
	}
	files := run(t, spilled)
	stats := s.Stats()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var kinds int
	for _, k := range stats {
		if k.Bytes > 0 {
			kinds++
		}
	}
	if kinds < 10 {
		t.Errorf("%d kinds of batch spilled (%+v), want every shuffle's", kinds, stats)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("the spill directory holds %d entries after Close", len(left))
	}
	for name, want := range inMemory {
		if name == "manifest.json" {
			continue // it has times
		}
		if !bytes.Equal(files[name], want) {
			t.Errorf("%s differs between spilled and in-memory shuffles", name)
		}
	}
	if len(files) != len(inMemory) {
		t.Errorf("%d files spilled vs %d in memory", len(files), len(inMemory))
	}
	if c := readSummary(t, files); c.Clusters == 0 || c.PagesDuplicate == 0 {
		t.Errorf("clusters %d, duplicate pages %d: the test proves nothing", c.Clusters, c.PagesDuplicate)
	}
}
