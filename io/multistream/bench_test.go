package multistream

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/neardup/neardup/io/dump"
)

// BenchmarkReadRanges reads every range of a multistream file built from
// real pages (Katrina.xml and gensim's enwiki sample, 299 pages, 10 a
// stream so that 30 streams share the goroutines evenly) on one goroutine
// and on two, each with one Decoder, and reports pages/s; the ratio of the two is the speed-up of
// reading one file in parallel.
func BenchmarkReadRanges(b *testing.B) {
	d := buildRealDump(b, 10)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("goroutines=%d", workers), func(b *testing.B) {
			b.SetBytes(int64(len(d.plain)))
			b.ReportAllocs()
			pages := 0
			for b.Loop() {
				pages += readRangesConcurrently(b, d, workers)
			}
			b.ReportMetric(float64(pages)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// readRangesConcurrently reads the page ranges of d on workers goroutines
// and returns the number of pages read.
func readRangesConcurrently(b *testing.B, d realDump, workers int) int {
	next := make(chan Range)
	counts := make([]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var dec Decoder
			for rg := range next {
				r := dec.ReadRange(bytes.NewReader(d.file), rg, "bench", dump.Options{})
				for {
					_, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Error(err)
						break
					}
					counts[w]++
				}
			}
		})
	}
	for _, rg := range d.ranges {
		if rg.Pages > 0 {
			next <- rg
		}
	}
	close(next)
	wg.Wait()
	total := 0
	for _, n := range counts {
		total += n
	}
	if total != d.pages {
		b.Fatalf("read %d pages, want %d", total, d.pages)
	}
	return total
}

// BenchmarkParseIndex parses an index of 100,000 pages in 1,000 streams,
// about what Wikimedia writes for 40 MB of compressed dump.
func BenchmarkParseIndex(b *testing.B) {
	var index strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&index, "%d:%d:Some page title: number %d\n", 600+(i/100)*700_000, 10+i, i)
	}
	text := index.String()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		streams, err := ParseIndex(strings.NewReader(text))
		if err != nil || len(streams) != 1000 {
			b.Fatal(len(streams), err)
		}
	}
}

// BenchmarkWrite builds a multistream file of Katrina.xml's 93 pages, 10
// a stream, and reports the speed of compressing on all GOMAXPROCS.
func BenchmarkWrite(b *testing.B) {
	header, pages, footer := Split(readDecompressed(b, "wikiduper/Katrina.xml"))
	var size int64
	for _, p := range pages {
		size += int64(len(p))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, io.Discard, pages, header, footer, 10); err != nil {
			b.Fatal(err)
		}
	}
}
