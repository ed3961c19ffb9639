package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWritePairs(t *testing.T) {
	texts := []string{"the cat sat on the mat", "The cat sat on the  mat", "a dog ran in the park", "the cat sat on the hat"}
	ids := []string{"w:1:1:0", "w:1:1:1", "w:2:2:0", "w:3:3:0"}
	sets := shingleSets(texts, 3)
	pairs := exactPairs(sets, 0.6)
	path := filepath.Join(t.TempDir(), "pairs.jsonl")
	if err := writePairs(path, pairs, ids, sets); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":"w:1:1:0","b":"w:1:1:1","jaccard":1}` + "\n" +
		`{"a":"w:1:1:0","b":"w:3:3:0","jaccard":0.7}` + "\n" +
		`{"a":"w:1:1:1","b":"w:3:3:0","jaccard":0.7}` + "\n"
	if string(got) != want {
		t.Errorf("pairs file:\n%s\nwant:\n%s", got, want)
	}
}
