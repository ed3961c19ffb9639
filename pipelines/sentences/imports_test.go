package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// stages are the pipeline's packages in the order Build composes them (the
// README's diagram), each after the pure logic it wraps. A package may
// import only those before it, so that a stage can be reused by a new
// pipeline without the stages that follow it. internal/ and io/result,
// plumbing every stage may use, are not listed.
var stages = []string{
	"io/dump", "io/multistream",
	"transforms/wikitext", "transforms/clean",
	"transforms/sentence",
	"transforms/shingle", "transforms/minhash", "transforms/dedupe",
	"transforms/bucket",
	"transforms/verify",
	"transforms/component",
	"transforms/cluster",
	"transforms/sectionkind",
	"transforms/categorize",
	"transforms/summary",
	"transforms/report",
}

// TestImportsPointUpstream checks that no stage imports a later one.
func TestImportsPointUpstream(t *testing.T) {
	const module = "github.com/neardup/neardup/"
	for i, stage := range stages {
		dir := filepath.Join("..", "..", stage)
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v): is the stage list out of date?", stage, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range parsed.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				dep, ok := strings.CutPrefix(path, module)
				if !ok {
					continue
				}
				if j := slices.Index(stages, dep); j >= i {
					t.Errorf("%s imports %s, which comes after it", f, dep)
				}
			}
		}
	}
}
