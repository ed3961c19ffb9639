package dump

import (
	"bytes"
	stdbzip2 "compress/bzip2"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/dsnet/compress/bzip2"
)

// readShared reads the file name under the shared real data, or skips.
func readShared(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(sharedData(tb), name))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// BenchmarkReader reads Katrina.xml (1 MB, 93 pages) from memory.
func BenchmarkReader(b *testing.B) {
	data := readShared(b, "wikiduper/Katrina.xml")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		eachPage(b, NewReader(bytes.NewReader(data), "Katrina.xml", Options{}), func(*Reader) { n++ })
		if n != 93 {
			b.Fatalf("%d pages", n)
		}
	}
}

// katrinaPages returns the raw <page> elements of Katrina.xml.
func katrinaPages(b *testing.B) (pages [][]byte, size int64) {
	r := NewReader(bytes.NewReader(readShared(b, "wikiduper/Katrina.xml")), "Katrina.xml", Options{})
	eachPage(b, r, func(r *Reader) {
		pages = append(pages, bytes.Clone(r.record))
		size += int64(len(r.record))
	})
	return pages, size
}

// eachPage calls f after each page r reads, to r's end; an error stops the
// benchmark.
func eachPage(b *testing.B, r *Reader, f func(*Reader)) {
	for {
		_, err := r.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			b.Fatal(err)
		}
		f(r)
	}
}

// BenchmarkParsePage compares the fast page parser with encoding/xml on the
// pages of Katrina.xml.
func BenchmarkParsePage(b *testing.B) {
	pages, size := katrinaPages(b)
	var fast fastParser
	for _, parser := range []struct {
		name  string
		parse func([]byte, *builder) error
	}{
		{"fast", func(pg []byte, bld *builder) error {
			if !fast.parse(pg, bld) {
				return errors.New("fast parser refused a page")
			}
			return nil
		}},
		{"encoding-xml", parseXML},
	} {
		b.Run(parser.name, func(b *testing.B) {
			var bld builder
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, pg := range pages {
					bld.reset()
					if err := parser.parse(pg, &bld); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkBzip2 decompresses gensim's enwiki part (1.7 MB compressed, 6.1
// MB decompressed) with both bzip2 decoders; MB/s are of decompressed data.
func BenchmarkBzip2(b *testing.B) {
	data := readShared(b, "gensim-wiki/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2")
	const plainSize = 6089746
	decoders := []struct {
		name string
		new  func(io.Reader) (io.Reader, error)
	}{
		{"dsnet", func(r io.Reader) (io.Reader, error) { return bzip2.NewReader(r, nil) }},
		{"std", func(r io.Reader) (io.Reader, error) { return stdbzip2.NewReader(r), nil }},
	}
	for _, d := range decoders {
		b.Run(d.name, func(b *testing.B) {
			b.SetBytes(plainSize)
			b.ReportAllocs()
			for b.Loop() {
				r, err := d.new(bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, r)
				if err != nil || n != plainSize {
					b.Fatalf("%d bytes, %v", n, err)
				}
			}
		})
	}
}
