// Command pairsample prints the sentences of the pages that two sets of
// wiki dumps, taken at different dates, both hold: for each page id found on
// both sides, the old revision's sentences and then the new one's, one JSON
// object a line (side, file, page id, revision id, title, ordinal, section,
// context, text).
//
// It is the first step of drawing edited sentence pairs blind to the tool
// (testdata/labels/crossdate-pairs.md): the sentences are the units the
// pipeline compares, read the way pipelines/sentences' labels test reads them
// (io/dump's reader, each file's own site, clean and sentence.PageSplitter),
// so an ordinal printed here names the sentence a labels file names. It uses
// nothing of transforms/changes or transforms/categorize: which sentences are
// versions of one another is left to the aligner (align.py, next to this
// file), which sees only these lists.
//
//	go run ./bench/cmd/pairsample \
//	    -old '../shared/data/wikiclean-pages/enwiki-20120104-id*.xml' \
//	    -new ../shared/data/gensim-wiki/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2 \
//	    -root ../shared/data > /tmp/sentences.jsonl
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/sentence"
)

// line is one printed sentence.
type line struct {
	Side    string `json:"side"` // "old" or "new"
	File    string `json:"file"` // the dump, relative to -root
	PageID  int64  `json:"page_id"`
	RevID   int64  `json:"rev_id"`
	Title   string `json:"title"`
	Ordinal int    `json:"ordinal"`
	Section string `json:"section"`
	Context string `json:"context"`
	Text    string `json:"text"`
}

// revision is the sentences of one page of one dump file.
type revision struct {
	file      string
	sentences []sentence.View
}

func main() {
	oldFiles := flag.String("old", "", "the earlier dumps: comma-separated files or glob patterns")
	newFiles := flag.String("new", "", "the later dumps: comma-separated files or glob patterns")
	root := flag.String("root", "", "print file names relative to this directory (the labels' ../shared/data)")
	flag.Parse()
	if *oldFiles == "" || *newFiles == "" {
		log.Fatal("pairsample: give -old and -new")
	}
	ctx := context.Background()
	old, err := readSide(ctx, *oldFiles)
	if err != nil {
		log.Fatal(err)
	}
	latest, err := readSide(ctx, *newFiles)
	if err != nil {
		log.Fatal(err)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	ids := make([]int64, 0, len(old))
	for id := range old {
		if _, ok := latest[id]; ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		for _, side := range []struct {
			name string
			rev  revision
		}{{"old", old[id]}, {"new", latest[id]}} {
			if err := writeRevision(enc, side.name, relative(*root, side.rev.file), side.rev.sentences); err != nil {
				log.Fatal(err)
			}
		}
	}
}

// writeRevision writes the sentences of one revision.
func writeRevision(enc *json.Encoder, side, file string, sentences []sentence.View) error {
	for _, s := range sentences {
		err := enc.Encode(line{
			Side: side, File: file, PageID: s.PageID, RevID: s.RevID, Title: s.Title,
			Ordinal: s.Sentence, Section: s.Section, Context: s.Context, Text: s.Text,
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// relative returns file relative to root, or file itself if root is empty
// or does not hold it.
func relative(root, file string) string {
	if root == "" {
		return file
	}
	rel, err := filepath.Rel(root, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return file
	}
	return filepath.ToSlash(rel)
}

// readSide reads every article of the files the comma-separated patterns
// name, by page id. A page found twice on one side is an error: which
// revision stands for that date would be ambiguous.
func readSide(ctx context.Context, patterns string) (map[int64]revision, error) {
	var files []string
	for _, p := range strings.Split(patterns, ",") {
		matches, err := filepath.Glob(p)
		if err != nil {
			return nil, fmt.Errorf("pairsample: pattern %q: %w", p, err)
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("pairsample: no file matches %q", p)
		}
		files = append(files, matches...)
	}
	slices.Sort(files)
	out := map[int64]revision{}
	for _, file := range files {
		if err := readFile(ctx, file, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readFile cleans and splits every article of file as the labels test does
// (the file's own site, sentence.PageSplitter) and adds its sentences to out.
func readFile(ctx context.Context, file string, out map[int64]revision) error {
	site, err := dump.ReadSite(ctx, file)
	if err != nil {
		return err
	}
	sites := []document.Site{site}
	wikis, err := sentence.NewWikis(sites)
	if err != nil {
		return fmt.Errorf("pairsample: %s: %w", file, err)
	}
	ps := sentence.PageSplitter{Sites: clean.NewSites(sites), Wikis: wikis}
	rc, err := dump.Open(ctx, file)
	if err != nil {
		return err
	}
	defer rc.Close()
	r := dump.NewReader(rc, file, dump.Options{})
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		var pe *dump.PageError
		if errors.As(err, &pe) {
			log.Printf("pairsample: %v (skipped)", err)
			continue
		}
		if err != nil {
			return fmt.Errorf("pairsample: reading %s: %w", file, err)
		}
		if p.NS != 0 || p.Redirect != "" {
			continue
		}
		if prev, ok := out[p.ID]; ok {
			return fmt.Errorf("pairsample: page %d is in %s and in %s on one side", p.ID, prev.file, file)
		}
		p.Wiki = site.Wiki
		page, err := ps.Split(p)
		if err != nil {
			return fmt.Errorf("pairsample: %s: page %d: %w", file, p.ID, err)
		}
		rev := revision{file: file}
		for i := range page.Sentences {
			rev.sentences = append(rev.sentences, page.Sentences[i].View())
		}
		out[p.ID] = rev
	}
}
