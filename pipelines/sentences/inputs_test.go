package main

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/testshared/fakegcs"
	"github.com/neardup/neardup/io/multistream"
	"github.com/neardup/neardup/io/text"
	"github.com/neardup/neardup/transforms/summary"
)

func TestInputDumpDate(t *testing.T) {
	for file, want := range map[string]string{
		"enwiki-20260601-pages-articles1.xml":                                             "2026-06-01",
		"/dumps/enwiki-20260601-pages-articles-multistream.xml.bz2":                       "2026-06-01",
		"gs://b/enwiki/20260601/enwiki-20260601-pages-articles-multistream-index.txt.bz2": "2026-06-01",
		"zh_min_nanwiki-20251120-pages-articles.xml.bz2":                                  "2025-11-20",
		`C:\dumps\dewiki-20130602-id1.xml`:                                                "2013-06-02",
		"enwiki-latest-pages-articles.xml.bz2":                                            "",
		"enwiki-test-pages-articles-multistream.xml.bz2":                                  "",
		"Katrina.xml":                        "",
		"simplewiki-sample.xml":              "",
		"enwiki-20261301-pages-articles.xml": "", // no 13th month
		"enwiki-2026060-pages-articles.xml":  "",
		"/dumps/20260601/pages-articles.xml": "",
		"gs://b/enwiki-20260601-pages-articles.xml/copy-of-enwiki-20260501-pages.xml.bz2": "",
	} {
		if got := dumpDate(file); got != want {
			t.Errorf("dumpDate(%q) = %q, want %q", file, got, want)
		}
	}
}

