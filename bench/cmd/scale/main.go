// Command scale writes the benchmark's synthetic corpora (packages
// testkit/corpus/scaled and testkit/corpus/distinct).
//
// The scaled corpora are the real pages of the given dumps repeated k
// times, for each k of -sizes, with new page ids and, in every copy but
// the first, small random edits to words and numbers (seeded, so the
// corpus is the same on every run). Each corpus is written as plain XML,
// DIR/scaled-Kx.xml, and as a Wikimedia multistream bzip2 dump with its
// index, DIR/scaled-Kx-multistream.xml.bz2 and
// DIR/scaled-Kx-multistream-index.txt.bz2. The smaller corpora are
// prefixes of the larger ones.
//
// With -format jsonl the inputs are JSON-lines files (Dolma's, datatrove's,
// or {"id", "text", "url"} lines; compressed or not), and each corpus is
// DIR/scaled-Kx.jsonl: plain JSON lines {"id", "text", "url"}, copy by
// copy, copy c of a document with the id "ID-c", its URL, and its text with
// the same seeded edits as a page's (scaled.Scaler.Edit).
//
// With -format distinct the inputs are dumps to learn from, and each
// corpus is DIR/distinct-Nk.xml, N thousand pages for each N of -kpages
// (with -multistream, its multistream bzip2 dump and index too), whose
// sentences are distinct but for near-duplicate clusters injected at
// -dup_share of the in-window sentences (4.5%, the share Weissman et al.
// found in Wikipedia). The same flags give the same bytes.
//
//	go run ./bench/cmd/scale -out /tmp/scaled -sizes 1,2,4,8 a.xml b.xml.bz2
//	go run ./bench/cmd/scale -out /tmp/scaled -sizes 33 -format jsonl cc/*.jsonl.gz
//	go run ./bench/cmd/scale -out /tmp/scaled -format distinct -kpages 6,120 a.xml b.xml.bz2
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/neardup/neardup/testkit/corpus"
	"github.com/neardup/neardup/testkit/corpus/distinct"
	"github.com/neardup/neardup/testkit/corpus/scaled"
)

