package dump

import (
	"bytes"
	stdbzip2 "compress/bzip2"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/dsnet/compress/bzip2"
	"github.com/klauspost/compress/zstd"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/ulikunitz/xz"
)

// writeTemp writes data to a file called name in a fresh directory.
func writeTemp(t testing.TB, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// gzipMembers compresses each part as a gzip member of its own.
func gzipMembers(t testing.TB, parts ...[]byte) []byte {
	t.Helper()
	var out []byte
	for _, p := range parts {
		out = append(out, testshared.Compress(t, p, func(w io.Writer) (io.WriteCloser, error) { return gzip.NewWriter(w), nil })...)
	}
	return out
}

func xzData(t testing.TB, data []byte) []byte {
	t.Helper()
	return testshared.Compress(t, data, func(w io.Writer) (io.WriteCloser, error) { return xz.NewWriter(w) })
}

func zstdData(t testing.TB, data []byte) []byte {
	t.Helper()
	return testshared.Compress(t, data, func(w io.Writer) (io.WriteCloser, error) { return zstd.NewWriter(w) })
}

func TestOpenByExtension(t *testing.T) {
	doc := []byte(mwOpen + page(1, "One", "x") + page(2, "Two", "y") + mwClose)
	tests := []struct {
		name string
		data []byte
	}{
		{"dump.xml", doc},
		{"dump", doc},
		{"dump.xml.gz", gzipMembers(t, doc[:100], doc[100:])},                                       // two members
		{"dump.xml.bz2", append(testshared.Bzip2(t, doc[:100]), testshared.Bzip2(t, doc[100:])...)}, // two streams
		{"dump.xml.xz", append(xzData(t, doc[:100]), xzData(t, doc[100:])...)},                      // two streams
		{"dump.xml.zst", append(zstdData(t, doc[:100]), zstdData(t, doc[100:])...)},                 // two frames
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc, err := Open(context.Background(), writeTemp(t, tt.name, tt.data))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(rc)
			if err != nil || !bytes.Equal(got, doc) {
				t.Errorf("read %d bytes, %v; want the %d bytes of the document", len(got), err, len(doc))
			}
			if err := rc.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
	}
}

func TestOpenMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.xml.bz2")
	if _, err := Open(context.Background(), path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v, want one naming %s", err, path)
	}
}

// TestBzip2Decoders verifies what Open relies on in
// github.com/dsnet/compress/bzip2: it decodes concatenated streams, as
// compress/bzip2 does, and it fails, rather than ending quietly, on a
// stream cut anywhere.
func TestBzip2Decoders(t *testing.T) {
	a := readShared(t, "wikipedia2vec/enwiki-pages-articles-sample.xml.bz2")
	b := readShared(t, "gensim-wiki/enwiki-table-markup.xml.bz2")
	decoders := map[string]func(io.Reader) io.Reader{
		"dsnet": func(r io.Reader) io.Reader {
			d, err := bzip2.NewReader(r, nil)
			if err != nil {
				t.Fatal(err)
			}
			return d
		},
		"std": stdbzip2.NewReader,
	}
	for name, newReader := range decoders {
		t.Run(name, func(t *testing.T) {
			plainA, errA := io.ReadAll(newReader(bytes.NewReader(a)))
			plainB, errB := io.ReadAll(newReader(bytes.NewReader(b)))
			if errA != nil || errB != nil || len(plainA) != 82552 || len(plainB) != 251853 {
				t.Fatalf("decoded %d and %d bytes (%v, %v), want 82552 and 251853", len(plainA), len(plainB), errA, errB)
			}
			both, err := io.ReadAll(newReader(io.MultiReader(bytes.NewReader(a), bytes.NewReader(b))))
			if err != nil || !bytes.Equal(both, append(plainA, plainB...)) {
				t.Errorf("concatenated streams: %d bytes, %v; want %d", len(both), err, len(plainA)+len(plainB))
			}
			for cut := 0; cut < len(a); cut += 997 {
				_, err := io.ReadAll(newReader(bytes.NewReader(a[:cut])))
				if err == nil {
					t.Errorf("stream cut at %d of %d: no error", cut, len(a))
				}
			}
			// Cut inside the second of two streams.
			_, err = io.ReadAll(newReader(io.MultiReader(bytes.NewReader(a), bytes.NewReader(b[:len(b)/2]))))
			if err == nil {
				t.Errorf("second stream cut: no error")
			}
		})
	}
}

