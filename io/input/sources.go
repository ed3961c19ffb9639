// Package input plans a run's input files and reads them: MediaWiki dumps
// (plain XML in byte ranges, compressed files whole, multistream dumps
// through their index), the files of text corpora (JSON lines, plain text)
// and web crawls (WARC and WET). Every pipeline plans its input here, so
// that a wiki, a corpus or a crawl is named, checked and read the same way
// by the sentence pipeline and by the reuse pipeline.
package input

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/io/multistream"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/io/text"
	"github.com/neardup/neardup/io/warc"
)

// Sources is the planned input: dumps read by io/dump (plain XML in byte
// ranges, compressed files whole), multistream dumps read stream by
// stream through their index by io/multistream, the files of text
// corpora (JSON lines, plain text) read whole by io/text, and WARC and WET
// files read by io/warc (split by record offsets).
type Sources struct {
	Dumps       []dump.Source
	Multistream []multistream.Source
	Texts       []text.Source
	WARCs       []warc.Source
	// Sites are the wikis and text corpora the files come from, one per
	// wiki or corpus, by name.
	Sites []document.Site

	// dbnames are the <dbname>s of the dumps' headers, by file.
	dbnames map[string]string
	// files describes every input file for the manifest (describe).
	files []document.Input
}

// WARCSplitBytes is the size of the splits of a WARC file read in
// parallel: a gzip-per-record WARC file of 1 GB, as Common Crawl ships
// them, is read in 16 splits.
const WARCSplitBytes = 64 << 20

// indexSuffixes are the names of a WARC file's own CDX index, beside it,
// in the order they are looked for: what pywb's and warcio's indexers
// write (cdxj-indexer, warcio index), compressed or not.
var indexSuffixes = []string{".cdxj", ".cdxj.gz", ".cdx", ".cdx.gz"}

// isWARCIndex reports whether file is named as the CDX index of another of
// files: it is read with that file, not as an input of its own.
func isWARCIndex(file string, files []string) bool {
	for _, suffix := range indexSuffixes {
		if base, ok := strings.CutSuffix(file, suffix); ok && slices.Contains(files, base) {
			return true
		}
	}
	return false
}

