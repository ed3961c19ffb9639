package launcher

import "testing"

func TestShards(t *testing.T) {
	for _, tt := range []struct {
		asked     int
		runner    string
		textBytes int64
		want      int
	}{
		{0, "", 0, EmbeddedShards},
		{0, "prism", 1 << 20, EmbeddedShards},
		{0, "direct", 32 << 20, EmbeddedShards},
		{0, "PrismRunner", 33 << 20, 5},
		{0, "", 275_008_773, 33},      // the 32× benchmark corpus
		{0, "", 4_000_000_000, 477},   // about 10 M in-window sentences of copies
		{0, "", 90_000_000_000, 1024}, // English Wikipedia, decompressed
		{0, "dataflow", 90_000_000_000, ClusterShards},
		{0, "flink", 0, ClusterShards},
		{0, "universal", 1 << 20, ClusterShards},
		{256, "dataflow", 0, 256},
		{7, "", 90_000_000_000, 7},
		{-1, "", 0, -1}, // refused by the checks
	} {
		if got := Shards(tt.asked, tt.runner, tt.textBytes); got != tt.want {
			t.Errorf("Shards(%d, %q, %d) = %d, want %d", tt.asked, tt.runner, tt.textBytes, got, tt.want)
		}
	}
}
