// Command hotkey writes the hot-key corpus (package testkit/corpus/hotkey): a MediaWiki XML
// dump in which one template sentence appears -copies times, 100 copies a
// page, exact or with a slot filled differently, among ordinary sentences.
// It checks how the pipeline copes with its largest bucket and component:
//
//	go run ./bench/cmd/hotkey -out /tmp/h2/hot.xml -copies 1000000
//	sentences --input /tmp/h2/hot.xml --output /tmp/h2/out --run_id r --quiet
//
// With -control each copy is an ordinary sentence instead: the same pages
// and number of sentences without the hot key, to tell what it costs. The
// same flags give the same bytes.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/neardup/neardup/testkit/corpus/hotkey"
)

func main() {
	out := flag.String("out", "", "file to write the dump to (required)")
	copies := flag.Int("copies", 1_000_000, "copies of the template sentence")
	perPage := flag.Int("per_page", 100, "copies a page")
	seed := flag.Uint64("seed", 1, "seed of every choice")
	control := flag.Bool("control", false, "write an ordinary sentence in place of each copy: the same pages and sentences without the hot key")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("hotkey: ")
	if *out == "" || flag.NArg() > 0 || *copies < 1 || *perPage < 1 {
		log.Fatal("usage: hotkey -out FILE [-copies N] [-per_page N] [-seed N] [-control]")
	}
	start := time.Now()
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	st, err := hotkey.Write(f, hotkey.Config{Copies: *copies, PerPage: *perPage, Seed: *seed, Control: *control})
	if err == nil {
		err = f.Close()
	} else {
		f.Close()
	}
	if err != nil {
		log.Fatalf("%s: %v", *out, err)
	}
	exact := 0
	for _, t := range st.Copies {
		if t == hotkey.Exact {
			exact++
		}
	}
	copiesOf := fmt.Sprintf("%d copies (%d exact, %d distinct texts)", len(st.Copies), exact, len(st.Texts))
	if *control {
		copiesOf = "no copies (control)"
	}
	fmt.Printf("%s: %d pages, %d bytes; %s, %d ordinary sentences (%.1f s)\n",
		*out, st.Pages, st.Bytes, copiesOf, st.Ordinary, time.Since(start).Seconds())
}
