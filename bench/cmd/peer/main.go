// Command peer is the benchmark's reference point: it clusters the
// sentences the pipeline emitted (--emit_sentences) with a plain
// in-process MinHash LSH, github.com/ekzhu/minhash-lsh, over the same
// shingles (-shingle_length characters, lower-cased, white space collapsed)
// at the same threshold, both given as the pipeline's summary.json records
// them, joining every candidate pair with a union-find. With -exact it
// also finds, by exact computation, every pair of sentences whose shingle
// sets have a Jaccard similarity of at least the threshold, and reports the
// share of them that the peer and the pipeline (its clusters-*.jsonl) put
// in one cluster. It prints one JSON object.
//
// With -pairs FILE it only writes the exact pairs to FILE, a JSON line
// each ({"a", "b", "jaccard"}: the two sentence ids and their similarity),
// and prints the report without the peer: bench's comparison of candidate
// schemes measures every scheme's runs against them.
//
//	go run ./bench/cmd/peer -sentences 'out/RUN/sentences-*.jsonl' -clusters 'out/RUN/clusters-*.jsonl' -exact \
//	    -shingle_length L -threshold T   # the run's, from out/RUN/summary.json
//	go run ./bench/cmd/peer -sentences 'out/RUN/sentences-*.jsonl' -pairs pairs.jsonl -shingle_length L -threshold T
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"sync"
	"time"

	minhashlsh "github.com/ekzhu/minhash-lsh"
	"github.com/neardup/neardup/bench/internal/lines"
	"github.com/neardup/neardup/bench/internal/peerreport"
)

func main() {
	sentencesGlob := flag.String("sentences", "", "the pipeline's sentences-*.jsonl (required)")
	clustersGlob := flag.String("clusters", "", "the pipeline's clusters-*.jsonl, for -exact")
	exact := flag.Bool("exact", false, "compute the exact pairs and both systems' recall")
	pairsOut := flag.String("pairs", "", "only write the exact pairs to this file, as JSON lines {\"a\", \"b\", \"jaccard\"}, without running the peer")
	k := flag.Int("shingle_length", 0, "characters per shingle: the pipeline run's (required)")
	threshold := flag.Float64("threshold", 0, "Jaccard similarity threshold: the pipeline run's (required)")
	hashes := flag.Int("hashes", 128, "MinHash functions per signature")
	seed := flag.Int64("seed", 1, "seed of the MinHash functions")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("peer: ")
	if *sentencesGlob == "" || (*exact && *clustersGlob == "") || *k < 1 || !(*threshold > 0 && *threshold <= 1) {
		log.Fatal("usage: peer -sentences GLOB -shingle_length L -threshold T [-exact -clusters GLOB] (L and T as the pipeline's summary.json gives them)")
	}
	ids, texts, err := readSentences(*sentencesGlob)
	if err != nil {
		log.Fatal(err)
	}
	report := peerreport.Report{ShingleLength: *k, Threshold: *threshold, Sentences: len(texts)}
	if *pairsOut != "" {
		start := time.Now()
		sets := shingleSets(texts, *k)
		pairs := exactPairs(sets, *threshold)
		if err := writePairs(*pairsOut, pairs, ids, sets); err != nil {
			log.Fatal(err)
		}
		report.Exact = &peerreport.Exact{Pairs: len(pairs), Seconds: time.Since(start).Seconds()}
		if err := json.NewEncoder(os.Stdout).Encode(report); err != nil {
			log.Fatal(err)
		}
		return
	}
	labels, pr := runPeer(texts, *k, *hashes, *threshold, *seed)
	report.Peer = pr
	if *exact {
		pipeline, err := readClusters(*clustersGlob, ids)
		if err != nil {
			log.Fatal(err)
		}
		start := time.Now()
		sets := shingleSets(texts, *k)
		pairs := exactPairs(sets, *threshold)
		n, clustered := clusters(pipeline)
		report.Exact = &peerreport.Exact{
			Pairs:                      len(pairs),
			Seconds:                    time.Since(start).Seconds(),
			PeerRecall:                 recall(pairs, labels),
			PipelineRecall:             recall(pairs, pipeline),
			PipelineClusters:           n,
			PipelineClusteredSentences: clustered,
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(report); err != nil {
		log.Fatal(err)
	}
}

// shingleSets returns the shingle set of every text (shingleSet), computed
// on all cores.
func shingleSets(texts []string, k int) [][]uint64 {
	sets := make([][]uint64, len(texts))
	parallel(len(texts), func(i int) { sets[i] = shingleSet(texts[i], k) })
	return sets
}

// writePairs writes the pairs to path, a JSON line each with both
// sentences' ids and their Jaccard similarity.
func writePairs(path string, pairs []Pair, ids []string, sets [][]uint64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, p := range pairs {
		if err := enc.Encode(peerreport.Pair{A: ids[p.A], B: ids[p.B], Jaccard: jaccard(sets[p.A], sets[p.B])}); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// runPeer clusters the texts with minhash-lsh and a union-find and returns
// each text's cluster label. Signatures are computed on all cores; the
// library's index is built and queried on one, as it is not safe for
// concurrent use.
func runPeer(texts []string, k, hashes int, threshold float64, seed int64) ([]int, peerreport.Peer) {
	start := time.Now()
	sigs := make([][]uint64, len(texts))
	parallel(len(texts), func(i int) {
		m := minhashlsh.NewMinhash(seed, hashes)
		shingles(normalize(texts[i]), k, func(sh string) { m.Push([]byte(sh)) })
		sigs[i] = m.Signature()
	})
	signed := time.Now()
	lsh := minhashlsh.NewMinhashLSH(hashes, threshold)
	for i, sig := range sigs {
		lsh.Add(i, sig)
	}
	lsh.Index()
	indexed := time.Now()
	uf := newUnionFind(len(texts))
	for i, sig := range sigs {
		for _, key := range lsh.Query(sig) {
			uf.union(i, key.(int))
		}
	}
	labels := uf.labels()
	done := time.Now()
	rows, bands := lsh.Params()
	n, clustered := clusters(labels)
	return labels, peerreport.Peer{
		Hashes: hashes, BandRows: rows, Bands: bands,
		Seconds:            done.Sub(start).Seconds(),
		SignatureSeconds:   signed.Sub(start).Seconds(),
		IndexSeconds:       indexed.Sub(signed).Seconds(),
		QuerySeconds:       done.Sub(indexed).Seconds(),
		Clusters:           n,
		ClusteredSentences: clustered,
	}
}

// parallel calls f(i) for i in [0, n) on GOMAXPROCS goroutines.
func parallel(n int, f func(int)) {
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				f(i)
			}
		})
	}
	wg.Wait()
}

