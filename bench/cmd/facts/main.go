// Command facts counts the sentences of wiki dumps whose cleaning lost or
// garbled a fact: a sentence that ends in " ." (a value dropped before its
// full stop), one that holds an empty pair of brackets ("()", "( )", "(, )")
// or a unit with no value before it ("about °C", "at per head"), and
// navigation rows that come out as sentences. It cleans and splits every
// article of every dump given (or of every dump under -data) the way the
// pipeline does, by each wiki's own siteinfo and language, and prints a
// Markdown table with a row per file and the totals.
//
// Issue 29 measured its work with it: the count before the change and after,
// on every real dump in ../shared/data.
//
//	go run ./bench/cmd/facts -data ../shared/data
//	go run ./bench/cmd/facts -sentences /tmp/after.tsv FILE...   # also write every sentence (file, title, flags, text)
//	go run ./bench/cmd/facts -recount /tmp/before.tsv             # count a written file again by today's checks
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/sentence"
)

func main() {
	data := flag.String("data", "", "count every wiki dump (.xml, .xml.bz2, .bz2, .xml.xz) under this directory")
	sentences := flag.String("sentences", "", "also write every sentence to this file: file, title, flags and text, tab-separated")
	recount := flag.String("recount", "", "count the sentences of a file that -sentences wrote, by today's checks, instead of reading dumps")
	flag.Parse()
	if *recount != "" {
		if err := recountFile(*recount); err != nil {
			log.Fatal(err)
		}
		return
	}
	files := flag.Args()
	if *data != "" {
		found, err := dumpsUnder(*data)
		if err != nil {
			log.Fatal(err)
		}
		files = append(files, found...)
	}
	if len(files) == 0 {
		log.Fatal("facts: give dump files or -data DIR")
	}
	var out *bufio.Writer
	if *sentences != "" {
		f, err := os.Create(*sentences)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		out = bufio.NewWriter(f)
		defer out.Flush()
	}
	var total Count
	printHeader()
	for _, file := range files {
		c, err := countFile(file, out)
		if err != nil {
			log.Printf("facts: %s: %v (skipped)", file, err)
			continue
		}
		if c.Sentences == 0 {
			continue
		}
		c.print(filepath.Base(file))
		total.add(c)
	}
	total.print("**all**")
}

// dumpsUnder lists the wiki dumps under dir in name order: XML files and
// compressed XML files whose first page is a MediaWiki export.
func dumpsUnder(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		if strings.HasSuffix(name, ".xml") || strings.HasSuffix(name, ".bz2") || strings.HasSuffix(name, ".xz") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// countFile cleans and splits every article of the dump file and counts its
// sentences by Check.
func countFile(file string, out *bufio.Writer) (Count, error) {
	ctx := context.Background()
	site, err := dump.ReadSite(ctx, file)
	if err != nil {
		return Count{}, err
	}
	wikis, err := sentence.NewWikis([]document.Site{site})
	if err != nil {
		return Count{}, err
	}
	ps := sentence.PageSplitter{Sites: clean.NewSites([]document.Site{site}), Wikis: wikis}
	rc, err := dump.Open(ctx, file)
	if err != nil {
		return Count{}, err
	}
	defer rc.Close()
	r := dump.NewReader(rc, file, dump.Options{})
	var c Count
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			return c, nil
		}
		if err != nil {
			var pe *dump.PageError
			if errors.As(err, &pe) {
				continue
			}
			if c.Sentences == 0 {
				return c, err
			}
			log.Printf("facts: %s: %v (stopping at it)", file, err)
			return c, nil
		}
		if p.NS != 0 || p.Redirect != "" {
			continue
		}
		p.Wiki = site.Wiki
		page, err := ps.Split(p)
		if err != nil {
			return c, err
		}
		for _, s := range page.Sentences {
			f := Check(s.Text)
			c.addSentence(f)
			if out != nil {
				fmt.Fprintf(out, "%s\t%s\t%s\t%s\n", filepath.Base(file), p.Title, f, s.Text)
			}
		}
	}
}

// recountFile counts the sentences of a file written by -sentences again, a
// row per dump file.
func recountFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	counts := map[string]*Count{}
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		fields := strings.SplitN(sc.Text(), "\t", 4)
		if len(fields) != 4 {
			return fmt.Errorf("%s: not a line of -sentences: %q", path, sc.Text())
		}
		c := counts[fields[0]]
		if c == nil {
			c = &Count{}
			counts[fields[0]] = c
			order = append(order, fields[0])
		}
		c.addSentence(Check(fields[3]))
	}
	if err := sc.Err(); err != nil {
		return err
	}
	printHeader()
	var total Count
	for _, name := range order {
		counts[name].print(name)
		total.add(*counts[name])
	}
	total.print("**all**")
	return nil
}

func printHeader() {
	fmt.Println("| file | sentences | ends in \" .\" | empty brackets | unit without value | navigation rows | lost facts |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
}
