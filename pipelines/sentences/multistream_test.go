package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/neardup/neardup/io/input"

	"github.com/dsnet/compress/bzip2"

	"github.com/neardup/neardup/io/multistream"
	"github.com/neardup/neardup/io/text"
)

// writeMultistream builds a Wikimedia-style multistream dump and its bz2
// index from the pages of a real export, perStream pages per bzip2 stream.
func writeMultistream(t *testing.T, dir, from string, perStream int) string {
	return writeMultistreamAs(t, filepath.Join(dir, "enwiki-test-pages-articles-multistream.xml.bz2"), from, perStream)
}

// writeMultistreamAs is writeMultistream to the given file name.
func writeMultistreamAs(t *testing.T, file, from string, perStream int) string {
	t.Helper()
	doc, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	header, pages, footer := multistream.Split(doc)
	var data, index bytes.Buffer
	if err := multistream.Write(&data, &index, pages, header, footer, perStream); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var zindex bytes.Buffer
	zw, err := bzip2.NewWriter(&zindex, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(index.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(multistream.IndexName(file), zindex.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestMultistreamEqualsPlain reads Katrina.xml repackaged as a multistream
// dump of 10-page streams, in small parallel ranges, and checks that the
// clusters are byte-identical to those of the plain file.
func TestMultistreamEqualsPlain(t *testing.T) {
	plain := katrinaAsEnwiki(t)
	multi := writeMultistream(t, t.TempDir(), plain, 10)
	a := testOptions(t, t.TempDir(), plain)
	b := testOptions(t, t.TempDir(), multi, multistream.IndexName(multi))
	b.SplitBytes = 8 << 10 // ~10 ranges over the ~80 KB multistream file of the slice
	filesA, filesB := run(t, a), run(t, b)
	if !bytes.Equal(filesA["clusters-00000-of-00001.jsonl"], filesB["clusters-00000-of-00001.jsonl"]) {
		t.Error("clusters of the multistream dump differ from those of the plain file")
	}
	ca, cb := readSummary(t, filesA), readSummary(t, filesB)
	if ca.PagesRead != cb.PagesRead || ca.SentencesInWindow != cb.SentencesInWindow || cb.FilesRead != 1 || ca.Clusters == 0 {
		t.Errorf("plain: %d pages, %d sentences; multistream: %d pages, %d sentences, %d files",
			ca.PagesRead, ca.SentencesInWindow, cb.PagesRead, cb.SentencesInWindow, cb.FilesRead)
	}
}

// TestMultistreamPartIsFoundWithItsIndex names the dump like one part of a
// split multistream dump and gives only the dump: its index beside it must
// be found, and the part read through it.
func TestMultistreamPartIsFoundWithItsIndex(t *testing.T) {
	plain := katrinaAsEnwiki(t)
	part := writeMultistreamAs(t, filepath.Join(t.TempDir(), "enwiki-test-pages-articles-multistream2.xml-p100p200.bz2"), plain, 10)
	src, err := input.Plan(context.Background(), []string{part}, text.Auto)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(filepath.Dir(part), "enwiki-test-pages-articles-multistream-index2.txt-p100p200.bz2")
	if len(src.Dumps) != 0 || len(src.Multistream) != 1 || src.Multistream[0].Index != want {
		t.Fatalf("planned %d plain dumps and multistream %+v; want only the part, with index %s", len(src.Dumps), src.Multistream, want)
	}
	a := testOptions(t, t.TempDir(), plain)
	b := testOptions(t, t.TempDir(), part)
	b.SplitBytes = 64 << 10
	if !bytes.Equal(run(t, a)["clusters-00000-of-00001.jsonl"], run(t, b)["clusters-00000-of-00001.jsonl"]) {
		t.Error("clusters of the multistream part differ from those of the plain file")
	}
}

// TestMultistreamOnGCS reads a multistream dump and its index from a GCS
// emulator: the streams are fetched by range requests, and the clusters
// must be those of the plain local file.
func TestMultistreamOnGCS(t *testing.T) {
	plain := katrinaAsEnwiki(t)
	multi := writeMultistream(t, t.TempDir(), plain, 10)
	const bucket = "dumps"
	e := startGCSEmulator(t, bucket, map[string]string{
		filepath.Base(multi):                        multi,
		filepath.Base(multistream.IndexName(multi)): multistream.IndexName(multi),
	})
	t.Setenv("STORAGE_EMULATOR_HOST", e.host)
	remote := "gs://" + bucket + "/" + filepath.Base(multi)
	src, err := input.Plan(context.Background(), []string{remote}, text.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Multistream) != 1 || src.Multistream[0].Index != multistream.IndexName(remote) {
		t.Fatalf("planned %+v; want the dump read through its index", src)
	}
	a := testOptions(t, t.TempDir(), plain)
	b := testOptions(t, t.TempDir(), remote)
	b.SplitBytes = 64 << 10
	filesA, filesB := run(t, a), run(t, b)
	if !bytes.Equal(filesA["clusters-00000-of-00001.jsonl"], filesB["clusters-00000-of-00001.jsonl"]) {
		t.Error("clusters of the multistream dump on GCS differ from those of the plain file")
	}
	if ca, cb := readSummary(t, filesA), readSummary(t, filesB); ca.PagesRead != cb.PagesRead || ca.Clusters == 0 {
		t.Errorf("plain: %d pages, multistream on GCS: %d pages", ca.PagesRead, cb.PagesRead)
	}
}

// katrinaAsEnwiki copies the committed slice of Katrina.xml, whose
// <siteinfo> has no <dbname>, to a file named like an English Wikipedia
// dump, so that its wiki is named enwiki like that of the multistream dumps
// made of it (a dump without <dbname> is named after its file).
func katrinaAsEnwiki(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../testdata/katrina/katrina-slice.xml")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "enwiki-katrina.xml")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}
