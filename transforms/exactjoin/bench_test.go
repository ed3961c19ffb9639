package exactjoin

import (
	"math/rand/v2"
	"testing"

	"github.com/neardup/neardup/internal/hashmix"
	"github.com/neardup/neardup/internal/shuffle"
	"github.com/neardup/neardup/testkit/sentencetest"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/docfreq"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/verify"
)

// BenchmarkPrefix is the cost of a set's prefix entries: ordering its
// shingles by their counts, cutting the prefix and encoding the entries of
// the records (4 shards).
//
//   - sets150: the 64 sets of 150 shingles of minhash's BenchmarkSigner,
//     each counted twice in the sketch, so that no shingle is left out:
//     beside BenchmarkSigner/oph, what the exact join costs instead of a
//     signature;
//   - katrina: prefixFn's worker on the Katrina export's sentences, from
//     the encoded record to the encoded entries (decoding the sentence
//     and its shingles included), per sentence.
func BenchmarkPrefix(b *testing.B) {
	b.Run("sets150", func(b *testing.B) {
		sets := make([][]uint64, 64)
		var sketch docfreq.Sketch
		for j := range sets {
			sets[j] = make([]uint64, 150)
			for i := range sets[j] {
				sets[j][i] = hashmix.Splitmix64(uint64(j<<20 | i))
			}
			var s docfreq.Sorter
			s.Sort(sets[j])
			sketch.AddDocument(sets[j])
			sketch.AddDocument(sets[j])
		}
		p := &Prefixer{T: 0.8}
		var entries []Entry
		var rec []byte
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			set := sets[i%len(sets)]
			entries = AppendEntries(entries[:0], uint64(i), Fingerprint(set), len(set), p.Prefix(set, &sketch))
			rec = AppendPrefixes(rec[:0], entries)
		}
		b.ReportMetric(float64(len(entries)), "entries/set")
	})
	b.Run("katrina", func(b *testing.B) {
		sents := sentencetest.InWindow(b, testshared.Katrina(b))
		cfg := Config{Threshold: 0.8, ShingleLength: shingleLength, Norm: shingle.DefaultNormalization, Shards: 4, RecordShards: 4}
		var sketch docfreq.Sketch
		tok := cfg.docfreq().Tokenizer()
		for _, s := range sents {
			sketch.AddDocument(tok.AppendTokens(nil, s.Text))
		}
		batches := sentencetest.Batches(b, sents, 1, 200)
		w := &prefixer{tokenizer: tok, prefixer: Prefixer{T: cfg.Threshold}, shards: cfg.Shards}
		b.ReportAllocs()
		n, bytes := 0, 0
		for i := 0; b.Loop(); i++ {
			out, err := w.prefix(prefixWork{batch: batches[i%len(batches)], sketch: &sketch})
			if err != nil {
				b.Fatal(err)
			}
			n += len(out.sets)
			bytes += len(out.records)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/sentence")
		b.ReportMetric(float64(bytes)/float64(n), "entry-bytes/sentence")
	})
}

// BenchmarkJoin is the cost of the groups' join:
//
//   - katrina: one shard holding every prefix entry of the Katrina
//     export's sentences (decoding included), per entry;
//   - hot: one group of 2,000 distinct sets of sizes 100 to 125 at
//     positions 0 to 20 (a shingle in the prefix of every sentence of a
//     template), per pair compared.
func BenchmarkJoin(b *testing.B) {
	b.Run("katrina", func(b *testing.B) {
		sents := sentencetest.InWindow(b, testshared.Katrina(b))
		sets := realSets(sents)
		var sketch docfreq.Sketch
		for _, set := range sets {
			sketch.AddDocument(set)
		}
		p := &Prefixer{T: 0.8}
		packer := shuffle.NewPacker(shuffle.KindPrefixes, 1)
		var batches [][]byte
		emit := func(_ int, batch []byte) { batches = append(batches, batch) }
		entries := 0
		for id, set := range sets {
			es := AppendEntries(nil, id, Fingerprint(set), len(set), p.Prefix(set, &sketch))
			entries += len(es)
			if len(es) > 0 {
				packer.AddRecord(0, AppendPrefixes(nil, es), emit)
			}
		}
		packer.Flush(emit)
		j := &Joiner{T: 0.8}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := j.joinShard(groups{batches: batches}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*entries), "ns/entry")
	})
	b.Run("hot", func(b *testing.B) {
		r := rand.New(rand.NewPCG(1, 2))
		group := make([]Entry, 2000)
		for i := range group {
			group[i] = Entry{Token: 7, Set: r.Uint64(), ID: r.Uint64(), Size: int32(100 + r.IntN(26)), Pos: int32(r.IntN(21))}
		}
		work := make([]Entry, len(group))
		j := &Joiner{T: 0.8}
		var pairs []shuffle.Pair
		var st Stats
		b.ReportAllocs()
		for b.Loop() {
			copy(work, group)
			st = Stats{}
			pairs = j.Join(pairs[:0], work, &st)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*st.PairsCompared), "ns/pair")
		b.ReportMetric(float64(st.Candidates)/float64(st.PairsCompared), "passed/pair")
	})
}

// BenchmarkVerifyCandidates is the cost of verifying the join's distinct
// candidates on the Ukrainian sample's sentences (verify.Checker, as
// verify.Edges compares a pair), per candidate: at Verification(0.8), the
// exact scheme's, and at the default thresholds it was verified at
// before, which measure the exact edit distance of every pair they accept
// (Jaccard ≥ 0.5) and the banded one of the others.
func BenchmarkVerifyCandidates(b *testing.B) {
	sents := sentencetest.InWindow(b, testshared.Data(b, "xztextfilter-wiki-truncated/ukwiki-truncated-100k.xml.xz"))
	texts := map[uint64]string{}
	for _, s := range sents {
		texts[uint64(s.ID)] = s.Text
	}
	pairs := distinctPairs(joinAll(realSets(sents), 0.8).candidates)
	for _, v := range []struct {
		name string
		t    verify.Thresholds
	}{{"exact", Verification(0.8)}, {"default", verify.DefaultThresholds()}} {
		b.Run(v.name, func(b *testing.B) {
			c := verify.NewChecker(shingleLength, shingle.DefaultNormalization, v.t)
			kept := 0
			for b.Loop() {
				kept = 0
				for _, p := range pairs {
					if _, ok := c.Compare(texts[p.A], texts[p.B]); ok {
						kept++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(pairs)), "ns/candidate")
			b.ReportMetric(float64(kept)/float64(len(pairs)), "kept/candidate")
		})
	}
}
