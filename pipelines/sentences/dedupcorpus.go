package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/io/text"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/dedup"
	"github.com/neardup/neardup/transforms/sentence"
	"github.com/neardup/neardup/transforms/shingle"
	"github.com/neardup/neardup/transforms/wikitext"
)

func init() {
	register.Function1x2(keyBySourceCorpus)
	register.DoFn6x1[context.Context, string, func(*text.Source) bool, func(*[]byte) bool, func(int), func(counters.Counts), error](&dedupCorpusFn{})
	register.Emitter2[string, text.Source]()
	register.Iter1[text.Source]()
	register.Emitter1[int]()
}

// dedupCorpusName is the name of the deduplicated copy of a JSON-lines
// corpus.
func dedupCorpusName(corpus string) string { return "dedup-" + corpus + ".jsonl.gz" }

// jsonlSources are the JSON-lines files of the run, each a corpus.
func (o Options) jsonlSources() []text.Source {
	if o.Sources == nil {
		return nil
	}
	var out []text.Source
	for _, src := range o.Sources.Texts {
		if !src.Plain {
			out = append(out, src)
		}
	}
	return out
}

// jsonlCorpora are the names of the run's JSON-lines corpora, sorted.
func (o Options) jsonlCorpora() []string {
	var names []string
	for _, src := range o.jsonlSources() {
		names = append(names, src.Corpus)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// dedupCorpora writes the deduplicated copy of each JSON-lines corpus of
// the run, from removals (duplicateSentencesFn's: KV<corpus, batch of
// uvarint page id and ordinal pairs>), and returns PCollection<int> (one
// element a file written, for the manifest) and partial counts.
func dedupCorpora(s beam.Scope, opts Options, removals beam.PCollection) (written, counts beam.PCollection) {
	s = s.Scope("Deduplicated corpora")
	sources := beam.ParDo(s, keyBySourceCorpus, beam.CreateList(s, opts.jsonlSources()))
	fn := &dedupCorpusFn{
		Dir: opts.RunDir(), MaxDocBytes: opts.MaxPageBytes, Sites: opts.Sources.Sites,
		ShingleLength: opts.ShingleLength, MinShingles: opts.MinShingles, MaxShingles: opts.MaxShingles,
		Norm: shingle.Normalization{FoldCase: opts.FoldCase, CollapseSpace: opts.CollapseSpace},
	}
	return beam.ParDo2(s, fn, beam.CoGroupByKey(s, sources, removals))
}

func keyBySourceCorpus(src text.Source) (string, text.Source) { return src.Corpus, src }

// dedupCorpusFn writes a corpus's copy, dedup-CORPUS.jsonl.gz: its lines
// in order, each document's text without its removed sentences
// (dedup.Rebuild), a document left with no sentence the run compares
// dropped, a document with none removed and a line the run could not read
// copied as they are.
type dedupCorpusFn struct {
	Dir                                     string
	MaxDocBytes                             int
	Sites                                   []document.Site
	ShingleLength, MinShingles, MaxShingles int
	Norm                                    shingle.Normalization

	cleaner  clean.Cleaner
	splitter sentence.Splitter
	shingler *shingle.Shingler
}

func (f *dedupCorpusFn) Setup() error {
	wikis, err := sentence.NewWikis(f.Sites)
	if err != nil {
		return err
	}
	f.cleaner.Sites, f.splitter.Wikis = clean.NewSites(f.Sites), wikis
	f.shingler = shingle.New(f.ShingleLength, f.Norm)
	return nil
}

func (f *dedupCorpusFn) ProcessElement(ctx context.Context, corpus string, sources func(*text.Source) bool, removals func(*[]byte) bool, emit func(int), emitCounts func(counters.Counts)) error {
	var src text.Source
	if !sources(&src) {
		return nil // a corpus of no JSON-lines file: nothing to copy
	}
	removed, err := removedSentences(removals)
	if err != nil {
		return fmt.Errorf("dedup: removals of corpus %s: %w", corpus, err)
	}
	var c counters.Counts
	name := result.Join(f.Dir, dedupCorpusName(corpus))
	err = result.WriteStream(ctx, name, func(w *bufio.Writer) error {
		zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed) // no name, no time: the same lines give the same bytes
		if err != nil {
			return err
		}
		if err := f.copyCorpus(ctx, src, removed, zw, &c.Duplicates); err != nil {
			return err
		}
		return zw.Close()
	})
	if err != nil {
		return err
	}
	emit(1)
	counters.Emit(ctx, c, emitCounts)
	return nil
}

// removedSentences decodes the removal batches of a corpus into the
// ordinals to remove, by page id.
func removedSentences(batches func(*[]byte) bool) (map[int64]map[int]bool, error) {
	out := map[int64]map[int]bool{}
	var b []byte
	for batches(&b) {
		for len(b) > 0 {
			page, n := binary.Uvarint(b)
			if n <= 0 {
				return nil, errors.New("corrupt removal record")
			}
			ordinal, m := binary.Uvarint(b[n:])
			if m <= 0 {
				return nil, errors.New("corrupt removal record")
			}
			b = b[n+m:]
			if out[int64(page)] == nil {
				out[int64(page)] = map[int]bool{}
			}
			out[int64(page)][int(ordinal)] = true
		}
	}
	return out, nil
}

// copyCorpus copies the lines of src to w, rebuilding the documents that
// lose sentences, and counts into c.
func (f *dedupCorpusFn) copyCorpus(ctx context.Context, src text.Source, removed map[int64]map[int]bool, w io.Writer, c *counters.Duplicates) error {
	rc, err := dump.Open(ctx, src.File)
	if err != nil {
		return err
	}
	defer rc.Close()
	r := text.NewJSONLReader(rc, src.File, f.MaxDocBytes)
	for {
		p, err := r.Next()
		var bad *text.DocError
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case errors.As(err, &bad):
			if r.Raw() == nil {
				c.CopyLinesTooLong++ // not held by the reader: in the run's dead letters
				continue
			}
			c.CopyLinesUnread++
			if err := writeLine(w, r.Raw()); err != nil {
				return err
			}
			continue
		case err != nil:
			var cut *text.TruncatedError
			if errors.As(err, &cut) {
				return nil // the run's dead letters say where it ends
			}
			return err
		}
		line, keep, err := f.document(p, src.Corpus, r.Raw(), removed[p.ID], c)
		if err != nil {
			return fmt.Errorf("%s: line %d: %w", src.File, p.ID, err)
		}
		if !keep {
			c.CopyDocumentsDropped++
			continue
		}
		c.CopyDocuments++
		if err := writeLine(w, line); err != nil {
			return err
		}
	}
}