// TestTruncatedCompressedFiles cuts real compressed dumps at several
// offsets: the Reader returns a prefix of the complete file's pages, then a
// TruncatedError.
func TestTruncatedCompressedFiles(t *testing.T) {
	katrina := readShared(t, "wikiduper/Katrina.xml")
	minidump := readShared(t, "dbpedia-minidumps/enwiki-minidump.xml.bz2")
	gz := gzipMembers(t, katrina[:len(katrina)/2], katrina[len(katrina)/2:])
	files := []struct {
		name       string
		data       []byte
		pages      int
		cuts       []int
		minPages   []int // pages expected at least, per cut
		finalPages []int // exact pages, per cut
	}{
		{name: "minidump.xml.bz2", data: minidump, pages: 27,
			cuts: []int{0, 10, 100, 210000, len(minidump) - 4}, finalPages: []int{0, 0, 0, 0, 27}},
		{name: "katrina.xml.gz", data: gz, pages: 93,
			cuts: []int{5, 30, len(gz) / 4, len(gz) / 2, len(gz) - 3}, finalPages: []int{0, 0, 13, 20, 93}},
	}
	for _, f := range files {
		full := readFile(t, writeTemp(t, f.name, f.data), Options{})
		if len(full.pages) != f.pages || full.end != io.EOF {
			t.Fatalf("%s: %d pages, end %v", f.name, len(full.pages), full.end)
		}
		for i, cut := range f.cuts {
			res := readFile(t, writeTemp(t, f.name, f.data[:cut]), Options{})
			if !errors.Is(res.end, ErrTruncated) {
				t.Errorf("%s cut at %d: end %v, want truncation", f.name, cut, res.end)
			}
			if len(res.dead) != 0 || !slices.Equal(res.pages, full.pages[:min(len(res.pages), len(full.pages))]) {
				t.Errorf("%s cut at %d: pages are not a prefix of the full file's (%d dead)", f.name, cut, len(res.dead))
			}
			if len(res.pages) != f.finalPages[i] {
				t.Errorf("%s cut at %d: %d pages, want %d", f.name, cut, len(res.pages), f.finalPages[i])
			}
		}
	}
}

func TestCorruptCompressedData(t *testing.T) {
	doc := []byte(mwOpen + strings.Repeat(page(1, "One", strings.Repeat("abc ", 100)), 50) + mwClose)
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"x.xml.gz", gzipMembers(t, doc)},
		{"x.xml.bz2", testshared.Bzip2(t, doc)},
		{"x.xml.xz", xzData(t, doc)},
		{"x.xml.zst", zstdData(t, doc)},
	} {
		data := bytes.Clone(tt.data)
		data[len(data)/2] ^= 0x55
		res := readFile(t, writeTemp(t, tt.name, data), Options{})
		var te *TruncatedError
		if !errors.As(res.end, &te) {
			t.Errorf("%s with a flipped byte: end %v, want truncation", tt.name, res.end)
			continue
		}
		var de *decodeError
		if !errors.As(te.Err, &de) {
			t.Errorf("%s: cause %v, want a decompression error", tt.name, te.Err)
		}
	}
}

func TestEmptyCompressedFiles(t *testing.T) {
	for _, name := range []string{"e.xml.gz", "e.xml.bz2", "e.xml.xz", "e.xml.zst"} {
		res := readFile(t, writeTemp(t, name, nil), Options{})
		if !errors.Is(res.end, ErrTruncated) {
			t.Errorf("%s: end %v, want truncation", name, res.end)
		}
	}
	res := readFile(t, writeTemp(t, "e.xml", nil), Options{})
	if res.end != io.EOF || len(res.pages) != 0 {
		t.Errorf("empty plain file: end %v, want io.EOF", res.end)
	}
}

