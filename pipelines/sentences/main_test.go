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
