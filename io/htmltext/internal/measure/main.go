// Command measure runs htmltext.Extract on the HTML pages (status 200,
// text/html) of WARC files and prints, per file, the pages, their HTML
// bytes, the characters and paragraphs extracted and the pages left
// empty, as a Markdown table; with -show, it prints each page's kept
// paragraphs and dropped blocks, for reading.
//
//	go run ./io/htmltext/internal/measure ../shared/data/commoncrawl-warc/*.warc.gz
//	go run ./io/htmltext/internal/measure -show 'soldaini' ../shared/data/commoncrawl-warc/*.warc.gz
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/neardup/neardup/io/htmltext"
	"github.com/neardup/neardup/io/htmltext/internal/warcpages"
)

func main() {
	show := flag.String("show", "", "print kept and dropped text of the pages whose URL contains this (\"all\": every page)")
	flag.Parse()
	fmt.Println("| file | pages | HTML bytes | extracted chars | paragraphs | empty | charset errors | ms |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	var total row
	for _, path := range flag.Args() {
		r := measure(path, *show)
		r.print(filepath.Base(path))
		total.add(r)
	}
	total.print("total")
}

type row struct {
	pages, bytes, chars, paras, empty, errs int
	elapsed                                 time.Duration
}

func (r *row) add(o row) {
	r.pages += o.pages
	r.bytes += o.bytes
	r.chars += o.chars
	r.paras += o.paras
	r.empty += o.empty
	r.errs += o.errs
	r.elapsed += o.elapsed
}

func (r row) print(name string) {
	fmt.Printf("| %s | %d | %d | %d | %d | %d | %d | %d |\n", name, r.pages, r.bytes, r.chars,
		r.paras, r.empty, r.errs, r.elapsed.Milliseconds())
}

func measure(path, show string) row {
	resps, err := warcpages.Read(path)
	if err != nil {
		log.Fatal(err)
	}
	var r row
	for _, resp := range resps {
		r.pages++
		r.bytes += len(resp.Body)
		start := time.Now()
		p, err := htmltext.ExtractWith(resp.Body, resp.ContentType, resp.ContentLanguage, htmltext.Options{Explain: true})
		r.elapsed += time.Since(start)
		var ce *htmltext.CharsetError
		if errors.As(err, &ce) {
			r.errs++
		}
		for _, para := range p.Paragraphs {
			r.chars += utf8.RuneCountInString(para)
		}
		r.paras += len(p.Paragraphs)
		if len(p.Paragraphs) == 0 {
			r.empty++
		}
		if show != "" && (show == "all" || strings.Contains(resp.URL, show)) {
			explain(resp.URL, p, err)
		}
	}
	return r
}

func explain(url string, p htmltext.Page, err error) {
	w := os.Stderr
	fmt.Fprintf(w, "\n==== %s\n  title %q lang %q charset %s (%s) repaired %v err %v\n", url, p.Title, p.Lang,
		p.Charset, p.CharsetSource, p.Repaired, err)
	for _, b := range p.Blocks {
		mark := "-"
		if b.Fate == "kept" {
			mark = "+"
		}
		fmt.Fprintf(w, "%s %-11s w%-3d td%4.1f ld%.2f nav%.1f aside%.1f | %s\n", mark, b.Fate, b.Words,
			b.TextDensity, b.LinkDensity, b.Nav, b.Aside, clip(b.Text, 160))
	}
	for i, para := range p.Paragraphs {
		fmt.Fprintf(w, "  [P%d] %s\n", i, clip(para, 300))
	}
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
