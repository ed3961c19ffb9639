package main

import (
	"context"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/io/multistream"
	"github.com/neardup/neardup/io/result"
	"github.com/neardup/neardup/transforms/summary"
)

// sources is the planned input: dumps read by io/dump (plain XML in byte
// ranges, compressed files whole) and multistream dumps read stream by
// stream through their index by io/multistream.
type sources struct {
	Dumps       []dump.Source
	Multistream []multistream.Source
	// Sites are the wikis the files come from, one per wiki, by name.
	Sites []dump.Site

	// dbnames are the <dbname>s of the dumps' headers, by file.
	dbnames map[string]string
	// files describes every input file for the manifest (describe).
	files []summary.Input
}

// planSources sorts the input files into sources. A file named like a
// multistream dump whose index exists (given as input too, or beside it) is
// read through the index; the index itself is not read as a dump.
func planSources(ctx context.Context, files []string) (sources, error) {
	var src sources
	var plain, multi []string
	indexes := map[string]bool{}
	for _, f := range files {
		idx := multistream.IndexName(f)
		if idx == "" {
			continue
		}
		found := slices.Contains(files, idx)
		if !found {
			var err error
			if found, err = result.Exists(ctx, idx); err != nil {
				return sources{}, err
			}
		}
		if found {
			indexes[idx] = true
		}
	}
	for _, f := range files {
		switch {
		case indexes[f]:
		case indexes[multistream.IndexName(f)]:
			multi = append(multi, f)
		default:
			plain = append(plain, f)
		}
	}
	var err error
	if src.Dumps, err = dump.Plan(ctx, plain); err != nil {
		return sources{}, err
	}
	for _, f := range multi {
		planned, err := dump.Plan(ctx, []string{f, multistream.IndexName(f)})
		if err != nil {
			return sources{}, err
		}
		src.Multistream = append(src.Multistream, multistream.Source{
			File: f, Size: planned[0].Size, Index: planned[1].File, IndexSize: planned[1].Size})
	}
	if err := src.readSites(ctx); err != nil {
		return sources{}, err
	}
	if err := src.describe(ctx); err != nil {
		return sources{}, err
	}
	return src, nil
}

// readSites reads the header of every file, a few at a time, stamps each
// source with its wiki's name (and each dump with its header's namespaces)
// and gathers the wikis' sites.
func (src *sources) readSites(ctx context.Context) error {
	var files []string
	for _, d := range src.Dumps {
		files = append(files, d.File)
	}
	for _, m := range src.Multistream {
		files = append(files, m.File)
	}
	sites := make([]dump.Site, len(files))
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
	src.Sites = dump.MergeSites(sites)
	src.dbnames = map[string]string{}
	for i, f := range files {
		src.dbnames[f] = sites[i].DBName
	}
	return nil
}

// describe lists every input file for the manifest: its size, the date in
// its name, its header's <dbname> (a multistream index: its dump's) and its
// checksum, the SHA-256 of a local file costing a read of it at launch.
func (src *sources) describe(ctx context.Context) error {
	var in []summary.Input
	add := func(file string, size int64, dbname string) {
		in = append(in, summary.Input{Path: file, Bytes: size, DumpDate: dumpDate(file), DBName: dbname})
	}
	for _, d := range src.Dumps {
		add(d.File, d.Size, src.dbnames[d.File])
	}
	for _, m := range src.Multistream {
		add(m.File, m.Size, src.dbnames[m.File])
		add(m.Index, m.IndexSize, src.dbnames[m.File])
	}
	files := make([]string, len(in))
	for i, f := range in {
		files[i] = f.Path
	}
	sums, err := checksums(ctx, files)
	if err != nil {
		return err
	}
	for i, s := range sums {
		in[i].Checksum, in[i].MD5 = s.checksum, s.md5
	}
	src.files = in
	return nil
}

// inputs lists every file the run reads, for the manifest: the dumps, then
// each multistream dump and its index.
func (s sources) inputs() []summary.Input {
	return slices.Clone(s.files)
}

// read adds the reading of every source to s and returns the pages, dead
// letters and counts of all of them.
func (src sources) read(s beam.Scope, opt dump.ReadOptions) (pages, dead, counts beam.PCollection) {
	var ps, ds, cs []beam.PCollection
	if len(src.Dumps) > 0 {
		p, d, c := dump.Read(s, beam.CreateList(s, src.Dumps), opt)
		ps, ds, cs = append(ps, p), append(ds, d), append(cs, c)
	}
	if len(src.Multistream) > 0 {
		p, d, c := multistream.Read(s, beam.CreateList(s, src.Multistream), opt)
		ps, ds, cs = append(ps, p), append(ds, d), append(cs, c)
	}
	return beam.Flatten(s, ps...), beam.Flatten(s, ds...), beam.Flatten(s, cs...)
}
