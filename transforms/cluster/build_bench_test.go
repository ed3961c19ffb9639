package cluster

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"testing"

	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/transforms/sentence"
)

// BenchmarkReadComponent reads the parts of one component of 100,000
// members, of sentences of about 150 bytes, as buildFn reads a shard, and
// reports the heap the shard's parts keep (B/member) once read.
func BenchmarkReadComponent(b *testing.B) {
	const n = 100_000
	doc, err := sentence.NewDoc(0, 1234, 5678)
	if err != nil {
		b.Fatal(err)
	}
	var batches [][]byte
	p := shuffle.NewPacker(shuffle.KindParts, 1)
	keep := func(_ int, batch []byte) { batches = append(batches, batch) }
	var rec []byte
	for i := range n {
		s := sentence.Sentence{ID: doc.Sentence(i % sentence.MaxOrdinal), Wiki: "enwiki", PageID: 1234, RevID: 5678,
			Title: "Hurricane Katrina", Section: "Aftermath", Rank: i % 1000,
			Text: fmt.Sprintf("Sentence %d of a copied paragraph, long enough to be signed, as most in-window sentences of the corpus are.", i)}
		rec = append(binary.AppendUvarint(rec[:0], 1), tagMember)
		rec = s.AppendBinary(rec)
		p.AddRecord(0, rec, keep)
	}
	p.Flush(keep)
	var kept uint64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		all := map[uint64]*parts{}
		for _, batch := range batches {
			if err := shuffle.KindParts.Records(batch, func(rec []byte) error { return addPart(all, rec) }); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept = after.HeapAlloc - before.HeapAlloc
		if _, err := buildAll([]component{{1, all[1]}}, DefaultMaxMembers); err != nil {
			b.Fatal(err)
		}
		runtime.KeepAlive(all)
	}
	b.ReportMetric(float64(kept)/n, "B/member")
}