// warcIndexes finds the CDX index of each WARC file that has one beside it
// (FILE.cdxj, FILE.cdx, either gzipped), a few files at a time: its
// records' offsets cut the file's splits (warc.Plan).
func warcIndexes(ctx context.Context, files []string) (map[string]string, error) {
	found := make([]string, len(files))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for i, f := range files {
		g.Go(func() error {
			for _, suffix := range indexSuffixes {
				ok, err := result.Exists(gctx, f+suffix)
				if err != nil {
					return fmt.Errorf("looking for the index of %s: %w", f, err)
				}
				if ok {
					found[i] = f + suffix
					return nil
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for i, f := range files {
		if found[i] != "" {
			out[f] = found[i]
		}
	}
	return out, nil
}

// Plan sorts the input files into sources by format: format, or,
// for text.Auto, each file's content (text.Detect). A file named like a
// multistream dump whose index exists (given as input too, or beside it) is
// read through the index; the index itself is not read as a dump. Nor is a
// WARC file's CDX index given with it (FILE.cdxj beside FILE). A binary
// file given as text is refused, as are two text corpora of one name and
// more wikis and corpora than sentence ids can tell apart.
func Plan(ctx context.Context, files []string, format text.Format) (Sources, error) {
	var src Sources
	var multi, rest []string
	indexes := map[string]bool{}
	if format == text.Auto || format == text.MediaWiki { // files given as text are all text
		var err error
		if multi, indexes, err = multistreamDumps(ctx, files); err != nil {
			return Sources{}, err
		}
	}
	for _, f := range files {
		if !indexes[f] && !slices.Contains(multi, f) && !isWARCIndex(f, files) {
			rest = append(rest, f)
		}
	}
	byFormat, err := sortByFormat(ctx, rest, format)
	if err != nil {
		return Sources{}, err
	}
	if src.Dumps, err = dump.Plan(ctx, byFormat[text.MediaWiki]); err != nil {
		return Sources{}, err
	}
	for _, f := range multi {
		planned, err := dump.Plan(ctx, []string{f, multistream.IndexName(f)})
		if err != nil {
			return Sources{}, err
		}
		src.Multistream = append(src.Multistream, multistream.Source{
			File: f, Size: planned[0].Size, Index: planned[1].File, IndexSize: planned[1].Size})
	}
	cdx, err := warcIndexes(ctx, byFormat[text.WARC])
	if err != nil {
		return Sources{}, err
	}
	if src.WARCs, err = warc.Plan(ctx, byFormat[text.WARC], WARCSplitBytes, cdx); err != nil {
		return Sources{}, err
	}
	if src.Texts, err = text.Plan(ctx, byFormat[text.JSONL], byFormat[text.Plain]); err != nil {
		return Sources{}, err
	}
	if err := src.readSites(ctx); err != nil {
		return Sources{}, err
	}
	if err := src.describe(ctx); err != nil {
		return Sources{}, err
	}
	return src, nil
}

// multistreamDumps returns the files named like a multistream dump whose
// index exists (given as input too, or beside it), and those indexes.
func multistreamDumps(ctx context.Context, files []string) (multi []string, indexes map[string]bool, err error) {
	indexes = map[string]bool{}
	for _, f := range files {
		idx := multistream.IndexName(f)
		if idx == "" {
			continue
		}
		found := slices.Contains(files, idx)
		if !found {
			if found, err = result.Exists(ctx, idx); err != nil {
				return nil, nil, err
			}
		}
		if found {
			indexes[idx] = true
		}
	}
	for _, f := range files {
		if !indexes[f] && indexes[multistream.IndexName(f)] {
			multi = append(multi, f)
		}
	}
	return multi, indexes, nil
}

// sortByFormat sorts files by format: format for all of them (a file given as
// JSON lines or plain text must look like text: text.CheckText; a WARC
// file's records are checked as they are read), or, for text.Auto, each
// file's own (text.Detect). The heads of the files are read a few at a
// time.
func sortByFormat(ctx context.Context, files []string, format text.Format) (map[text.Format][]string, error) {
	out := map[text.Format][]string{}
	if format == text.MediaWiki || format == text.WARC {
		out[format] = files
		return out, nil
	}
	found := make([]text.Format, len(files))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for i, f := range files {
		g.Go(func() error {
			if format == text.Auto {
				var err error
				found[i], err = text.Detect(gctx, f)
				return err
			}
			found[i] = format
			head, err := text.ReadHead(gctx, f)
			if err != nil {
				return err
			}
			return text.CheckText(f, head)
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for i, f := range files {
		out[found[i]] = append(out[found[i]], f)
	}
	return out, nil
}

// readSites reads the header of every dump, a few at a time, stamps each
// dump with its wiki's name (and its header's namespaces) and gathers the
// sites of the wikis and of the text corpora, which must not share a name.
func (src *Sources) readSites(ctx context.Context) error {
	var files []string
	for _, d := range src.Dumps {
		files = append(files, d.File)
	}
	for _, m := range src.Multistream {
		files = append(files, m.File)
	}
	sites := make([]document.Site, len(files))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for i, f := range files {
		g.Go(func() error {
			var err error
			sites[i], err = dump.ReadSite(gctx, f)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for i := range src.Dumps {
		src.Dumps[i].Wiki = sites[i].Wiki
		// Every byte range derives the namespace of a page without <ns>
		// from the names of the file's header, not only the first.
		src.Dumps[i].Namespaces = sites[i].Namespaces
	}
	for i := range src.Multistream {
		src.Multistream[i].Wiki = sites[len(src.Dumps)+i].Wiki
	}
	src.dbnames = map[string]string{}
	for i, f := range files {
		src.dbnames[f] = sites[i].DBName
	}
	wikis := document.MergeSites(sites)
	for _, corpus := range src.Corpora() {
		if i := slices.IndexFunc(wikis, func(s document.Site) bool { return s.Wiki == corpus }); i >= 0 {
			return fmt.Errorf("text corpus %s (%s) has the name of a wiki of the input: their ids would mix; rename the file",
				corpus, src.corpusFile(corpus))
		}
		sites = append(sites, text.Site(corpus))
	}
	src.Sites = document.MergeSites(sites)
	if len(src.Sites) > document.MaxWikis {
		return fmt.Errorf("%d wikis and text corpora in one run (each JSON-lines file is a corpus); sentence ids tell at most %d apart",
			len(src.Sites), document.MaxWikis)
	}
	return nil
}

// corpusFile names a file of a text corpus: a JSON-lines file, the first
// plain-text file, or a WARC file.
func (src *Sources) corpusFile(corpus string) string {
	for _, t := range src.Texts {
		if t.Corpus == corpus {
			return t.File
		}
	}
	for _, w := range src.WARCs {
		if w.Corpus == corpus {
			return w.File
		}
	}
	return ""
}

// Corpora returns the names of the text corpora and web crawls of the
// input (every source that is not a wiki), sorted, each once: a corpus
// per JSON-lines file and per WARC file, and one for the plain-text files.
// Two of one name are an error of Plan.
func (src *Sources) Corpora() []string {
	names := text.Corpora(src.Texts)
	for _, w := range src.WARCs {
		names = append(names, w.Corpus)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// describe lists every input file for the manifest: its size, the date in
// its name, its header's <dbname> (a multistream index: its dump's) and its
// checksum, the SHA-256 of a local file costing a read of it at launch.
func (src *Sources) describe(ctx context.Context) error {
	var in []document.Input
	add := func(file string, size int64, dbname string) {
		in = append(in, document.Input{Path: file, Bytes: size, DumpDate: DumpDate(file), DBName: dbname})
	}
	for _, d := range src.Dumps {
		add(d.File, d.Size, src.dbnames[d.File])
	}
	for _, m := range src.Multistream {
		add(m.File, m.Size, src.dbnames[m.File])
		add(m.Index, m.IndexSize, src.dbnames[m.File])
	}
	for _, t := range src.Texts {
		add(t.File, t.Size, "")
		in[len(in)-1].Format, in[len(in)-1].Corpus = textFormat(t).String(), t.Corpus
	}
	for _, w := range src.WARCs {
		if w.Start > 0 {
			continue // a later split of a file listed already
		}
		add(w.File, w.Size, "")
		in[len(in)-1].Format, in[len(in)-1].Corpus = text.WARC.String(), w.Corpus
	}
	files := make([]string, len(in))
	for i, f := range in {
		files[i] = f.Path
	}
	sums, err := Checksums(ctx, files)
	if err != nil {
		return err
	}
	for i, s := range sums {
		in[i].Checksum, in[i].MD5 = s.Checksum, s.MD5
	}
	src.files = in
	return nil
}

// ReadBytes is the size of the files whose bytes the readers count as they
// read them: the dumps and text files, not the multistream indexes.
func (src Sources) ReadBytes() int64 {
	var n int64
	for _, d := range src.Dumps {
		n += d.Size
	}
	for _, m := range src.Multistream {
		n += m.Size
	}
	for _, t := range src.Texts {
		n += t.Size
	}
	for _, w := range src.WARCs {
		if w.Start == 0 {
			n += w.Size
		}
	}
	return n
}

// TextBytes estimates the decompressed size of the files ReadBytes counts:
// a compressed file's size times the usual ratio of its compression on
// wikitext and web text (bzip2 and gzip about 4, xz 5; the scaled
// benchmark corpora compress less, 3.3, since their copies repeat one
// another). It sizes the work before any is read.
func (src Sources) TextBytes() int64 {
	var n int64
	for _, d := range src.Dumps {
		n += d.Size * expansion(d.File)
	}
	for _, m := range src.Multistream {
		n += m.Size * expansion(m.File)
	}
	for _, t := range src.Texts {
		n += t.Size * expansion(t.File)
	}
	for _, w := range src.WARCs {
		if w.Start == 0 {
			n += w.Size * expansion(w.File)
		}
	}
	return n
}

// expansion is the usual ratio of decompressed to compressed bytes for a
// file of that name.
func expansion(name string) int64 {
	switch strings.ToLower(path.Ext(name)) {
	case ".bz2", ".gz", ".zst":
		return 4
	case ".xz":
		return 5
	}
	return 1
}

// textFormat is the format of a text corpus's file.
func textFormat(t text.Source) text.Format {
	if t.Plain {
		return text.Plain
	}
	return text.JSONL
}

// Inputs lists every file the run reads, for the manifest: the dumps, then
// each multistream dump and its index, then the files of text corpora.
func (s Sources) Inputs() []document.Input {
	return slices.Clone(s.files)
}

// Read adds the reading of every source to s and returns the pages, dead
// letters and counts of all of them.
func (src Sources) Read(s beam.Scope, opt dump.ReadOptions) (pages, dead, counts beam.PCollection) {
	var ps, ds, cs []beam.PCollection
	if len(src.Dumps) > 0 {
		p, d, c := dump.Read(s, beam.CreateList(s, src.Dumps), opt)
		ps, ds, cs = append(ps, p), append(ds, d), append(cs, c)
	}
	if len(src.Multistream) > 0 {
		p, d, c := multistream.Read(s, beam.CreateList(s, src.Multistream), opt)
		ps, ds, cs = append(ps, p), append(ds, d), append(cs, c)
	}
	if len(src.Texts) > 0 {
		p, d, c := text.Read(s, beam.CreateList(s, src.Texts), text.ReadOptions{MaxDocBytes: opt.MaxPageBytes})
		ps, ds, cs = append(ps, p), append(ds, d), append(cs, c)
	}
	if len(src.WARCs) > 0 {
		p, d, c := warc.Read(s, beam.CreateList(s, src.WARCs), warc.ReadOptions{MaxRecordBytes: opt.MaxPageBytes})
		ps, ds, cs = append(ps, p), append(ds, d), append(cs, c)
	}
	return beam.Flatten(s, ps...), beam.Flatten(s, ds...), beam.Flatten(s, cs...)
}
