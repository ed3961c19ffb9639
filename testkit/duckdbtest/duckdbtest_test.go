package duckdbtest

import (
	"reflect"
	"strings"
	"testing"
)

func TestQuery(t *testing.T) {
	tests := []struct {
		name string
		sql  string
		want [][]any
	}{
		{"no rows", "SELECT 1 WHERE false", nil},
		{"integers", "SELECT 42::INTEGER, count(*) FROM range(3)", [][]any{{int64(42), int64(3)}}},
		{"beyond 2^53", "SELECT 9007199254740993::HUGEINT, -9007199254740993::BIGINT",
			[][]any{{"9007199254740993", "-9007199254740993"}}},
		{"floats", "SELECT 0.5::DOUBLE, 2.0::DOUBLE", [][]any{{0.5, int64(2)}}},
		{"strings", "SELECT 'Zürich — 東京 🦫', ''", [][]any{{"Zürich — 東京 🦫", ""}}},
		{"null", "SELECT NULL", [][]any{{nil}}},
		{"nested", "SELECT [1, 2]::BIGINT[], {'a': 'x', 'b': 3}",
			[][]any{{[]any{int64(1), int64(2)}, map[string]any{"a": "x", "b": int64(3)}}}},
		{"several rows", "SELECT i, 'r' || i FROM range(3) t(i) ORDER BY i",
			[][]any{{int64(0), "r0"}, {int64(1), "r1"}, {int64(2), "r2"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Query(t, tt.sql)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Query(%q) = %#v, want %#v", tt.sql, got, tt.want)
			}
		})
	}
}

func TestQueryError(t *testing.T) {
	script, reason := locate()
	if reason != "" {
		t.Skip("DuckDB unavailable: " + reason)
	}
	_, err := run(t, script, "SELECT * FROM no_such_table")
	if err == nil || !strings.Contains(err.Error(), "no_such_table") {
		t.Errorf("run on a missing table: error %v, want DuckDB's message naming the table", err)
	}
}

func TestDecodeRows(t *testing.T) {
	tests := []struct {
		name, in string
		want     [][]any
		wantErr  string
	}{
		{name: "empty", in: ""},
		{name: "values", in: "[1,-2.5,\"s\",null,true]\n[[3],{\"k\":4}]\n",
			want: [][]any{{int64(1), -2.5, "s", nil, true}, {[]any{int64(3)}, map[string]any{"k": int64(4)}}}},
		{name: "not an array", in: "[1]\n{\"a\":1}\n", wantErr: "row 2"},
		{name: "truncated", in: "[1,", wantErr: "row 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeRows(strings.NewReader(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("decodeRows(%q): error %v, want one containing %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("decodeRows(%q): %v", tt.in, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decodeRows(%q) = %#v, want %#v", tt.in, got, tt.want)
			}
		})
	}
}
