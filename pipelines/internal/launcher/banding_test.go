package launcher

import (
	"fmt"
	"math"
	"testing"
)

// TestBanding checks the banding both pipelines check and choose: every
// kind of bad value with its exact message, the flags a banding by hand
// leaves nothing to do, and the banding chosen.
func TestBanding(t *testing.T) {
	valid := Banding{Threshold: 0.8, Recall: 0.99, MaxBands: 20}
	given := func(names ...string) map[string]bool {
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	for _, tt := range []struct {
		name  string
		edit  func(*Banding)
		given map[string]bool
		want  string
	}{
		{"defaults", func(*Banding) {}, nil, ""},
		{"by hand", func(b *Banding) { b.Bands, b.Rows = 20, 5 }, given("bands", "rows", "seed"), ""},
		{"negative bands", func(b *Banding) { b.Bands, b.Rows = -1, 5 }, nil, "--bands and --rows must be at least 0 (0: chosen from --threshold), got -1 and 5"},
		{"bands without rows", func(b *Banding) { b.Bands = 3 }, nil, "give both --bands and --rows, or neither, got --bands 3 --rows 0"},
		{"rows without bands", func(b *Banding) { b.Rows = 3 }, nil, "give both --bands and --rows, or neither, got --bands 0 --rows 3"},
		{"too many bins", func(b *Banding) { b.Bands, b.Rows = 100, 100 }, nil, "--bands × --rows must be at most 4096, got 100 × 100"},
		{"overflowing bins", func(b *Banding) { b.Bands, b.Rows = math.MaxInt32, math.MaxInt32 }, nil, "--bands × --rows must be at most 4096, got 2147483647 × 2147483647"},
		{"by hand and threshold", func(b *Banding) { b.Bands, b.Rows = 20, 5 }, given("bands", "rows", "threshold"), "--bands and --rows set the banding by hand: --threshold does not apply"},
		{"by hand and three", func(b *Banding) { b.Bands, b.Rows = 20, 5 }, given("rows", "max_bands", "recall", "threshold"), "--bands and --rows set the banding by hand: --threshold, --recall, --max_bands do not apply"},
		{"threshold NaN", func(b *Banding) { b.Threshold = math.NaN() }, nil, "--threshold must be between 0 and 1 (exclusive), got NaN"},
		{"threshold 1", func(b *Banding) { b.Threshold = 1 }, nil, "--threshold must be between 0 and 1 (exclusive), got 1"},
		{"threshold 0", func(b *Banding) { b.Threshold = 0 }, nil, "--threshold must be between 0 and 1 (exclusive), got 0"},
		{"recall -Inf", func(b *Banding) { b.Recall = math.Inf(-1) }, nil, "--recall must be between 0 and 1 (exclusive), got -Inf"},
		{"max_bands 0", func(b *Banding) { b.MaxBands = 0 }, nil, "--max_bands must be between 1 and 4096, got 0"},
		{"max_bands unused", func(b *Banding) { b.MaxBands, b.Bands, b.Rows = 0, 2, 2 }, nil, ""},
	} {
		b := valid
		tt.edit(&b)
		if err := b.Check(tt.given); fmt.Sprint(err) != tt.want && !(err == nil && tt.want == "") {
			t.Errorf("%s: Check = %v, want %q", tt.name, err, tt.want)
		}
	}

	for _, tt := range []struct {
		b           Banding
		bands, rows int
		want        string
	}{
		{valid, 20, 7, ""},
		{Banding{Threshold: 0.5, Recall: 0.9, MaxBands: 10}, 9, 2, ""},
		{Banding{Threshold: 0.8, Recall: 0.99, MaxBands: 20, Bands: 9, Rows: 11}, 9, 11, ""},
		{Banding{Threshold: 0.5, Recall: 0.99, MaxBands: 4096}, 0, 0, "--threshold 0.5 and --recall 0.99 need 2356 bands × 9 rows, more than 4096 minhashes: lower --max_bands"},
	} {
		bands, rows, err := tt.b.Choose()
		if bands != tt.bands || rows != tt.rows || fmt.Sprint(err) != tt.want && !(err == nil && tt.want == "") {
			t.Errorf("%+v: Choose = %d × %d, %v; want %d × %d, %q", tt.b, bands, rows, err, tt.bands, tt.rows, tt.want)
		}
	}
}