func main() {
	out := flag.String("out", "", "directory to write the corpora to (required)")
	sizesFlag := flag.String("sizes", "1,2,4,8", "comma-separated numbers of copies")
	seed := flag.Uint64("seed", 1, "seed of the edits")
	rate := flag.Float64("rate", 0.03, "probability that a word or number of a copy is edited")
	perStream := flag.Int("per_stream", 100, "pages per bzip2 stream of the multistream files")
	format := flag.String("format", "xml", "format of the inputs and the corpora: xml (MediaWiki dumps), jsonl (JSON lines) or distinct (generated distinct pages, from XML inputs)")
	kpages := flag.String("kpages", "10", "with -format distinct: comma-separated sizes of the corpora, in thousands of pages")
	share := flag.Float64("dup_share", 0.045, "with -format distinct: share of the in-window sentences put in near-duplicate clusters")
	maxCluster := flag.Int("max_cluster", 0, "with -format distinct: largest cluster (0: min(40000, pages/2))")
	multi := flag.Bool("multistream", false, "with -format distinct: write the multistream .bz2 and its index too (bzip2 at level 9 takes about twice the CPU of the generation)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("scale: ")
	sizes, err := parseSizes(*sizesFlag)
	if *format == "distinct" {
		sizes, err = parseSizes(*kpages)
		if err == nil && (*share < 0 || *share >= 1) {
			err = fmt.Errorf("-dup_share %v is not in [0, 1)", *share)
		}
	}
	if err == nil && *format != "xml" && *format != "jsonl" && *format != "distinct" {
		err = fmt.Errorf("-format %q is neither xml, jsonl nor distinct", *format)
	}
	if *out == "" || flag.NArg() == 0 || err != nil {
		log.Fatalf("usage: scale -out DIR [-sizes 1,2,4,8] [-seed N] [-rate R] [-format xml|jsonl|distinct] [-kpages N,…] [-dup_share S] FILE... (%v)", err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	if *format == "distinct" {
		cfg := distinct.Config{Seed: *seed, Share: *share, MaxCluster: *maxCluster}
		if err := scaleDistinct(*out, cfg, sizes, *perStream, *multi, flag.Args()); err != nil {
			log.Fatal(err)
		}
		return
	}
	s := scaled.Scaler{Seed: *seed, Rate: *rate}
	if *format == "jsonl" {
		if err := scaleJSONL(*out, s, sizes, flag.Args()); err != nil {
			log.Fatal(err)
		}
		return
	}
	header, pages, err := corpus.ReadPages(context.Background(), flag.Args())
	if err != nil {
		log.Fatal(err)
	}
	copies, err := scaled.Copies(s, pages, maxOf(sizes))
	if err != nil {
		log.Fatal(err)
	}
	for _, k := range sizes {
		start := time.Now()
		scaledPages := copies[:k*len(pages)]
		base := filepath.Join(*out, fmt.Sprintf("scaled-%dx", k))
		xmlBytes, err := writePlain(base+".xml", header, scaledPages)
		if err != nil {
			log.Fatal(err)
		}
		bz2Bytes, err := writeMultistream(base+"-multistream.xml.bz2", base+"-multistream-index.txt.bz2", header, scaledPages, *perStream)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d pages, %d bytes of XML, %d bytes of bzip2 (%.1f s)\n",
			base, len(scaledPages), xmlBytes, bz2Bytes, time.Since(start).Seconds())
	}
}

// parseSizes parses a comma-separated list of positive copy counts.
func parseSizes(s string) ([]int, error) {
	var sizes []int
	for _, f := range bytes.Split([]byte(s), []byte(",")) {
		n, err := strconv.Atoi(string(bytes.TrimSpace(f)))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("size %q is not a positive number of copies", f)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

// scaleJSONL writes DIR/scaled-Kx.jsonl for each k of sizes from the
// documents of the JSON-lines files.
func scaleJSONL(dir string, s scaled.Scaler, sizes []int, paths []string) error {
	docs, err := scaled.ReadDocs(context.Background(), paths)
	if err != nil {
		return err
	}
	for _, k := range sizes {
		start := time.Now()
		path := filepath.Join(dir, fmt.Sprintf("scaled-%dx.jsonl", k))
		n, err := writeJSONLFile(path, s, docs, k)
		if err != nil {
			return err
		}
		fmt.Printf("%s: %d documents, %d bytes of JSON lines (%.1f s)\n", path, k*len(docs), n, time.Since(start).Seconds())
	}
	return nil
}

// scaleDistinct writes DIR/distinct-Nk.xml (and its multistream .bz2 and
// index, if multi) for each N of kpages, from a model of the dumps.
func scaleDistinct(dir string, cfg distinct.Config, kpages []int, perStream int, multi bool, paths []string) error {
	start := time.Now()
	m, err := distinct.Train(context.Background(), paths)
	if err != nil {
		return err
	}
	sentences, words, layouts := m.Size()
	fmt.Printf("model: %d distinct sentences, %d words, %d article layouts (%.1f s)\n",
		sentences, words, layouts, time.Since(start).Seconds())
	for _, k := range kpages {
		start := time.Now()
		cfg.Pages = 1000 * k
		base := filepath.Join(dir, fmt.Sprintf("distinct-%dk", k))
		f, err := os.Create(base + ".xml")
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 1<<20)
		var ms *corpus.MultistreamWriter
		var each func([]byte)
		if multi {
			ms, err = corpus.NewMultistreamWriter(base+"-multistream.xml.bz2", base+"-multistream-index.txt.bz2", m.Header(), perStream)
			if err != nil {
				f.Close()
				return err
			}
			each = ms.Add
		}
		st, err := distinct.Write(w, m, cfg, each)
		if err == nil {
			err = w.Flush()
		}
		if e := f.Close(); err == nil {
			err = e
		}
		var bz2Bytes int64
		if ms != nil {
			n, e := ms.Close([]byte(corpus.Footer))
			if err == nil {
				err = e
			}
			bz2Bytes = n
		}
		if err != nil {
			return fmt.Errorf("%s: %w", base, err)
		}
		secs := time.Since(start).Seconds()
		fmt.Printf("%s.xml: %d pages (%d articles, %d redirects, %d in other namespaces), %d bytes of XML", base,
			st.Pages, st.Articles, st.Redirects, st.Other, st.Bytes)
		if multi {
			fmt.Printf(", %d bytes of bzip2", bz2Bytes)
		}
		fmt.Printf(" (%.1f s, %.1f MB/s of XML)\n", secs, float64(st.Bytes)/1e6/secs)
		fmt.Printf("  %d sentences, %d in window, %d of them in injected clusters (%.2f%%); clusters:", st.Sentences, st.InWindow,
			st.Members, 100*float64(st.Members)/float64(max(st.InWindow, 1)))
		for k, n := range st.Clusters {
			fmt.Printf(" %s %d", distinct.KindNames[k], n)
		}
		fmt.Printf("; largest %d\n", st.Largest)
	}
	return nil
}

// writePlain writes header, pages and the footer to path and returns the
// number of bytes written.
func writePlain(path string, header []byte, pages [][]byte) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20) // its errors stick: Flush reports them
	n := int64(len(header) + len(corpus.Footer))
	w.Write(header)
	for _, p := range pages {
		w.Write(p)
		n += int64(len(p))
	}
	w.WriteString(corpus.Footer)
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return n, f.Close()
}

// writeMultistream writes the pages as a multistream bzip2 dump and its
// bzip2-compressed index, and returns the size of the dump.
func writeMultistream(path, indexPath string, header []byte, pages [][]byte, perStream int) (int64, error) {
	ms, err := corpus.NewMultistreamWriter(path, indexPath, header, perStream)
	if err != nil {
		return 0, err
	}
	for _, p := range pages {
		ms.Add(p)
	}
	n, err := ms.Close([]byte(corpus.Footer))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

func maxOf(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// writeJSONLFile writes k copies of the documents to path (scaled.WriteJSONL) and
// returns its size.
func writeJSONLFile(path string, s scaled.Scaler, docs []scaled.Doc, k int) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	n, err := scaled.WriteJSONL(w, s, docs, k)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}
