// Command synthrun writes a synthetic run directory for the explorer (see
// package testkit/corpus/synthrun):
//
//	go run ./bench/cmd/synthrun --clusters 1000000 --out /tmp/synth/r1m
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/neardup/neardup/testkit/corpus/synthrun"
)

func main() {
	var cfg synthrun.Config
	out := flag.String("out", "", "the run directory to write (required)")
	flag.IntVar(&cfg.Clusters, "clusters", 1_000_000, "clusters to make")
	flag.IntVar(&cfg.Shards, "shards", 1, "clusters files")
	flag.IntVar(&cfg.Articles, "articles", 0, "distinct articles to draw from (0: as many as clusters)")
	flag.Uint64Var(&cfg.Seed, "seed", 1, "seed of the generator")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: synthrun --out DIR [--clusters N] [--shards N] [--articles N] [--seed N]")
		os.Exit(2)
	}
	start := time.Now()
	if err := synthrun.Write(*out, cfg); err != nil {
		fmt.Fprintf(os.Stderr, "synthrun: error: %v\n", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "synthrun: %d clusters in %s, written in %s\n", cfg.Clusters, *out, time.Since(start).Round(time.Millisecond))
}
