package result

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/shuffle"
)

// benchWords make the text of the benchmark's lines.
var benchWords = strings.Fields(`the of and in to was is for on as by with he at from his an were are which this
	also be has or had its first after new who they not their but one two her been she other all
	city school team season population district county village river league album film church`)

// benchBatches returns about size bytes of cluster-like JSON lines, as the
// pipeline packs them: Records with random keys in KindLines batches of
// shuffle.DefaultLimit.
func benchBatches(size int) (batches [][]byte, lineBytes int) {
	rng := rand.New(rand.NewPCG(1, 2))
	p := shuffle.NewPacker(shuffle.KindLines, 1)
	emit := func(_ int, b []byte) { batches = append(batches, b) }
	var line []byte
	for lineBytes < size {
		key := rng.Uint64()
		line = fmt.Appendf(line[:0], `{"id":"c%016x","size":%d,"pages":%d,"category":"boilerplate","members":[`, key, 2+rng.IntN(5), 1+rng.IntN(3))
		for m := range 2 + rng.IntN(3) {
			if m > 0 {
				line = append(line, ',')
			}
			line = fmt.Appendf(line, `{"id":"enwiki:%d:%d:%d","text":"`, rng.IntN(1e7), rng.IntN(1e9), rng.IntN(300))
			for w := range 8 + rng.IntN(30) {
				if w > 0 {
					line = append(line, ' ')
				}
				line = append(line, benchWords[rng.IntN(len(benchWords))]...)
			}
			line = append(line, `"}`...)
		}
		line = append(line, "]}"...)
		p.AddRecord(0, Record(key, line), emit)
		lineBytes += len(line)
	}
	p.Flush(emit)
	return batches, lineBytes
}

// peakHeap samples the heap's objects until stop is called, which returns
// the most it saw, in bytes.
func peakHeap() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	done, wg := make(chan struct{}), sync.WaitGroup{}
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() uint64 { close(done); wg.Wait(); return peak }
}

// BenchmarkWriteShard writes a shard of about 50 MB of lines, sorted in
// memory (all lines at once, as before the external sort) and externally
// with the default budget and a smaller one. Besides MB/s and allocations it
// reports the heap's peak (peak-heap-MB, sampled every millisecond, garbage
// included) above what it held before the shard.
//
//	go test ./io/result/ -run '^$' -bench WriteShard -benchtime 3x
func BenchmarkWriteShard(b *testing.B) {
	batches, lineBytes := benchBatches(50 << 20)
	for _, bb := range []struct {
		name  string
		limit int
	}{
		{"memory", 1 << 50},
		{"external-32MiB", runBudget},
		{"external-4MiB", 4 << 20},
	} {
		for _, indexed := range []bool{false, true} {
			name := bb.name
			fn := &writeShardFn{Dir: b.TempDir(), Prefix: "clusters", Shards: 1}
			in := batches
			if indexed {
				// An index row per line: WriteIndexed's path.
				name += "/indexed"
				fn.Index = "cluster_index"
				in = indexedBatches(b, batches)
			}
			b.Run(name, func(b *testing.B) {
				tmp := setLimits(b, bb.limit)
				b.SetBytes(int64(lineBytes))
				b.ReportAllocs()
				var peak uint64
				for b.Loop() {
					runtime.GC()
					var base runtime.MemStats
					runtime.ReadMemStats(&base)
					stop := peakHeap()
					if _, err := fn.ProcessElement(b.Context(), 0, iter(in)); err != nil {
						b.Fatal(err)
					}
					if p := stop(); p > base.HeapAlloc {
						peak = max(peak, p-base.HeapAlloc)
					}
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
				if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
					b.Errorf("%d entries left in the sort's directory", len(entries))
				}
			})
		}
	}
}

// indexedBatches repacks batches with an index row after each line.
func indexedBatches(b *testing.B, batches [][]byte) [][]byte {
	var out [][]byte
	p := shuffle.NewPacker(shuffle.KindLines, 1)
	emit := func(_ int, b []byte) { out = append(out, b) }
	for _, batch := range batches {
		err := shuffle.KindLines.Records(batch, func(rec []byte) error {
			p.AddRecord(0, fmt.Appendf(append(rec[:len(rec):len(rec)], IndexSep), "c%x\t3\t2\tboilerplate", rec[:8]), emit)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	p.Flush(emit)
	return out
}
