package multistream

import (
	"bytes"
	stdbzip2 "compress/bzip2"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/dsnet/compress/bzip2"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/testkit/testshared"
)

// readDecompressed reads a shared data file, decompressing a .bz2.
func readDecompressed(t testing.TB, name string) []byte {
	t.Helper()
	f, err := os.Open(testshared.Data(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if filepath.Ext(name) == ".bz2" {
		if r, err = bzip2.NewReader(f, nil); err != nil {
			t.Fatal(err)
		}
	}
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// realDump is a multistream file built from real pages.
type realDump struct {
	plain  []byte // header, pages and footer concatenated
	pages  int
	file   []byte
	index  []byte
	ranges []Range
}

// buildRealDump builds a multistream file, perStream pages a stream, from
// the pages of Weissman et al.'s Katrina.xml (93 pages, export schema 0.8)
// and of gensim's enwiki sample (206 pages, schema 0.10), under the
// header and footer of Katrina.xml.
func buildRealDump(t testing.TB, perStream int) realDump {
	t.Helper()
	header, katrina, footer := Split(readDecompressed(t, "wikiduper/Katrina.xml"))
	_, gensim, _ := Split(readDecompressed(t, "gensim-wiki/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"))
	if len(katrina) != 93 || len(gensim) != 206 {
		t.Fatalf("split %d and %d pages, want 93 and 206", len(katrina), len(gensim))
	}
	pages := append(katrina, gensim...)
	d := realDump{plain: bytes.Clone(header), pages: len(pages)}
	for _, p := range pages {
		d.plain = append(d.plain, p...)
	}
	d.plain = append(d.plain, footer...)

	var file, index bytes.Buffer
	if err := Write(&file, &index, pages, header, footer, perStream); err != nil {
		t.Fatal(err)
	}
	d.file, d.index = file.Bytes(), index.Bytes()
	streams, err := ParseIndex(bytes.NewReader(d.index))
	if err != nil {
		t.Fatal(err)
	}
	d.ranges = Ranges(streams, int64(len(d.file)))
	return d
}

// readWhole reads all pages of the file sequentially, as one document.
func (d realDump) readWhole(t testing.TB) []content {
	zr, err := bzip2.NewReader(bytes.NewReader(d.file), nil)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := readAll(t, dump.NewReader(zr, "whole", dump.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// readRanges reads every range of the file on its own, on the given
// number of goroutines, each with one Decoder, and returns each range's
// pages and error.
func (d realDump) readRanges(t testing.TB, file []byte, workers int) ([][]content, []error) {
	pages := make([][]content, len(d.ranges))
	errs := make([]error, len(d.ranges))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var dec Decoder
			for i := range next {
				pages[i], errs[i] = readAll(t, dec.ReadRange(bytes.NewReader(file), d.ranges[i], "ms", dump.Options{}))
			}
		})
	}
	for i := range d.ranges {
		next <- i
	}
	close(next)
	wg.Wait()
	return pages, errs
}

func TestRealMultistream(t *testing.T) {
	const perStream = 10
	d := buildRealDump(t, perStream)

	t.Run("file decompresses to header, pages and footer", func(t *testing.T) {
		// Go's own decoder, independent of the one that wrote the file.
		got, err := io.ReadAll(stdbzip2.NewReader(bytes.NewReader(d.file)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, d.plain) {
			t.Fatalf("decompressed %d bytes differ from the %d bytes written", len(got), len(d.plain))
		}
	})

	whole := d.readWhole(t)
	if len(whole) != d.pages {
		t.Fatalf("read %d pages of the whole file, want %d", len(whole), d.pages)
	}

	t.Run("index lists every page in streams of 10", func(t *testing.T) {
		wantStreams := (d.pages + perStream - 1) / perStream
		if len(d.ranges) != 1+wantStreams || d.ranges[0].Pages != 0 || d.ranges[0].Start != 0 {
			t.Fatalf("%d ranges, first %v; want a header range and %d streams", len(d.ranges), d.ranges[0], wantStreams)
		}
		for i, rg := range d.ranges[1:] {
			if want := min(perStream, d.pages-i*perStream); rg.Pages != int64(want) {
				t.Errorf("stream %d lists %d pages, want %d", i, rg.Pages, want)
			}
			if first := whole[i*perStream].ID; rg.FirstPageID != first {
				t.Errorf("stream %d starts with page %d, want %d", i, rg.FirstPageID, first)
			}
			if !bytes.HasPrefix(d.file[rg.Start:], []byte("BZh9")) {
				t.Errorf("stream %d at %d does not start with BZh9", i, rg.Start)
			}
		}
		if last := d.ranges[len(d.ranges)-1]; last.End != int64(len(d.file)) {
			t.Errorf("last range ends at %d, want the file size %d", last.End, len(d.file))
		}
	})

	t.Run("ranges give the pages of the whole file", func(t *testing.T) {
		for _, workers := range []int{1, 2} {
			pages, errs := d.readRanges(t, d.file, workers)
			var got []content
			for i, rg := range d.ranges {
				wantErr := i == 0 // the header alone does not close <mediawiki>
				if (errs[i] != nil) != wantErr || int64(len(pages[i])) != rg.Pages {
					t.Errorf("%d workers, range %d %v: %d pages, error %v", workers, i, rg, len(pages[i]), errs[i])
				}
				got = append(got, pages[i]...)
			}
			if fmt.Sprint(got) != fmt.Sprint(whole) {
				t.Errorf("%d workers: the ranges' %d pages differ from the whole file's %d", workers, len(got), len(whole))
			}
		}
	})

	t.Run("a corrupt stream loses only its own pages", func(t *testing.T) {
		const bad = 5
		rg := d.ranges[bad]
		corrupt := bytes.Clone(d.file)
		corrupt[rg.Start+rg.Size()/2] ^= 0xff
		pages, errs := d.readRanges(t, corrupt, 2)
		var decode *DecodeError
		if !errors.Is(errs[bad], dump.ErrTruncated) || !errors.As(errs[bad], &decode) {
			t.Errorf("corrupt range: error %v, want truncation by a DecodeError", errs[bad])
		}
		first := (bad - 1) * perStream
		if n := len(pages[bad]); n >= int(rg.Pages) || fmt.Sprint(pages[bad]) != fmt.Sprint(whole[first:first+n]) {
			t.Errorf("corrupt range gave %d pages, want fewer than %d, all as in the file", n, rg.Pages)
		}
		var others []content
		for i := range d.ranges {
			if i == bad {
				continue
			}
			if i > 0 && errs[i] != nil {
				t.Errorf("range %d: %v", i, errs[i])
			}
			others = append(others, pages[i]...)
		}
		want := append(append([]content(nil), whole[:first]...), whole[first+int(rg.Pages):]...)
		if fmt.Sprint(others) != fmt.Sprint(want) {
			t.Errorf("other ranges gave %d pages, want %d", len(others), len(want))
		}
	})
}
