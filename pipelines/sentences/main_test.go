package main

import "testing"

func TestShardsFor(t *testing.T) {
	tests := []struct {
		asked  int
		runner string
		want   int
	}{
		{0, "", embeddedShards},
		{0, "prism", embeddedShards},
		{0, "direct", embeddedShards},
		{0, "PrismRunner", embeddedShards},
		{0, "dataflow", clusterShards},
		{0, "flink", clusterShards},
		{0, "universal", clusterShards},
		{256, "dataflow", 256},
		{7, "", 7},
		{-1, "", -1}, // refused by Options.Validate
	}
	for _, tt := range tests {
		if got := shardsFor(tt.asked, tt.runner); got != tt.want {
			t.Errorf("shardsFor(%d, %q) = %d, want %d", tt.asked, tt.runner, got, tt.want)
		}
	}
}

func TestShardsForInput(t *testing.T) {
	tests := []struct {
		textBytes int64
		want      int
	}{
		{0, 4},
		{1 << 20, 4},
		{32 << 20, 4},
		{33 << 20, 5},
		{275_008_773, 33},      // the 32× benchmark corpus
		{4_000_000_000, 477},   // about 10 M in-window sentences of copies
		{90_000_000_000, 1024}, // English Wikipedia, decompressed
	}
	for _, tt := range tests {
		if got := shardsForInput(tt.textBytes); got != tt.want {
			t.Errorf("shardsForInput(%d) = %d, want %d", tt.textBytes, got, tt.want)
		}
	}
}
