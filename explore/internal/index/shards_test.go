package index

import (
	"testing"

	"github.com/neardup/neardup/transforms/summary"
)

// TestShardsOfHostileCount refuses a manifest that names clusters files
// of more shards than it lists, before making the shards: 2,000,000,000
// shards named by one file made explore --check run out of memory.
func TestShardsOfHostileCount(t *testing.T) {
	for _, tt := range []struct {
		outputs []string
		want    string
	}{
		{[]string{"clusters-00000-of-2000000000.jsonl"}, "it lists 1 of the 2000000000 clusters files, not clusters-00001-of-2000000000.jsonl"},
		{[]string{"clusters-00000-of-00003.jsonl", "clusters-00000-of-00003.jsonl", "clusters-00002-of-00003.jsonl"}, "it lists 2 of the 3 clusters files, not clusters-00001-of-00003.jsonl"},
	} {
		var got string
		allocs := testing.AllocsPerRun(1, func() {
			_, err := shardsOf(summary.Manifest{Outputs: tt.outputs})
			got = err.Error()
		})
		if got != tt.want {
			t.Errorf("shardsOf(%q): %q, want %q", tt.outputs, got, tt.want)
		}
		if allocs > 20 {
			t.Errorf("shardsOf(%q): %v allocations", tt.outputs, allocs)
		}
	}
}