// document returns the line of document p (raw, as the file has it)
// without the sentences of the given ordinals, and whether it is kept.
func (f *dedupCorpusFn) document(p document.Page, corpus string, raw []byte, ordinals map[int]bool, c *counters.Duplicates) ([]byte, bool, error) {
	if len(ordinals) == 0 {
		return raw, true, nil
	}
	p.Wiki = corpus
	cp, err := f.cleaner.Clean(p)
	if err != nil {
		return nil, false, err
	}
	var paras []dedup.Paragraph
	err = f.splitter.Paragraphs(cp, func(para wikitext.Paragraph, spans []sentence.Span) {
		dp := dedup.Paragraph{Text: para.Text}
		for _, sp := range spans {
			dp.Spans = append(dp.Spans, [2]int{sp.Start, sp.End})
		}
		paras = append(paras, dp)
	})
	if err != nil {
		return nil, false, err
	}
	rebuilt := dedup.Rebuild(paras, func(o int) bool { return ordinals[o] }, f.inWindow)
	c.CopySentencesRemoved += int64(rebuilt.Removed)
	if rebuilt.Drop {
		return nil, false, nil
	}
	line, err := dedup.SetText(raw, rebuilt.Text)
	return line, err == nil, err
}

// inWindow reports whether the run compares a sentence: its shingles are
// within the length window, as the signing stage counts them.
func (f *dedupCorpusFn) inWindow(s string) bool {
	_, n := f.shingler.HashesBelow(s, f.MaxShingles)
	return f.MinShingles < n && n < f.MaxShingles
}

func writeLine(w io.Writer, line []byte) error {
	if _, err := w.Write(line); err != nil {
		return err
	}
	_, err := w.Write([]byte{'\n'})
	return err
}
