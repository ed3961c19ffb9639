// Package duckdbtest runs SQL in a real DuckDB for tests, so that files the
// pipeline writes for other engines (Parquet) are checked by one of them,
// not only by the library that wrote them.
//
// DuckDB is the npm package @duckdb/node-api, locked in tools/duckdb and
// installed by
//
//	npm ci --prefix tools/duckdb
//
// and driven by tools/duckdb/query.mjs under node. A test that calls Query
// is skipped, saying why, when node or that installation is missing.
package duckdbtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Query runs sql in a new in-memory DuckDB and returns its rows. Values are
// as JSON decodes them, except numbers: an integral number is an int64 (a
// DOUBLE of 2.0 too), any other a float64; integers beyond 2^53 come as
// decimal strings. NULL is nil, a list []any and a struct map[string]any.
// A failing query fails tb with DuckDB's message.
func Query(tb testing.TB, sql string) [][]any {
	tb.Helper()
	script, reason := locate()
	if reason != "" {
		tb.Skip("DuckDB unavailable: " + reason)
	}
	rows, err := run(tb, script, sql)
	if err != nil {
		tb.Fatalf("duckdb: %v", err)
	}
	return rows
}

// locate returns the path of query.mjs, or why DuckDB cannot run.
func locate() (script, reason string) {
	root, err := repoRoot()
	if err != nil {
		return "", err.Error()
	}
	if _, err := exec.LookPath("node"); err != nil {
		return "", "node is not on PATH"
	}
	if _, err := os.Stat(filepath.Join(root, "tools", "duckdb", "node_modules", "@duckdb", "node-api")); err != nil {
		return "", "tools/duckdb/node_modules/@duckdb/node-api is missing (run: npm ci --prefix tools/duckdb)"
	}
	return filepath.Join(root, "tools", "duckdb", "query.mjs"), ""
}

// repoRoot returns the nearest directory at or above the working directory
// (a test's package directory) that holds tools/duckdb/query.mjs.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "tools", "duckdb", "query.mjs")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no tools/duckdb/query.mjs above the working directory")
		}
		dir = parent
	}
}

// run runs sql with query.mjs and decodes its JSON lines.
func run(tb testing.TB, script, sql string) ([][]any, error) {
	cmd := exec.CommandContext(tb.Context(), "node", script, sql)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v: %s", sql, err, bytes.TrimSpace(stderr.Bytes()))
	}
	rows, err := decodeRows(&stdout)
	if err != nil {
		return nil, fmt.Errorf("%s: reading the output of %s: %w", sql, script, err)
	}
	return rows, nil
}

// decodeRows decodes a JSON array per line.
func decodeRows(r io.Reader) ([][]any, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var rows [][]any
	for n := 1; ; n++ {
		var row []any
		err := dec.Decode(&row)
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", n, err)
		}
		for i, v := range row {
			row[i] = numbers(v)
		}
		rows = append(rows, row)
	}
}

// numbers replaces the json.Numbers in v by int64 or float64.
func numbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64() // JSON numbers are valid floats, if inexact
		return f
	case []any:
		for i, e := range v {
			v[i] = numbers(e)
		}
	case map[string]any:
		for k, e := range v {
			v[k] = numbers(e)
		}
	}
	return v
}
