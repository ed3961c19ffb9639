package webcorpus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/testkit/corpus"
)

// Source is a dump the corpus copies articles from.
type Source struct {
	// File is the dump's path relative to Config.DataDir, as the pipeline
	// test must read it ("wikiduper/Katrina.xml").
	File string
	// Lang is the language of its text. It may differ from the language
	// the dump's header declares: DBpedia's de and fr minidumps say they
	// are enwiki (dbname and xml:lang).
	Lang string
	// MaxPages bounds the pages read (every page counts, redirects and
	// other namespaces too); 0 reads them all.
	MaxPages int
}

// Article is a page of a source dump as the pipeline sees it: cleaned by
// package clean and split by package sentence with the rules of its
// dump's declared language.
type Article struct {
	Wiki   string // the wiki's name as the pipeline reads it (document.Site.Wiki)
	Lang   string // Source.Lang
	File   string // Source.File
	PageID int64
	Title  string
	// Sentences are the article's sentences; an index is an ordinal.
	Sentences []corpus.Sentence
}

// readSource reads the main-namespace articles of src (redirects left
// out) under dataDir.
func readSource(ctx context.Context, dataDir string, src Source) ([]Article, error) {
	path := filepath.Join(dataDir, filepath.FromSlash(src.File))
	site, err := dump.ReadSite(ctx, path)
	if err != nil {
		return nil, err
	}
	rc, err := dump.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	splitter, err := corpus.NewSplitter([]document.Site{site})
	if err != nil {
		return nil, err
	}
	r := dump.NewReader(rc, path, dump.Options{FileStart: true})
	var out []Article
	for n := 0; src.MaxPages == 0 || n < src.MaxPages; n++ {
		p, err := r.Next()
		var pe *dump.PageError
		switch {
		case errors.Is(err, io.EOF) || errors.Is(err, dump.ErrTruncated):
			return out, nil
		case errors.As(err, &pe):
			continue
		case err != nil:
			return nil, fmt.Errorf("webcorpus: %s: %w", src.File, err)
		}
		if p.NS != 0 || p.Redirect != "" {
			continue
		}
		p.Wiki = site.Wiki
		ss, err := splitter.Split(p)
		if err != nil {
			return nil, err
		}
		out = append(out, Article{Wiki: p.Wiki, Lang: src.Lang, File: src.File, PageID: p.ID, Title: p.Title, Sentences: ss})
	}
	return out, nil
}