// TestFileErrorsStayIOErrors checks that an error of the file under a
// decompressor is not taken for truncation.
func TestFileErrorsStayIOErrors(t *testing.T) {
	doc := []byte(mwOpen + strings.Repeat(page(1, "One", strings.Repeat("abc ", 100)), 50) + mwClose)
	boom := errors.New("bad sector")
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"x.xml", doc},
		{"x.xml.gz", gzipMembers(t, doc)},
		{"x.xml.bz2", testshared.Bzip2(t, doc)},
		{"x.xml.xz", xzData(t, doc)},
		{"x.xml.zst", zstdData(t, doc)},
	} {
		raw := io.MultiReader(bytes.NewReader(tt.data[:len(tt.data)/2]), iotest.ErrReader(boom))
		res := readAll(t, NewReader(decoded(raw, tt.name), tt.name, Options{}))
		if !errors.Is(res.end, boom) || errors.Is(res.end, ErrTruncated) {
			t.Errorf("%s: end %v, want the file's error, not truncation", tt.name, res.end)
		}
	}
}

func TestExpand(t *testing.T) {
	dir := sharedData(t)
	ctx := context.Background()
	split := filepath.Join(dir, "wikimedia-dumps-testfiles", "*-p*p*.bz2")
	got, err := Expand(ctx, split)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range got {
		names = append(names, filepath.Base(g))
	}
	want := []string{
		"pages-articles-sample1.xml-p1501p4000.bz2",
		"pages-articles-sample1.xml-p1p1500.bz2",
		"pages-articles-sample1.xml-p4001p4321.bz2",
		"pages-articles-sample1.xml-p4322p4330.bz2",
		"pages-articles-sample2.xml-p4331p4350.bz2",
		"pages-articles-sample2.xml-p4351p4380.bz2",
		"pages-articles-sample2.xml-p4381p4443.bz2",
		"pages-articles-sample3.xml-p4444p4445.bz2",
		"pages-articles-sample3.xml-p4446p4600.bz2",
		"pages-articles-sample3.xml-p4601p4605.bz2",
		"pages-articles-sample4.xml-p4606p5340.bz2",
		"pages-articles-sample4.xml-p5341p5345.bz2",
	}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("Expand(%q) = %q, want %q", split, names, want)
	}

	// Overlapping patterns and a plain name: sorted, without duplicates.
	katrina := filepath.Join(dir, "wikiduper", "Katrina.xml")
	sample4 := filepath.Join(dir, "wikimedia-dumps-testfiles", "pages-articles-sample4.xml*")
	got, err = Expand(ctx, " "+katrina+" , "+sample4+","+split+",")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 14 || got[0] != katrina || !strings.HasSuffix(got[13], "pages-articles-sample4.xml.bz2") {
		t.Errorf("Expand with overlaps = %q", got)
	}
	// Every split file reads to its end.
	for _, name := range got[1:] {
		res := readFile(t, name, Options{})
		if res.end != io.EOF && !errors.Is(res.end, ErrTruncated) {
			t.Errorf("%s: %v", name, res.end)
		}
	}
}

func TestExpandErrors(t *testing.T) {
	ctx := context.Background()
	missing := filepath.Join(t.TempDir(), "*.xml.bz2")
	for _, tt := range []struct {
		patterns string
		want     string
	}{
		{missing, `pattern "` + missing + `" matches no file`},
		{writeTemp(t, "a.xml", nil) + "," + missing, `pattern "` + missing + `" matches no file`},
		{" , ", `no file pattern in " , "`},
		{"nosuchscheme://x/*.xml", `expand "nosuchscheme://x/*.xml"`},
	} {
		_, err := Expand(ctx, tt.patterns)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Expand(%q) error %v, want it to contain %q", tt.patterns, err, tt.want)
		}
	}
}