// readSentences reads the id and text of every line of the files
// matching glob, in file order. Ids must be unique: clusters name their
// members by id, and an input whose files share page ids (the gensim and
// DBpedia enwiki samples both hold page 698) gives sentences the same id.
func readSentences(glob string) (ids []string, texts []string, err error) {
	seen := map[string]bool{}
	err = lines.Each(glob, func(line []byte) error {
		var s struct{ ID, Text string }
		if err := json.Unmarshal(line, &s); err != nil {
			return err
		}
		if seen[s.ID] {
			return fmt.Errorf("sentence id %s appears twice: the input's page ids are not unique", s.ID)
		}
		seen[s.ID] = true
		ids = append(ids, s.ID)
		texts = append(texts, s.Text)
		return nil
	})
	return ids, texts, err
}

// readClusters labels each sentence of ids by the pipeline's cluster that
// holds it; a sentence in no cluster gets a label of its own.
func readClusters(glob string, ids []string) ([]int, error) {
	index := make(map[string]int, len(ids))
	labels := make([]int, len(ids))
	for i, id := range ids {
		index[id] = i
		labels[i] = i
	}
	cluster := len(ids)
	err := lines.Each(glob, func(line []byte) error {
		var c struct{ Members []struct{ ID string } }
		if err := json.Unmarshal(line, &c); err != nil {
			return err
		}
		for _, m := range c.Members {
			i, ok := index[m.ID]
			if !ok {
				return fmt.Errorf("cluster member %s is not among the sentences", m.ID)
			}
			labels[i] = cluster
		}
		cluster++
		return nil
	})
	return labels, err
}
