package corpus

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/testkit/testshared"
	"github.com/neardup/neardup/transforms/clean"
	"github.com/neardup/neardup/transforms/sentence"
)

func TestWindowHoldsRunes(t *testing.T) {
	tests := []struct {
		n    int
		want bool
	}{
		{0, false}, {11, false}, {86, false}, // 75 shingles of 12: not more than Min
		{87, true}, {610, true}, // 76 and 599
		{611, false}, // 600: not fewer than Max
	}
	for _, tt := range tests {
		if got := DefaultWindow.HoldsRunes(tt.n); got != tt.want {
			t.Errorf("HoldsRunes(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
	// Holds counts the characters of the normalised text: runes, white
	// space collapsed.
	text := strings.Repeat("Αθήνα  ", 14) // 14×6 = 84 characters once collapsed, 98 as written
	if DefaultWindow.Holds(text) || !DefaultWindow.Holds(text+"Πάτρα") {
		t.Errorf("Holds(%q) and Holds(+Πάτρα): want false, true", text)
	}
}

// TestReadPagesAndSplit reads a real dump whole and splits its articles:
// every page is one <page> element, and the sentences of each article,
// paragraph by paragraph, are those the pipeline's splitter finds in the
// whole page, in order, with their paragraphs' numbers never falling.
func TestReadPagesAndSplit(t *testing.T) {
	path := testshared.Katrina(t)
	header, pages, err := ReadPages(t.Context(), []string{path})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(bytes.TrimSpace(header), []byte("<mediawiki")) || len(pages) == 0 {
		t.Fatalf("header %.40q, %d pages", header, len(pages))
	}
	site, err := dump.ReadSite(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := NewSplitter([]document.Site{site})
	if err != nil {
		t.Fatal(err)
	}
	wikis, err := sentence.NewWikis([]document.Site{site})
	if err != nil {
		t.Fatal(err)
	}
	whole := sentence.Splitter{Wikis: wikis}
	cleaner := clean.Cleaner{Sites: clean.NewSites([]document.Site{site})}
	articles, prose := 0, 0
	for _, raw := range pages {
		if !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("<page>")) || !bytes.HasSuffix(bytes.TrimSpace(raw), []byte("</page>")) {
			t.Fatalf("a raw page is not one <page> element: %.60q", raw)
		}
		p, err := dump.NewReader(bytes.NewReader(raw), path, dump.Options{}).Next()
		if errors.Is(err, io.EOF) || err == nil && (p.NS != 0 || p.Redirect != "") {
			continue
		}
		if err != nil {
			continue // the cut-off last page of the committed slice
		}
		p.Wiki = site.Wiki
		got, err := sp.Split(p)
		if err != nil {
			t.Fatal(err)
		}
		cp, err := cleaner.Clean(p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := whole.Split(cp)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want.Sentences) {
			t.Fatalf("%s: %d sentences split by paragraph, %d whole", p.Title, len(got), len(want.Sentences))
		}
		for i, s := range got {
			if s.Text != want.Sentences[i].Text || i > 0 && s.Para < got[i-1].Para || s.Para >= len(cp.Paragraphs) {
				t.Fatalf("%s: sentence %d %q of paragraph %d, want %q", p.Title, i, s.Text, s.Para, want.Sentences[i].Text)
			}
			if s.Prose {
				prose++
			}
		}
		articles++
	}
	if articles < 10 || prose < 100 {
		t.Errorf("%d articles, %d prose sentences: too few for a real dump", articles, prose)
	}
}

// TestReadFileCutShort reads a bzip2 dump cut short: what it holds up
// to the cut, and an error that says so.
func TestReadFileCutShort(t *testing.T) {
	doc := []byte(strings.Repeat("<page><title>Katrina</title><text>The storm made landfall.</text></page>\n", 2000))
	z := testshared.Bzip2(t, doc)
	dir := t.TempDir()
	whole, cut := filepath.Join(dir, "whole.xml.bz2"), filepath.Join(dir, "cut.xml.bz2")
	if err := os.WriteFile(whole, z, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cut, z[:len(z)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(t.Context(), whole); err != nil || !bytes.Equal(got, doc) {
		t.Errorf("ReadFile(whole) = %d bytes, %v; want %d bytes", len(got), err, len(doc))
	}
	got, err := ReadFile(t.Context(), cut)
	if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), cut) || !bytes.HasPrefix(doc, got) {
		t.Errorf("ReadFile(cut) = %d bytes, %v; want a prefix and io.ErrUnexpectedEOF naming the file", len(got), err)
	}
	if _, err := ReadFile(t.Context(), filepath.Join(dir, "missing.xml")); err == nil {
		t.Error("ReadFile of a missing file: no error")
	}
}

// TestNewRand checks that a stream's name is its PCG stream number, as
// the hot-key and distinct corpora were seeded before NewRand: their
// bytes depend on it.
func TestNewRand(t *testing.T) {
	for _, tt := range []struct {
		name   string
		stream uint64
	}{{"hotkey", 0x686f746b6579}, {"distinct", 0x64697374696e6374}, {"", 0}} {
		got, want := NewRand(7, tt.name), rand.New(rand.NewPCG(7, tt.stream))
		for range 5 {
			if g, w := got.Uint64(), want.Uint64(); g != w {
				t.Fatalf("NewRand(7, %q) drew %#x, want %#x (stream %#x)", tt.name, g, w, tt.stream)
			}
		}
	}
	if NewRand(7, "hotkey").Uint64() == NewRand(7, "distinct").Uint64() {
		t.Error("two streams of one seed begin alike")
	}
}
