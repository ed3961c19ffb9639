package launcher

// The shards of a run's shuffles when --shards is 0.

// Default shards. The embedded runner runs each stage as one bundle, and
// the DoFns' worker pools, not the shards, spread the work over the cores;
// but a stage holds the shards its pool works on, so their size bounds the
// run's memory: there is a shard for every EmbeddedShardBytes of input
// (decompressed, estimated), at least EmbeddedShards and at most
// MaxEmbeddedShards. A cluster runner spreads ClusterShards over its
// workers.
const (
	EmbeddedShards     = 4
	EmbeddedShardBytes = 8 << 20
	MaxEmbeddedShards  = 1024
	ClusterShards      = 64
)

// Shards is --shards resolved: asked if it is not 0, else on the embedded
// runner one shard per EmbeddedShardBytes of textBytes, the input's
// estimated decompressed size (input.Sources.TextBytes; 0 before the input
// is planned), between EmbeddedShards and MaxEmbeddedShards, and
// ClusterShards on any other runner. On the 32× benchmark corpus (275 MB)
// that is 33 shards, whose run peaked at 0.84 GB where 4 shards peaked at
// 1.7 (spilled shuffles, 8 output shards).
func Shards(asked int, runner string, textBytes int64) int {
	switch {
	case asked != 0:
		return asked
	case !Embedded(runner):
		return ClusterShards
	}
	n := (textBytes + EmbeddedShardBytes - 1) / EmbeddedShardBytes
	return int(min(max(n, EmbeddedShards), MaxEmbeddedShards))
}
