// Package testshared holds what several packages' tests share. It locates
// the project's shared real test data: the public sample dumps in
// ../shared/data beside the checkout, and the seed papers' example
// sentences in ../shared/cases; tests that need them skip, with a message,
// where they are missing. It stands in for Beam's GroupByKey iterators
// when a test calls a DoFn directly, and it compresses test data and checks
// that decoders refuse damaged encodings.
package testshared

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/dsnet/compress/bzip2"
)

// Path returns the path of rel (slash-separated) under the shared directory
// beside the module root, or skips the test if it does not exist.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	root, err := moduleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	p := filepath.Join(root, "..", "shared", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared test data not available: %v", err)
	}
	return p
}

// Data returns the path of rel under ../shared/data, or skips the test.
func Data(tb testing.TB, rel string) string {
	tb.Helper()
	return Path(tb, "data/"+rel)
}

// KatrinaSlice is the committed 300 KB slice of Katrina.xml (see
// testdata/README.md), relative to the module root.
const KatrinaSlice = "testdata/katrina/katrina-slice.xml"

// Katrina returns the path of ../shared/data/wikiduper/Katrina.xml (93
// English pages around Hurricane Katrina), or, where ../shared is missing,
// of the committed slice of it: tests of properties that hold on any real
// dump run everywhere, on more pages where the data is there.
func Katrina(tb testing.TB) string {
	tb.Helper()
	root, err := moduleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	full := filepath.Join(root, "..", "shared", "data", "wikiduper", "Katrina.xml")
	if _, err := os.Stat(full); err == nil {
		return full
	}
	return filepath.Join(root, filepath.FromSlash(KatrinaSlice))
}

// moduleRoot is the nearest directory above the working directory (a test's
// package directory) that holds go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// PaperCase is one example group printed in the seed papers.
type PaperCase struct {
	Seed    string `json:"seed"`
	Label   string `json:"label"`
	Note    string `json:"note"`
	Members []struct {
		Title string `json:"title"`
		Text  string `json:"text"`
	} `json:"members"`
}

// PaperCases reads ../shared/cases/paper-examples.jsonl, or skips the test.
func PaperCases(tb testing.TB) []PaperCase {
	tb.Helper()
	return ReadJSONL[PaperCase](tb, Path(tb, "cases/paper-examples.jsonl"))
}

// ReadJSONL decodes the file at path, one JSON value a line.
func ReadJSONL[T any](tb testing.TB, path string) []T {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var values []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		values = append(values, v)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return values
}

// Iter returns an iterator over batches with the signature Beam gives a
// DoFn for the values of a grouped key, so tests can call DoFns directly.
func Iter(batches ...[]byte) func(*[]byte) bool {
	return func(b *[]byte) bool {
		if len(batches) == 0 {
			return false
		}
		*b, batches = batches[0], batches[1:]
		return true
	}
}

// DumpPage is a page of a shared XML dump: its title and wikitext.
type DumpPage struct {
	Title string `xml:"title"`
	Text  string `xml:"revision>text"`
}

// DumpPages decodes the pages of the uncompressed XML dump rel under
// ../shared/data (such as "wikiduper/Katrina.xml"), or skips the test.
func DumpPages(tb testing.TB, rel string) []DumpPage {
	tb.Helper()
	return DumpPagesAt(tb, Data(tb, rel))
}

// DumpPagesAt decodes the pages of the uncompressed XML dump at path.
func DumpPagesAt(tb testing.TB, path string) []DumpPage {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var dump struct {
		Pages []DumpPage `xml:"page"`
	}
	if err := xml.NewDecoder(f).Decode(&dump); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return dump.Pages
}

// Compress returns data written through the writer newWriter makes, closed.
func Compress(tb testing.TB, data []byte, newWriter func(io.Writer) (io.WriteCloser, error)) []byte {
	tb.Helper()
	var out bytes.Buffer
	w, err := newWriter(&out)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes()
}

// Bzip2 compresses data as one bzip2 stream.
func Bzip2(tb testing.TB, data []byte) []byte {
	tb.Helper()
	return Compress(tb, data, func(w io.Writer) (io.WriteCloser, error) { return bzip2.NewWriter(w, nil) })
}

// CheckDamaged checks that unmarshal, a decoder of the encoding b, fails on
// every prefix of b and on b with a byte more.
func CheckDamaged(tb testing.TB, b []byte, unmarshal func([]byte) error) {
	tb.Helper()
	for cut := range len(b) {
		if err := unmarshal(b[:cut]); err == nil {
			tb.Errorf("encoding cut at %d of %d decoded without error", cut, len(b))
		}
	}
	if err := unmarshal(append(b[:len(b):len(b)], 0)); err == nil {
		tb.Error("trailing byte decoded without error")
	}
}
