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
// diagram in docs/architecture.md), each after the pure logic it wraps. A package may
// import only those before it, so that a stage can be reused by a new
// pipeline without the stages that follow it. internal/ and io/result,
// plumbing every stage may use, are not listed.
var stages = []string{
	"io/dump", "io/multistream",
	"transforms/wikitext", "transforms/clean",
	"transforms/sentence",
	"transforms/shingle", "transforms/minhash", "transforms/rereads",
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

// floors are the layers of the repository, from the ground up: the
// foundation (internal/: shuffling, counting, ordering), the document
// model (io/document), the readers and writers (io/), the stages
// (transforms/), and the commands, the benchmark and the test kits. A
// package imports only packages of its own floor or below; only tests and
// the benchmark import the test kits (testkit/).
var floors = []string{"internal/", "io/document", "io/", "transforms/", ""}

// floorOf returns the floor of a package path relative to the module.
func floorOf(pkg string) int {
	return slices.IndexFunc(floors, func(prefix string) bool { return strings.HasPrefix(pkg, prefix) })
}

// TestFloors checks every package's imports against the floors (docs/architecture.md).
func TestFloors(t *testing.T) {
	const module = "github.com/neardup/neardup/"
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if base := d.Name(); rel != "." && (strings.HasPrefix(base, ".") || base == "testdata" || base == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		parsed, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range parsed.Imports {
			dep, ok := strings.CutPrefix(strings.Trim(imp.Path.Value, `"`), module)
			switch {
			case !ok:
			case floorOf(dep) > floorOf(pkg):
				t.Errorf("%s imports %s, a floor above its own", rel, dep)
			case strings.HasPrefix(dep, "testkit/") && !strings.HasPrefix(pkg, "testkit/") && !strings.HasPrefix(pkg, "bench/"):
				t.Errorf("%s imports the test kit %s", rel, dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 200 {
		t.Fatalf("checked %d files: is the walk rooted at the repository?", checked)
	}
}