// TestInputChecksumOfALocalFile checks that a local file's checksum is the
// SHA-256 that sha256sum computes, on a file larger than the copy buffer.
func TestInputChecksumOfALocalFile(t *testing.T) {
	sha256sum, err := exec.LookPath("sha256sum")
	if err != nil {
		t.Skip("sha256sum not found")
	}
	dir := t.TempDir()
	content := make([]byte, 3<<20+12345)
	r := rand.NewChaCha8([32]byte{1})
	r.Read(content)
	files := []string{filepath.Join(dir, "a.xml"), filepath.Join(dir, "empty.xml")}
	if err := os.WriteFile(files[0], content, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files[1], nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sums, err := checksums(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		out, err := exec.Command(sha256sum, f).Output()
		if err != nil {
			t.Fatal(err)
		}
		want := "sha256:" + strings.Fields(string(out))[0]
		if sums[i].checksum != want || sums[i].md5 != "" {
			t.Errorf("%s: checksum %q, md5 %q; want %s (sha256sum) and no md5", f, sums[i].checksum, sums[i].md5, want)
		}
	}
	if _, err := checksums(context.Background(), []string{filepath.Join(dir, "missing.xml")}); err == nil || !strings.Contains(err.Error(), "missing.xml") {
		t.Errorf("checksum of a missing file: %v, want an error naming it", err)
	}
}

// TestInputChecksumOfAGCSObject checks that a gs:// object's checksum is
// the CRC32C (Castagnoli) of its content and its MD5, as GCS keeps them.
func TestInputChecksumOfAGCSObject(t *testing.T) {
	content := []byte("<mediawiki><page><title>A</title></page></mediawiki>\n")
	srv := fakegcs.Setenv(t, "dumps", fakegcs.Object("dumps", "enwiki/enwiki-20260601-pages-articles.xml", content))
	sums, err := checksums(context.Background(), []string{"gs://dumps/enwiki/enwiki-20260601-pages-articles.xml"})
	if err != nil {
		t.Fatal(err)
	}
	md5sum := md5.Sum(content)
	want := fileSum{
		checksum: fmt.Sprintf("crc32c:%08x", crc32.Checksum(content, crc32.MakeTable(crc32.Castagnoli))),
		md5:      hex.EncodeToString(md5sum[:]),
	}
	if sums[0] != want {
		t.Errorf("checksum %+v, want %+v", sums[0], want)
	}
	if _, err := checksums(context.Background(), []string{"gs://dumps/missing.xml"}); err == nil || !strings.Contains(err.Error(), "gs://dumps/missing.xml") {
		t.Errorf("checksum of a missing object: %v, want an error naming it", err)
	}
	if objs := srv.Objects(t, ""); len(objs) != 1 {
		t.Errorf("the bucket holds %q, want the one object", objs)
	}
}

// TestInputsInTheManifest plans a dated dump, an undated one without
// <dbname> and a multistream dump with its index, checks what the manifest
// will record of each, and runs the first to check its manifest.json.
func TestInputsInTheManifest(t *testing.T) {
	dir := t.TempDir()
	sample, err := os.ReadFile("../../testdata/sample/simplewiki-sample.xml") // <dbname>samplewiki</dbname>
	if err != nil {
		t.Fatal(err)
	}
	katrina, err := os.ReadFile("../../testdata/katrina/katrina-slice.xml") // no <dbname>
	if err != nil {
		t.Fatal(err)
	}
	dated := filepath.Join(dir, "samplewiki-20260601-pages-articles1.xml")
	undated := filepath.Join(dir, "Katrina.xml")
	for f, b := range map[string][]byte{dated: sample, undated: katrina} {
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	multi := writeMultistreamAs(t, filepath.Join(dir, "samplewiki-20260501-pages-articles-multistream.xml.bz2"), dated, 3)
	src, err := planSources(t.Context(), []string{dated, undated, multi}, text.Auto)
	if err != nil {
		t.Fatal(err)
	}
	sha := func(file string) string {
		t.Helper()
		sums, err := checksums(t.Context(), []string{file})
		if err != nil {
			t.Fatal(err)
		}
		return sums[0].checksum
	}
	size := func(file string) int64 {
		t.Helper()
		info, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	index := multistream.IndexName(multi)
	want := []summary.Input{
		{Path: dated, Bytes: size(dated), DumpDate: "2026-06-01", DBName: "samplewiki", Checksum: sha(dated)},
		{Path: undated, Bytes: size(undated), Checksum: sha(undated)},
		{Path: multi, Bytes: size(multi), DumpDate: "2026-05-01", DBName: "samplewiki", Checksum: sha(multi)},
		{Path: index, Bytes: size(index), DumpDate: "2026-05-01", DBName: "samplewiki", Checksum: sha(index)},
	}
	got := src.inputs()
	gotJSON, _ := json.MarshalIndent(got, "", "  ")
	wantJSON, _ := json.MarshalIndent(want, "", "  ")
	if !bytes.Equal(gotJSON, wantJSON) {
		t.Errorf("inputs:\n%s\nwant\n%s", gotJSON, wantJSON)
	}
	for _, in := range got {
		if !strings.HasPrefix(in.Checksum, "sha256:") || len(in.Checksum) != len("sha256:")+64 {
			t.Errorf("%s: checksum %q is not sha256:HEX", in.Path, in.Checksum)
		}
	}

	o := testOptions(t, t.TempDir(), dated)
	o.RunID = ""
	if err := o.prepareRun(t.Context(), "enwiki-20260601"); err != nil {
		t.Fatal(err)
	}
	var m summary.Manifest
	if err := json.Unmarshal(run(t, o)["manifest.json"], &m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	if len(m.Inputs) != 1 || m.Inputs[0] != want[0] {
		t.Errorf("manifest.json inputs %+v, want [%+v]", m.Inputs, want[0])
	}
}

// BenchmarkInputChecksum measures the SHA-256 the launcher computes of a
// local input, on a 64 MiB file (read from the page cache after the first
// iteration).
func BenchmarkInputChecksum(b *testing.B) {
	file := filepath.Join(b.TempDir(), "enwiki-20260601-pages-articles1.xml")
	content := make([]byte, 64<<20)
	rand.NewChaCha8([32]byte{2}).Read(content)
	if err := os.WriteFile(file, content, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		if _, err := checksums(context.Background(), []string{file}); err != nil {
			b.Fatal(err)
		}
	}
}
