package parquetfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestBigQuerySchemas checks that the BigQuery schemas of deploy/bigquery
// list the columns of the files the writers make, in their order and with
// their types, so that neither drifts from the other.
func TestBigQuerySchemas(t *testing.T) {
	tests := []struct {
		schema string
		file   []byte
	}{
		{"clusters.schema.json", write(t, writeClusters, nil)},
		{"sentences.schema.json", write(t, writeSentences, nil)},
		{"passages.schema.json", write(t, writePassages, nil)},
	}
	for _, tt := range tests {
		t.Run(tt.schema, func(t *testing.T) {
			path := filepath.Join("..", "..", "deploy", "bigquery", tt.schema)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var fields []struct {
				Name, Type, Mode, Description string
			}
			if err := json.Unmarshal(b, &fields); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			var got []column
			for _, f := range fields {
				got = append(got, column{f.Name, f.Type})
				if f.Mode != "REQUIRED" || f.Description == "" {
					t.Errorf("%s: field %s: mode %q, description %q; want REQUIRED (no column is null) and a description",
						path, f.Name, f.Mode, f.Description)
				}
			}
			if want := columnsOf(t, tt.file); !slices.Equal(got, want) {
				t.Errorf("%s lists\n%v\nthe files have\n%v", path, got, want)
			}
		})
	}
}
